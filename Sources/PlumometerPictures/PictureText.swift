public import PlumometerOutput

/// Number text for pictures beyond ``NumberText`` (whose fixed-decimal digits they share), without Foundation: the
/// same digits on every platform and locale, so screens and SVG files can be compared byte for byte.
enum PictureText {
    /// The shortest of `fixed(value, 0...decimals)` that still shows `value` to `decimals` places: `2.5`, `10`.
    static func trimmed(_ value: Double, _ decimals: Int) -> String {
        var text = NumberText.fixed(value, decimals)
        guard text.contains(".") else { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

extension WeightUnit {
    /// A short label for a picture: whole grams or carats from 10 up, one decimal below; ounces with two; pounds and
    /// kilograms with three.
    public func label(grams: Double) -> String {
        let value = value(fromGrams: grams)
        switch self {
        case .ounces: return NumberText.fixed(value, 2) + " oz"
        case .pounds, .kilograms: return NumberText.fixed(value, 3) + " " + rawValue
        case .grams, .carats:
            return NumberText.fixed(value, Swift.abs(value) >= 10 ? 0 : 1) + " " + rawValue
        }
    }
}
