import Foundation
import PlumometerTestSupport
import Testing

/// `replay -` on a terminal says it waits for a recording typed there, instead of looking hung; from a pipe or a
/// file it says nothing of the kind.
@Suite struct ReplayTerminalHintTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") || Requirements.all))
    func replayFromATerminalSaysWhatItWaitsFor() throws {
        // script(1) gives the command a pseudo-terminal as standard input; timeout ends the wait.
        let terminal = try ProcessRunner.run(
            "/usr/bin/timeout",
            ["-s", "TERM", "2", "/usr/bin/script", "-qec", "'\(try CLI.binary)' replay -", "/dev/null"],
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 30
        )
        #expect(
            terminal.stdout.contains(
                "plumometer: reading a recording typed at the terminal (standard input); end it "
                    + "with Ctrl-D"
            ),
            "\(terminal.stdout) \(terminal.stderr)"
        )
        let piped = try CLI.run(
            ["replay", "--fast", "-f", "jsonl", "-"],
            stdin: try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("magic-trackpad-2.two-plums.evemu")))
        )
        #expect(piped.status == 0 && !piped.stderr.contains("typed at the terminal"), "\(piped.stderr)")
    }

    @Test("a paced replay into a pipe says once that it plays in real time and --fast converts at once")
    func pacedReplayIntoAPipeSaysItPlaysInRealTime() throws {
        let fixture = CLI.fixture("magic-trackpad-2.two-plums.evemu")
        let hint = "plays the recording paced, 50 times as fast as it was recorded; --fast converts it at once"
        let paced = try CLI.run(["replay", "--speed", "50", "-f", "csv", fixture])
        #expect(paced.status == 0, "\(paced.stderr)")
        #expect(paced.stderr.components(separatedBy: hint).count == 2, "once: \(paced.stderr)")
        #expect(!paced.stdout.contains("--fast"), "stdout stays data")
        let fast = try CLI.run(["replay", "--fast", "-f", "csv", fixture])
        #expect(!fast.stderr.contains("--fast converts"), "\(fast.stderr)")
        let quiet = try CLI.run(["replay", "-q", "--speed", "50", "-f", "csv", fixture])
        #expect(quiet.status == 0 && !quiet.stderr.contains("--fast converts"), "\(quiet.stderr)")
    }
}
