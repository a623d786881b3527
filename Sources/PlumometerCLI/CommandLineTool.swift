import PlumometerLinux
import PlumometerSession

/// The `plumometer` command-line tool: dispatches to a command and turns its outcome into an exit status.
///
/// This is the only place where an error becomes a message and a status: 0 success (including a stop by
/// SIGINT/SIGTERM and a closed stdout), 1 runtime failure, 2 usage error.
public enum CommandLineTool {
    /// Runs the tool with the process's arguments and exits with its status.
    public static func main() -> Never {
        // First of all, before any descriptor is made: a closed stdin, stdout or stderr gets /dev/null, so no
        // descriptor made later takes its number (a signalfd read as the recording of `replay -`).
        StandardStreams.closedAtStart = reopenClosedStandardStreams()
        // Then, before any thread exists: a Ctrl-C or SIGTERM during start-up waits for the poll loop, which stops
        // cleanly (status 0, complete lines); every wait outside the loop hears it through StopRequests.
        blockStopSignals()
        StopRequests.watch()
        Runtime.current = .system()
        // libevdev's own log lines, prefixed `plumometer: libevdev: ` and rate-limited, instead of raw on stderr.
        LibevdevLog.install { message in Diagnostics.error("libevdev: " + message) }
        exitProcess(run(arguments: Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs the tool with `arguments` (without the program name) in the current runtime (``main()`` installs the
    /// system's; a test binds its own) and returns the exit status.
    public static func run(arguments: [String]) -> Int32 {
        do {
            try dispatch(arguments)
            return 0
        } catch let error as UsageError {
            // One style for every error, usage or runtime: `plumometer: ...`; a usage error adds where help is.
            Diagnostics.error(error.message)
            let command = error.command.map { " \($0)" } ?? ""
            Diagnostics.writeError("Usage: plumometer\(command) --help\n")
            return 2
        } catch let error as OutputError where error.code == .closed {
            return 0
        } catch let error as OutputError where error.code == .interrupted {
            // SIGINT or SIGTERM while stdout was stalled: a stop like any other, between complete lines.
            Diagnostics.note("stopped")
            return 0
        } catch {
            Diagnostics.error(message(for: error))
            return 1
        }
    }

    /// The sentence a runtime failure is reported in: the error's own description (a ``CommandFailure`` puts its
    /// context around its cause's, which it kept whole until here).
    static func message(for error: any Error) -> String { String(describing: error) }

    /// Picks the command, parses its arguments against its table and runs it; `COMMAND --help` prints its help.
    private static func dispatch(_ arguments: [String]) throws {
        let (command, rest) = try CommandRegistry.resolve(arguments)
        let parsed = try parse(rest, as: command.spec)
        if parsed.flag(.help) {
            try StandardOutput.write(HelpText.help(for: command.spec))
            return
        }
        try parsed.checkValues()
        try parsed.checkExclusions()
        if command.spec.declares(Flag.quiet) { Diagnostics.quiet = parsed.flag(.quiet) }
        try command.run(parsed)
    }
}
