public import PlumometerCore

/// A builder of evdev event sequences as a device sends them, for tests: contacts touch, move and lift in slots,
/// and each frame ends with a `SYN_REPORT`.
///
/// Every event is stamped with the script's current time; ``report(after:)`` ends the frame and moves the clock on.
/// The builder writes exactly the events it is asked for (it does not drop an `ABS_MT_SLOT` that repeats the
/// current slot), so a script reads like the event listing it stands for:
///
/// ```swift
/// let events = EventScript(startingAt: EventTime(seconds: 1, microseconds: 0))
///     .touch(slot: 0, id: 5, x: 100, y: 200, pressure: 30).report(after: .milliseconds(10))
///     .move(slot: 0, pressure: 40).report(after: .milliseconds(10))
///     .lift(slot: 0).report()
///     .events
/// ```
public struct EventScript: Sendable {
    /// The events so far, in order.
    public private(set) var events: [RawEvent] = []
    /// The time the next event is stamped with.
    public private(set) var time: EventTime

    /// An empty script whose first event is stamped `time`.
    public init(startingAt time: EventTime = .zero) {
        self.time = time
    }

    /// A new contact `id` in `slot` (protocol B): `ABS_MT_SLOT`, `ABS_MT_TRACKING_ID`, then the values given.
    public func touch(slot: Int32, id: Int32, x: Int32? = nil, y: Int32? = nil, pressure: Int32? = nil) -> Self {
        appending(.abs(.mtSlot, slot, at: time), .abs(.mtTrackingID, id, at: time))
            .values(x: x, y: y, pressure: pressure)
    }

    /// New values for the contact in `slot`: `ABS_MT_SLOT`, then the values given.
    public func move(slot: Int32, x: Int32? = nil, y: Int32? = nil, pressure: Int32? = nil) -> Self {
        appending(.abs(.mtSlot, slot, at: time)).values(x: x, y: y, pressure: pressure)
    }

    /// The contact in `slot` lifts: `ABS_MT_SLOT`, `ABS_MT_TRACKING_ID -1`.
    public func lift(slot: Int32) -> Self {
        appending(.abs(.mtSlot, slot, at: time), .abs(.mtTrackingID, -1, at: time))
    }

    /// One absolute axis event (for single touch, `ABS_PRESSURE`, or anything the helpers do not write).
    public func abs(_ axis: AbsoluteAxis, _ value: Int32) -> Self {
        appending(.abs(axis, value, at: time))
    }

    /// One key or button event: 1 down, 0 up.
    public func key(_ key: KeyCode, _ value: Int32) -> Self {
        appending(.key(key, value, at: time))
    }

    /// A `SYN_MT_REPORT`: the end of one anonymous contact in protocol A.
    public func contactReport() -> Self {
        appending(.syn(.mtReport, at: time))
    }

    /// A `SYN_DROPPED`: the kernel's buffer overflowed.
    public func dropped() -> Self {
        appending(.syn(.dropped, at: time))
    }

    /// Ends the frame with a `SYN_REPORT`, then moves the clock on by `interval` for the next frame.
    public func report(after interval: Duration = .zero) -> Self {
        var script = appending(.syn(.report, at: time))
        script.time = time.adding(interval)
        return script
    }

    /// Moves the clock to `time` (which may be earlier, to script a clock that goes back).
    public func at(_ time: EventTime) -> Self {
        var script = self
        script.time = time
        return script
    }

    private func values(x: Int32?, y: Int32?, pressure: Int32?) -> Self {
        var script = self
        if let x { script.events.append(.abs(.mtPositionX, x, at: time)) }
        if let y { script.events.append(.abs(.mtPositionY, y, at: time)) }
        if let pressure { script.events.append(.abs(.mtPressure, pressure, at: time)) }
        return script
    }

    private func appending(_ new: RawEvent...) -> Self {
        var script = self
        script.events += new
        return script
    }
}

extension EventTime {
    /// This time moved on by `interval`, to the microsecond.
    func adding(_ interval: Duration) -> EventTime {
        let (seconds, attoseconds) = interval.components
        return EventTime(microseconds: microseconds + seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}
