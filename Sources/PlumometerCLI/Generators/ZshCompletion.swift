/// The zsh completion script (`_plumometer`, for a directory in `$fpath`), made from the command tables.
///
/// One `_arguments` call per command; the dispatcher picks the command from the first word, or `stream` when the
/// line starts with an option, as the parser does.
enum ZshCompletion {
    static func render() -> String {
        var lines = [
            "#compdef plumometer",
            "# zsh completion for plumometer(1).",
            "# Written by 'plumometer completions zsh' from the tables behind its --help; do not edit.",
            "",
            "# Input device nodes, for -d/--device (a device name is accepted too).",
            "_plumometer_devices() {",
            "    local -a nodes",
            "    nodes=(/dev/input/event*(N))",
            "    _wanted devices expl 'input device' compadd -a nodes",
            "}",
            "",
        ]
        let top = CompletionVocabulary.defaultCommand
        // The first word may be the default command's options, `--help` (the overview) or `--version`.
        let topOptions = top.options.filter { $0 != Flag.help.spec } + CompletionVocabulary.topLevelOptions
        lines += function("_plumometer_top", top, options: topOptions)
        for command in CompletionVocabulary.commands {
            lines += function("_plumometer_" + command.name, command)
        }
        lines += [
            "_plumometer() {",
            "    local -a commands",
            "    commands=(",
        ]
        for command in CompletionVocabulary.commands {
            lines.append("        " + quote(describeEscape(command.name) + ":" + command.summary))
        }
        lines += [
            "    )",
            "    if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then",
            "        _describe -t commands 'plumometer command' commands",
            "        return",
            "    fi",
            "    if [[ $words[2] == -* ]]; then",
            "        _plumometer_top",
            "        return",
            "    fi",
            "    local command=$words[2]",
            "    shift words",
            "    (( CURRENT-- ))",
            "    case $command in",
        ]
        for command in CompletionVocabulary.commands {
            lines.append("        \(command.name)) _plumometer_\(command.name) ;;")
        }
        lines += [
            "        *) _message \"unknown command: $command\" ;;",
            "    esac",
            "}",
            "",
            "if [[ $funcstack[1] == _plumometer ]]; then",
            "    _plumometer \"$@\"",
            "else",
            "    compdef _plumometer plumometer",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func function(_ name: String, _ command: CommandSpec, options: [OptionSpec]? = nil) -> [String] {
        var specs = (options ?? command.options).map(optionSpec)
        for (index, positional) in command.positionals.enumerated() {
            let position = positional.required ? "\(index + 1)" : ":"
            specs.append(quote(position + ":" + messageEscape(positional.name) + ":" + action(positional.completion)))
        }
        var lines = ["\(name)() {", "    _arguments -s -S \\"]
        for (index, spec) in specs.enumerated() {
            lines.append("        " + spec + (index == specs.count - 1 ? "" : " \\"))
        }
        return lines + ["}", ""]
    }

    /// `'(-f --format)'{-f+,--format=}'[Output format]:FORMAT:(text jsonl)'`
    private static func optionSpec(_ option: OptionSpec) -> String {
        let description = "[" + descriptionEscape(CompletionVocabulary.brief(option.help)) + "]"
        var tail = description
        if let value = option.value, let completion = option.completion {
            tail += ":" + messageEscape(value) + ":" + action(completion)
        }
        let repeatMark = option.repeatable ? "*" : ""
        let valueMark = option.isFlag ? "" : "="
        guard let short = option.short else {
            return quote(repeatMark + "--" + option.name + valueMark + tail)
        }
        let exclusion = option.repeatable ? "*" : quote("(-\(short) --\(option.name))")
        let shortMark = option.isFlag ? "" : "+"
        return exclusion + "{-\(short)\(shortMark),--\(option.name)\(valueMark)}" + quote(tail)
    }

    private static func action(_ completion: ValueCompletion) -> String {
        if let words = CompletionVocabulary.words(completion) { return "(" + words.joined(separator: " ") + ")" }
        switch completion {
        case .file: return "_files"
        case .deviceNode: return "_plumometer_devices"
        default: return " "
        }
    }

    /// `text` in single quotes, for the shell.
    private static func quote(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// `[` and `]` end an option's description in an `_arguments` spec.
    private static func descriptionEscape(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("[", with: "\\[")
            .replacing("]", with: "\\]")
    }

    /// `:` separates a spec's message from its action.
    private static func messageEscape(_ text: String) -> String { text.replacing(":", with: "\\:") }

    /// `:` separates a name from its description for `_describe`.
    private static func describeEscape(_ text: String) -> String { text.replacing(":", with: "\\:") }
}
