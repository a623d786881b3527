public import PlumometerCore

/// Calendar time for the `wall_time` of a device record and `--timestamps wall`: `CLOCK_REALTIME`, or, when the
/// environment sets `PLUMOMETER_WALL_CLOCK` to Unix seconds, that fixed instant (for tests and reproducible output,
/// as `SOURCE_DATE_EPOCH` is for builds: every open then reads the same time).
public enum WallClock {
    /// The variable that fixes the wall clock.
    public static let override = "PLUMOMETER_WALL_CLOCK"

    /// Now, as Unix microseconds.
    public static func now() -> EventTime {
        if let text = Runtime.current.files.environment(override), let seconds = Double(text), seconds.isFinite {
            return EventTime(microseconds: clampedMicroseconds(seconds * 1_000_000))
        }
        return MonotonicClock.realtime()
    }
}
