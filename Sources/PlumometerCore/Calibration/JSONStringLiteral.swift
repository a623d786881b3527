/// JSON string literals (RFC 8259, section 7), quotes included, in the two dialects plumometer writes: one loop
/// for the profiles the core saves and the lines PlumometerOutput streams.
public enum JSONStringLiteral {
    /// How the characters JSON lets a writer choose for are written.
    public enum Dialect: Sendable {
        /// As Foundation's `JSONEncoder` writes them with `.withoutEscapingSlashes`: `/` as it is (as `jq`, Python's
        /// `json` and other JSON tools write it: `"Apple Internal Keyboard / Trackpad"`), backspace and form feed as
        /// `\b` and `\f`, the other control characters as `\u00XX`; DEL as it is. Calibration profiles.
        case foundation
        /// The reading lines': `/` as it is, every control character other than `\n`, `\r` and `\t` (and DEL, so a
        /// terminal showing the line is never sent one) as `\u00XX`.
        case lines
    }

    /// `text` as a JSON string literal in `dialect`.
    public static func quoted(_ text: String, dialect: Dialect) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch (scalar, dialect) {
            case ("\"", _): out += "\\\""
            case ("\\", _): out += "\\\\"
            case ("\n", _): out += "\\n"
            case ("\r", _): out += "\\r"
            case ("\t", _): out += "\\t"
            case ("\u{8}", .foundation): out += "\\b"
            case ("\u{c}", .foundation): out += "\\f"
            default:
                if scalar.value < 0x20 || (scalar.value == 0x7f && dialect == .lines) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
