public import PlumometerCore

/// Writes evemu 1.3 recordings: what `evemu-record` writes, so `evemu-play`, `evemu-device`, umockdev's
/// evemu loader and ``RecordingReader`` all accept it.
///
/// The layout follows `evemu_write` in evemu.c: `# EVEMU 1.3`, descriptive comments, `N:`, `I:` (4 hex
/// fields), one `P:` line, `B: 00` (the event-type bitmap), the `B:` lines of every type evemu knows (types
/// 0x01-0x15 with their full mask length, empty ones included), then `A:` lines with 6 numbers. `EV_SYN`
/// codes are not recorded (evemu has no line for them), and an empty code set reads back as no entry.
public enum EvemuWriter {
    /// The mask length, in bytes, evemu writes for each type (`(TYPE_MAX + 1 + 7) / 8` rounded up to 8).
    private static let maskTypes: [(type: UInt16, bytes: Int)] = [
        (0x01, 96),  // EV_KEY: KEY_MAX 0x2ff
        (0x02, 8),  // EV_REL
        (0x03, 8),  // EV_ABS
        (0x04, 8),  // EV_MSC
        (0x05, 8),  // EV_SW
        (0x11, 8),  // EV_LED
        (0x12, 8),  // EV_SND
        (0x14, 8),  // EV_REP
        (0x15, 16),  // EV_FF: FF_MAX 0x7f
    ]

    /// The description block of an evemu 1.3 file, ending with a newline.
    ///
    /// - Parameter description: The device; its `path` is not written (evemu has no line for it).
    /// - Returns: `# EVEMU 1.3`, comments, then the `N:`, `I:`, `P:`, `B:` and `A:` lines.
    public static func description(of description: DeviceDescription) -> String {
        let identity = description.identity
        // A name cannot hold a line break in a line-based format, nor any other control character a reader might
        // take for one: each becomes a space, so a crafted name cannot add a line (evemu has no escapes).
        let name = LibinputRecordWriter.commentText(identity.name)
        var lines: [String] = [
            "# EVEMU 1.3",
            "# Input device name: \"\(name)\"",
            "# Input device ID: bus 0x\(hex(identity.bus)) vendor 0x\(hex(identity.vendor)) "
                + "product 0x\(hex(identity.product)) version 0x\(hex(identity.version))",
        ]
        if let x = description.axes[.x], let y = description.axes[.y], x.resolution > 0, y.resolution > 0 {
            let width = (Int(x.maximum) - Int(x.minimum)) / Int(x.resolution)
            let height = (Int(y.maximum) - Int(y.minimum)) / Int(y.resolution)
            lines.append("# Size in mm: \(width)x\(height)")
        }
        if !description.properties.isEmpty {
            lines.append("# Properties: " + description.properties.sorted().map(\.name).joined(separator: " "))
        }
        lines.append("N: \(name)")
        lines.append(
            "I: \(hex(identity.bus, width: 4)) \(hex(identity.vendor, width: 4)) "
                + "\(hex(identity.product, width: 4)) \(hex(identity.version, width: 4))"
        )

        var properties = [UInt8](repeating: 0, count: 8)
        for property in description.properties where property.rawValue < 64 {
            properties[Int(property.rawValue) / 8] |= 1 << (property.rawValue % 8)
        }
        lines.append("P: " + properties.map { hex($0) }.joined(separator: " "))

        var types = [UInt8](repeating: 0, count: 8)
        types[0] = 1  // EV_SYN: every device has it
        for (type, codes) in description.codes where !codes.isEmpty && type.rawValue < 64 {
            types[Int(type.rawValue) / 8] |= 1 << (type.rawValue % 8)
        }
        lines.append("B: 00 " + types.map { hex($0) }.joined(separator: " "))

        var written = Set<UInt16>([0])
        var order = maskTypes
        // Types evemu does not write (EV_PWR, EV_FF_STATUS, unnamed ones) still round-trip.
        for type in description.codes.keys.map(\.rawValue).sorted() where !order.contains(where: { $0.type == type }) {
            if type == 0 { continue }
            let highest = Int(description.codes[EventType(rawValue: type)]?.max() ?? 0)
            order.append((type, (highest / 64 + 1) * 8))
        }
        for (type, byteCount) in order where !written.contains(type) {
            written.insert(type)
            var mask = [UInt8](repeating: 0, count: byteCount)
            for code in description.codes[EventType(rawValue: type)] ?? [] where Int(code) / 8 < byteCount {
                mask[Int(code) / 8] |= 1 << (code % 8)
            }
            for start in stride(from: 0, to: byteCount, by: 8) {
                lines.append("B: \(hex(type)) " + mask[start..<(start + 8)].map { hex($0) }.joined(separator: " "))
            }
        }

        for (axis, info) in description.axes.sorted(by: { $0.key < $1.key }) {
            lines.append(
                "A: \(hex(axis.rawValue)) \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `E:` line (without a newline), as `evemu_write_event` prints it: `E: %lu.%06u %04x %04x %04d`.
    ///
    /// - Parameters:
    ///   - e: The event.
    ///   - start: The time written as 0.000000; events before it are written at 0.
    public static func eventLine(_ e: RawEvent, since start: EventTime) -> String {
        let elapsed = max(0, e.time.microseconds - start.microseconds)
        let seconds = elapsed / 1_000_000
        let micros = elapsed % 1_000_000
        let microText = String(micros)
        let value = Int(e.value)
        let magnitude = String(value.magnitude)
        // printf's %04d pads to 4 characters including the sign: 5 -> 0005, -1 -> -001.
        let width = value < 0 ? 3 : 4
        let padded = String(repeating: "0", count: max(0, width - magnitude.count)) + magnitude
        return "E: \(seconds).\(String(repeating: "0", count: 6 - microText.count))\(microText) "
            + "\(hex(e.type.rawValue, width: 4)) \(hex(e.code, width: 4)) \(value < 0 ? "-" : "")\(padded)"
    }

    /// The `start` to pass to ``eventLine(_:since:)`` for a recording whose first event is at `first`.
    ///
    /// evemu-record writes the first event at 0.000001, not 0: `evemu-play` treats a zero time as "not set
    /// yet" and would otherwise not wait between the first and second frames.
    public static func start(forFirstEventAt first: EventTime) -> EventTime {
        EventTime(microseconds: first.microseconds - 1)
    }

    /// A complete recording: the description, then every event relative to the first (see ``start(forFirstEventAt:)``).
    public static func recording(of description: DeviceDescription, events: [RawEvent]) -> String {
        var text = self.description(of: description)
        guard let first = events.first else { return text }
        let start = start(forFirstEventAt: first.time)
        for event in events {
            text += eventLine(event, since: start)
            text += "\n"
        }
        return text
    }
}
