/// Calendar time in UTC as ISO 8601 text, without Foundation: the civil date from days since 1970 by Howard
/// Hinnant's `civil_from_days` (proleptic Gregorian calendar, exact for every Int64 day count we can meet).
public enum UTCTime {
    /// The day of `microseconds` as `YYYY-MM-DD` (UTC): the date in a plot's title.
    /// - Parameter microseconds: time since 1970-01-01T00:00:00Z; negative times are before it.
    /// - Returns: the ISO 8601 date alone.
    public static func day(microseconds: Int64) -> String {
        String(iso8601(microseconds: microseconds, fractionDigits: 0).prefix(10))
    }

    /// `2026-12-01T10:02:03Z` (or `...03.456Z` with `fractionDigits: 3`) for microseconds since the Unix epoch.
    ///
    /// - Parameters:
    ///   - microseconds: time since 1970-01-01T00:00:00Z; negative times are before it.
    ///   - fractionDigits: 0 to 6 digits of the second's fraction, truncated (never rounded up into the next second).
    /// - Returns: the ISO 8601 text, always in UTC (`Z`).
    public static func iso8601(microseconds: Int64, fractionDigits: Int = 3) -> String {
        let perDay: Int64 = 86_400_000_000
        var days = microseconds / perDay
        var rest = microseconds % perDay
        if rest < 0 {
            rest += perDay
            days -= 1
        }
        let (year, month, day) = civil(daysSinceEpoch: days)
        let seconds = rest / 1_000_000
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
        let digits = Swift.max(0, Swift.min(6, fractionDigits))
        if digits > 0 {
            var fraction = rest % 1_000_000
            for _ in digits..<6 { fraction /= 10 }
            text += "." + pad(fraction, digits)
        }
        return text + "Z"
    }

    /// Year, month (1...12) and day (1...31) of a day counted from 1970-01-01.
    static func civil(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
