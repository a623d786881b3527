import Foundation
import PlumometerTestSupport
import Testing

/// The guided calibration measures one thing: it follows one contact, refuses separate objects with the reason and
/// saves nothing; a calibration from a recording is saved only when asked; two points are 'unchecked'; absurd fits
/// are refused. Each test here failed on the CLI before the guide followed one contact.
@Suite struct GuidedCalibrationOneContactTests {
    /// The bundled demo as a recording (its identity is a real Apple trackpad's).
    static func demoRecording() throws -> String {
        let directory = try CLI.temporaryDirectory()
        let path = directory.appendingPathComponent("demo.evemu").path
        let saved = try CLI.run(["demo", "--save", path])
        #expect(saved.status == 0, "\(saved.stderr)")
        return path
    }

    /// Every file in the configuration directory's plumometer folder (none: nothing was saved).
    static func savedProfiles(_ config: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: config.appendingPathComponent("plumometer").path)) ?? []
    }

    @Test func theDemosSeparatePlumsAreRefusedNotGradedGood() throws {
        // The user's report: three separate plums graded "good" (R² 0.988) at 0.079 g/unit, and saved.
        let demo = try Self.demoRecording()
        let config = try CLI.temporaryDirectory()
        let guided = ["calibrate", "--replay", demo, "--reference", "us-quarter", "--reference", "us-quarter"]
        let plain = try CLI.run(guided, environment: ["XDG_CONFIG_HOME": config.path])
        #expect(plain.status == 1, "\(plain.stdout)")
        #expect(!plain.stdout.contains("(good)"))
        #expect(Self.savedProfiles(config).isEmpty)
        let result = try CLI.run(guided + ["--save"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stdout.contains("good"))
        #expect(result.stderr.contains("calibration refused: A second contact appeared"))
        #expect(result.stderr.contains("put each reference on the carrier"))
        #expect(result.stderr.contains("Nothing was saved."))
        #expect(Self.savedProfiles(config).isEmpty, "a refused calibration saves nothing, even with --save")
    }

    @Test func theCarrierLiftedBetweenReferencesIsRefused() throws {
        let config = try CLI.temporaryDirectory()
        let result = try CLI.run(
            ["calibrate", "--replay", CLI.fixture("grams-pad.carrier.evemu"), "--reference", "270g", "--save"],
            environment: ["XDG_CONFIG_HOME": config.path]
        )
        #expect(result.status == 1)
        #expect(result.stderr.contains("The carrier lifted before step 2/2 (270g) was captured"))
        #expect(result.stderr.contains("keep the carrier down from the first step to the last"))
        #expect(Self.savedProfiles(config).isEmpty)
    }

    @Test func aCalibrationFromARecordingIsSavedOnlyWhenAsked() throws {
        let config = try CLI.temporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let recording = CLI.fixture("grams-pad.calibration.evemu")
        let guided = ["calibrate", "--replay", recording, "--reference", "270g", "--reference", "270g"]
        let unsaved = try CLI.run(guided, environment: environment)
        #expect(unsaved.status == 0, "\(unsaved.stderr)")
        #expect(unsaved.stdout.contains("saved:      no (a recording: --save or -o FILE saves it)"))
        #expect(Self.savedProfiles(config).isEmpty, "a recording's identity is often a real device's")
        let json = try CLI.run(guided + ["-f", "json"], environment: environment)
        #expect(try CLI.jsonObjects(json).first?.isNull("profile") == true)

        let saved = try CLI.run(guided + ["--save"], environment: environment)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(Self.savedProfiles(config).count == 1)
        let file = config.appendingPathComponent("elsewhere.json").path
        let output = try CLI.run(guided + ["-o", file], environment: environment)
        #expect(output.status == 0)
        #expect(FileManager.default.fileExists(atPath: file))
        let both = try CLI.run(guided + ["--save", "--no-save"], environment: environment)
        #expect(both.status == 2)
    }

    @Test func twoPointsAreUncheckedAndAbsurdFitsAreRefused() throws {
        let gramsPad = CLI.fixture("grams-pad.one-object.evemu")
        let two = try CLI.run(["calibrate", "--replay", gramsPad, "--point", "0:0", "--point", "1000:1000"])
        #expect(two.status == 0, "\(two.stderr)")
        #expect(two.stdout.contains("(unchecked)"))
        #expect(two.stdout.contains("add a third reference weight"))
        let json = try CLI.run(
            ["calibrate", "--replay", gramsPad, "--point", "0:0", "--point", "1000:1000", "-f", "json"]
        )
        #expect(try CLI.jsonObjects(json).first?.string("grade") == "unchecked")
        // 5.67 g per unit on a 6000-unit pad: full scale would be 34 kg.
        let absurd = try CLI.run(["calibrate", "--replay", gramsPad, "--point", "0:0", "--point", "1:5.67"])
        #expect(absurd.status == 1)
        #expect(absurd.stderr.contains("full scale (pressure 6000) means 34.02 kg"))
    }

    @Test func massesTakeOuncesAndCaratsAndADecimalCommaIsTold() throws {
        let gramsPad = CLI.fixture("grams-pad.one-object.evemu")
        let ounces = try CLI.run(
            [
                "calibrate", "--replay", gramsPad, "--point", "0:0", "--point", "1000:1oz", "--point", "2000:250ct",
                "-f", "json",
            ]
        )
        #expect(ounces.status == 0, "\(ounces.stderr)")
        let grams = try CLI.jsonObjects(ounces).first?.objects("points").compactMap { $0.number("grams") }
        #expect(grams == [0, 28.35, 50])
        let comma = try CLI.run(["calibrate", "--replay", gramsPad, "--reference", "5,67g"])
        #expect(comma.status == 2)
        #expect(comma.stderr.contains("use a dot"))
    }
}
