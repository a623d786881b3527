/// The decoder's bookkeeping of lost events: which events to skip, and when the next frame is a resync.
///
/// The rules are the ones in ``ContactDecoder``'s header: a raw `SYN_DROPPED` (a recording) skips everything up to
/// and including the next `SYN_REPORT`; a resynchronisation bracketed by the bridge's markers publishes nothing
/// until its end, then skips the rest of the frame the overflow broke (events stamped with the `SYN_DROPPED`'s
/// time, up to and including their `SYN_REPORT`).
struct LostEvents: Sendable {
    /// What to do with an event.
    enum Verdict {
        /// Apply it as usual.
        case apply
        /// Skip it: part of a frame the kernel broke.
        case skip
        /// Skip it, and the broken frame is over: the next frame is a resync.
        case skipLast
    }

    /// The next published frame is marked as a resync.
    var resyncPending = false
    /// Between ``DeviceInput/resyncBegan(_:)`` and ``DeviceInput/resyncEnded``: frames update the state only.
    private(set) var resynchronising = false
    /// After a raw `SYN_DROPPED`: everything up to and including the next `SYN_REPORT` is skipped.
    private var droppingUntilReport = false
    /// The time of the `SYN_DROPPED` that began the current (or last) resynchronisation.
    private var droppedAt = EventTime.zero
    /// The time of the last `SYN_REPORT` libevdev synthesised in the current resynchronisation.
    private var reportTime: EventTime?
    /// After a resynchronisation: events at this time are the rest of the frame the overflow broke.
    private var brokenFrameTime: EventTime?

    /// Decides what to do with the next event.
    mutating func admit(_ event: RawEvent) -> Verdict {
        if droppingUntilReport {
            guard event.isReport else { return .skip }
            droppingUntilReport = false
            resyncPending = true
            return .skipLast
        }
        if let broken = brokenFrameTime {
            guard event.time == broken else {
                brokenFrameTime = nil
                return .apply
            }
            guard event.isReport else { return .skip }
            brokenFrameTime = nil
            return .skipLast
        }
        return .apply
    }

    /// A raw `SYN_DROPPED` in the stream: the partial frame and the rest of it up to its `SYN_REPORT` are lost.
    mutating func rawDrop() {
        droppingUntilReport = true
    }

    /// The bridge's ``DeviceInput/resyncBegan(_:)``.
    mutating func begin(at time: EventTime) {
        resynchronising = true
        resyncPending = true
        droppedAt = time
        reportTime = nil
        brokenFrameTime = nil
        droppingUntilReport = false
    }

    /// A `SYN_REPORT` of libevdev's difference: remembered as the resync frame's time.
    mutating func syntheticReport(at time: EventTime) {
        reportTime = time
        resyncPending = true
    }

    /// The bridge's ``DeviceInput/resyncEnded``.
    /// - Returns: the time of the resync frame, or nil when no resynchronisation was in progress.
    mutating func end() -> EventTime? {
        guard resynchronising else { return nil }
        resynchronising = false
        brokenFrameTime = droppedAt
        return reportTime ?? droppedAt
    }

    /// A seed told the whole truth: nothing is being resynchronised or skipped any more.
    mutating func reset() {
        resynchronising = false
        droppingUntilReport = false
        brokenFrameTime = nil
    }
}
