import PlumometerCore

/// Reads evemu `E: sec.usec type code value` lines one at a time.
///
/// What evemu writes: `E: %lu.%06u %04x %04x %04d`, optionally followed by a tab and a `#` comment
/// (evemu 2.x). What it reads: `sscanf("E: %lu.%06u %04x %04x %d")`. So:
/// - `sec` is 1 or more decimal digits; `usec` 1 to 6 decimal digits taken as a count of microseconds (evemu
///   reads `1.5` as 1 s + 5 us, not 1.5 s; 7 digits would make `sscanf` split the field, so they are an error);
/// - type and code are 1 to 4 hexadecimal digits in either case, no `0x`;
/// - the value is a signed decimal, possibly zero-padded (`-001` is -1), within 32 bits;
/// - a `#` comment may follow; any other trailing text is an error.
/// Times are taken as written (absolute or relative); a replay measures gaps between events.
///
/// ``EvemuEventParser`` reads one line (fed by a stream or by ``EvemuEventScanner`` over a complete text).
struct EvemuEventParser: Sendable {
    let fileName: String
    let validator: EventValidator

    init(fileName: String, description: DeviceDescription) {
        self.fileName = fileName
        self.validator = EventValidator(description)
    }

    /// Largest `sec` whose microsecond count fits in Int64.
    static let maxSeconds: Int64 = Int64.max / 1_000_000 - 1

    /// The event on `line`, or nil for a blank or comment line.
    ///
    /// - Throws: `RecordingError` for a malformed line or an event the description does not allow.
    func event(_ line: TextLine, in bytes: [UInt8]) throws(RecordingError) -> RawEvent? {
        let range = line.range
        func fail(_ message: String) -> RecordingError {
            RecordingError(file: fileName, line: line.number, message: message)
        }
        if let nul = bytes.firstNUL(in: range) {
            throw fail("NUL byte at column \(nul - range.lowerBound + 1): this is not a text file")
        }
        if range.isEmpty || range.allSatisfy({ ASCII.isSpace(bytes[$0]) }) { return nil }
        if bytes[range.lowerBound] == UInt8(ascii: "#") { return nil }
        guard bytes.hasPrefix("E:", in: range) else {
            if range.count >= 2, bytes[range.lowerBound + 1] == UInt8(ascii: ":"),
                "NIPBALS".utf8.contains(bytes[range.lowerBound])
            {
                throw fail(
                    "description line '\(bytes.quoted(range, limit: 12))' among the events: the description "
                        + "must come first, and only once"
                )
            }
            throw EvemuDescriptionReader.unexpectedLine(bytes, line, fileName: fileName)
        }
        let fields = tokens(in: bytes, (range.lowerBound + 2)..<range.upperBound)
        guard fields.count == 4 else {
            // A trailing field that is not a comment is reported as such; too few fields as a count.
            if fields.count > 4 {
                throw fail(
                    "unexpected text '\(bytes.quoted(fields[4]))' after the event value (comments start with '#')"
                )
            }
            throw fail("expected 4 fields after 'E:' (sec.usec type code value), found \(fields.count)")
        }
        let time = try parseTime(bytes, fields[0], fail)
        guard let type = NumberParser.hex(bytes, fields[1], maxDigits: 4) else {
            throw fail("event type '\(bytes.quoted(fields[1]))' is not 1 to 4 hexadecimal digits")
        }
        guard let code = NumberParser.hex(bytes, fields[2], maxDigits: 4) else {
            throw fail("event code '\(bytes.quoted(fields[2]))' is not 1 to 4 hexadecimal digits")
        }
        let value: Int32
        switch NumberParser.decimal(bytes, fields[3], bounds: NumberParser.int32Bounds) {
        case .value(let parsed): value = Int32(parsed)
        case .notANumber: throw fail("event value '\(bytes.quoted(fields[3]))' is not a decimal number")
        case .outOfRange:
            throw fail("event value \(bytes.quoted(fields[3])) does not fit in a 32-bit signed integer")
        }
        let event = RawEvent(time: time, type: EventType(rawValue: UInt16(type)), code: UInt16(code), value: value)
        if let problem = validator.problem(with: event) { throw fail(problem) }
        return event
    }

    private func parseTime(
        _ bytes: [UInt8],
        _ field: Range<Int>,
        _ fail: (String) -> RecordingError
    ) throws(RecordingError) -> EventTime {
        guard let dot = bytes[field].firstIndex(of: UInt8(ascii: ".")) else {
            throw fail("event time '\(bytes.quoted(field))' is not sec.usec")
        }
        let secRange = field.lowerBound..<dot
        let usecRange = (dot + 1)..<field.upperBound
        guard !secRange.isEmpty, bytes[secRange].allSatisfy(ASCII.isDigit),
            !usecRange.isEmpty, bytes[usecRange].allSatisfy(ASCII.isDigit)
        else {
            throw fail("event time '\(bytes.quoted(field))' is not sec.usec (unsigned decimal digits)")
        }
        guard usecRange.count <= 6 else {
            throw fail(
                "event time '\(bytes.quoted(field))' has \(usecRange.count) digits after the dot; evemu writes "
                    + "microseconds as at most 6"
            )
        }
        guard case .value(let seconds) = NumberParser.decimal(bytes, secRange, bounds: 0...Self.maxSeconds) else {
            throw fail("event time '\(bytes.quoted(field))' is too large")
        }
        guard case .value(let micros) = NumberParser.decimal(bytes, usecRange, bounds: 0...999_999) else {
            throw fail("event time '\(bytes.quoted(field))' is not sec.usec")
        }
        return EventTime(seconds: seconds, microseconds: micros)
    }
}

/// Reads the `E:` lines of a complete text one at a time (the lazy events of ``RecordingReader``'s recordings).
struct EvemuEventScanner: Sendable {
    var scanner: LineScanner
    let parser: EvemuEventParser

    init(scanner: LineScanner, fileName: String, description: DeviceDescription) {
        self.scanner = scanner
        self.scanner.fileName = fileName
        self.parser = EvemuEventParser(fileName: fileName, description: description)
    }

    mutating func next() throws(RecordingError) -> (RawEvent, Int)? {
        while let line = try scanner.next() {
            if let event = try parser.event(line, in: scanner.bytes) { return (event, line.number) }
        }
        return nil
    }
}
