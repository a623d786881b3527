/// The help texts, made from the command tables: `plumometer --help` and `plumometer COMMAND --help`.
enum HelpText {
    /// What each exit status means, for help and the manual page.
    static let exitStatuses: [(status: Int, meaning: String)] = [
        (0, "success, including a stop by SIGINT/SIGTERM or a closed stdout"),
        (1, "runtime failure: no usable device, permission denied, unreadable or malformed file"),
        (2, "usage error: unknown command or option, bad option value"),
    ]

    /// The tool in one line, for the overview and the manual page's NAME.
    static let tagline = "Weigh objects on a pressure-sensing touchpad, touchscreen or pen tablet."

    /// The overview's paragraph on what the numbers are.
    static let description =
        "Each contact's pressure is shown as a percentage of the device's full scale, with its share of the "
        + "total and the heaviest marked; grams when the device reports units or after a calibration."

    /// The overview's examples, with their comments aligned.
    static let examples = [
        "plumometer list                 # which devices sense force, and why others do not",
        "plumometer                      # live view of the best device",
        "plumometer -f jsonl | jq .      # JSON Lines for scripts",
        "plumometer demo                 # a recorded weighing session, no hardware needed",
    ]

    static var exitStatus: String {
        (["EXIT STATUS:"] + exitStatuses.map { "  \($0.status)  \($0.meaning)" }).joined(separator: "\n")
    }

    /// The top-level `plumometer --help`.
    static var overview: String {
        var lines = [
            "OVERVIEW: " + tagline,
            "",
            wrap(description, width: 100),
            "",
            "USAGE: plumometer [COMMAND] [OPTIONS]",
            "",
            "COMMANDS:",
        ]
        for command in CommandRegistry.commands {
            let name = command.spec.name
            let label = command == CommandRegistry.defaultCommand ? name + " (default)" : name
            lines.append("  " + pad(label, to: 18) + command.spec.summary)
        }
        lines += [
            "",
            "OPTIONS:",
            "  -h, --help        Show help; 'plumometer COMMAND --help' for a command's options.",
            "  -V, --version     Show the version.",
            "",
            exitStatus,
            "",
            "EXAMPLES:",
        ]
        lines += examples.map { "  " + $0 }
        lines += ["", "See 'plumometer help COMMAND', 'man plumometer', README.md and docs/ for more."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `plumometer COMMAND --help`.
    static func help(for command: CommandSpec) -> String {
        var lines = [
            "OVERVIEW: " + command.summary,
            "",
            "USAGE: " + command.usage,
        ]
        if !command.positionals.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for positional in command.positionals {
                lines.append("  " + pad(positional.name, to: 26) + positional.help)
            }
        }
        lines += ["", "OPTIONS:"]
        for option in command.options {
            lines.append("  " + pad(option.synopsis, to: 26) + option.help)
        }
        // The pairs the parser refuses together, in the words of its usage error.
        if !command.exclusions.isEmpty {
            lines += [""] + command.exclusions.map { "  " + $0.message }
        }
        if !command.discussion.isEmpty {
            lines += ["", wrap(command.discussion, width: 100)]
        }
        lines += ["", exitStatus]
        if !command.examples.isEmpty {
            lines += ["", "EXAMPLES:"] + command.examples.map { "  " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text + "  " : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` in lines of at most `width` characters, broken between words.
    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
