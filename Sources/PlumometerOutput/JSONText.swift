import PlumometerCore

/// JSON text helpers (RFC 8259), written by hand so the output has a fixed key order and number format.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included: the core's one escaper, in the reading lines' dialect.
    public static func string(_ text: String) -> String { JSONStringLiteral.quoted(text, dialect: .lines) }

    /// `render(value)`, or `null` when there is no value.
    public static func optional<T>(_ value: T?, _ render: (T) -> String) -> String {
        value.map(render) ?? "null"
    }
}
