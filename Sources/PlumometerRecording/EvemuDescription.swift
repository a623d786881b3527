import PlumometerCore

/// The evemu description reader: `# EVEMU x.y`, `N:`, `I:`, `P:`, `B:`, `A:`, `L:`, `S:` lines.
///
/// The rules are evemu's own (`evemu_read` in evemu.c), applied strictly and explained in the errors:
/// - Lines come in the order N, I, P*, B*, A*, L*, S*; `#` lines and blank lines may appear anywhere.
/// - `A:` lines carry 5 numbers (code, min, max, fuzz, flat) up to format 1.1 and 6 (plus resolution) from
///   1.2 on. Without a `# EVEMU x.y` line the first `A:` line decides and the others must agree.
/// - `P:` and `B:` lines carry 8 mask bytes; successive lines for the same type continue the mask. `B: 00` is
///   the event-type bitmap (the kernel's `EVIOCGBIT(0)`), so it is checked but adds no codes.
/// - Hexadecimal fields take 1-2 digits (4 for `I:`), either case, no `0x`; decimals are signed 32-bit.
/// - An axis declared by the `B: 03` mask needs an `A:` line (evemu would give it a dummy 0...1 range), and
///   anything after the fields other than a `#` comment is an error (evemu's `sscanf` ignores it).
/// - An `A:` line for an axis the `B: 03` mask leaves out enables the axis, with one warning naming the line.
///   Published recordings do this (a keyboard cover whose HID axes spill into the multitouch range), and their
///   events use the axis, so the device did have it. evemu itself (`parse_abs` calls `libevdev_set_abs_*`, which
///   ignore an undeclared code) drops the range silently, and then its `evemu-play` loses those events.
///
/// The reader is fed one line at a time (``consume(_:in:)``) so that a description can arrive through a pipe;
/// ``read(bytes:fileName:)`` runs it over a complete text.
struct EvemuDescriptionReader {
    /// The file format version from a `# EVEMU major.minor` comment.
    struct Version: Comparable {
        var major: Int
        var minor: Int
        static func < (lhs: Version, rhs: Version) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }
        var text: String { "\(major).\(minor)" }
    }

    struct Result {
        var description: DeviceDescription
        var version: Version?
        /// The scanner positioned at the first line after the description (the first `E:` line, if any).
        var rest: LineScanner
        var warnings: [RecordingWarning]
    }

    enum Stage: Int, Comparable {
        case start, name, id, properties, masks, axes, leds, switches
        static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
        var tag: String {
            switch self {
            case .start: "start"
            case .name: "N:"
            case .id: "I:"
            case .properties: "P:"
            case .masks: "B:"
            case .axes: "A:"
            case .leds: "L:"
            case .switches: "S:"
            }
        }
    }

    /// The largest code of each event type (`*_MAX` in linux/input-event-codes.h).
    static func maxCode(ofType type: UInt16) -> UInt16 {
        switch type {
        case 0x00: 0x1f  // `B: 00` is the event-type bitmap (EVIOCGBIT(0)), so EV_MAX
        case 0x01: 0x2ff  // KEY_MAX
        case 0x02: 0x0f  // REL_MAX
        case 0x03: 0x3f  // ABS_MAX
        case 0x04: 0x07  // MSC_MAX
        case 0x05: 0x10  // SW_MAX
        case 0x11: 0x0f  // LED_MAX
        case 0x12: 0x07  // SND_MAX
        case 0x14: 0x01  // REP_MAX
        case 0x15: 0x7f  // FF_MAX
        default: 0x2ff
        }
    }

    let fileName: String
    // The description read so far (internal, not private: the line readers in EvemuDescriptionLines.swift
    // fill it too).
    var version: Version?
    var stage = Stage.start
    var name = ""
    var identity: (UInt16, UInt16, UInt16, UInt16) = (0, 0, 0, 0)
    var propertyBytes = 0
    var properties = Set<InputProperty>()
    var typeMaskBytes: [UInt16: Int] = [:]
    var codes: [EventType: Set<UInt16>] = [:]
    var axes: [AbsoluteAxis: AxisInfo] = [:]
    var axisLines: [AbsoluteAxis: Int] = [:]
    var detectedAxisColumns: (count: Int, line: Int)?
    var lastLine = 0
    /// Warnings about lines that were accepted anyway (an `A:` line for an axis the `B: 03` mask leaves out).
    private(set) var warnings: [RecordingWarning] = []

    init(fileName: String) {
        self.fileName = fileName
    }

    /// Reads the description at the start of `bytes`, stopping before the first `E:` line.
    static func read(bytes: [UInt8], fileName: String) throws(RecordingError) -> Result {
        var scanner = LineScanner(bytes: bytes)
        scanner.fileName = fileName
        var reader = EvemuDescriptionReader(fileName: fileName)
        while true {
            let before = scanner
            guard let line = try scanner.next() else { break }
            if try !reader.consume(line, in: bytes) {
                scanner = before
                break
            }
        }
        return Result(
            description: try reader.finish(),
            version: reader.version,
            rest: scanner,
            warnings: reader.warnings
        )
    }

    func fail(_ line: Int?, _ message: String) -> RecordingError {
        RecordingError(file: fileName, line: line, message: message)
    }

    /// The code opening a `B:` or `A:` line: 1 or 2 hex digits, at most `maximum`.
    func code(
        _ bytes: [UInt8],
        _ field: Range<Int>,
        tag: String,
        noun: String,
        shortNoun: String,
        maximum: UInt16,
        maximumName: String,
        line: Int
    ) throws(RecordingError) -> UInt16 {
        guard let value = NumberParser.hex(bytes, field, maxDigits: 2) else {
            throw fail(line, "'\(bytes.quoted(field))' in the '\(tag)' line is not \(noun) of 1 or 2 hex digits")
        }
        guard value <= UInt32(maximum) else {
            throw fail(
                line,
                "\(shortNoun) 0x\(hex(value)) in the '\(tag)' line is beyond \(maximumName) (0x\(hex(UInt32(maximum))))"
            )
        }
        return UInt16(value)
    }

    mutating func advance(to next: Stage, line: Int) throws(RecordingError) {
        if next < stage {
            throw fail(
                line,
                "'\(next.tag)' line after '\(stage.tag)' lines: "
                    + "evemu expects N:, I:, P:, B:, A:, L:, S: in this order"
            )
        }
        if stage < .id, next > .id {
            let missing =
                stage == .start ? "'N:' (device name) and 'I:' (ids)" : "'I:' (bus vendor product version)"
            throw fail(line, "'\(next.tag)' line before the \(missing) line")
        }
        stage = next
    }

    /// The description read so far, once its last line has been consumed.
    ///
    /// - Throws: `RecordingError` when the `N:` and `I:` lines are missing or an axis has no range.
    mutating func finish() throws(RecordingError) -> DeviceDescription {
        if stage < .id {
            let problem = lastLine == 0 ? "the file is empty" : "no device description"
            throw fail(nil, "\(problem): an evemu file starts with 'N:' (device name) and 'I:' (ids) lines")
        }
        let declared = codes[.abs] ?? []
        let undeclared = axisLines.sorted(by: { $0.value < $1.value }).filter { !declared.contains($0.key.rawValue) }
        if let first = undeclared.first {
            let list = undeclared.map { "\(hex($0.key.rawValue)) (\($0.key.name), line \($0.value))" }
            let others = undeclared.count > 1 ? "; also " + list.dropFirst().joined(separator: ", ") : ""
            warnings.append(
                RecordingWarning(
                    file: fileName,
                    line: first.value,
                    message: "'A:' line for axis \(hex(first.key.rawValue)) (\(first.key.name)), which the 'B: 03' "
                        + "lines do not declare: the axis is enabled from its 'A:' line\(others)"
                )
            )
            for (axis, _) in undeclared { codes[.abs, default: []].insert(axis.rawValue) }
        }
        if let missing = declared.sorted().first(where: { axes[AbsoluteAxis(rawValue: $0)] == nil }) {
            let axis = AbsoluteAxis(rawValue: missing)
            throw fail(
                nil,
                "the 'B: 03' lines declare axis \(hex(missing)) (\(axis.name)) but no 'A:' line gives its range"
            )
        }
        return DeviceDescription(
            path: fileName,
            identity: DeviceIdentity(
                bus: identity.0,
                vendor: identity.1,
                product: identity.2,
                version: identity.3,
                name: name
            ),
            properties: properties,
            codes: codes,
            axes: axes
        )
    }

    /// Reads one line of the description.
    ///
    /// - Returns: false for the first `E:` line, which is not consumed: the description ends before it.
    /// - Throws: `RecordingError` for a malformed line.
    mutating func consume(_ line: TextLine, in bytes: [UInt8]) throws(RecordingError) -> Bool {
        lastLine = line.number
        let range = line.range
        if let nul = bytes.firstNUL(in: range) {
            throw fail(line.number, "NUL byte at column \(nul - range.lowerBound + 1): this is not a text file")
        }
        if range.isEmpty || range.allSatisfy({ ASCII.isSpace(bytes[$0]) }) { return true }
        if bytes[range.lowerBound] == UInt8(ascii: "#") {
            if stage == .start, version == nil, let parsed = Self.parseVersion(bytes, range) { version = parsed }
            return true
        }
        guard range.count >= 2, bytes[range.lowerBound + 1] == UInt8(ascii: ":") else {
            throw Self.unexpectedLine(bytes, line, fileName: fileName)
        }
        let fieldsRange = (range.lowerBound + 2)..<range.upperBound
        switch bytes[range.lowerBound] {
        case UInt8(ascii: "N"):
            if stage != .start {
                throw fail(line.number, "a second 'N:' line: an evemu file describes exactly one device")
            }
            var start = fieldsRange.lowerBound
            while start < fieldsRange.upperBound, ASCII.isSpace(bytes[start]) { start += 1 }
            // `N: ` alone is a device without a name: the kernel allows one, and evemu-record writes it so.
            // The scalar limit of every recording reader (the kernel's names are at most 255 bytes).
            guard fieldsRange.upperBound - start <= RecordingLimits.maximumScalarLength else {
                throw fail(line.number, FlowParser.scalarMessage)
            }
            name = bytes.text(start..<fieldsRange.upperBound)
            stage = .name

        case UInt8(ascii: "I"):
            if stage != .name {
                throw fail(
                    line.number,
                    stage == .start ? "'I:' line before the 'N:' (device name) line" : "a second 'I:' line"
                )
            }
            let fields = tokens(in: bytes, fieldsRange)
            guard fields.count == 4 else {
                throw fail(
                    line.number,
                    "expected 4 hexadecimal numbers after 'I:' (bus vendor product version), found \(fields.count)"
                )
            }
            var values: [UInt16] = []
            for field in fields {
                guard let value = NumberParser.hex(bytes, field, maxDigits: 4) else {
                    throw fail(
                        line.number,
                        "'\(bytes.quoted(field))' in the 'I:' line is not a hexadecimal number of 1 to 4 digits"
                    )
                }
                values.append(UInt16(value))
            }
            identity = (values[0], values[1], values[2], values[3])
            stage = .id

        case UInt8(ascii: "P"):
            try advance(to: .properties, line: line.number)
            let mask = try Self.maskBytes(
                bytes,
                fieldsRange,
                count: 8,
                tag: "P:",
                what: "property mask bytes",
                line.number,
                fileName
            )
            for (offset, byte) in mask.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let property = (propertyBytes + offset) * 8 + bit
                    guard property <= Int(InputProperty.max.rawValue) else {
                        throw fail(line.number, "property bit \(property) is beyond INPUT_PROP_MAX (0x1f)")
                    }
                    properties.insert(InputProperty(rawValue: UInt16(property)))
                }
            }
            propertyBytes += 8

        case UInt8(ascii: "B"):
            try advance(to: .masks, line: line.number)
            let fields = tokens(in: bytes, fieldsRange)
            guard fields.count == 9 else {
                throw fail(
                    line.number,
                    "expected 9 hexadecimal numbers after 'B:' (event type and 8 mask bytes), found \(fields.count)"
                )
            }
            let type = try code(
                bytes,
                fields[0],
                tag: "B:",
                noun: "an event type",
                shortNoun: "event type",
                maximum: EventType.max.rawValue,
                maximumName: "EV_MAX",
                line: line.number
            )
            let mask = try Self.maskBytes(
                bytes,
                fields[0].upperBound..<fieldsRange.upperBound,
                count: 8,
                tag: "B:",
                what: "mask bytes",
                line.number,
                fileName
            )
            let offset = typeMaskBytes[type, default: 0]
            for (index, byte) in mask.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let code = (offset + index) * 8 + bit
                    let limit = Self.maxCode(ofType: type)
                    guard code <= Int(limit) else {
                        let typeName = EventType(rawValue: type).name ?? "type 0x\(hex(type))"
                        throw fail(
                            line.number,
                            "code 0x\(hex(code)) of \(typeName) is beyond the type's maximum 0x\(hex(limit)); "
                                + "too many 'B: \(hex(type))' lines?"
                        )
                    }
                    // `B: 00` lists the event types the device has (what EVIOCGBIT(0, ...) returns), not
                    // EV_SYN codes; the types follow from the other masks, so it is only checked.
                    if type != 0 { codes[EventType(rawValue: type), default: []].insert(UInt16(code)) }
                }
            }
            typeMaskBytes[type] = offset + 8

        case UInt8(ascii: "A"):
            try consumeAxis(bytes, fieldsRange, line: line)

        case UInt8(ascii: "L"), UInt8(ascii: "S"):
            let isLED = bytes[range.lowerBound] == UInt8(ascii: "L")
            try advance(to: isLED ? .leds : .switches, line: line.number)
            let fields = tokens(in: bytes, fieldsRange)
            let tag = isLED ? "L:" : "S:"
            guard fields.count == 2 else {
                throw fail(line.number, "expected 2 numbers after '\(tag)' (code and state), found \(fields.count)")
            }
            guard NumberParser.hex(bytes, fields[0], maxDigits: 2) != nil,
                case .value = NumberParser.decimal(bytes, fields[1], bounds: NumberParser.int32Bounds)
            else {
                throw fail(line.number, "expected a hexadecimal code and a decimal state after '\(tag)'")
            }

        case UInt8(ascii: "E"):
            if stage < .id {
                throw fail(
                    line.number,
                    "'E:' line before the device description: an evemu recording starts with 'N:' and 'I:' lines"
                )
            }
            return false

        default:
            throw Self.unexpectedLine(bytes, line, fileName: fileName)
        }
        return true
    }
}
