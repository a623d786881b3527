/// The clocks input events are stamped with. The corresponding C function is `clock_gettime(2)`.
public enum Clock {
    /// `CLOCK_MONOTONIC`, in microseconds: what devices stamp events with once asked to.
    public static func monotonicMicroseconds() -> Int64 { clockMicroseconds(monotonic: true) }

    /// `CLOCK_REALTIME`, in microseconds: what evdev uses unless asked otherwise.
    public static func realtimeMicroseconds() -> Int64 { clockMicroseconds(monotonic: false) }
}
