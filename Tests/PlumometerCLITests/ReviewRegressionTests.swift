import Foundation
import PlumometerTestSupport
import Testing

/// Regressions found in review: each test failed before its fix.
@Suite struct ReviewRegressionTests {
    let gramsPad = CLI.fixture("grams-pad.one-object.evemu")

    @Test func hugeOrTinyNumbersAreUsageErrorsNotCrashes() throws {
        let cases: [[String]] = [
            ["demo", "--speed", "1e300"],
            ["replay", "--speed", "1e-300", gramsPad],
            ["replay", "--fast", "--interval", "99999999999999999", gramsPad],
            ["record", "--duration", "1e300"],
            ["calibrate", "--replay", gramsPad, "--point", "0:0", "--point", "1:1", "--min-r2", "5"],
            ["replay", "--fast", "--max-contacts", "99999999999999999999", gramsPad],
        ]
        for arguments in cases {
            let result = try CLI.run(arguments, timeout: 20)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.signal == nil)
            #expect(result.stderr.contains("is not a valid value"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func getoptStyleShortOptions() throws {
        let bundled = try CLI.run(["replay", "-qf", "text", "--fast", gramsPad])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(bundled.stderr.isEmpty, "-q took effect")
        #expect(bundled.stdout.hasPrefix("# "), "-f text took effect")
        let attached = try CLI.run(["replay", "-fcsv", "--fast", gramsPad])
        #expect(attached.status == 0)
        #expect(attached.stdout.hasPrefix("time,seq,"))
        let unknown = try CLI.run(["replay", "-qz", gramsPad])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Unknown option '-z' in '-qz'."))
    }

    @Test(arguments: ["help", "version"])
    func helpOnHelpAndVersion(topic: String) throws {
        let result = try CLI.run(["help", topic])
        #expect(result.status == 0)
        #expect(result.stdout.contains("OVERVIEW:"))
    }

    /// Stability is ticked at the tracker's own deadlines whatever the pace, so replays are byte-for-byte equal.
    @Test func aReplayIsTheSameAtAnySpeed() throws {
        let fast = try CLI.run(["demo", "--fast", "-f", "jsonl", "-q"])
        let sped = try CLI.run(["demo", "--speed", "40", "-f", "jsonl", "-q"])
        #expect(fast.status == 0 && sped.status == 0)
        #expect(fast.stdout == sped.stdout)
        #expect(fast.stdoutLines.count > 100)
    }

    @Test func stabilityIsStampedAtItsDeadline() throws {
        // The object settles at 420 at 100.43 s (within 2 g after that): stable exactly 0.5 s later, at 100.93 s,
        // between two events (100.85 s and 101.06 s).
        let frames = try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", gramsPad]))
            .filter { $0.string("type") == "frame" }
        let firstStable = try #require(frames.first { $0.objects("contacts").first?.bool("stable") == true })
        #expect(firstStable.number("time") == 100.93)
    }

    @Test func guidedCalibrationCountsRisesOnlyAndRegistersCoins() throws {
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

    @Test func aCorruptSavedProfileIsIgnoredWithANote() throws {
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

    @Test func aRecordedDeviceWithoutPressureIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        let events = directory.appendingPathComponent("quiet.events")
        try "E: 0.000000 0000 0000 0000\n".write(to: events, atomically: true, encoding: .utf8)
        let description = Fixtures.projectFixtures.appendingPathComponent("Devices/touchpad-no-pressure.desc").path
        let result = try CLI.run(["replay", "--fast", "--desc", description, events.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no pressure axis"))
    }

    @Test func demoSaveWritesARecordingThatReplaysTheSame() throws {
        let file = try CLI.temporaryDirectory().appendingPathComponent("demo.evemu")
        let save = try CLI.run(["demo", "--save", file.path])
        #expect(save.status == 0)
        #expect(save.stdout.isEmpty)
        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", "-q", file.path])
        let demo = try CLI.run(["demo", "--fast", "-f", "jsonl", "-q"])
        let strip = { (text: String) in text.replacingOccurrences(of: file.path, with: "demo-weighing.evemu") }
        #expect(strip(replay.stdout) == demo.stdout)
    }

    @Test func smoothingChangesForceButNeverRawPressure() throws {
        func contacts(_ arguments: [String]) throws -> [(time: Double, id: Int, pressure: Int, force: Double)] {
            try CLI.jsonObjects(try CLI.run(arguments)).filter { $0.string("type") == "frame" }.flatMap { frame in
                frame.objects("contacts").map {
                    (frame.number("time") ?? 0, $0.int("id") ?? 0, $0.int("pressure") ?? 0, $0.number("force") ?? 0)
                }
            }
        }
        let plain = try contacts(["demo", "--fast", "-f", "jsonl"])
        let smooth = try contacts(["demo", "--fast", "-f", "jsonl", "--smooth"])
        // Every smoothed reading carries the raw pressure the device last sent for that contact.
        for reading in smooth {
            let raw = plain.last { $0.id == reading.id && $0.time <= reading.time }
            #expect(raw?.pressure == reading.pressure, "contact \(reading.id) at \(reading.time)")
        }
        let plainForces = Dictionary(plain.map { ("\($0.time)/\($0.id)", $0.force) }) { first, _ in first }
        let differing = smooth.filter { reading in
            plainForces["\(reading.time)/\(reading.id)"].map { $0 != reading.force } ?? false
        }
        #expect(differing.count > 10, "the filter changes reported forces")
    }

    /// Device names come from the kernel and from recordings people send: an escape sequence in one must reach a
    /// terminal as visible text, never as a command (retitle the window, clear the screen). JSON escapes its own.
    @Test func controlCharactersInDeviceNamesAreShownNotObeyed() throws {
        let directory = try CLI.temporaryDirectory()
        let source = try String(contentsOfFile: CLI.fixture("magic-trackpad-2.two-plums.evemu"), encoding: .utf8)
        let evil = source.replacingOccurrences(
            of: "N: Apple Inc. Magic Trackpad 2",
            with: "N: Evil\u{1B}]0;pwned\u{07}\u{1B}[2J Pad"
        )
        let file = directory.appendingPathComponent("evil.evemu")
        try evil.write(to: file, atomically: true, encoding: .utf8)
        let text = try CLI.run(["replay", "--fast", "-f", "text", file.path])
        #expect(text.status == 0)
        #expect(!text.stdout.contains("\u{1B}"), "no raw ESC on the terminal")
        #expect(text.stdout.contains("Evil\\x1b]0;pwned\\x07\\x1b[2J Pad"))
        let calibrate = try CLI.run([
            "calibrate", "--replay", file.path, "--point", "0:0", "--point", "100:10", "--no-save",
        ])
        #expect(!calibrate.stdout.contains("\u{1B}") && !calibrate.stderr.contains("\u{1B}"))
        let json = try CLI.run(["replay", "--fast", "-f", "jsonl", file.path])
        #expect(try CLI.jsonObjects(json).first?.string("name") == "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J Pad")
    }

    @Test func pointsMustBeRawPressuresOfTheDevice() throws {
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
