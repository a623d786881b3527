import PlumometerCore

/// The fish completion script (`vendor_completions.d/plumometer.fish`), made from the command tables.
///
/// Every `complete` line carries a condition naming its command; the command is the first word, or `stream` when
/// the line starts with an option, as the parser does.
enum FishCompletion {
    static func render() -> String {
        var lines = [
            "# fish completion for plumometer(1).",
            "# Written by 'plumometer completions fish' from the tables behind its --help; do not edit.",
            "",
            "# The command being completed: the first word, or the default when the line starts with an option.",
            "function __plumometer_command",
            "    set -l words (commandline -opc)",
            "    if set -q words[2]; and not string match -q -- '-*' $words[2]",
            "        echo $words[2]",
            "    else",
            "        echo \(CompletionVocabulary.defaultCommand.name)",
            "    end",
            "end",
            "",
            "function __plumometer_needs_command",
            "    set -l words (commandline -opc)",
            "    not set -q words[2]",
            "end",
            "",
            "function __plumometer_using",
            "    test (__plumometer_command) = $argv[1]",
            "end",
            "",
            "# Input device nodes, for -d/--device (a device name is accepted too).",
            "function __plumometer_devices",
            "    for node in /dev/input/event*",
            "        echo $node",
            "    end",
            "end",
            "",
            "complete -c plumometer -f",
        ]
        for command in CompletionVocabulary.commands {
            lines.append(
                "complete -c plumometer -n __plumometer_needs_command -a \(command.name) -d "
                    + quote(CompletionVocabulary.brief(command.summary))
            )
        }
        for option in CompletionVocabulary.topLevelOptions where option.name != "help" {
            lines.append("complete -c plumometer -n __plumometer_needs_command" + flags(option))
        }
        for command in CompletionVocabulary.commands {
            lines.append("")
            let condition = " -n " + quote("__plumometer_using \(command.name)")
            for option in command.options {
                lines.append("complete -c plumometer" + condition + flags(option))
                if option.completion == .referenceWeight {
                    // Each coin with its mass, which fish shows beside the name.
                    for weight in ReferenceWeight.all {
                        lines.append(
                            "complete -c plumometer" + condition + " -l \(option.name) -r -f -a \(weight.name) -d "
                                + quote(weight.summary)
                        )
                    }
                }
            }
            if let positional = command.positionals.first {
                let notFirst = " -n " + quote("__plumometer_using \(command.name); and not __plumometer_needs_command")
                lines.append("complete -c plumometer" + notFirst + arguments(positional.completion))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// ` -s f -l format -x -a 'text jsonl' -d 'Output format'`
    private static func flags(_ option: OptionSpec) -> String {
        var text = option.short.map { " -s \($0)" } ?? ""
        text += " -l \(option.name)"
        if let completion = option.completion { text += " -r" + arguments(completion) }
        return text + " -d " + quote(CompletionVocabulary.brief(option.help))
    }

    private static func arguments(_ completion: ValueCompletion) -> String {
        // Coins get a line each, with their masses.
        if completion == .referenceWeight { return " -f" }
        if let words = CompletionVocabulary.words(completion) { return " -f -a " + quote(words.joined(separator: " ")) }
        switch completion {
        case .file: return " -F"
        case .deviceNode: return " -f -a '(__plumometer_devices)'"
        default: return " -f"
        }
    }

    /// `text` in fish's single quotes, where only `\` and `'` are special.
    private static func quote(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
