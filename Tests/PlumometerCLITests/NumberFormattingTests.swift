import PlumometerCore
import Testing

@testable import PlumometerCLI

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
}
