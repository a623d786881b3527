import PlumometerLinux

/// The `plumometer` command-line tool: dispatches to a command and turns its outcome into an exit status.
///
/// This is the only place where an error becomes a message and a status: 0 success (including a stop by
/// SIGINT/SIGTERM and a closed stdout), 1 runtime failure, 2 usage error.
public enum CommandLineTool {
    /// Runs the tool with the process's arguments and exits with its status.
    public static func main() -> Never {
        // First thing, before any thread exists: a Ctrl-C or SIGTERM during start-up waits for the poll loop,
        // which stops cleanly (status 0, complete lines). The commands without a loop are all quick.
        blockStopSignals()
        exitProcess(run(arguments: Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(arguments: [String]) -> Int32 {
        do {
            try dispatch(arguments)
            return 0
        } catch let error as UsageError {
            Diagnostics.writeError("Error: " + error.message + "\n")
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
            Diagnostics.error(String(describing: error))
            return 1
        }
    }

    private static func dispatch(_ arguments: [String]) throws {
        guard let first = arguments.first else {
            return try StreamCommand.run(try parse([], as: Commands.stream))
        }
        switch first {
        case "-h", "--help":
            try FileDescriptorWriter.standardOutput().write(Commands.overview)
            return
        case "-V", "--version":
            try FileDescriptorWriter.standardOutput().write("plumometer \(Commands.version)\n")
            return
        case "help":
            let rest = arguments.dropFirst()
            guard let name = rest.first else {
                try FileDescriptorWriter.standardOutput().write(Commands.overview)
                return
            }
            if name == "help" || name == "version" {
                try FileDescriptorWriter.standardOutput().write(Commands.overview)
                return
            }
            guard let command = Commands.named(name) else { throw unknownCommand(name) }
            try FileDescriptorWriter.standardOutput().write(Commands.help(for: command))
            return
        case "version":
            try FileDescriptorWriter.standardOutput().write("plumometer \(Commands.version)\n")
            return
        default:
            break
        }
        let command: CommandSpec
        let rest: [String]
        if first.hasPrefix("-") {
            command = Commands.stream
            rest = arguments
        } else if let named = Commands.named(first) {
            command = named
            rest = Array(arguments.dropFirst())
        } else {
            throw unknownCommand(first)
        }
        let parsed = try parse(rest, as: command)
        if parsed.has("help") {
            try FileDescriptorWriter.standardOutput().write(Commands.help(for: command))
            return
        }
        Diagnostics.quiet = parsed.has("quiet")
        switch command.name {
        case "stream": try StreamCommand.run(parsed)
        case "list": try ListCommand.run(parsed)
        case "replay": try ReplayCommand.run(parsed)
        case "record": try RecordCommand.run(parsed)
        case "calibrate": try CalibrateCommand.run(parsed)
        case "demo": try DemoCommand.run(parsed)
        default: throw unknownCommand(command.name)
        }
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        var message = "Unknown command '\(name)'."
        let names = Commands.all.map(\.name) + ["help", "version"]
        if let guess = closestMatch(to: name, among: names) {
            message += " Did you mean '\(guess)'?"
        } else {
            message += " Commands: " + names.joined(separator: ", ") + "."
        }
        return UsageError(message: message, command: nil)
    }
}
