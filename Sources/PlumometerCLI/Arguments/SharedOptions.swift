import PlumometerOutput
import PlumometerSession

/// The formats of a one-shot report (`list`, `calibrate`'s fit).
enum ReportFormat: String, CaseIterable, Sendable {
    case text
    case json
}

extension Option where Value == String {
    /// `-d, --device PATH|NAME`, the device a command reads: its spelling and completion the same in every command
    /// (stream, record, weigh, probe, calibrate), the sentence each command's own.
    /// An empty value is a usage error: it names no device (leave `-d` out for the best one).
    static func inputDevice(help: String, repeatable: Bool = false) -> Option<String> {
        Option("device", short: "d", value: "PATH|NAME", completion: .deviceNode, repeatable: repeatable, help: help) {
            text throws(ValueError) in
            guard !text.isEmpty else {
                throw .invalid(
                    text,
                    for: "device",
                    expected:
                        "a device node (/dev/input/eventN) or part of a device's name; leave -d out for the best device"
                )
            }
            return text
        }
    }

    /// With `--replay`, what `-d` means (weigh, probe, calibrate: ``ReadingSelection``): ``RecordingDeviceChoice``.
    static let replayDeviceHelp =
        "With --replay, which device of the recording (index, node or a part of its name only it has)."

    /// `--replay FILE`: a recording read instead of a device (weigh, probe, calibrate).
    static func replayFile(help: String) -> Option<String> {
        Option("replay", value: "FILE", completion: .file, help: help)
    }
}

/// The options shared by everything that produces readings: stream, replay and demo (and, most of them, weigh).
enum ReadingOptions {
    static let format = Option<OutputFormat>.choice(
        "format",
        short: "f",
        cases: OutputFormat.allCases,
        help:
            "Output format. Default: live view on a terminal, jsonl otherwise. In text each contact is '#id percent weight', then '*heaviest*' or its ratio to the heaviest, '!saturated', and '=' once stable."
    )
    // A day at most: a longer interval is a mistake, and the bound keeps the microseconds within Int64.
    static let interval = Option<Int>.wholeNumber(
        "interval",
        value: "MS",
        range: 0...86_400_000,
        help: "Write the latest state at most every MS milliseconds (0: every frame)."
    )
    static let maxContacts = Option<Int>.wholeNumber(
        "max-contacts",
        value: "N",
        range: 1...4_096,
        help: "Report only the N heaviest contacts of each frame."
    )
    static let profile = Option<String>(
        "profile",
        value: "FILE",
        completion: .file,
        help: "Use this calibration profile instead of the saved one for the device."
    )
    static let smooth = Flag(
        "smooth",
        help: "Smooth reported forces (one-euro filter); raw pressure is always kept as read."
    )
    static let tare = Flag("tare", help: "Zero the readings of whatever rests on the surface when reading starts.")
    static let carrier = Flag(
        "carrier",
        help:
            "Tare the one contact down when reading starts as a carrier (k in the live view): its zero follows it when lifted, loaded and put back."
    )
    static let noProfile = Flag("no-profile", help: "Ignore the saved calibration profile of the device.")
    static let unit = Option<WeightUnit>.choice(
        "unit",
        value: "UNIT",
        cases: [.grams, .ounces, .carats, .pounds, .kilograms],
        help: "Unit for weights in text and live output (JSON and CSV stay in grams)."
    )

    static let summary = Flag(
        "summary",
        help:
            "At the end, write a summary of the session (a summary record in jsonl, a table in text; on stderr for csv)."
    )
    static let view = Option<LiveViewMode>.choice(
        "view",
        value: "VIEW",
        cases: LiveViewMode.allCases,
        help: "Live view at start: map (the pad to scale) or bars; m switches. Default: map with positions."
    )

