import Foundation
import PlumometerTestSupport
import Testing

/// Profiles are never silent: a saved profile that changes grams is announced on stderr (path and date made), in
/// the text header and in the JSON `device` record; `--no-profile` reads without it; a damaged saved profile is
/// refused with a note and ignored. Before, a profile saved for the demo's identity turned its 72 g plum into
/// 35.5 g with no word.
@Suite struct ProfileNoticeTests {
    /// A configuration directory holding a profile for the demo's identity (2 g per unit), and its path.
    static func demoProfile() throws -> (environment: [String: String], profile: String) {
        let config = try CLI.temporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        // Where a calibration of the demo's identity on the real trackpad would be saved.
        let path = config.appendingPathComponent("plumometer/001c-05ac-0342-apple-internal-keyboard-trackpad.json")
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fit = try CLI.run(
            [
                "calibrate", "--replay", demo, "--point", "0:0", "--point", "100:200", "--point", "200:400", "-o",
                path.path, "-f", "json",
            ],
            environment: environment
        )
        #expect(fit.status == 0, "\(fit.stderr)")
        return (environment, try #require(try CLI.jsonObjects(fit).first?.string("profile")))
    }

    @Test func aSavedProfileIsAnnouncedEverywhere() throws {
        let (environment, profile) = try Self.demoProfile()
        let text = try CLI.run(["demo", "--fast", "-f", "text"], environment: environment)
        #expect(text.status == 0)
        let made = try #require(text.stderr.firstMatch(of: /\(made (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\)/)?.1)
        #expect(text.stderr.contains("grams from the calibration profile \(profile) (made \(made))"))
        let header = try #require(text.stdoutLines.first)
        #expect(header.contains("grams from the calibration profile \(profile) (made \(made))"))
        #expect(!header.contains("(1/g)"), "the resolution is not what gives the grams")

        let json = try CLI.run(["demo", "--fast", "-f", "jsonl"], environment: environment)
        let device = try #require(try CLI.jsonObjects(json).first)
        #expect(device.string("grams_from") == "calibration")
        #expect(device.string("profile") == profile)
        #expect(device.string("profile_made") == String(made))
        let saved = try String(contentsOfFile: profile, encoding: .utf8)
        #expect(saved.contains("\"made\" : \"\(made)\""))
    }

    @Test func noProfileReadsWithoutIt() throws {
        let (environment, _) = try Self.demoProfile()
        let result = try CLI.run(["demo", "--fast", "-f", "jsonl", "--no-profile"], environment: environment)
        #expect(result.status == 0)
        #expect(!result.stderr.contains("calibration profile"))
        let records = try CLI.jsonObjects(result)
        #expect(records.first?.string("grams_from") == "resolution")
        let weigh = try CLI.run(
            ["weigh", "--replay", try GuidedCalibrationOneContactTests.demoRecording(), "--no-profile"],
            environment: environment
        )
        #expect(weigh.stdout.hasPrefix("#419      84.8 g  heaviest"), "\(weigh.stdout)")
        let both = try CLI.run(["demo", "--no-profile", "--profile", "x.json"], environment: environment)
        #expect(both.status == 2)
    }

    @Test func aDamagedSavedProfileIsRefusedWithANoteAndIgnored() throws {
        let (environment, profile) = try Self.demoProfile()
        // A hand-edited slope that is not positive: refused when read, and the readings go on without it.
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\"slope\" : 2", with: "\"slope\" : -2")
        #expect(edited != text)
        try edited.write(toFile: profile, atomically: true, encoding: .utf8)
        let result = try CLI.run(["demo", "--fast", "-f", "jsonl"], environment: environment)
        #expect(result.status == 0)
        #expect(result.stderr.contains("ignoring the saved profile"))
        #expect(result.stderr.contains("slope is -2"))
        #expect(try CLI.jsonObjects(result).first?.string("grams_from") == "resolution")
    }

    @Test func aSavedProfileForAnotherRangeIsIgnoredWithANote() throws {
        let (environment, profile) = try Self.demoProfile()
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\"maximum\" : 6000", with: "\"maximum\" : 5000")
        #expect(edited != text)
        try edited.write(toFile: profile, atomically: true, encoding: .utf8)
        let result = try CLI.run(["demo", "--fast", "-f", "jsonl"], environment: environment)
        #expect(result.status == 0)
        #expect(result.stderr.contains("ignoring saved profile \(profile)"))
        #expect(try CLI.jsonObjects(result).first?.string("grams_from") == "resolution")
    }
}
