/// Fixed-point text for messages, because the core has no Foundation and so no `String(format:)`.
enum DecimalText {
    /// `value` rounded to `digits` decimals ("0.962", "-3.50"); "nan" or "inf" for non-finite values.
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<Swift.max(0, digits) { scale *= 10 }
        let scaled = (Swift.abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return String(value) }
        let units = Int64(scaled)
        let divisor = Int64(scale)
        let whole = units / divisor
        let fraction = units % divisor
        let sign = value < 0 && units != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fractionText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}
