import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `plumometer calibrate` (non-interactive and guided by a recording) and profiles applied, refused, overridden.
@Suite struct CalibrateTests {
    let twoPlums = CLI.fixture("magic-trackpad-2.two-plums.evemu")
    let gramsPad = CLI.fixture("grams-pad.one-object.evemu")

    @Test func pointsFitAndTheProfileIsAppliedAutomatically() throws {
        let config = try CLI.temporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let fit = try CLI.run(
            [
                "calibrate", "--replay", twoPlums, "--point", "0:0", "--point", "50:us-quarter", "--point", "100:11.34",
                "--point", "200:22.68", "--save", "--format", "json",
            ],
            environment: environment
        )
        #expect(fit.status == 0, "\(fit.stderr)")
        let summary = try #require(try CLI.jsonObjects(fit).first)
        #expect(abs((summary.number("slope") ?? 0) - 0.1134) < 1e-6)
        #expect(abs(summary.number("intercept") ?? 1) < 1e-3)
        #expect(summary.number("r2") == 1)
        #expect(summary.string("grade") == "good")
        let profile = try #require(summary.string("profile"))
        #expect(profile.hasPrefix(config.path + "/plumometer/"))
        #expect(FileManager.default.fileExists(atPath: profile))

        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", twoPlums], environment: environment)
        let records = try CLI.jsonObjects(replay)
        #expect(records.first?.string("grams_from") == "calibration")
        let contact = try #require((records.dropFirst().first?.objects("contacts") ?? []).first)
        #expect(contact.number("grams") == 11.34, "pressure 100 at 0.1134 g per unit")
    }

    @Test func aPoorFitIsRefusedWithTheReason() throws {
        let result = try CLI.run(
            [
                "calibrate", "--replay", twoPlums, "--point", "0:0", "--point", "100:1", "--point", "200:2", "--point",
                "250:40", "--no-save",
            ]
        )
        #expect(result.status == 1)
        #expect(result.stderr.contains("refused"))
        #expect(result.stderr.contains("straight line"))
        // A heavier reference reading lighter is named as such, with both readings.
        let inverted = try CLI.run(
            ["calibrate", "--replay", twoPlums, "--point", "0:0", "--point", "100:50", "--point", "200:5", "--no-save"]
        )
        #expect(inverted.status == 1)
        #expect(inverted.stderr.contains("heavier reference reads lighter: point 2 (50.000 g) read pressure 100.0"))
    }

    @Test func fewerThanTwoDistinctPointsAreRefused() throws {
        let result = try CLI.run([
            "calibrate", "--replay", twoPlums, "--point", "100:5", "--point", "100:5", "--no-save",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("refused"))
    }

    @Test func aProfileForAnotherDeviceIsRefused() throws {
        let config = try CLI.temporaryDirectory()
        let file = config.appendingPathComponent("other.json")
        let fit = try CLI.run(
            ["calibrate", "--replay", twoPlums, "--point", "0:0", "--point", "100:10", "--output", file.path]
        )
        #expect(fit.status == 0)
        let result = try CLI.run(["replay", "--fast", "--profile", file.path, gramsPad])
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not apply"))
        #expect(result.stdout.isEmpty)

        let override = try CLI.run(["replay", "--fast", "-f", "jsonl", "--profile", file.path, twoPlums])
        #expect(override.status == 0)
        #expect(try CLI.jsonObjects(override).first?.string("grams_from") == "calibration")
    }

    @Test func guidedCalibrationFromARecording() throws {
        // The recording holds a carrier at ~150 still for a second, then ~420 and ~690 as 270 g are added twice.
        let recording = CLI.fixture("grams-pad.calibration.evemu")
        let result = try CLI.run(
            [
                "calibrate", "--replay", recording, "--reference", "270g", "--reference", "270g", "--no-save",
                "--format", "json",
            ]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Step 1/3"))
        #expect(result.stderr.contains("Step 3/3"))
        let summary = try #require(try CLI.jsonObjects(result).first)
        let points = summary.objects("points")
        #expect(points.map { $0.number("grams") } == [0, 270, 540])
        #expect(abs((summary.number("slope") ?? 0) - 1) < 0.01, "the pad reports one unit per gram")
        #expect(summary.string("grade") == "good")
    }
}

/// Found in review: guided references, saved profiles that are not profiles, points outside the device.
extension CalibrateTests {
    @Test(.tags(.foundInReview)) func guidedCalibrationCountsRisesOnlyAndRegistersCoins() throws {
        let result = try CLI.run([
            "calibrate", "--replay", CLI.fixture("grams-pad.coins.evemu"), "--reference", "us-quarter",
            "--reference", "us-quarter", "--reference", "us-quarter", "--no-save", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(try CLI.jsonObjects(result).first)
        let pressures = summary.objects("points").compactMap { $0.number("pressure") }
        #expect(pressures.count == 4)
        #expect(pressures == pressures.sorted(), "a lighter reading (the dip to 140) is never a reference")
        #expect(pressures.last.map { $0 >= 168 } == true)
    }

    @Test(.tags(.foundInReview)) func aCorruptSavedProfileIsIgnoredWithANote() throws {
        let config = try CLI.temporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let fit = try CLI.run(
            [
                "calibrate", "--replay", gramsPad, "--point", "0:0", "--point", "1000:1000", "--save", "--format",
                "json",
            ],
            environment: environment
        )
        let profile = try #require(try CLI.jsonObjects(fit).first?.string("profile"))
        try "{}".write(toFile: profile, atomically: true, encoding: .utf8)
        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", gramsPad], environment: environment)
        #expect(replay.status == 0)
        #expect(replay.stderr.contains("ignoring the saved profile"))
        #expect(try CLI.jsonObjects(replay).first?.string("grams_from") == "resolution")
        // A profile named on the command line is the user's choice: a bad one is an error.
        let named = try CLI.run(["replay", "--fast", "--profile", profile, gramsPad])
        #expect(named.status == 1)
        #expect(named.stderr.contains(profile))
    }

    @Test(.tags(.foundInReview)) func pointsMustBeRawPressuresOfTheDevice() throws {
        let twoPlums = CLI.fixture("magic-trackpad-2.two-plums.evemu")
        let huge = try CLI.run([
            "calibrate", "--replay", twoPlums, "--point", "0:0", "--point", "99999999999999999999:5", "--no-save",
        ])
        #expect(huge.status == 2, "\(huge.stderr)")
        let outside = try CLI.run([
            "calibrate", "--replay", twoPlums, "--point", "0:0", "--point", "9000:5", "--no-save",
        ])
        #expect(outside.status == 1)
        #expect(outside.stderr.contains("0..253"), "\(outside.stderr)")
    }

}
