public import PlumometerCore

/// Writes `libinput record` YAML, file format version 1: what `libinput record` (and `--multiple`) writes, so
/// `libinput replay`, `libinput analyze` and ``RecordingReader`` accept it.
///
/// The layout follows the FILE FORMAT section of libinput-record(1) and `libinput-record.c`: a `# libinput record`
/// comment, `version: 1`, `ndevices`, then `devices:`, each with its `node`, an `evdev` block (`name`, `id`
/// `[bustype, vendor, product, version]`, `codes` by event type, `absinfo` `[min, max, fuzz, flat, resolution]`
/// by axis, `properties`), a `udev` block, and `events`: a list of `evdev` entries, one per frame, each event
/// `[sec, usec, type, code, value]` relative to the recording's first event (shared by every device of a file,
/// as `--multiple` does). libinput's own `libinput`/`system` blocks are left out: plumometer is neither.
///
/// Names come from the kernel and cannot be trusted: the name is written as a double-quoted YAML scalar with every
/// quote, backslash and control character escaped, and comments hold no control character, so a crafted name cannot
/// add a key, a device or an event.
public enum LibinputRecordWriter {
    /// The file's head, up to `devices:`, for a recording of `deviceCount` devices.
    public static func header(deviceCount: Int) -> String {
        "# libinput record\n# written by plumometer\nversion: 1\nndevices: \(deviceCount)\ndevices:\n"
    }

    /// One device's entry up to and including `events:`; its events follow as ``frame(_:since:)`` entries.
    ///
    /// - Parameters:
    ///   - description: The device.
    ///   - node: The device node it was read from (`/dev/input/event7`).
    public static func device(_ description: DeviceDescription, node: String) -> String {
        let identity = description.identity
        var lines = [
            "- node: " + quoted(node),
            "  evdev:",
            "    # Name: " + commentText(identity.name),
            "    # ID: bus 0x\(hex(identity.bus, width: 4)) vendor 0x\(hex(identity.vendor, width: 4)) "
                + "product 0x\(hex(identity.product, width: 4)) version 0x\(hex(identity.version, width: 4))",
        ]
        if let x = description.axes[.x], let y = description.axes[.y], x.resolution > 0, y.resolution > 0 {
            let width = (Int(x.maximum) - Int(x.minimum)) / Int(x.resolution)
            let height = (Int(y.maximum) - Int(y.minimum)) / Int(y.resolution)
            lines.append("    # Size in mm: \(width)x\(height)")
        }
        lines += [
            "    name: " + quoted(identity.name),
            "    id: [\(identity.bus), \(identity.vendor), \(identity.product), \(identity.version)]",
            "    codes:",
            // EV_SYN: libevdev reports these four on every device; the reader drops them again.
            "      0: [0, 1, 2, 3] # EV_SYN",
        ]
        for type in description.codes.keys.sorted(by: { $0.rawValue < $1.rawValue }) where type != .syn {
            let codes = (description.codes[type] ?? []).sorted()
            guard !codes.isEmpty else { continue }
            lines.append(
                "      \(type.rawValue): [" + codes.map { String($0) }.joined(separator: ", ") + "]"
                    + (type.name.map { " # " + $0 } ?? "")
            )
        }
        let axes = description.axes.keys.sorted()
        if !axes.isEmpty {
            lines.append("    absinfo:")
            for axis in axes {
                guard let info = description.axes[axis] else { continue }
                lines.append(
                    "      \(axis.rawValue): [\(info.minimum), \(info.maximum), \(info.fuzz), \(info.flat), "
                        + "\(info.resolution)] # \(axis.name)"
                )
            }
        }
        lines.append(
            "    properties: [" + description.properties.sorted().map { String($0.rawValue) }.joined(separator: ", ")
                + "]"
        )
        // `libinput replay` requires the block; plumometer does not read udev properties into a description.
        lines.append("  udev:")
        lines.append("    properties: []")
        lines.append("  events:")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `- evdev:` entry of a device's `events`: the events of one frame (up to its `SYN_REPORT`), with times
    /// relative to `start` (events before it are written at 0).
    public static func frame(_ events: [RawEvent], since start: EventTime) -> String {
        guard !events.isEmpty else { return "" }
        var text = "  - evdev:\n"
        var previousReport: Int64?
        for event in events {
            let elapsed = Swift.max(0, event.time.microseconds - start.microseconds)
            text += "    - [" + pad(String(elapsed / 1_000_000), 3) + ", " + pad(String(elapsed % 1_000_000), 6)
            text += ", " + pad(String(event.type.rawValue), 3) + ", " + pad(String(event.code), 3) + ", "
            text += pad(String(event.value), 7) + "] # "
            if event.type == .syn {
                text +=
                    "------------ " + EventCodeName.name(type: .syn, code: event.code) + " (\(event.code)) ----------"
                if event.code == SynCode.report.rawValue {
                    text += " +\((elapsed - (previousReport ?? elapsed)) / 1000)ms"
                    previousReport = elapsed
                }
            } else {
                text +=
                    (event.type.name ?? "EV_0x" + String(event.type.rawValue, radix: 16)) + " / "
                    + EventCodeName.name(type: event.type, code: event.code) + " \(event.value)"
            }
            text += "\n"
        }
        return text
    }

    /// An empty `events` list, for a device that sent nothing (`events:` alone would be a null).
    public static let noEvents = "  - evdev: []\n"

    /// `text` as a double-quoted YAML scalar: `"`, `\` and every control character escaped (`\n`, `\t`, `\xNN`,
    /// `\uNNNN` for C1 controls, line or paragraph separators, and U+FFFE and U+FFFF, which YAML 1.1 and 1.2 allow in
    /// no stream unescaped), everything else as it is.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    result += "\\x" + hex(scalar.value, width: 2)
                } else if (0x80...0x9f).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
                    || scalar.value == 0xfeff || scalar.value == 0xfffe || scalar.value == 0xffff
                {
                    result += "\\u" + hex(scalar.value, width: 4)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `text` for a `#` comment line: every control character (and line separator) a space, and the non-characters
    /// U+FFFE and U+FFFF too (a YAML stream may not hold them even in a comment).
    static func commentText(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) || scalar.value == 0x2028
                        || scalar.value == 0x2029 || scalar.value == 0xfffe || scalar.value == 0xffff ? " " : scalar
                }
            )
        )
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: Swift.max(0, width - text.count)) + text
    }
}
