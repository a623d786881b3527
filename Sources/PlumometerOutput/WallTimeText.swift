public import PlumometerCore

extension NumberText {
    /// A Unix time (microseconds since 1970-01-01 UTC) as ISO 8601 in UTC with milliseconds, truncated:
    /// `2026-12-01T10:17:00.123Z`. Civil dates from days by Howard Hinnant's `civil_from_days` (proleptic
    /// Gregorian), so no Foundation or C library is needed.
    public static func iso8601(_ time: EventTime) -> String {
        let micros = time.microseconds
        let milliseconds = floorDivide(micros, 1_000)
        let seconds = floorDivide(milliseconds, 1_000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        // civil_from_days: days since 1970-01-01 to year, month, day.
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
            + padded(secondOfDay / 3_600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
            + padded(secondOfDay % 60, 2) + "." + padded(milliseconds - seconds * 1_000, 3) + "Z"
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
