import PlumometerCore

/// Fixed-point number text without Foundation's `String(format:)`, which is slow on a 1 kHz path and
/// locale-dependent. Output must be byte-for-byte reproducible for replay tests.
enum NumberText {
    private static let powers: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// `value` rounded to `decimals` places (0...6), e.g. `fixed(31.5789, 1)` = `31.6`; "0" for non-finite input.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        let scale = powers[min(max(decimals, 0), 6)]
        let scaled = (Swift.abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return String(value) }
        let whole = Int64(scaled)
        let factor = Int64(scale)
        let integer = whole / factor
        var text = (value < 0 && whole != 0 ? "-" : "") + String(integer)
        if decimals > 0 {
            let fraction = String(whole % factor)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }

    /// The shortest text for a bound in a message: `0.001`, `1000000`.
    static func trimmed(_ value: Double) -> String {
        var text = fixed(value, 6)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A kernel time as seconds with 6 decimals, exact (no floating point).
    static func seconds(_ time: EventTime) -> String {
        let microseconds = time.microseconds
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1_000_000)
        return (microseconds < 0 ? "-" : "") + String(magnitude / 1_000_000) + "."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// Appends ``fixed(_:_:)``'s text to `line` without building intermediate strings (the JSON hot path).
    static func appendFixed(_ value: Double, _ decimals: Int, to line: inout String) {
        guard value.isFinite else {
            line += "0"
            return
        }
        let places = min(max(decimals, 0), 6)
        let scale = powers[places]
        let scaled = (Swift.abs(value) * scale).rounded()
        guard scaled < 9.0e15 else {
            line += String(value)
            return
        }
        let whole = Int64(scaled)
        let factor = Int64(scale)
        if value < 0 && whole != 0 { line += "-" }
        line += String(whole / factor)
        if decimals > 0 {
            line += "."
            appendPadded(UInt64(whole % factor), width: decimals, to: &line)
        }
    }

    /// Appends ``seconds(_:)``'s text to `line`.
    static func appendSeconds(_ time: EventTime, to line: inout String) {
        let microseconds = time.microseconds
        let magnitude = microseconds.magnitude
        if microseconds < 0 { line += "-" }
        line += String(magnitude / 1_000_000)
        line += "."
        appendPadded(magnitude % 1_000_000, width: 6, to: &line)
    }

    /// `value` in decimal, left-padded with zeros to `width` digits, as ASCII appended to `line`.
    private static func appendPadded(_ value: UInt64, width: Int, to line: inout String) {
        // Up to 6 digits here (a fraction of 10^decimals); a fixed tuple keeps it off the heap.
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (48, 48, 48, 48, 48, 48, 48, 48)
        var remaining = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = 7
            while remaining > 0 && index >= 0 {
                buffer[index] = UInt8(48 + remaining % 10)
                remaining /= 10
                index -= 1
            }
            count = Swift.max(width, 7 - index)
            line += String(decoding: UnsafeRawBufferPointer(rebasing: buffer[(8 - count)...]), as: UTF8.self)
        }
    }

    /// A right-aligned field of `width` characters.
    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

/// A unit for displaying weights. JSON Lines and CSV always carry grams.
enum WeightUnit: String, Sendable {
    case grams = "g"
    case ounces = "oz"
    case carats = "ct"

    /// Converts grams to this unit.
    func value(fromGrams grams: Double) -> Double {
        switch self {
        case .grams: grams
        case .ounces: grams / 28.349523125
        case .carats: grams / 0.2
        }
    }

    /// `12.3 g`, `0.43 oz`, `61.5 ct`.
    func format(grams: Double) -> String {
        switch self {
        case .grams: NumberText.fixed(value(fromGrams: grams), 1) + " g"
        case .ounces: NumberText.fixed(value(fromGrams: grams), 2) + " oz"
        case .carats: NumberText.fixed(value(fromGrams: grams), 1) + " ct"
        }
    }
}

/// JSON text helpers (RFC 8259), written by hand so the output has a fixed key order and number format.
enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func optional<T>(_ value: T?, _ render: (T) -> String) -> String {
        value.map(render) ?? "null"
    }
}

extension String {
    /// The text safe to show on a terminal: control characters (C0 but tab and newline, DEL, C1) become visible
    /// `\xNN` escapes. Device names come from the kernel and from recordings people send; an escape sequence in a
    /// name must not retitle the user's window or clear the screen. JSON and CSV escape their own way.
    var forTerminal: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if Self.isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x0a && value != 0x09) || value == 0x7f || (0x80...0x9f).contains(value)
    }
}
