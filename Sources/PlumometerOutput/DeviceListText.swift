public import PlumometerCore

/// One device as `plumometer list` shows it: what discovery found out about one input node, as plain values.
public struct DeviceListEntry: Sendable {
    /// The device an input remapper copies, or copies it: the other node and the sentence that explains it.
    public struct Remapper: Sendable {
        /// `cloned_as` (this device is re-emitted as `node`) or `clone_of` (this device is a copy of `node`).
        public var relation: String
        public var node: String
        public var explanation: String

        public init(relation: String, node: String, explanation: String) {
            self.relation = relation
            self.node = node
            self.explanation = explanation
        }
    }

    public var node: String
    public var name: String
    public var identity: DeviceIdentity?
    /// What udev says the device is (`touchpad`, `touchscreen`, ...).
    public var kinds: [String]
    /// The description, when the device was opened.
    public var description: DeviceDescription?
    public var classification: DeviceClassification?
    public var remapper: Remapper?
    public var usable: Bool
    /// The verdict's label: `usable`, `rejected`, `unopenable` or `skipped`.
    public var verdict: String
    /// Why a device is not usable (nil for a usable one).
    public var reason: String?

    public init(
        node: String,
        name: String,
        identity: DeviceIdentity?,
        kinds: [String],
        description: DeviceDescription?,
        classification: DeviceClassification?,
        remapper: Remapper?,
        usable: Bool,
        verdict: String,
        reason: String?
    ) {
        self.node = node
        self.name = name
        self.identity = identity
        self.kinds = kinds
        self.description = description
        self.classification = classification
        self.remapper = remapper
        self.usable = usable
        self.verdict = verdict
        self.reason = reason
    }

    /// How the device senses pressure (`none` when it was not classified).
    public var sensing: PressureSensing { classification?.sensing ?? .none }
}

/// What `plumometer list` prints: a block of lines per device (`text`), or one JSON object per device (`json`).
public enum DeviceListText {
    /// One block per device, like `libinput list-devices`, followed by a blank line.
    public static func text(_ device: DeviceListEntry) -> String {
        var lines = ["\(device.node.forTerminalName)  \(device.name.forTerminalName)"]
        if let identity = device.identity { lines.append("  id:        \(identity.idString)") }
        if !device.kinds.isEmpty {
            lines.append("  kind:      \(device.kinds.joined(separator: ", "))")
        }
        if let description = device.description {
            if let slots = description.reportedSlots { lines.append("  slots:     \(slots)") }
            if let axis = description.pressureAxis, let range = description.axes[axis] {
                lines.append(
                    "  pressure:  \(axis.name) \(range.minimum)..\(range.maximum), resolution \(range.resolution)"
                )
            }
        }
        lines.append("  sensing:   \(device.sensing.rawValue)")
        if device.usable, let classification = device.classification {
            lines.append("             \(classification.reason)")
        }
        // Every finding of the static part, as `plumometer probe --static` prints them.
        if let findings = device.classification?.findings, !findings.isEmpty {
            lines.append("  findings:")
            for finding in findings {
                lines.append("    - \(finding.code.rawValue): \(finding.finding) -> \(finding.implication)")
            }
        }
        if let remapper = device.remapper { lines.append("  remapper:  \(remapper.explanation.forTerminalName)") }
        // A device that is not usable says why once, in its verdict.
        lines.append("  verdict:   \(device.verdict)\(device.reason.map { ": \($0)" } ?? "")")
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// The device as one JSON object (no newline).
    public static func json(_ device: DeviceListEntry) -> String {
        let description = device.description
        var pressure = "null"
        if let description, let axis = description.pressureAxis, let range = description.axes[axis] {
            pressure =
                "{\"axis\":\(JSONText.string(axis.name)),\"min\":\(range.minimum),\"max\":\(range.maximum),"
                + "\"resolution\":\(range.resolution)}"
        }
        let remapper = device.remapper.map { "{\"\($0.relation)\":\(JSONText.string($0.node))}" } ?? "null"
        let reason = device.reason ?? device.classification?.reason
        let fields = [
            "\"node\":\(JSONText.string(device.node))",
            "\"name\":\(JSONText.string(device.name))",
            "\"id\":\(JSONText.optional(device.identity?.idString, JSONText.string))",
            "\"kinds\":\(ProbeText.stringArray(device.kinds))",
            "\"slots\":\(JSONText.optional(description?.reportedSlots) { String($0) })",
            "\"pressure\":\(pressure)",
            "\"sensing\":\(JSONText.string(device.sensing.rawValue))",
            "\"force_sensor\":\(JSONText.optional(device.classification?.isForceSensor) { "\($0)" })",
            "\"semi_mt\":\(JSONText.optional(device.classification?.semiMultitouch) { "\($0)" })",
            "\"findings\":\(ProbeText.findingsJSON(device.classification?.findings ?? []))",
            "\"remapper\":\(remapper)",
            "\"usable\":\(device.usable)",
            "\"verdict\":\(JSONText.string(device.verdict))",
            "\"reason\":\(JSONText.optional(reason, JSONText.string))",
        ]
        return "{\(fields.joined(separator: ","))}"
    }

    /// Every device's block, one after the other.
    public static func text(_ devices: [DeviceListEntry]) -> String { devices.map(text).joined() }

    /// Every device as one JSON array, with a newline.
    public static func json(_ devices: [DeviceListEntry]) -> String {
        "[\(devices.map(json).joined(separator: ","))]\n"
    }
}