    /// The group, in the order help lists it (`-q, --quiet` last).
    static let all: [any OptionDeclaration] = [
        format, interval, maxContacts, profile, noProfile, smooth, summary, tare, carrier, unit, view, Flag.quiet,
    ]
    /// `--profile FILE` and `--no-profile`: a profile, or none at all, not both (also in weigh and plot).
    static let profileOrNone = Exclusion(profile, noProfile)
    /// `--wait`, for the commands that read a live device as a background reader (stream, serve).
    static let wait = Flag(
        "wait",
        help: "If no device fits yet, wait for one to appear instead of failing (background services)."
    )
}

/// The clock of the `time` fields of readings: the kernel's (as read) or calendar time.
enum TimestampClock: String, CaseIterable, Sendable {
    case monotonic
    case wall
}

/// The options about the lines written, shared by stream, replay and demo (kept apart from ``ReadingOptions``).
enum OutputOptions {
    static let timestamps = Option<TimestampClock>.choice(
        "timestamps",
        value: "CLOCK",
        cases: TimestampClock.allCases,
        help:
            "Frame times: monotonic (the kernel's, as read; default) or wall (Unix seconds: the kernel's time plus one offset measured at open)."
    )

    /// The group, in the order help lists it.
    static let all: [any OptionDeclaration] = [timestamps]
}

/// The options that pace a recording: replay and demo.
enum PacingOptions {
    static let speed = Option<Double>(
        "speed",
        value: "X",
        help: "Replay X times faster than recorded (default 1)."
    ) { text throws(ValueError) in
        // From a thousandth of real time to a million times faster.
        guard let speed = Double(text), speed >= 0.001, speed <= 1_000_000 else {
            throw .invalid(text, for: "speed", expected: "a number from 0.001 to 1000000")
        }
        return speed
    }
    static let fast = Flag("fast", help: "Replay as fast as possible.")

    /// The group, in the order help lists it.
    static let all: [any OptionDeclaration] = [speed, fast]
    /// `--fast` or `--speed X`, not both.
    static let fastOrSpeed = Exclusion(fast, speed)
}

extension ParsedArguments {
    /// The settings that shape readings (stream, replay, demo, serve), from ``ReadingOptions``; without
    /// `terminalOutput` (serve) neither `--unit`, `--summary` nor `--view`, which such a command does not declare.
    func readingSettings(terminalOutput: Bool = true) throws(UsageError) -> ReadingSettings {
        var settings = ReadingSettings()
        if let interval = try value(of: ReadingOptions.interval) { settings.interval = Int64(interval) * 1_000 }
        settings.maxContacts = try value(of: ReadingOptions.maxContacts)
        settings.smooth = flag(ReadingOptions.smooth)
        settings.tareAtStart = flag(ReadingOptions.tare)
        settings.profilePath = try value(of: ReadingOptions.profile)
        settings.carrierAtStart = flag(ReadingOptions.carrier)
        settings.ignoreSavedProfile = flag(ReadingOptions.noProfile)
        // `serve` writes JSON in grams to no terminal: it declares none of the three below.
        guard terminalOutput else { return settings }
        settings.unit = try value(of: ReadingOptions.unit) ?? .grams
        settings.summary = flag(ReadingOptions.summary)
        settings.view = try value(of: ReadingOptions.view)
        return settings
    }
}

extension ParsedArguments {
    /// Where and how lines are written, from ``OutputOptions`` (the sink and limits are the command's own).
    func outputSettings() throws(UsageError) -> OutputSettings {
        var settings = OutputSettings()
        settings.wallTimestamps = try value(of: OutputOptions.timestamps) == .wall
        return settings
    }
}

extension Pacing {
    /// The pacing that ``PacingOptions`` ask for: `--fast`, `--speed X`, or real time (the parser refuses both).
    init(_ arguments: ParsedArguments) throws(UsageError) {
        if arguments.flag(PacingOptions.fast) {
            self.init(speed: nil)
        } else {
            self.init(speed: try arguments.value(of: PacingOptions.speed) ?? 1)
        }
    }
}
