public import PlumometerCore

/// Turns readings into lines of one of the line formats (JSON Lines, CSV, text).
///
/// A formatter only builds text; a ``LineOutput`` writes it. Every method returns complete lines (each ending
/// in a newline) or nil when the format has nothing to say.
public protocol LineFormatter {
    /// Printed once before anything else (the CSV header).
    func header() -> String?
    /// The lines that announce a device (JSON Lines, text) when reading from it starts.
    func device(_ record: DeviceRecord) -> String?
    /// The lines of one reading, the `sequence`-th of the device at `device`, whose `positions` turn into
    /// millimetres (nil: the device has no position axes).
    func frame(_ reading: Reading, sequence: Int, device: String, positions: PositionAxes?) -> String?
    /// The lines that say the device at `path` went away at `time`.
    func removed(path: String, time: EventTime) -> String?
}

extension LineFormatter {
    /// The lines of one reading without millimetres (tests, and readings of no particular device).
    public func frame(_ reading: Reading, sequence: Int, device: String) -> String? {
        frame(reading, sequence: sequence, device: device, positions: nil)
    }
}

/// JSON Lines, schema version 1: see docs/output-format.md. Additions are allowed, renames are not.
public struct JSONLinesFormatter: LineFormatter {
    /// The `schema` field of every device line.
    static let schemaVersion = 1

    /// Creates the formatter.
    public init() {}

    public func header() -> String? { nil }

    public func device(_ record: DeviceRecord) -> String? {
        let description = record.description
        var line = "{\"type\":\"device\",\"time\":" + NumberText.seconds(record.time)
        if let wall = record.wallTime { line += ",\"wall_time\":\"" + NumberText.iso8601(wall) + "\"" }
        line += ",\"device\":" + JSONText.string(record.path)
        line += ",\"name\":" + JSONText.string(description.name)
        line += ",\"id\":" + JSONText.string(description.identity.idString)
        line += ",\"slots\":" + JSONText.optional(description.reportedSlots) { String($0) }
        if let axis = description.pressureAxis, let range = description.axes[axis] {
            line += ",\"pressure\":{\"axis\":" + JSONText.string(axis.name)
            line += ",\"min\":\(range.minimum),\"max\":\(range.maximum),\"resolution\":\(range.resolution)}"
        } else {
            line += ",\"pressure\":null"
        }
        line += ",\"position\":" + JSONText.optional(PositionAxes(description)) { $0.json }
        line += ",\"force_sensor\":" + JSONText.optional(record.classification.isForceSensor) { $0 ? "true" : "false" }
        line += ",\"sensing\":" + JSONText.string(record.classification.sensing.rawValue)
        // Only on a semi-multitouch pad: its bounding box is read as one contact (other devices' lines unchanged).
        if record.classification.semiMultitouch { line += ",\"semi_mt\":true" }
        switch record.gramsSource {
        case .none: line += ",\"grams_from\":null"
        case .resolution: line += ",\"grams_from\":\"resolution\""
        case .calibration(let path):
            line += ",\"grams_from\":\"calibration\",\"profile\":" + JSONText.string(path)
            if let made = record.profileMade { line += ",\"profile_made\":" + JSONText.string(made) }
        }
        line += ",\"schema\":\(Self.schemaVersion)}\n"
        return line
    }

