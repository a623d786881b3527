/// The options about a recording read as a device, shared by every command that reads one: `replay`, `plot` and
/// `describe` (FILE), and `weigh`, `probe` and `calibrate` (`--replay FILE`, through ``ReadingSelection``).
enum RecordingOptions {
    /// `-d, --device NAME` of a command whose input is a recording: which of its devices.
    static let device = Option<String>(
        "device",
        short: "d",
        value: "NAME",
        help: "With several devices in one recording: which one (index, node, or a part of its name only it has)."
    ) { text throws(ValueError) in
        guard !text.isEmpty else {
            throw .invalid(text, for: "device", expected: "an index, a node or part of a device's name")
        }
        return text
    }

    /// `--desc FILE`: the evemu description of a recording that holds only events.
    static let desc = Option<String>(
        "desc",
        value: "FILE",
        completion: .file,
        help: "The evemu device description for a FILE that holds only events (default: a .desc beside it)."
    )
}

/// The formats of a one-shot report, and the option that picks one: `list` and `describe` say it the same way.
enum ReportOptions {
    static let format = Option<ReportFormat>.choice(
        "format",
        short: "f",
        cases: ReportFormat.allCases,
        help: "Output format (default text)."
    )
}

/// Where the readings of `weigh`, `probe` and `calibrate` come from: a device (`-d PATH|NAME`, default the best
/// one), or a recording (`--replay FILE`, `-d` then picking one of its devices, `--desc FILE` describing a file of
/// bare events).
///
/// A value made from the command line that checks itself: `--desc` without `--replay` describes nothing and is a
/// usage error.
struct ReadingSelection: Sendable {
    /// `-d`: a device node or a part of a name (of a device, or of one of the recording's devices).
    var device: String?
    /// `--replay FILE`: the recording read instead of a device.
    var replay: String?
    /// `--desc FILE`: the description of a `--replay` file of bare events.
    var description: String?

    /// The group's declarations; each command gives them its own sentences.
    struct Options: Sendable {
        let device: Option<String>
        let replay: Option<String>
        let desc = RecordingOptions.desc

        /// - Parameters:
        ///   - device: what `-d` picks, for this command (what it means with `--replay` is said after it).
        ///   - replay: what reading a recording instead does, for this command.
        init(device: String, replay: String) {
            self.device = Option.inputDevice(help: device + " " + Option.replayDeviceHelp)
            self.replay = Option.replayFile(help: replay)
        }

        /// The group, in the order help lists it.
        var all: [any OptionDeclaration] { [device, replay, desc] }
    }

    /// The selection `arguments` make with `options`.
    /// - Throws: ``UsageError`` for a value an option does not accept, or `--desc` without `--replay`.
    init(_ arguments: ParsedArguments, _ options: Options) throws(UsageError) {
        device = try arguments.value(of: options.device)
        replay = try arguments.value(of: options.replay)
        description = try arguments.value(of: options.desc)
        if description != nil && replay == nil {
            throw arguments.usageError(
                "--desc describes the device of a --replay FILE of events; give --replay FILE too."
            )
        }
    }
}
