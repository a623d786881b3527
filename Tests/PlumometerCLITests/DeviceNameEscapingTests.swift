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
}
