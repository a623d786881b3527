import PlumometerCore
import PlumometerOutput

/// An output that writes the first `limit` frames and no more (`stream --count N`); everything else passes through.
/// Frames decoded after the limit (the rest of one read) are dropped here, so exactly `limit` frame records leave.
final class FrameLimitOutput: ReadingOutput {
    private let base: any ReadingOutput
    private let limit: Int
    private(set) var written = 0

    init(_ base: any ReadingOutput, limit: Int) {
        self.base = base
        self.limit = limit
    }

    /// Whether the limit has been reached: the run can end.
    var isFull: Bool { written >= limit }

    func device(_ record: DeviceRecord) throws { try base.device(record) }
    func frame(_ reading: Reading, sequence: Int) throws {
        guard !isFull else { return }
        written += 1
        try base.frame(reading, sequence: sequence)
    }
    func removed(path: String, time: EventTime) throws { try base.removed(path: path, time: time) }
    func status(_ message: String) { base.status(message) }
    func idle(now: EventTime) throws { try base.idle(now: now) }
    func idleDeadline(now: EventTime) -> Int64? { base.idleDeadline(now: now) }
    func finish() throws { try base.finish() }
}

/// A source that ends after a time on the monotonic clock (`--duration`) or once a condition holds (`--count`
/// reached), otherwise the source it wraps.
final class LimitedSource: FrameSource {
    private let base: any FrameSource
    private let end: EventTime?
    private let isDone: () -> Bool

    /// Wraps `base`, ending `duration` microseconds from now (nil: no end) or when `isDone` says so.
    init(_ base: any FrameSource, duration: Int64?, isDone: @escaping () -> Bool = { false }) {
        self.base = base
        self.end = duration.map { EventTime(microseconds: MonotonicClock.now().microseconds + $0) }
        self.isDone = isDone
    }

    func due() throws -> Due {
        if isDone() { return .finished }
        let due = try base.due()
        if isDone() { return .finished }
        guard let end else { return due }
        let remaining = end.microseconds - MonotonicClock.now().microseconds
        return remaining <= 0 ? .finished : due.sooner(.within(remaining))
    }
}
