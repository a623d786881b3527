import PlumometerCore
import Testing

@testable import PlumometerCLI

/// The byte builder of the JSON hot path writes exactly what the reference String formatting writes.
@Suite struct NumberFormattingTests {
    @Test func fixedMatchesTheReferenceFormatting() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1, -1, 0.5, 0.05, 0.00005, 0.99995, 39.5256, -12.345, 1e15, -1e15, 9.1e15,
                                .nan, .infinity, -.infinity, 123_456.789_012, 2.675, 1.005]
        for _ in 0..<2_000 { values.append(Double.random(in: -100_000...100_000, using: &generator)) }
        for value in values {
            for decimals in 0...6 {
                var builder = LineBuilder(capacity: 32)
                builder.append(fixed: value, decimals: decimals)
                #expect(builder.string == NumberText.fixed(value, decimals), "\(value) with \(decimals) decimals")
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
        #expect(builder.string == "-2147483648 9223372036854775807 1350451575.023449 -1.500000 " + JSONText.string("a \"quoted\"\\path\n\u{1}ü"))
        #expect(NumberText.seconds(EventTime(microseconds: -1_500_000)) == "-1.500000")
    }
}
