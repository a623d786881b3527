import PlumometerSession

extension CompletionsCommand: Command {
    static let spec = CommandSpec(
        name: "completions",
        summary: "Write the completion script for bash, zsh or fish to stdout.",
        options: [],
        positionals: [
            PositionalSpec(
                name: "SHELL",
                help: "bash, zsh or fish.",
                required: true,
                completion: .choices(CompletionShell.allCases.map(\.rawValue))
            )
        ],
        discussion: """
            The scripts complete commands, options, option values (formats, units, coin names for --reference), \
            device nodes for -d and file names. scripts/install.sh installs all three system-wide; for yourself, \
            write the script where your shell looks for it, as in the examples.
            """,
        examples: [
            "plumometer completions bash > ~/.local/share/bash-completion/completions/plumometer",
            "plumometer completions zsh > ~/.zfunc/_plumometer   # with fpath+=(~/.zfunc) before compinit",
            "plumometer completions fish > ~/.config/fish/completions/plumometer.fish",
        ]
    )
}

/// A shell plumometer writes a completion script for.
enum CompletionShell: String, CaseIterable, Sendable {
    case bash
    case zsh
    case fish
}

/// `plumometer completions SHELL`: a completion script made from the command tables.
enum CompletionsCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let name = arguments.positionals[0]
        guard let shell = CompletionShell(rawValue: name) else {
            let names = CompletionShell.allCases.map(\.rawValue)
            var message =
                "'\(name)' is not a shell plumometer completes; choose one of \(names.joined(separator: ", "))."
            if let guess = closestMatch(to: name, among: names) { message += " Did you mean '\(guess)'?" }
            throw arguments.usageError(message)
        }
        let script: String
        switch shell {
        case .bash: script = BashCompletion.render()
        case .zsh: script = ZshCompletion.render()
        case .fish: script = FishCompletion.render()
        }
        try StandardOutput.write(script)
    }
}
