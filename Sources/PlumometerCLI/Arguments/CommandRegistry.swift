/// Every command of the tool, in the order the overview lists them, and how a command line picks one.
enum CommandRegistry {
    static let version = "0.1.0"

    /// Every command; dispatch, help, the manual page and the completions are all made from this list.
    static let commands: [any Command.Type] = [
        StreamCommand.self, WeighCommand.self, ListCommand.self, DescribeCommand.self, ProbeCommand.self,
        ReplayCommand.self, PlotCommand.self, RecordCommand.self,
        CalibrateCommand.self,
        DemoCommand.self, CompletionsCommand.self, HelpCommand.self, VersionCommand.self,
    ]

    /// Every command's table, in the same order.
    static var specs: [CommandSpec] { commands.map { $0.spec } }

    /// The command run when the line is empty or starts with an option: `plumometer -f jsonl` streams.
    static let defaultCommand: any Command.Type = StreamCommand.self

    static func named(_ name: String) -> (any Command.Type)? { commands.first { $0.spec.name == name } }

    /// The command a command line names, and the arguments left for it.
    ///
    /// `plumometer` and `plumometer -OPTION ...` run the default command; `-h`/`--help` and `-V`/`--version` in
    /// first place are the `help` and `version` commands.
    /// - Throws: ``UsageError`` for an unknown command, suggesting the closest name.
    static func resolve(_ arguments: [String]) throws(UsageError) -> (any Command.Type, [String]) {
        guard let first = arguments.first else { return (defaultCommand, []) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help": return (HelpCommand.self, rest)
        case "-V", "--version": return (VersionCommand.self, rest)
        default: break
        }
        if first.hasPrefix("-") { return (defaultCommand, arguments) }
        guard let command = named(first) else { throw unknownCommand(first) }
        return (command, rest)
    }

    /// `Unknown command 'strem'. Did you mean 'stream'?`
    static func unknownCommand(_ name: String) -> UsageError {
        var message = "Unknown command '\(name)'."
        let names = commands.map { $0.spec.name }
        if let guess = closestMatch(to: name, among: names) {
            message += " Did you mean '\(guess)'?"
        } else {
            message += " Commands: " + names.joined(separator: ", ") + "."
        }
        return UsageError(message: message, command: nil)
    }
}
