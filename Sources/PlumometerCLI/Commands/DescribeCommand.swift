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
        /// replay's `--desc FILE`, for a FILE of bare events.
        static let desc = ReplayCommand.Options.desc
        /// list's `-f, --format text|json`.
        static let format = ListCommand.Options.format
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
        if format == .json {
            let objects = described.map { json($0.description, path: $0.path) }
            // One object for one device, as `probe -f json`; an array for a recording of several.
            try StandardOutput.write(
                (objects.count == 1 ? objects[0] : "[" + objects.joined(separator: ",") + "]") + "\n"
            )
        } else {
            try StandardOutput.write(described.map { text($0.description, path: $0.path) }.joined(separator: "\n"))
        }
    }

    /// `165.5` (millimetres, or grams at full scale) when the axis has a resolution, nil otherwise.
    static func extent(_ info: AxisInfo) -> Double? {
        guard info.resolution > 0 else { return nil }
        return info.span / Double(info.resolution)
    }

    static func protocolText(_ description: DeviceDescription) -> String {
        if description.axes.isEmpty { return "none (no absolute axes)" }
        return switch description.contactProtocol {
        case .multitouchSlots: "multitouch protocol B, \(description.slotCount ?? 0) slots"
        case .multitouchAnonymous: "multitouch protocol A (anonymous contacts)"
        case .singleTouch: "single touch"
        }
    }

    /// The codes of every type but EV_SYN, EV_ABS and EV_KEY (which have their own lines), by name.
    static func otherCodes(_ description: DeviceDescription) -> [(type: String, codes: [String])] {
        description.codes.keys.filter { $0 != .syn && $0 != .abs && $0 != .key }.sorted { $0.rawValue < $1.rawValue }
            .map { type in
                (
                    type.name ?? "EV_0x" + String(type.rawValue, radix: 16),
                    (description.codes[type] ?? []).sorted().map { EventCodeName.name(type: type, code: $0) }
                )
            }
    }

    static func keys(_ description: DeviceDescription) -> [String] {
        (description.codes[.key] ?? []).sorted().map { KeyCode(rawValue: $0).name }
    }

    static func text(_ description: DeviceDescription, path: String) -> String {
        let result = ProbeResult(description: description, path: path, report: nil)
        let identity = description.identity
        func hex4(_ value: UInt16) -> String {
            let digits = String(value, radix: 16)
            return "0x" + String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
        }
        var lines = [
            "device:      \(description.name.forTerminalName)",
            "path:        \(path.forTerminalName)",
            "id:          \(identity.idString) (bus \(hex4(identity.bus)), vendor \(hex4(identity.vendor)), "
                + "product \(hex4(identity.product)), version \(hex4(identity.version)))",
            "properties:  "
                + (description.properties.isEmpty
                    ? "none" : description.properties.sorted().map(\.name).joined(separator: ", ")),
            "contacts:    " + protocolText(description),
        ]
        let axes = description.axes.keys.sorted()
        lines.append("axes:" + (axes.isEmpty ? "        none" : ""))
        let nameWidth = axes.map(\.name.count).max() ?? 0
        for axis in axes {
            guard let info = description.axes[axis] else { continue }
            var line = "  " + axis.name + String(repeating: " ", count: nameWidth - axis.name.count)
            line += "  " + NumberText.padLeft("\(info.minimum)", 7) + " .. " + NumberText.padLeft("\(info.maximum)", 7)
            line += "  fuzz \(info.fuzz)  flat \(info.flat)  resolution \(info.resolution)"
            switch axis.resolutionUnit {
            case .millimetre?:
                if let size = extent(info) {
                    line += " units/mm (" + NumberText.fixed(size, 1) + " mm)"
                } else {
                    line += " (not declared: no millimetres)"
                }
            case .gram?:
                if let grams = extent(info) {
                    line += " units/g (full scale " + NumberText.fixed(grams, 1) + " g)"
                } else {
                    line += " (not declared: grams need a calibration)"
                }
            case nil:
                break
            }
            lines.append(line)
        }
        let keys = keys(description)
        lines.append("keys:        " + (keys.isEmpty ? "none" : keys.joined(separator: " ")))
        for (type, codes) in otherCodes(description) {
            lines.append(
                "\(type):" + String(repeating: " ", count: Swift.max(1, 12 - type.count)) + codes.joined(separator: " ")
            )
        }
        // What plumometer makes of it: as `plumometer probe --static` says it.
        let classification = result.classification
        lines.append("verdict:     \(classification.sensing.rawValue): \(classification.reason)")
        if classification.semiMultitouch {
            lines.append("             semi-multitouch: read as one contact with the pressure the pad reports")
        }
        for finding in classification.findings {
            lines.append("  - \(finding.code.rawValue): \(finding.finding) -> \(finding.implication)")
        }
        lines.append("advice:      " + ProbeText.advice(result))
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ description: DeviceDescription, path: String) -> String {
        let result = ProbeResult(description: description, path: path, report: nil)
        let identity = description.identity
        let classification = result.classification
        let axes = description.axes.keys.sorted().compactMap { axis -> String? in
            guard let info = description.axes[axis] else { return nil }
            let unit = axis.resolutionUnit
            let size = unit == nil ? nil : extent(info)
            // One statement per part: Swift 6.0's type checker gives up on the whole chain.
            var object =
                "{\"axis\":" + JSONText.string(axis.name) + ",\"code\":\(axis.rawValue),\"min\":\(info.minimum)"
            object += ",\"max\":\(info.maximum),\"fuzz\":\(info.fuzz),\"flat\":\(info.flat)"
            object +=
                ",\"resolution\":\(info.resolution),\"unit\":" + JSONText.optional(unit?.rawValue, JSONText.string)
            object += ",\"size\":" + JSONText.optional(size) { NumberText.fixed($0, 2) } + "}"
            return object
        }
        let other = otherCodes(description).map { type, codes in
            JSONText.string(type) + ":[" + codes.map(JSONText.string).joined(separator: ",") + "]"
        }
        // The device object a part at a time, and the list's type spelt out: Swift 6.0's type checker gives up on
        // the one literal.
        var device = "\"device\":{\"name\":" + JSONText.string(description.name)
        device += ",\"id\":" + JSONText.string(identity.idString) + ",\"path\":" + JSONText.string(path)
        device += ",\"bus\":\(identity.bus),\"vendor\":\(identity.vendor),\"product\":\(identity.product)"
        device += ",\"version\":\(identity.version)}"
        let fields: [String] = [
            device,
            "\"properties\":[" + description.properties.sorted().map { JSONText.string($0.name) }.joined(separator: ",")
                + "]",
            "\"protocol\":" + JSONText.string(description.contactProtocol.rawValue),
            "\"slots\":" + JSONText.optional(description.reportedSlots) { String($0) },
            "\"axes\":[" + axes.joined(separator: ",") + "]",
            "\"keys\":[" + keys(description).map(JSONText.string).joined(separator: ",") + "]",
            "\"codes\":{" + other.joined(separator: ",") + "}",
            "\"verdict\":" + JSONText.string(classification.sensing.rawValue),
            "\"reasons\":[" + ProbeText.reasons(result).map(JSONText.string).joined(separator: ",") + "]",
            "\"force_sensor\":" + JSONText.optional(classification.isForceSensor) { $0 ? "true" : "false" },
            "\"semi_mt\":" + (classification.semiMultitouch ? "true" : "false"),
            "\"findings\":" + ProbeText.findingsJSON(classification.findings),
            "\"advice\":" + JSONText.string(ProbeText.advice(result)),
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }
}
