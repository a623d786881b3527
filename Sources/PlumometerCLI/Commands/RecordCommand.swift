import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession

extension RecordCommand: Command {
    /// `record`'s options.
    enum Options {
        static let device = Option.inputDevice(
            help:
                "The device (default: the best force-sensing device); give it again for each further device (libinput format).",
            repeatable: true
        )
        static let output = Option<String>(
            "output",
            short: "o",
            value: "FILE",
            completion: .file,
            help:
                "Write to FILE instead of stdout (- for stdout; never through a symlink); .yml or .yaml: libinput record YAML."
        )
        static let format = Option<RecordingFileFormat>.choice(
            "format",
            short: "f",
            cases: RecordingFileFormat.allCases,
            help: "evemu (1.3) or libinput (libinput record YAML). Default: libinput for a .yml/.yaml FILE, else evemu."
        )
        // A year at most: enough for any recording, and within Int64 microseconds.
        static let duration = Option<Double>.number(
            "duration",
            value: "S",
            maximum: 31_536_000,
            help: "Stop after S seconds (default: until Ctrl-C)."
        )
        static let grab = Flag("grab", help: "Grab the device while recording.")
    }

    static let spec = CommandSpec(
        name: "record",
        summary:
            "Record devices to an evemu 1.3 or `libinput record` file that evemu-play, libinput replay, umockdev and `plumometer replay` accept.",
        options: [Options.device, Options.output, Options.format, Options.duration, Options.grab, Flag.quiet],
        discussion: """
            The state found at open (contacts already down) is written as events at the recording's start, then \
            every event as read, times relative to the first (evemu: the first at 0.000001, as evemu-record; \
            libinput: at 0). Several devices (-d A -d B) go into one libinput record file, as libinput record \
            --multiple does: evemu holds one device a file, and each device's events are written after its \
            description at the end, so they need -o FILE.yml, not stdout. Names are written so that a crafted \
            device name cannot add a line or a key.
            """,
        examples: [
            "plumometer record -d /dev/input/event7 -o plums.evemu --duration 20",
            "plumometer record -d /dev/input/event7 -o plums.yml     # libinput record YAML",
            "plumometer record -d /dev/input/event7 -d /dev/input/event12 -o both.yml",
        ]
    )
}

/// `plumometer record`: an evemu 1.3 recording (description, then events with times relative to the first)
/// that evemu-play, umockdev's evemu loader and `plumometer replay` accept, or `libinput record` YAML of one or
/// several devices.
enum RecordCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let duration = try arguments.value(of: Options.duration)
        let file = try arguments.value(of: Options.output).flatMap { $0 == "-" ? nil : $0 }
        let format = try arguments.value(of: Options.format) ?? RecordingFileFormat.implied(by: file)
        let selectors = try arguments.values(of: Options.device)
        if selectors.count > 1 {
            if format == .evemu {
                throw arguments.usageError(
                    "An evemu file holds one device; record several into libinput record YAML: -o FILE.yml."
                )
            }
            if file == nil {
                throw arguments.usageError(
                    "Several devices are written to the file at the end (each device's events follow its "
                        + "description, as libinput record --multiple writes them): give -o FILE.yml, not stdout."
                )
            }
        }
        var paths: [String] = []
        for selector in selectors.isEmpty ? [nil] : selectors.map(Optional.some) {
            let path = try DeviceTarget(selector).resolve()
            if paths.contains(path) { throw arguments.usageError("\(path) is named twice; give each device once.") }
            paths.append(path)
        }
        // The devices' raw inputs go straight to the recorder, nothing is decoded: one run, until a device is removed,
        // the duration, or a signal.
        let session = try Session()
        let grab = arguments.flag(Options.grab)
        var recorder: RawRecorder?
        var sources: [OpenedSource] = []
        defer { for source in sources { source.close() } }
        for (index, path) in paths.enumerated() {
            let opening = DeviceOpening.live {
                let source = try LiveSource(path: path, grab: grab)
                // `unowned`: the source holds this closure, and the session's loop watches the source.
                source.onGone = { [unowned source, unowned session] in
                    Diagnostics.note("\(source.path) was removed; the recording ends here")
                    session.loop.finish()
                }
                source.onInputs = { inputs in try recorder?.record(inputs, device: index) }
                return source
            }
            sources.append(try session.open(opening, for: .inspecting) { _ in nil })
        }
        let devices = sources.compactMap(\.device)
        // Made by its first write, once the devices are open; several devices' file only whole, at the end.
        let sink =
            try file.map { try Runtime.current.files.createOutput($0, whole: paths.count > 1) }
            ?? Runtime.current.console.standardOutput
        let made = RawRecorder(sink: sink, format: format)
        try made.begin(
            devices.map {
                RawRecorder.Device(description: $0.description, node: $0.path, initialFrame: $0.initialFrame)
            }
        )
        recorder = made
        if file == nil { session.loop.stopWhenOutputCloses() }
        for device in devices {
            Diagnostics.note("recording \(device.path) ('\(device.description.name.forTerminalName)'); Ctrl-C to stop")
        }
        try session.run(LimitedSource(WatchesOnly(), duration: duration.map { Int64($0 * 1_000_000) }))
        try made.finish()
        Diagnostics.note("recorded \(made.eventCount) events")
    }
}
