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
    /// A weight as a picture labels it: the same text as every other view (``format(grams:)``, the unit's
    /// ``decimals``), so the map and the plot never show a weight the bars, the lines and the summary do not.
    public func label(grams: Double) -> String {
        format(grams: grams)
    }
}
