import Foundation
import Testing

@testable import PlumometerOutput

/// ISO 8601 text from Unix microseconds, checked against Foundation's calendar on dates that catch the usual
/// mistakes: the epoch, leap days, century years, the last microsecond of a day, before 1970.
struct UTCTimeTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (951_782_400_000_000, "2000-02-29T00:00:00.000Z"),
        (4_107_542_399_999_999, "2100-02-28T23:59:59.999Z"),
        (1_795_945_323_456_789, "2026-11-29T09:42:03.456Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
    ])
    func knownDates(microseconds: Int64, text: String) {
        #expect(UTCTime.iso8601(microseconds: microseconds) == text)
    }

    @Test func agreesWithFoundationOverCenturies() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var seed: UInt64 = 0x5EED
        for _ in 0..<2000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds = Int64(seed >> 33) % 8_000_000_000 - 2_000_000_000
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02dZ",
                parts.year!,
                parts.month!,
                parts.day!,
                parts.hour!,
                parts.minute!,
                parts.second!
            )
            #expect(UTCTime.iso8601(microseconds: seconds * 1_000_000, fractionDigits: 0) == expected, "\(seconds)")
        }
    }
}
