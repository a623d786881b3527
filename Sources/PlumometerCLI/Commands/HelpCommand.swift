import PlumometerSession

extension HelpCommand: Command {
    /// `help`'s options.
    enum Options {
        static let man = Flag(
            "man",
            help: "Write the manual page, plumometer(1), to stdout in troff (man macros) instead."
        )
    }

    static let spec = CommandSpec(
        name: "help",
        summary: "Show the overview, a command's help, or (with --man) the manual page.",
        options: [Options.man],
        positionals: [
            PositionalSpec(
                name: "COMMAND",
                help: "the command to explain (default: the overview of every command).",
                required: false,
                completion: .command
            )
        ],
        discussion: """
            'plumometer help COMMAND' is 'plumometer COMMAND --help'. The manual page holds every command's help in \
            one place: scripts/install.sh installs it, or read it at once with 'plumometer help --man | man -l -'.
            """,
        examples: ["plumometer help replay", "plumometer help --man > plumometer.1 && man -l plumometer.1"]
    )
}

/// `plumometer help [COMMAND]`, also `plumometer --help`: the help texts, and the manual page.
enum HelpCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let name = arguments.positionals.first
        let text: String
        if arguments.flag(Options.man) {
            if let name {
                throw arguments.usageError(
                    "The manual page covers every command; give --man without '\(name)', or drop --man."
                )
            }
            text = ManPage.render()
        } else if let name {
            guard let command = CommandRegistry.named(name) else { throw CommandRegistry.unknownCommand(name) }
            text = HelpText.help(for: command.spec)
        } else {
            text = HelpText.overview
        }
        try StandardOutput.write(text)
    }
}
