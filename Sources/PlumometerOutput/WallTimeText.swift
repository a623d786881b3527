public import PlumometerCore

extension NumberText {
    /// A Unix time (microseconds since 1970-01-01 UTC) as ISO 8601 in UTC with milliseconds, truncated:
    /// `2026-12-01T10:17:00.123Z` (``UTCTime``: no Foundation or C library is needed).
    public static func iso8601(_ time: EventTime) -> String {
        UTCTime.iso8601(microseconds: time.microseconds, fractionDigits: 3)
    }
}
