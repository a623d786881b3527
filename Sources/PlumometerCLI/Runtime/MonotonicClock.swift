import PlumometerCore
import PlumometerLinux

/// `CLOCK_MONOTONIC`, the clock evdev devices stamp events with once asked to.
enum MonotonicClock {
    /// Now, in microseconds.
    static func now() -> EventTime { EventTime(microseconds: Clock.monotonicMicroseconds()) }

    /// `CLOCK_REALTIME`: the clock evdev stamps events with by default.
    static func realtime() -> EventTime { EventTime(microseconds: Clock.realtimeMicroseconds()) }
}

/// Maps "now" onto a device's event clock, so stability can be re-evaluated while no events arrive.
///
/// Devices normally stamp events with `CLOCK_MONOTONIC`; when that could not be set (umockdev, or a recording),
/// the device time is extrapolated from the last event seen.
struct DeviceClock {
    let deviceUsesMonotonic: Bool
    private var lastEvent: EventTime?
    private var lastEventSeenAt = MonotonicClock.now()

    init(deviceUsesMonotonic: Bool) {
        self.deviceUsesMonotonic = deviceUsesMonotonic
    }

    mutating func observed(_ time: EventTime) {
        lastEvent = time
        lastEventSeenAt = MonotonicClock.now()
    }

    /// The device's idea of now: its clock when that is known to be `CLOCK_MONOTONIC`, else extrapolated from the
    /// last event seen, else `CLOCK_REALTIME`, the clock evdev uses unless asked otherwise.
    func now() -> EventTime {
        let monotonic = MonotonicClock.now()
        if deviceUsesMonotonic { return monotonic }
        guard let lastEvent else { return MonotonicClock.realtime() }
        return EventTime(microseconds: lastEvent.microseconds + (monotonic.microseconds - lastEventSeenAt.microseconds))
    }
}