    public func frame(_ reading: Reading, sequence: Int, device: String, positions: PositionAxes?) -> String? {
        // The device path as a JSON string: almost always plain, written as it is; escaped text otherwise.
        var escaped: String?
        for byte in device.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5c || byte == 0x7f {
            escaped = JSONText.string(device)
            break
        }
        let deviceBytes = escaped.map { $0.utf8.count } ?? device.utf8.count + 2
        let capacity = Self.frameRoom + deviceBytes + reading.contacts.count * Self.contactRoom
        return LineCursor.write(capacity: capacity) { line in
            line.write("{\"type\":\"frame\",\"time\":")
            line.write(seconds: reading.time)
            line.write(",\"seq\":")
            line.write(integer: sequence)
            line.write(",\"device\":")
            if var escaped {
                escaped.withUTF8 { line.write($0) }
            } else {
                var plain = device
                line.write(byte: UInt8(ascii: "\""))
                plain.withUTF8 { line.write($0) }
                line.write(byte: UInt8(ascii: "\""))
            }
            line.write(reading.resync ? ",\"resync\":true,\"contacts\":[" : ",\"resync\":false,\"contacts\":[")
            var first = true
            for contact in reading.contacts {
                line.write(first ? "{\"id\":" : ",{\"id\":")
                first = false
                line.write(integer: contact.id)
                line.write(",\"slot\":")
                if let slot = contact.slot { line.write(integer: slot) } else { line.write("null") }
                line.write(",\"x\":")
                if let x = contact.x { line.write(integer: x) } else { line.write("null") }
                line.write(",\"y\":")
                if let y = contact.y { line.write(integer: y) } else { line.write("null") }
                line.write(",\"x_mm\":")
                if let x = positions?.millimetresX(contact.x) {
                    line.write(fixed: x, places: 2)
                } else {
                    line.write("null")
                }
                line.write(",\"y_mm\":")
                if let y = positions?.millimetresY(contact.y) {
                    line.write(fixed: y, places: 2)
                } else {
                    line.write("null")
                }
                line.write(",\"pressure\":")
                line.write(integer: contact.pressure)
                line.write(",\"force\":")
                line.write(fixed: contact.force, places: 4)
                line.write(",\"percent\":")
                line.write(fixed: contact.percent, places: 1)
                line.write(",\"ratio\":")
                line.write(fixed: contact.ratio, places: 4)
                line.write(",\"share\":")
                line.write(fixed: contact.share, places: 4)
                line.write(",\"rank\":")
                line.write(integer: contact.rank)
                line.write(contact.heaviest ? ",\"heaviest\":true" : ",\"heaviest\":false")
                line.write(contact.stable ? ",\"stable\":true" : ",\"stable\":false")
                line.write(contact.saturated ? ",\"saturated\":true" : ",\"saturated\":false")
                line.write(",\"grams\":")
                if let grams = contact.grams { line.write(fixed: grams, places: 2) } else { line.write("null") }
                line.write("}")
            }
            line.write("]")
            if let total = reading.totalGrams {
                line.write(",\"total_grams\":")
                line.write(fixed: total, places: 2)
            }
            line.write("}\n")
        }
    }

    /// Room for a frame line's text outside its contacts and device path: the literals (~100 bytes), the time,
    /// the sequence number and the total.
    static let frameRoom = 128 + 2 * LineCursor.longestInteger + 2 * LineCursor.longestFixed
    /// Room for one contact: its literals (~160 bytes for the longest: `false` everywhere), three whole numbers
    /// as long as an `Int`, three as long as an `Int32`, and seven fixed-point numbers at their longest.
    static let contactRoom = 176 + 3 * LineCursor.longestInteger + 3 * 11 + 7 * LineCursor.longestFixed

    public func removed(path: String, time: EventTime) -> String? {
        "{\"type\":\"removed\",\"time\":" + NumberText.seconds(time) + ",\"device\":" + JSONText.string(path) + "}\n"
    }
}

/// CSV (RFC 4180 fields, lines ended by LF as docs/output-format.md says): a header, then one row per contact per frame. A frame with no contacts is one row whose
/// contact columns are empty, so a consumer sees the surface clear. `resync` marks a frame rebuilt after lost events;
/// `type` says what a row is: `frame`, `device` (the device was opened or reopened; its `name` in the last column)
/// or `removed` (see docs/output-format.md).
public struct CSVFormatter: LineFormatter {
    static let columns = [
        "time", "seq", "device", "id", "slot", "x", "y", "pressure", "force", "percent", "ratio", "share", "rank",
        "heaviest", "stable", "saturated", "grams", "resync", "type", "name", "x_mm", "y_mm", "total_grams",
    ]

    /// Creates the formatter.
    public init() {}

    public func header() -> String? { Self.columns.joined(separator: ",") + "\n" }

    /// Every contact column empty, for rows that are not a contact.
    static let noContact = ",,,,,,,,,,,,,"

    public func device(_ record: DeviceRecord) -> String? {
        NumberText.seconds(record.time) + ",," + Self.field(record.path) + Self.noContact + ",,,device,"
            + Self.field(record.description.name) + ",,," + "\n"
    }

