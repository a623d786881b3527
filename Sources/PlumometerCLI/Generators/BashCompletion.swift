/// The bash completion script (bash-completion's `completions/plumometer`), made from the command tables.
///
/// Self-contained: it needs nothing from the bash-completion package. `_plumometer` finds the command (the first
/// word, or `stream` when the line starts with an option), then completes the value of the option before the
/// cursor (also `--option=value`), an option, or the command's argument.
enum BashCompletion {
    static func render() -> String {
        var lines = [
            "# bash completion for plumometer(1)                          -*- shell-script -*-",
            "# Written by 'plumometer completions bash' from the tables behind its --help; do not edit.",
            "",
            "# Input device nodes, for -d/--device (a device name is accepted too).",
            "_plumometer_devices() {",
            "    local node",
            "    for node in /dev/input/event*; do",
            "        [[ -e $node ]] && printf '%s\\n' \"$node\"",
            "    done",
            "}",
            "",
            "_plumometer() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=",
            "    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    # --option=value: bash splits the word at '=' (COMP_WORDBREAKS), unless that was changed.",
            "    if [[ $cur == = ]]; then",
            "        cur=",
            "    elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then",
            "        prev=${COMP_WORDS[COMP_CWORD-2]}",
            "    elif [[ $cur == --*=* ]]; then",
            "        prev=${cur%%=*}",
            "        cur=${cur#*=}",
            "    fi",
            "    COMPREPLY=()",
            "    if (( COMP_CWORD == 1 )); then",
            "        if [[ $cur == -* ]]; then",
            "            " + reply(words: topLevelOptionWords),
            "        else",
            "            " + reply(words: CompletionVocabulary.commands.map(\.name)),
            "        fi",
            "        return 0",
            "    fi",
            "    local command=\(CompletionVocabulary.defaultCommand.name)",
            "    [[ ${COMP_WORDS[1]} != -* ]] && command=${COMP_WORDS[1]}",
            "    case $command in",
        ]
        for command in CompletionVocabulary.commands {
            lines += commandCase(command).map { "        " + $0 }
        }
        lines += [
            "    esac",
            "    return 0",
            "}",
            "",
            "complete -F _plumometer plumometer",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The words the first position offers after a dash: the default command's options and the top-level ones.
    private static var topLevelOptionWords: [String] {
        let spellings = CompletionVocabulary.topLevelOptions.flatMap(CompletionVocabulary.spellings)
        return spellings
            + CompletionVocabulary.optionWords(CompletionVocabulary.defaultCommand).filter {
                !spellings.contains($0)
            }
    }

    private static func commandCase(_ command: CommandSpec) -> [String] {
        var lines = [command.name + ")"]
        var values: [String] = []
        for option in command.options {
            guard let completion = option.completion else { continue }
            let pattern = CompletionVocabulary.spellings(option).joined(separator: "|")
            let action = complete(completion)
            values.append("        \(pattern)) " + (action.isEmpty ? "" : action + "; ") + "return 0 ;;")
        }
        if !values.isEmpty { lines += ["    case $prev in"] + values + ["    esac"] }
        let options = reply(words: CompletionVocabulary.optionWords(command))
        if let positional = command.positionals.first {
            lines += [
                "    if [[ $cur == -* ]]; then",
                "        " + options,
                "    else",
                "        " + complete(positional.completion),
                "    fi",
            ]
        } else {
            lines.append("    " + options)
        }
        lines.append("    ;;")
        return lines
    }

    /// The bash that fills COMPREPLY for a value.
    private static func complete(_ completion: ValueCompletion) -> String {
        if let words = CompletionVocabulary.words(completion) { return reply(words: words) }
        switch completion {
        case .file: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .deviceNode: return "COMPREPLY=($(compgen -W \"$(_plumometer_devices)\" -- \"$cur\"))"
        default: return ""
        }
    }

    private static func reply(words: [String]) -> String {
        "COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\"))"
    }
}
