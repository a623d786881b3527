import PlumometerCore
import Testing

@testable import PlumometerOutput

/// The byte builder of the JSON hot path writes exactly what the reference String formatting writes.
@Suite struct NumberFormattingTests {
    /// Checked against an independent reading of the text: it parses back to the value within half a unit of the
    /// last place, with exactly `decimals` digits after the point, and known cases give known text.
    @Test func fixedIsTheValueRoundedToItsPlaces() throws {
        let known: [(Double, Int, String)] = [
            (0, 4, "0.0000"), (-0.0, 1, "0.0"), (39.52569, 1, "39.5"), (0.395257, 4, "0.3953"), (-12.345, 2, "-12.35"),
            (-0.00004, 4, "0.0000"), (0.99995, 4, "1.0000"), (1_350_451_575.5, 0, "1350451576"), (.nan, 2, "0"),
            (.infinity, 1, "0"), (1e300, 2, String(1e300)),
        ]
        for (value, decimals, text) in known {
            #expect(NumberText.fixed(value, decimals) == text, "\(value) with \(decimals) decimals")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = Double.random(in: -100_000...100_000, using: &generator)
            for decimals in 0...6 {
                let text = NumberText.fixed(value, decimals)
                let parsed = try #require(Double(text), "\(text)")
                let unit = [1.0, 0.1, 0.01, 0.001, 0.000_1, 0.000_01, 0.000_001][decimals]
                #expect(Swift.abs(parsed - value) <= unit / 2 + 1e-9, "\(value) -> \(text)")
                let fraction = text.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first
                #expect((fraction?.count ?? 0) == decimals, "\(text)")
            }
        }
    }

    /// The rule every record's numbers follow, written plainly with `String`: `decimals` clamped to 0...6, "0"
    /// for a value that is not finite, half away from zero, Swift's shortest text from 9e15 units of the last
    /// place, no minus sign on a value that rounds to zero.
    static func referenceFixed(_ value: Double, _ decimals: Int) -> String {
        let places = Swift.min(Swift.max(decimals, 0), 6)
        let factor = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000][places] as UInt64
        guard value.isFinite else { return "0" }
        let scaled = (Swift.abs(value) * Double(factor)).rounded()
        guard scaled < 9.0e15 else { return String(value) }
        let whole = UInt64(scaled)
        let sign = value < 0 && whole != 0 ? "-" : ""
        guard places > 0 else { return sign + String(whole) }
        let fraction = String(whole % factor)
        return sign + String(whole / factor) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// A kernel time in microseconds as seconds with 6 decimals, written plainly with `String`.
    static func referenceSeconds(_ microseconds: Int64) -> String {
        let fraction = String(microseconds.magnitude % 1_000_000)
        return (microseconds < 0 ? "-" : "") + String(microseconds.magnitude / 1_000_000) + "."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// The cursor of the JSON frame line, and the builder of every other record (which writes its numbers with
    /// a cursor), write every number as the plain rule does.
    @Test func cursorAndBuilderWriteWhatThePlainRuleWrites() {
        var values: [Double] = [
            0, -0.0, 0.5, 0.05, 0.005, 0.00005, 0.99995, 9.995, 99.95, 100, 1e300, -1e300, .nan, .infinity,
            -.infinity, 9.0e15, 8.9e15, 1e-300, -12.345, 1_350_451_575.5,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            values.append(Double.random(in: -1...1, using: &generator))
            values.append(Double.random(in: -100_000...100_000, using: &generator))
        }
        let integers: [Int] = [0, 9, 10, 99, 100, 999, 1_000, 65_535, -1, -10, Int.max, Int.min, Int(Int32.min)]
        let times: [Int64] = [0, 1, -1, 1_350_451_575_023_449, -1_500_000, 999_999, Int64.max, Int64.min]
        for decimals in -1...7 {
            for value in values {
                let expected = Self.referenceFixed(value, decimals)
                var builder = LineBuilder(capacity: 8)
                builder.append(fixed: value, decimals: decimals)
                let written = LineCursor.write(capacity: LineCursor.longestFixed) {
                    $0.write(fixed: value, places: decimals)
                }
                #expect(written == expected, "\(value) with \(decimals) decimals")
                #expect(builder.string == expected, "\(value) with \(decimals) decimals")
            }
        }
        for value in integers {
            var builder = LineBuilder(capacity: 8)
            builder.append(integer: value)
            let written = LineCursor.write(capacity: LineCursor.longestInteger) { $0.write(integer: value) }
            #expect(written == String(value), "\(value)")
            #expect(builder.string == String(value), "\(value)")
        }
        for microseconds in times {
            var builder = LineBuilder(capacity: 8)
            builder.append(seconds: EventTime(microseconds: microseconds))
            let written = LineCursor.write(capacity: LineCursor.longestSeconds) {
                $0.write(seconds: EventTime(microseconds: microseconds))
            }
            #expect(written == Self.referenceSeconds(microseconds), "\(microseconds)")
            #expect(builder.string == Self.referenceSeconds(microseconds), "\(microseconds)")
        }
    }

    @Test func integersSecondsAndStrings() {
        var builder = LineBuilder(capacity: 64)
        builder.append(integer: Int32.min)
        builder.append(" ")
        builder.append(integer: Int.max)
        builder.append(" ")
        builder.append(seconds: EventTime(microseconds: 1_350_451_575_023_449))
        builder.append(" ")
        builder.append(seconds: EventTime(microseconds: -1_500_000))
        builder.append(" ")
        builder.append(jsonString: "a \"quoted\"\\path\n\u{1}ü")
        #expect(
            builder.string == "-2147483648 9223372036854775807 1350451575.023449 -1.500000 "
                + JSONText.string("a \"quoted\"\\path\n\u{1}ü")
        )
        #expect(NumberText.seconds(EventTime(microseconds: -1_500_000)) == "-1.500000")
    }

    @Test func trimmedBoundsAndPaddedFields() {
        #expect(NumberText.trimmed(0.001) == "0.001")
        #expect(NumberText.trimmed(1_000_000) == "1000000")
        #expect(NumberText.trimmed(2.5) == "2.5")
        #expect(NumberText.trimmed(-0.0000004) == "0", "below the sixth place rounds to a plain zero")
        #expect(NumberText.padLeft("31.6%", 6) == " 31.6%")
        #expect(NumberText.padLeft("100.0%", 6) == "100.0%")
        #expect(NumberText.padLeft("1234567", 6) == "1234567", "never cut")
    }

    @Test func weightsInEachUnit() {
        #expect(WeightUnit.grams.format(grams: 12.34) == "12.3 g")
        #expect(WeightUnit.ounces.format(grams: 12.34) == "0.44 oz")
        #expect(WeightUnit.carats.format(grams: 12.34) == "61.7 ct")
        #expect(WeightUnit.ounces.format(grams: 28.349523125) == "1.00 oz")
        #expect(WeightUnit.pounds.format(grams: 453.59237) == "1.000 lb")
        #expect(WeightUnit.pounds.format(grams: 12.34) == "0.027 lb")
        #expect(WeightUnit(rawValue: "oz") == .ounces && WeightUnit(rawValue: "lb") == .pounds)
        // Kilograms with 4 decimals (0.1 g, the gram's own step): a 2 kg load is 2.0000 kg, not 2000.0 g.
        #expect(WeightUnit(rawValue: "kg") == .kilograms)
        #expect(WeightUnit.kilograms.format(grams: 2000) == "2.0000 kg")
        #expect(WeightUnit.kilograms.format(grams: 12.34) == "0.0123 kg")
    }
}
