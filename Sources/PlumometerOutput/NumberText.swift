public import PlumometerCore

/// Fixed-point number text without Foundation's `String(format:)`, which is slow on a 1 kHz path and
/// locale-dependent. Output must be byte-for-byte reproducible for replay tests. ``LineBuilder`` does the digits,
/// so a number reads the same in every format.
public enum NumberText {
    /// `value` rounded to `decimals` places (0...6), e.g. `fixed(31.5789, 1)` = `31.6`; "0" for non-finite input.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        var text = LineBuilder(capacity: 24)
        text.append(fixed: value, decimals: decimals)
        return text.string
    }

    /// The shortest text for a bound in a message: `0.001`, `1000000`.
    public static func trimmed(_ value: Double) -> String {
        var text = fixed(value, 6)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A kernel time as seconds with 6 decimals, exact (no floating point).
    public static func seconds(_ time: EventTime) -> String {
        var text = LineBuilder(capacity: 24)
        text.append(seconds: time)
        return text.string
    }

    /// A right-aligned field of `width` characters.
    public static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
