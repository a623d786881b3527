public import PlumometerCore

/// What `plumometer describe` prints about a device: every axis, property, key and code, and the static verdict,
/// as lines for people (`text`) or one JSON object (`json`).
public enum DescribeText {
    /// The description in words, like evemu-describe or the header of evtest, ending with the static verdict.
    /// - Parameters:
    ///   - description: the device's description.
    ///   - path: its node, or the name a recording gives it.
    /// - Returns: the lines, each ending in a newline.
    public static func text(_ description: DeviceDescription, path: String) -> String {
        let result = ProbeResult(description: description, path: path, report: nil)
        let identity = description.identity
        let numbers = [identity.bus, identity.vendor, identity.product, identity.version].map(hex4)
        let properties = description.properties.sorted().map(\.name)
        var lines = [
            "device:      \(description.name.forTerminalName)",
            "path:        \(path.forTerminalName)",
            "id:          \(identity.idString) (bus \(numbers[0]), vendor \(numbers[1]), product \(numbers[2]), "
                + "version \(numbers[3]))",
            "properties:  \(properties.isEmpty ? "none" : properties.joined(separator: ", "))",
            "contacts:    \(protocolText(description))",
        ]
        let axes = description.axes.keys.sorted()
        lines.append(axes.isEmpty ? "axes:        none" : "axes:")
        let nameWidth = axes.map(\.name.count).max() ?? 0
        for axis in axes {
            guard let info = description.axes[axis] else { continue }
            let name = axis.name + String(repeating: " ", count: nameWidth - axis.name.count)
            let range = "\(NumberText.padLeft("\(info.minimum)", 7)) .. \(NumberText.padLeft("\(info.maximum)", 7))"
            var line = "  \(name)  \(range)  fuzz \(info.fuzz)  flat \(info.flat)  resolution \(info.resolution)"
            switch axis.resolutionUnit {
            case .millimetre?:
                if let size = extent(info) {
                    line += " units/mm (\(NumberText.fixed(size, 1)) mm)"
                } else {
                    line += " (not declared: no millimetres)"
                }
            case .gram?:
                if let grams = extent(info) {
                    line += " units/g (full scale \(NumberText.fixed(grams, 1)) g)"
                } else {
                    line += " (not declared: grams need a calibration)"
                }
            case nil:
                break
            }
            lines.append(line)
        }
        let keys = keys(description)
        lines.append("keys:        \(keys.isEmpty ? "none" : keys.joined(separator: " "))")
        for (type, codes) in otherCodes(description) {
            let padding = String(repeating: " ", count: Swift.max(1, 12 - type.count))
            lines.append("\(type):\(padding)\(codes.joined(separator: " "))")
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
        lines.append("advice:      \(ProbeText.advice(result))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The description as one JSON object (no newline): `device`, `properties`, `protocol`, `slots`, `axes`,
    /// `keys`, `codes`, then the static verdict with its `reasons`, `findings` and `advice`.
    public static func json(_ description: DeviceDescription, path: String) -> String {
        let result = ProbeResult(description: description, path: path, report: nil)
        let identity = description.identity
        let classification = result.classification
        let axes = description.axes.keys.sorted().compactMap { axis -> String? in
            guard let info = description.axes[axis] else { return nil }
            let unit = axis.resolutionUnit
            let size = unit == nil ? nil : extent(info)
            let fields = [
                "\"axis\":\(JSONText.string(axis.name))",
                "\"code\":\(axis.rawValue)",
                "\"min\":\(info.minimum)",
                "\"max\":\(info.maximum)",
                "\"fuzz\":\(info.fuzz)",
                "\"flat\":\(info.flat)",
                "\"resolution\":\(info.resolution)",
                "\"unit\":\(JSONText.optional(unit?.rawValue, JSONText.string))",
                "\"size\":\(JSONText.optional(size) { NumberText.fixed($0, 2) })",
            ]
            return "{\(fields.joined(separator: ","))}"
        }
        let other = otherCodes(description).map { type, codes in
            "\(JSONText.string(type)):\(ProbeText.stringArray(codes))"
        }
        let device = [
            "\"name\":\(JSONText.string(description.name))",
            "\"id\":\(JSONText.string(identity.idString))",
            "\"path\":\(JSONText.string(path))",
            "\"bus\":\(identity.bus)",
            "\"vendor\":\(identity.vendor)",
            "\"product\":\(identity.product)",
            "\"version\":\(identity.version)",
        ]
        let fields = [
            "\"device\":{\(device.joined(separator: ","))}",
            "\"properties\":\(ProbeText.stringArray(description.properties.sorted().map(\.name)))",
            "\"protocol\":\(JSONText.string(description.contactProtocol.rawValue))",
            "\"slots\":\(JSONText.optional(description.reportedSlots) { String($0) })",
            "\"axes\":[\(axes.joined(separator: ","))]",
            "\"keys\":\(ProbeText.stringArray(keys(description)))",
            "\"codes\":{\(other.joined(separator: ","))}",
            "\"verdict\":\(JSONText.string(classification.sensing.rawValue))",
            "\"reasons\":\(ProbeText.stringArray(ProbeText.reasons(result)))",
            "\"force_sensor\":\(JSONText.optional(classification.isForceSensor) { "\($0)" })",
            "\"semi_mt\":\(classification.semiMultitouch)",
            "\"findings\":\(ProbeText.findingsJSON(classification.findings))",
            "\"advice\":\(JSONText.string(ProbeText.advice(result)))",
        ]
        return "{\(fields.joined(separator: ","))}"
    }

    /// Several devices' JSON objects: the one object for one device (as `probe -f json`), an array for several;
    /// with a newline.
    public static func json(_ devices: [(description: DeviceDescription, path: String)]) -> String {
        let objects = devices.map { json($0.description, path: $0.path) }
        return objects.count == 1 ? "\(objects[0])\n" : "[\(objects.joined(separator: ","))]\n"
    }

    /// Several devices' text, one block after the other with a blank line between.
    public static func text(_ devices: [(description: DeviceDescription, path: String)]) -> String {
        devices.map { text($0.description, path: $0.path) }.joined(separator: "\n")
    }

    /// `165.5` (millimetres, or grams at full scale) when the axis has a resolution, nil otherwise.
    static func extent(_ info: AxisInfo) -> Double? {
        guard info.resolution > 0 else { return nil }
        return info.span / Double(info.resolution)
    }

    /// `0x05ac`: four hexadecimal digits at least.
    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
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
}
