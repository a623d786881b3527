import Foundation
import PlumometerTestSupport
import Testing

/// Standard streams closed by the caller (`<&-`, `>&-`) are noticed at start: no descriptor made later takes their
/// number (the signalfd became descriptor 0 and `replay -` waited on it for ever; `demo >&-` wrote into a file that
/// took descriptor 1, or into nothing, and ended 0), and a command that needs the closed one says so, status 1.
@Suite struct ClosedStandardStreamTests {
    /// Runs `plumometer ARGUMENTS` from a shell with `redirection` (`<&-`, `>&-`).
    static func run(_ arguments: [String], _ redirection: String) throws -> ProcessResult {
        let quoted = try ([CLI.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try ProcessRunner.run(
            "/bin/sh",
            ["-c", "exec \(quoted) \(redirection)"],
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 20
        )
    }

    @Test(.tags(.foundByFaultInjection))
    func aClosedStandardInputForReplayIsAnError() throws {
        let result = try Self.run(["replay", "--fast", "-"], "<&-")
        #expect(!result.timedOut, "replay - <&- waited")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("cannot read standard input: it is closed (started with <&-)"),
            "\(result.stderr)"
        )
    }

    @Test(.tags(.foundByFaultInjection), arguments: [["demo", "--fast", "-f", "jsonl"], ["demo", "--save", "-"]])
    func aClosedStandardOutputIsAnError(arguments: [String]) throws {
        let result = try Self.run(arguments, ">&-")
        #expect(!result.timedOut, "\(arguments) >&- ran on")
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(
            result.stderr.contains("cannot write to standard output: it is closed (started with >&-)"),
            "\(arguments): \(result.stderr)"
        )
    }

    /// A closed stdin does not matter to a command that does not read it.
    @Test func aClosedStandardInputIsNoMatterForAFile() throws {
        let result = try Self.run(
            ["replay", "--fast", "-f", "jsonl", CLI.fixture("grams-pad.one-object.evemu")],
            "<&-"
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
    }
}
