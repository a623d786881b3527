public import PlumometerOutput

/// Number and mass text for pictures, without Foundation (no `String(format:)`): the same digits on every
/// platform and locale, so screens and SVG files can be compared byte for byte.
enum PictureText {
    /// `value` rounded to `decimals` places (0...6): `fixed(31.5789, 1)` = `31.6`; "0" for non-finite input.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        let places = Swift.min(Swift.max(decimals, 0), 6)
        var factor: Int64 = 1
        for _ in 0..<places { factor *= 10 }
        let scaled = (Swift.abs(value) * Double(factor)).rounded()
        guard scaled < 9.0e15 else { return String(value) }
        let units = Int64(scaled)
        let sign = value < 0 && units != 0 ? "-" : ""
        guard places > 0 else { return sign + String(units) }
        let fraction = String(units % factor)
        return sign + String(units / factor) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// The shortest of `fixed(value, 0...decimals)` that still shows `value` to `decimals` places: `2.5`, `10`.
    static func trimmed(_ value: Double, _ decimals: Int) -> String {
        var text = fixed(value, decimals)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

extension WeightUnit {
    /// A short label for a picture: whole grams or carats from 10 up, one decimal below; ounces with two.
    public func label(grams: Double) -> String {
        let value = value(fromGrams: grams)
        switch self {
        case .ounces: return PictureText.fixed(value, 2) + " oz"
        case .grams, .carats:
            return PictureText.fixed(value, Swift.abs(value) >= 10 ? 0 : 1) + " " + rawValue
        }
    }
}
