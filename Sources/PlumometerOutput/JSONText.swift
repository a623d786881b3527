/// JSON text helpers (RFC 8259), written by hand so the output has a fixed key order and number format.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    public static func string(_ text: String) -> String {
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

    /// `render(value)`, or `null` when there is no value.
    public static func optional<T>(_ value: T?, _ render: (T) -> String) -> String {
        value.map(render) ?? "null"
    }
}
