public import PlumometerCore
public import PlumometerOutput

/// An output that writes the first `limit` frames and no more (`stream --count N`); everything else passes through.
/// Frames decoded after the limit (the rest of one read) are dropped here, so exactly `limit` frame records leave.
public final class FrameLimitOutput: ReadingOutput {
    private let base: any ReadingOutput
    private let limit: Int
    public private(set) var written = 0

    public init(_ base: any ReadingOutput, limit: Int) {
        self.base = base
        self.limit = limit
    }

    /// Whether the limit has been reached: the run can end.
    public var isFull: Bool { written >= limit }

    public func device(_ record: DeviceRecord) throws { try base.device(record) }
    public func frame(_ reading: Reading, sequence: Int) throws {
        guard !isFull else { return }
        written += 1
        try base.frame(reading, sequence: sequence)
    }
    public func removed(path: String, time: EventTime) throws { try base.removed(path: path, time: time) }
    public func status(_ message: String) { base.status(message) }
    public func idle(now: EventTime) throws { try base.idle(now: now) }
    public func idleDeadline(now: EventTime) -> Int64? { base.idleDeadline(now: now) }
    public func finish() throws { try base.finish() }
}

/// A source that ends after a time on the monotonic clock (`--duration`) or once a condition holds (`--count`
/// reached), otherwise the source it wraps.
public final class LimitedSource: FrameSource {
    private let base: any FrameSource
    private let end: EventTime?
    private let isDone: () -> Bool

    /// Wraps `base`, ending `duration` microseconds from now (nil: no end) or when `isDone` says so.
    public init(_ base: any FrameSource, duration: Int64?, isDone: @escaping () -> Bool = { false }) {
        self.base = base
        self.end = duration.map { EventTime(microseconds: MonotonicClock.now().microseconds + $0) }
        self.isDone = isDone
    }

    /// Whether the run ended because the duration ran out.
    public private(set) var expired = false

    public func due() throws -> Due {
        if isDone() { return .finished }
        let due = try base.due()
        if isDone() { return .finished }
        guard let end else { return due }
        let remaining = end.microseconds - MonotonicClock.now().microseconds
        guard remaining > 0 else {
            expired = true
            return .finished
        }
        return due.sooner(.within(remaining))
    }
}

/// A source with nothing timed of its own: the run is driven by its watches alone (`record`'s devices, read raw),
/// until the loop finishes, a signal, or the ``LimitedSource`` around it ends it.
public final class WatchesOnly: FrameSource {
    public init() {}

    public func due() throws -> Due { .idle }
}
