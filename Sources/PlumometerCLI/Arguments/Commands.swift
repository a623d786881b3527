/// The option tables of every command. Parsing, `--help` and usage lines all come from here.
enum Commands {
    static let version = "0.1.0"

    static let formatOption = OptionSpec(
        "format",
        short: "f",
        value: "FORMAT",
        choices: ["text", "jsonl", "csv", "live"],
        help: "Output format. Default: live view on a terminal, jsonl otherwise."
    )

    /// Options shared by everything that produces readings (stream, replay, demo).
    static let readingOptions: [OptionSpec] = [
        formatOption,
        OptionSpec(
            "interval",
            value: "MS",
            help: "Write the latest state at most every MS milliseconds (0: every frame)."
        ),
        OptionSpec("max-contacts", value: "N", help: "Report only the N heaviest contacts of each frame."),
        OptionSpec(
            "profile",
            value: "FILE",
            help: "Use this calibration profile instead of the saved one for the device."
        ),
        OptionSpec("smooth", help: "Smooth reported forces (one-euro filter); raw pressure is always kept as read."),
        OptionSpec("tare", help: "Zero the readings of whatever rests on the surface when reading starts."),
        OptionSpec(
            "unit",
            value: "UNIT",
            choices: ["g", "oz", "ct"],
            help: "Unit for weights in text and live output (JSON and CSV stay in grams)."
        ),
        OptionSpec("quiet", short: "q", help: "Print nothing on stderr except errors."),
    ]

    static let stream = CommandSpec(
        name: "stream",
        summary: "Read a pressure-sensing device and write one reading per frame (the default command).",
        options: [
            OptionSpec(
                "device",
                short: "d",
                value: "PATH|NAME",
                help:
                    "The device: /dev/input/eventN, or a substring of its name. Default: the best force-sensing device found."
            ),
            OptionSpec(
                "grab",
                help:
                    "Grab the device (EVIOCGRAB) so no other program sees its events. Off by default: you keep your pointer."
            ),
            OptionSpec(
                "wait",
                help: "If no device fits yet, wait for one to appear instead of failing (background services)."
            ),
        ] + readingOptions,
        discussion: """
            Readings go to stdout, one per frame, flushed at once; messages go to stderr. On a terminal the \
            live view draws one bar per contact (t: tare, c: clear tare, q: quit). SIGINT and SIGTERM finish the \
            current line and exit 0; SIGHUP reopens the device. When the device goes away a 'removed' record is \
            written and reading resumes when it comes back.
            """,
        examples: [
            "plumometer                                  # live view of the best device",
            "plumometer --format jsonl > readings.jsonl  # background reader",
            "plumometer -d /dev/input/event7 -f text --interval 100",
        ]
    )

    static let list = CommandSpec(
        name: "list",
        summary: "List input devices, how each senses pressure, and why any is not usable.",
        options: [
            OptionSpec(
                "format",
                short: "f",
                value: "FORMAT",
                choices: ["text", "json"],
                help: "Output format (default text)."
            ),
            OptionSpec(
                "all",
                short: "a",
                help: "Also list devices skipped without being opened (keyboards, mice, ...) and why."
            ),
            OptionSpec("quiet", short: "q", help: "Print nothing on stderr except errors."),
        ],
        discussion: """
            Devices are found through udev. Only touchpads, touchscreens and tablets with a pressure axis are \
            opened (read-only, briefly); keyboards are never opened. Force sensors rank before devices whose \
            pressure only tracks contact size.
            """,
        examples: [
            "plumometer list                 # the candidates, best first",
            "plumometer list --all           # also what was skipped without being opened, and why",
            "plumometer list -f json | jq '.[] | select(.usable)'",
        ]
    )

    static let replay = CommandSpec(
        name: "replay",
        summary: "Replay an evemu or `libinput record` recording through the same pipeline as a live device.",
        options: [
            OptionSpec(
                "device",
                short: "d",
                value: "NAME",
                help: "With several devices in one recording: which one (index, or a substring of its name)."
            ),
            OptionSpec(
                "desc",
                value: "FILE",
                help: "The evemu device description for a FILE that holds only events (default: a .desc beside it)."
            ),
            OptionSpec("speed", value: "X", help: "Replay X times faster than recorded (default 1)."),
            OptionSpec("fast", help: "Replay as fast as possible."),
        ] + readingOptions,
        positionals: [
            PositionalSpec(
                name: "FILE",
                help: "the recording to replay (evemu or libinput record YAML).",
                required: true
            )
        ],
        examples: [
            "plumometer replay --fast -f jsonl session.evemu",
            "plumometer replay --desc touchpad.desc touchpad.tap.events",
            "plumometer replay -d 1 libinput-record.yml",
        ]
    )

