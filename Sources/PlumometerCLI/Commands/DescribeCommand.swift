import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession

extension DescribeCommand: Command {
    /// `describe`'s options.
    enum Options {
        static let device = Option.inputDevice(
            help:
                "The device (default: the best one found); with FILE, which of its devices (index, node or a part of its name only it has)."
        )
        /// `--desc FILE`, for a FILE of bare events.
        static let desc = RecordingOptions.desc
        /// `-f, --format text|json`, as list's.
        static let format = ReportOptions.format
    }

    static let spec = CommandSpec(
        name: "describe",
        summary:
            "Show everything a device says about itself (axes, properties, keys, slots) and what plumometer makes of it.",
        options: [Options.device, Options.desc, Options.format, Flag.quiet],
        positionals: [
            PositionalSpec(
                name: "FILE",
                help:
                    "a recording (evemu, evemu .desc, or libinput record YAML; - for standard input) to describe instead of a device.",
                required: false,
                completion: .file
            )
        ],
        discussion: """
            Like evemu-describe or the header of evtest, in words: every absolute axis with its range, fuzz, flat \
            and resolution (units per mm for positions and contact sizes, with the size in mm; units per gram for \
            pressure), the properties, the keys and buttons, the other event codes, the slots, then the static \
            verdict of 'plumometer probe --static' with its reasons and findings. A device is opened read-only and \
            never grabbed; keyboards are refused. A recording with several devices describes each of them unless \
            --device picks one.
            """,
        examples: [
            "plumometer describe                        # the best device",
            "plumometer describe -d /dev/input/event7 -f json | jq '.axes[] | select(.unit == \"mm\")'",
            "plumometer describe session.yml            # every device of a libinput recording",
        ]
    )
}

/// `plumometer describe`: a device's description, axis by axis, and the static verdict on it.
enum DescribeCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let format = try arguments.value(of: Options.format) ?? .text
        let selector = try arguments.value(of: Options.device)
        var described: [(description: DeviceDescription, path: String)] = []
        if let file = arguments.positionals.first {
            // Read as every reader reads a recording: in the poll loop, a chunk at a time, within the limits.
            let session = try Session()
            let devices = try RecordingFile.devices(
                file,
                selector: selector,
                description: arguments.value(of: Options.desc),
                in: session
            )
            if session.stoppedBySignal {
                Diagnostics.note("stopped")
                if devices.isEmpty { return }
            }
            described = devices.map { ($0.description, $0.node ?? $0.description.path) }
        } else {
            if arguments.has(Options.desc) {
                throw arguments.usageError("--desc describes the device of a FILE of events; give the FILE too.")
            }
            let session = try Session()
            let source = try session.open(.live(device: DeviceTarget(selector)), for: .inspecting) { _ in nil }
            defer { source.close() }
            described = source.device.map { [($0.description, $0.path)] } ?? []
        }
        try StandardOutput.write(format == .json ? DescribeText.json(described) : DescribeText.text(described))
    }
}
