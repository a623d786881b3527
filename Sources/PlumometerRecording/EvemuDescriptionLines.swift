import PlumometerCore

/// The line readers of ``EvemuDescriptionReader`` that need more than a few lines: `A:` lines, mask bytes, the
/// version comment.
extension EvemuDescriptionReader {
    /// Reads an `A:` line: the axis code and its 5 or 6 numbers, as many as the format version (or the first
    /// `A:` line) says.
    mutating func consumeAxis(_ bytes: [UInt8], _ fieldsRange: Range<Int>, line: TextLine) throws(RecordingError) {
        try advance(to: .axes, line: line.number)
        let fields = tokens(in: bytes, fieldsRange)
        let expected: Int
        let why: String
        if let version {
            expected = version > Version(major: 1, minor: 1) ? 6 : 5
            why = "evemu format \(version.text)"
        } else if let detected = detectedAxisColumns {
            expected = detected.count
            why = "as in the first 'A:' line (line \(detected.line)); no '# EVEMU' version line"
        } else {
            guard fields.count == 5 || fields.count == 6 else {
                throw fail(
                    line.number,
                    "expected 5 or 6 numbers after 'A:' (code, min, max, fuzz, flat[, resolution]), "
                        + "found \(fields.count)"
                )
            }
            detectedAxisColumns = (fields.count, line.number)
            expected = fields.count
            why = ""
        }
        guard fields.count == expected else {
            let names = expected == 6 ? "code, min, max, fuzz, flat, resolution" : "code, min, max, fuzz, flat"
            throw fail(
                line.number,
                "expected \(expected) numbers after 'A:' (\(names); \(why)), found \(fields.count)"
            )
        }
        let axis = AbsoluteAxis(
            rawValue: try code(
                bytes,
                fields[0],
                tag: "A:",
                noun: "an axis code",
                shortNoun: "axis",
                maximum: AbsoluteAxis.max.rawValue,
                maximumName: "ABS_MAX",
                line: line.number
            )
        )
        var numbers: [Int32] = []
        let labels = ["minimum", "maximum", "fuzz", "flat", "resolution"]
        for (index, field) in fields.dropFirst().enumerated() {
            switch NumberParser.decimal(bytes, field, bounds: NumberParser.int32Bounds) {
            case .value(let value): numbers.append(Int32(value))
            case .notANumber:
                throw fail(
                    line.number,
                    "the \(labels[index]) of axis \(hex(axis.rawValue)) "
                        + "('\(bytes.quoted(field))') is not a decimal number"
                )
            case .outOfRange:
                throw fail(
                    line.number,
                    "the \(labels[index]) of axis \(hex(axis.rawValue)) (\(bytes.quoted(field))) does not fit "
                        + "in a 32-bit signed integer"
                )
            }
        }
        if let previous = axisLines[axis] {
            throw fail(
                line.number,
                "a second 'A:' line for axis \(hex(axis.rawValue)) (the first is on line \(previous))"
            )
        }
        axisLines[axis] = line.number
        axes[axis] = AxisInfo(
            minimum: numbers[0],
            maximum: numbers[1],
            fuzz: numbers[2],
            flat: numbers[3],
            resolution: numbers.count > 4 ? numbers[4] : 0
        )
    }

    static func parseVersion(_ bytes: [UInt8], _ range: Range<Int>) -> Version? {
        let parts = tokens(in: bytes, (range.lowerBound + 1)..<range.upperBound)
        guard parts.count >= 2, bytes.text(parts[0]) == "EVEMU" else { return nil }
        let numbers = bytes.text(parts[1]).split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 2, let major = Int(numbers[0]), let minor = Int(numbers[1]), major >= 0, minor >= 0
        else { return nil }
        return Version(major: major, minor: minor)
    }

    static func maskBytes(
        _ bytes: [UInt8],
        _ range: Range<Int>,
        count: Int,
        tag: String,
        what: String,
        _ line: Int,
        _ fileName: String
    ) throws(RecordingError) -> [UInt8] {
        let fields = tokens(in: bytes, range)
        guard fields.count == count else {
            throw RecordingError(
                file: fileName,
                line: line,
                message: "expected \(count) hexadecimal \(what) after '\(tag)', found \(fields.count)"
            )
        }
        var result: [UInt8] = []
        for field in fields {
            guard let value = NumberParser.hex(bytes, field, maxDigits: 2) else {
                throw RecordingError(
                    file: fileName,
                    line: line,
                    message: "'\(bytes.quoted(field))' in the '\(tag)' line is not a byte of 1 or 2 hex digits"
                )
            }
            result.append(UInt8(value))
        }
        return result
    }

    static func unexpectedLine(_ bytes: [UInt8], _ line: TextLine, fileName: String) -> RecordingError {
        RecordingError(
            file: fileName,
            line: line.number,
            message: "unexpected line '\(bytes.quoted(line.range))': an evemu file holds only N:, I:, P:, B:, A:, L:, "
                + "S: and E: lines, '#' comments and blank lines"
        )
    }
}
