public import PlumometerCore

/// `CLOCK_MONOTONIC` through the runtime's ``Clocks``: the clock evdev devices stamp events with once asked to.
public enum MonotonicClock {
    /// Now, in microseconds.
    public static func now() -> EventTime { Runtime.current.clocks.monotonic() }

    /// `CLOCK_REALTIME`: the clock evdev stamps events with by default.
    public static func realtime() -> EventTime { Runtime.current.clocks.realtime() }

    /// Microseconds the process has spent stopped by Ctrl-Z (the loop adds each stop). Only the loop's thread
    /// reads and writes it.
    public nonisolated(unsafe) private(set) static var stoppedMicroseconds: Int64 = 0

    /// Counts a stop that lasted `microseconds` (from just before the SIGSTOP to just after the continue).
    public static func addStopped(_ microseconds: Int64) { stoppedMicroseconds += max(0, microseconds) }

    /// Now, less the time spent stopped: the clock a paced replay plays by, so that after Ctrl-Z and `fg` the
    /// recording goes on where it was instead of leaping to where it would be by now.
    public static func playbackNow() -> EventTime { EventTime(microseconds: now().microseconds - stoppedMicroseconds) }
}

/// Maps "now" onto a device's event clock, so stability can be re-evaluated while no events arrive.
///
/// Devices normally stamp events with `CLOCK_MONOTONIC`; when that could not be set (umockdev, or a recording),
/// the device time is extrapolated from the last event seen.
public struct DeviceClock {
    public let deviceUsesMonotonic: Bool
    private var lastEvent: EventTime?
    private var lastEventSeenAt = MonotonicClock.now()

    public init(deviceUsesMonotonic: Bool) {
        self.deviceUsesMonotonic = deviceUsesMonotonic
    }

    public mutating func observed(_ time: EventTime) {
        lastEvent = time
        lastEventSeenAt = MonotonicClock.now()
    }

    /// The device's idea of now: its clock when that is known to be `CLOCK_MONOTONIC`, else extrapolated from the
    /// last event seen, else `CLOCK_REALTIME`, the clock evdev uses unless asked otherwise.
    public func now() -> EventTime {
        let monotonic = MonotonicClock.now()
        if deviceUsesMonotonic { return monotonic }
        guard let lastEvent else { return MonotonicClock.realtime() }
        return EventTime(microseconds: lastEvent.microseconds + (monotonic.microseconds - lastEventSeenAt.microseconds))
    }
}

/// `value` microseconds as an Int64, clamped instead of trapping: user-supplied speeds and recorded times can
/// make any product huge.
public func clampedMicroseconds(_ value: Double) -> Int64 {
    guard value.isFinite else { return value > 0 ? Int64.max / 2 : 0 }
    return Int64(Swift.max(Swift.min(value, 4.0e18), -4.0e18))
}
