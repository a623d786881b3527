import PlumometerCore

/// Fixed-point number text without Foundation's `String(format:)`, which is slow on a 1 kHz path and
/// locale-dependent. Output must be byte-for-byte reproducible for replay tests. ``LineBuilder`` does the digits,
/// so a number reads the same in every format.
enum NumberText {
    /// `value` rounded to `decimals` places (0...6), e.g. `fixed(31.5789, 1)` = `31.6`; "0" for non-finite input.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var text = LineBuilder(capacity: 24)
        text.append(fixed: value, decimals: decimals)
        return text.string
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
        var text = LineBuilder(capacity: 24)
        text.append(seconds: time)
        return text.string
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