    public func frame(_ reading: Reading, sequence: Int, device: String, positions: PositionAxes?) -> String? {
        let prefix = NumberText.seconds(reading.time) + ",\(sequence)," + Self.field(device) + ","
        let total = "," + (reading.totalGrams.map { NumberText.fixed($0, 2) } ?? "") + "\n"
        let suffix = reading.resync ? ",true,frame," : ",false,frame,"
        guard !reading.contacts.isEmpty else { return prefix + Self.noContact + suffix + ",," + total }
        var text = ""
        for contact in reading.contacts {
            let millimetres =
                "," + (positions?.millimetresX(contact.x).map { NumberText.fixed($0, 2) } ?? "") + ","
                + (positions?.millimetresY(contact.y).map { NumberText.fixed($0, 2) } ?? "")
            var row = prefix + "\(contact.id),"
            row += (contact.slot.map { String($0) } ?? "") + ","
            row += (contact.x.map { String($0) } ?? "") + ","
            row += (contact.y.map { String($0) } ?? "") + ","
            row += "\(contact.pressure)," + NumberText.fixed(contact.force, 4) + ","
            row += NumberText.fixed(contact.percent, 1) + "," + NumberText.fixed(contact.ratio, 4) + ","
            row += NumberText.fixed(contact.share, 4) + ",\(contact.rank),"
            row += (contact.heaviest ? "true" : "false") + "," + (contact.stable ? "true" : "false") + ","
            row += (contact.saturated ? "true" : "false") + ","
            row += (contact.grams.map { NumberText.fixed($0, 2) } ?? "") + suffix + millimetres + total
            text += row
        }
        return text
    }

    public func removed(path: String, time: EventTime) -> String? {
        NumberText.seconds(time) + ",," + Self.field(path) + Self.noContact + ",,,removed,,,,\n"
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break; other control characters (ESC, BEL, ...)
    /// escaped as for a terminal (``Swift/String/forTerminal``), since CSV is read on one as often as in a program.
    static func field(_ raw: String) -> String {
        var text = raw
        if raw.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) {
            // Line breaks (CR, LF) and tabs stay: quoting carries them.
            text = ""
            for scalar in raw.unicodeScalars {
                if scalar == "\r" { text.unicodeScalars.append(scalar) } else { text += String(scalar).forTerminal }
            }
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }
}

/// One human-readable line per frame: `12.345678  #17 31.6% *heaviest*   #18 12.0%  (0.38x)`.
public struct TextFormatter: LineFormatter {
    /// The unit weights are shown in.
    public var unit: WeightUnit

    /// Creates the formatter, showing weights in `unit`.
    public init(unit: WeightUnit = .grams) {
        self.unit = unit
    }

    public func header() -> String? { nil }

    public func device(_ record: DeviceRecord) -> String? {
        var line =
            "# " + record.path.forTerminalName + ": " + record.description.name.forTerminalName + " ["
            + record.description.identity.idString + "]"
        if let range = record.description.pressureRange, let axis = record.description.pressureAxis {
            line += ", \(axis.name) \(range.minimum)..\(range.maximum)"
            if let profile = record.profileText {
                line += ", grams from " + profile
            } else if range.resolution > 0 {
                line += " (\(range.resolution)/g)"
            }
        }
        line += ", " + record.classification.sensing.rawValue
        if let notice = record.meaningNotice { line += " (" + notice + ")" }
        if record.classification.semiMultitouch { line += ", semi-MT: read as one contact" }
        if let wall = record.wallTime { line += ", opened " + NumberText.iso8601(wall) }
        line += "\n"
        return line
    }

    public func frame(_ reading: Reading, sequence: Int, device: String, positions: PositionAxes?) -> String? {
        var line = NumberText.seconds(reading.time)
        if reading.resync { line += "  [resync]" }
        if reading.contacts.isEmpty { return line + "  (no contacts)\n" }
        for contact in reading.contacts {
            line += "  #\(contact.id) " + NumberText.fixed(contact.percent, 1) + "%"
            if let grams = contact.grams { line += " " + unit.format(grams: grams) }
            if contact.heaviest {
                line += " *heaviest*"
            } else {
                line += "  (" + NumberText.fixed(contact.ratio, 2) + "x)"
            }
            if contact.saturated { line += " !saturated" }
            if contact.carrier { line += " [carrier]" }
            if contact.stable { line += " =" }
        }
        if let total = reading.totalGrams { line += "  total " + unit.format(grams: total) }
        return line + "\n"
    }

    public func removed(path: String, time: EventTime) -> String? {
        NumberText.seconds(time) + "  " + path.forTerminalName + " removed\n"
    }
}

extension String {
    /// Every occurrence of `target` replaced (Foundation-free, for the few places that need it).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}
