import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// Device names with control characters in every output of the binary: shown, never obeyed.
@Suite struct DeviceNameEscapingTests {
    /// Device names come from the kernel and from recordings people send: an escape sequence in one must reach a
    /// terminal as visible text, never as a command (retitle the window, clear the screen). JSON escapes its own.
    @Test(.tags(.foundInReview)) func controlCharactersInDeviceNamesAreShownNotObeyed() throws {
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

    /// A line feed (and ESC, BEL) in a name, from a `libinput record` file (whose quoted strings can hold any
    /// character): the `device:` lines of `probe` and `calibrate` stay one line each, and CSV carries no raw ESC or BEL.
    @Test(.tags(.foundByFaultInjection)) func aLineFeedInANameStaysOnItsLine() throws {
        let text = """
            # libinput record
            version: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "Two\\nLines\\x1b[2J\\x07 Pad"
                id: [3, 1, 2, 1]
                codes:
                  0: [0]
                  3: [0, 24]
                absinfo:
                  0: [0, 100, 0, 0, 0]
                  24: [0, 255, 0, 0, 0]
              events:
              - evdev:
                - [0, 0, 3, 0, 10]
                - [0, 0, 3, 24, 20]
                - [0, 0, 0, 0, 0]

            """
        let file = try CLI.temporaryDirectory().appendingPathComponent("lines.yml")
        try Data(text.utf8).write(to: file)
        let escaped = "Two\\x0aLines\\x1b[2J\\x07 Pad"
        let probe = try CLI.run(["probe", "--static", "--replay", file.path])
        let probeLine = try #require(
            probe.stdout.split(separator: "\n").first { $0.hasPrefix("device:") },
            "\(probe.stderr)"
        )
        #expect(probeLine.contains(escaped), "\(probe.stdout)")
        let calibrate = try CLI.run([
            "calibrate", "--replay", file.path, "--point", "0:0", "--point", "100:10", "--no-save",
            "--allow-contact-size",
        ])
        let calibrateLine = try #require(
            calibrate.stdout.split(separator: "\n").first { $0.hasPrefix("device:") },
            "\(calibrate.stdout) \(calibrate.stderr)"
        )
        #expect(calibrateLine.contains(escaped), "\(calibrate.stdout)")
        let csv = try CLI.run(["replay", "--fast", "-f", "csv", file.path])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(!csv.stdout.contains("\u{1B}") && !csv.stdout.contains("\u{07}"), "\(csv.stdout)")
        #expect(csv.stdout.contains("\\x1b[2J\\x07 Pad"), "\(csv.stdout)")
    }
}
