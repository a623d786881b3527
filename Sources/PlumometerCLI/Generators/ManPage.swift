/// The manual page, plumometer(1), made from the command tables in troff with the `man` macros (man(7)).
///
/// The same tables drive parsing and `--help`, so the page cannot drift from the program. Text is escaped for
/// troff: `\` as `\e`, `-` as `\-` (a minus, so that options can be searched and copied), anything beyond ASCII
/// as `\[uXXXX]`, and a line that would start with `.` or `'` (a request) behind `\&`.
enum ManPage {
    /// The whole page.
    static func render() -> String {
        var page = [
            #".\" plumometer(1), written by 'plumometer help --man' from the tables behind its --help; do not edit."#,
            ".TH PLUMOMETER 1 \"\" \"plumometer \(CommandRegistry.version)\" \"User Commands\"",
            // No hyphenation: option names and commands stay whole, to be searched for and copied.
            ".nh",
            ".SH NAME",
            "plumometer \\- " + escape(lowercasedFirst(String(HelpText.tagline.dropLast()))),
            ".SH SYNOPSIS",
        ]
        page += synopsis()
        page += [".SH DESCRIPTION", escape(HelpText.description)]
        page += [
            ".PP",
            "Without a command, or with options only, plumometer runs \\fB" + CommandRegistry.defaultCommand.spec.name
                + "\\fR. Readings go to stdout; messages for people go to stderr.",
            ".SH COMMANDS",
        ]
        for command in CommandRegistry.specs {
            page += [".TP", ".B " + escape(command.name), escape(command.summary)]
            if !command.discussion.isEmpty { page += [".IP", escape(command.discussion)] }
        }
        page.append(".SH OPTIONS")
        page += [
            ".SS plumometer",
            ".TP",
            "\\fB\\-h\\fR, \\fB\\-\\-help\\fR",
            "Show the overview; \\fBplumometer\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR for a command's options.",
            ".TP",
            "\\fB\\-V\\fR, \\fB\\-\\-version\\fR",
            "Show the version.",
        ]
        for command in CommandRegistry.specs {
            page.append(".SS \"plumometer " + escape(command.name) + "\"")
            for positional in command.positionals {
                page += [".TP", "\\fI" + escape(positional.name) + "\\fR", escape(sentence(positional.help))]
            }
            for option in command.options {
                page += [".TP", optionTerm(option), escape(option.help)]
            }
            for exclusion in command.exclusions {
                page += [".PP", escape(exclusion.message)]
            }
        }
        page.append(".SH EXIT STATUS")
        for (status, meaning) in HelpText.exitStatuses {
            page += [".TP", ".B \(status)", escape(sentence(meaning))]
        }
        page += environmentAndFiles()
        page.append(".SH EXAMPLES")
        page += exampleBlock(HelpText.examples)
        for command in CommandRegistry.specs where !command.examples.isEmpty {
            page += [".PP", "\\fBplumometer " + escape(command.name) + "\\fR:"]
            page += exampleBlock(command.examples)
        }
        page += [
            ".SH SEE ALSO",
            ".BR evemu\\-record (1),",
            ".BR evemu\\-play (1),",
            ".BR libinput (1),",
            ".BR udev (7);",
            "README.md and docs/ in the source, and \\fBplumometer help\\fR \\fICOMMAND\\fR.",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    /// The tool, then each command with its arguments and options, in groff's `.SY`/`.OP` synopsis macros.
    private static func synopsis() -> [String] {
        var lines = [".SY plumometer", ".RI [ COMMAND ]", ".RI [ OPTIONS ]", ".YS"]
        for command in CommandRegistry.specs {
            lines.append(".SY \"plumometer " + escape(command.name) + "\"")
            for positional in command.positionals {
                lines.append(
                    positional.required ? ".I " + escape(positional.name) : ".RI [ " + escape(positional.name) + " ]"
                )
            }
            for option in command.options where option != Flag.help.spec {
                let name = option.short.map { "-" + String($0) } ?? "--" + option.name
                let value = option.choices?.joined(separator: "|") ?? option.value
                lines.append(".OP " + escape(name) + (value.map { " " + escape($0) } ?? ""))
            }
            lines.append(".YS")
        }
        return lines
    }

    /// `\fB\-f\fR, \fB\-\-format\fR \fItext\fR|\fIjsonl\fR`.
    private static func optionTerm(_ option: OptionSpec) -> String {
        var names: [String] = []
        if let letter = option.short { names.append("\\fB\\-" + escape(String(letter)) + "\\fR") }
        names.append("\\fB\\-\\-" + escape(option.name) + "\\fR")
        var term = names.joined(separator: ", ")
        if let choices = option.choices {
            term += " " + choices.map { "\\fI" + escape($0) + "\\fR" }.joined(separator: "|")
        } else if let value = option.value {
            term += " \\fI" + escape(value) + "\\fR"
        }
        return term
    }

    private static func environmentAndFiles() -> [String] {
        [
            ".SH ENVIRONMENT",
            ".TP",
            ".B NO_COLOR",
            "When set, the live view draws without colour (it uses colour only on a terminal anyway).",
            ".TP",
            ".B XDG_CONFIG_HOME",
            "Where calibration profiles are kept (default \\fI~/.config\\fR).",
            ".SH FILES",
            ".TP",
            ".I $XDG_CONFIG_HOME/plumometer/",
            "Calibration profiles, JSON, one per device identity; written by \\fBplumometer calibrate\\fR and applied "
                + "automatically when that device is read.",
            ".TP",
            ".I /etc/udev/rules.d/70\\-plumometer.rules",
            "Lets the user at the seat read pressure\\-sensing touchpads, touchscreens and tablets (and nothing else); "
                + "installed by scripts/install.sh.",
        ]
    }

    /// Examples as typed, one per line, indented and unfilled.
    private static func exampleBlock(_ examples: [String]) -> [String] {
        [".PP", ".RS 4", ".nf"] + examples.map(escape) + [".fi", ".RE"]
    }

    /// `text` escaped for a troff text line.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case "\n": escaped += " "
            default:
                if scalar.isASCII {
                    escaped.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }

    private static func lowercasedFirst(_ text: String) -> String { text.prefix(1).lowercased() + text.dropFirst() }

    /// `the recording to replay.` → `The recording to replay.`
    private static func sentence(_ text: String) -> String {
        let capital = text.prefix(1).uppercased() + text.dropFirst()
        return capital.hasSuffix(".") ? capital : capital + "."
    }
}
