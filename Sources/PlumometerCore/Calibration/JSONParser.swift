/// A strict JSON (RFC 8259) reader for profiles: one value, whitespace around it, nothing after it; errors name
/// the byte offset. Nesting is limited (a profile is three levels deep), so a hostile file cannot exhaust the stack.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private static let maximumDepth = 64

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one value the bytes hold.
    mutating func document() throws(CalibrationJSONError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        let value = try self.value(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the end of the JSON value") }
        return value
    }

    private func failure(_ message: String) -> CalibrationJSONError {
        CalibrationJSONError("\(message) at offset \(index)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value(depth: Int) throws(CalibrationJSONError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw failure("nested too deeply") }
        skipWhitespace()
        guard index < bytes.count else { throw failure("unexpected end of the file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(CalibrationJSONError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes[index...].starts(with: expected) else { throw failure("unexpected character") }
        index += expected.count
        return value
    }

    private mutating func object(depth: Int) throws(CalibrationJSONError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of the file in an object") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw failure("expected ',' or '}'") }
            index += 1
        }
    }

    private mutating func array(depth: Int) throws(CalibrationJSONError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of the file in an array") }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw failure("expected ',' or ']'") }
            index += 1
        }
    }

    private mutating func number() throws(CalibrationJSONError) -> JSONValue {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digits = { (bytes: [UInt8], index: inout Int) -> Int in
            let first = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - first
        }
        let whole = digits(bytes, &index)
        guard whole > 0 else { throw failure("unexpected character") }
        guard whole == 1 || bytes[index - whole] != UInt8(ascii: "0") else {
            throw failure("a number with a leading 0")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(bytes, &index) > 0 else { throw failure("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(bytes, &index) > 0 else { throw failure("expected digits in the exponent") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func string() throws(CalibrationJSONError) -> String {
        index += 1
        var run = index
        var text = ""
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                text += String(decoding: bytes[run..<index], as: UTF8.self)
                index += 1
                return text
            }
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            text += String(decoding: bytes[run..<index], as: UTF8.self)
            index += 1
            guard index < bytes.count else { throw failure("unterminated string") }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                text.unicodeScalars.append(Unicode.Scalar(escaped))
            case UInt8(ascii: "b"): text.unicodeScalars.append("\u{8}")
            case UInt8(ascii: "f"): text.unicodeScalars.append("\u{c}")
            case UInt8(ascii: "n"): text.unicodeScalars.append("\n")
            case UInt8(ascii: "r"): text.unicodeScalars.append("\r")
            case UInt8(ascii: "t"): text.unicodeScalars.append("\t")
            case UInt8(ascii: "u"):
                var unit = try hexUnit()
                if (0xD800..<0xDC00).contains(unit) {
                    guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                        throw failure("a lone surrogate in a string")
                    }
                    index += 2
                    let low = try hexUnit()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone surrogate in a string") }
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(unit) else { throw failure("a lone surrogate in a string") }
                text.unicodeScalars.append(scalar)
            default: throw failure("an unknown escape in a string")
            }
            run = index
        }
    }

    private mutating func hexUnit() throws(CalibrationJSONError) -> UInt32 {
        guard index + 4 <= bytes.count,
            let unit = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw failure("expected four hex digits after \\u") }
        index += 4
        return unit
    }
}