    static let record = CommandSpec(
        name: "record",
        summary: "Record a device to an evemu 1.3 file that evemu-play, umockdev and `plumometer replay` accept.",
        options: [
            OptionSpec(
                "device",
                short: "d",
                value: "PATH|NAME",
                help: "The device (default: the best force-sensing device)."
            ),
            OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE instead of stdout."),
            OptionSpec("duration", value: "S", help: "Stop after S seconds (default: until Ctrl-C)."),
            OptionSpec("grab", help: "Grab the device while recording."),
            OptionSpec("quiet", short: "q", help: "Print nothing on stderr except errors."),
        ],
        examples: ["plumometer record -d /dev/input/event7 -o plums.evemu --duration 20"]
    )

    static let calibrate = CommandSpec(
        name: "calibrate",
        summary: "Fit grams to raw pressure from reference weights and save a per-device profile.",
        options: [
            OptionSpec(
                "device",
                short: "d",
                value: "PATH|NAME",
                help: "The device to calibrate (identity and range; interactive readings)."
            ),
            OptionSpec("replay", value: "FILE", help: "Take the device identity and range from a recording instead."),
            OptionSpec(
                "point",
                value: "RAW:GRAMS",
                repeatable: true,
                help:
                    "A measured point: raw pressure and the grams on the surface. Two or more make a non-interactive calibration."
            ),
            OptionSpec(
                "reference",
                value: "MASS",
                repeatable: true,
                help: "A reference weight to place (interactive): '2x 5.67g', 'us-quarter', '3x 1-euro', '10g'."
            ),
            OptionSpec(
                "output",
                short: "o",
                value: "FILE",
                help: "Save the profile here instead of the default location."
            ),
            OptionSpec("no-save", help: "Print the fit but do not save a profile."),
            OptionSpec(
                "format",
                short: "f",
                value: "FORMAT",
                choices: ["text", "json"],
                help: "Output format of the fit (default text)."
            ),
            OptionSpec("min-r2", value: "R2", help: "Refuse fits with R\u{B2} below this (default 0.97)."),
            OptionSpec("quiet", short: "q", help: "Print nothing on stderr except errors."),
        ],
        discussion: """
            A guided calibration stopped by SIGINT or SIGTERM saves nothing and exits 1 (unlike the other \
            commands, for which such a stop is a success: a calibration that did not finish is not one). \
            Profiles are JSON files under $XDG_CONFIG_HOME/plumometer/ (default ~/.config/plumometer/), one per \
            device identity, applied automatically when that device is read. A fit with R\u{B2} >= 0.985 is good, \
            >= 0.97 acceptable; below that it is refused. See docs/calibration.md.
            """,
        examples: [
            "plumometer calibrate -d /dev/input/event7 --reference us-quarter --reference '2x us-quarter'",
            "plumometer demo --save demo.evemu && plumometer calibrate --replay demo.evemu --point 0:0 --point 1200:1200 --point 2400:2400 --no-save",
        ]
    )

    static let demo = CommandSpec(
        name: "demo",
        summary: "Replay the bundled recording of a weighing session (no hardware needed).",
        options: [
            OptionSpec("speed", value: "X", help: "Replay X times faster than recorded (default 1)."),
            OptionSpec("fast", help: "Replay as fast as possible."),
            OptionSpec(
                "save",
                value: "FILE",
                help: "Write the bundled recording to FILE (to look at, or to replay) and exit."
            ),
        ] + readingOptions,
        examples: ["plumometer demo", "plumometer demo --fast -f text", "plumometer demo --save demo.evemu"]
    )

    static let all: [CommandSpec] = [stream, list, replay, record, calibrate, demo]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    static let exitStatus = """
        EXIT STATUS:
          0  success, including a stop by SIGINT/SIGTERM or a closed stdout
          1  runtime failure: no usable device, permission denied, unreadable or malformed file
          2  usage error: unknown command or option, bad option value
        """

    /// The top-level `plumometer --help`.
    static var overview: String {
        var lines = [
            "OVERVIEW: Weigh objects on a pressure-sensing touchpad, touchscreen or pen tablet.",
            "",
            "Each contact's pressure is shown as a percentage of the device's full scale, with its share of the",
            "total and the heaviest marked; grams when the device reports units or after a calibration.",
            "",
            "USAGE: plumometer [COMMAND] [OPTIONS]",
            "",
            "COMMANDS:",
        ]
        for command in all {
            let name = command.name == "stream" ? "stream (default)" : command.name
            lines.append("  " + pad(name, to: 18) + command.summary)
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
            "  plumometer list                 # which devices sense force, and why others do not",
            "  plumometer                      # live view of the best device",
            "  plumometer -f jsonl | jq .      # JSON Lines for scripts",
            "  plumometer demo                 # a recorded weighing session, no hardware needed",
            "",
            "See 'plumometer help COMMAND', README.md and docs/ for more.",
        ]
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

    private static func wrap(_ text: String, width: Int) -> String {
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
