import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// How the CLI tests run and stop the binary: a stop at a set time that sends the signal alone, and a run given up
/// on that still returns its output and leaves nothing running. Under AddressSanitizer in CI, `timeout`'s SIGCONT
/// after its SIGTERM hung the exiting binary in LeakSanitizer's check, and the runner then returned the run with an
/// empty stdout, which the tests read as a JSON line cut short (docs/testing.md, "Sanitizers").
@Suite
struct ProcessRunnerTests {
    /// The program that notes every SIGTERM and SIGCONT it receives, and prints them once a SIGTERM has come and a
    /// SIGCONT would have had time to follow.
    static let signalNotes = """
        import signal, sys, time
        got = []
        signal.signal(signal.SIGTERM, lambda number, frame: got.append("TERM"))
        signal.signal(signal.SIGCONT, lambda number, frame: got.append("CONT"))
        deadline = time.monotonic() + 20
        while "TERM" not in got and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)
        print(" ".join(got))
        """

    @Test(.tags(.foundByFaultInjection)) func aStopAtASetTimeSendsTheSignalAndNothingElse() throws {
        let result = try ProcessRunner.run(
            "timeout",
            ProcessRunner.timeoutArguments(0.5) + ["/usr/bin/python3", "-c", Self.signalNotes],
            timeout: 30
        )
        #expect(result.status == 0, "\(result.stderr)")
        // A SIGCONT right after the SIGTERM could land in an ASan binary's exit leak check and hang it.
        #expect(result.stdout == "TERM\n", "\(result.stdout) \(result.stderr)")
    }

    /// Whether process `pid` still runs (a zombie, waiting to be reaped, does not).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // The state follows the command name's closing parenthesis.
        return stat.components(separatedBy: ") ").last?.first != "Z"
    }

    @Test(.tags(.foundByFaultInjection)) func aRunGivenUpOnKeepsItsOutputAndLeavesNothingRunning() throws {
        let pidFile = try CLI.temporaryDirectory().appendingPathComponent("pid")
        // The shell dies at the runner's SIGTERM; the child it left ignores it and holds stdout open, as a program
        // hung under `timeout` or `umockdev-run` did after they were killed.
        let script = "echo first; (trap '' TERM; exec sleep 20) & echo $! > \"$0\"; wait"
        let started = Date()
        let result = try ProcessRunner.run("/bin/sh", ["-c", script, pidFile.path], timeout: 1)
        #expect(result.timedOut)
        #expect(result.stdout == "first\n", "what was written before the run was given up on")
        #expect(Date().timeIntervalSince(started) < 10)
        let written = try String(contentsOf: pidFile, encoding: .utf8)
        let pid = try #require(Int32(written.trimmingCharacters(in: .whitespacesAndNewlines)))
        let deadline = Date().addingTimeInterval(5)
        while Self.isRunning(pid), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!Self.isRunning(pid), "the child left holding stdout was killed with the run")
    }
}
