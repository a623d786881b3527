import PlumometerCore
import PlumometerOutput

/// Settings that shape readings, shared by live streaming and replay.
struct ReadingSettings: Sendable {
    /// Minimum kernel time between two written readings, in microseconds (0: every frame).
    var interval: Int64 = 0
    /// Report only the N heaviest contacts.
    var maxContacts: Int?
    var smooth = false
    var tareAtStart = false
    var unit: WeightUnit = .grams
    var profilePath: String?
    /// `--summary`: a summary of the session at the end (read by the output, not by the pipeline).
    var summary = false
    /// `--view`: the live view to start with (nil: the map when the device has positions).
    var view: LiveViewMode?
}

/// When `--tare` takes its zero.
enum TareStart {
    /// A live device: what rests on it when it is opened (nothing, if it is empty: then the tare is zero).
    case atOpen(ContactFrame?)
    /// A recording: its first frame, where reading it starts.
    case atFirstFrame
}

/// Frames in, readings out: the one path every source (live device, recording, demo) goes through.
///
/// It owns the tracker for the current device, numbers the readings, applies `--max-contacts` and
/// `--interval` (latest state wins), and hands readings to the output.
final class ReadingPipeline: FrameConsumer {
    private let output: any ReadingOutput
    private let settings: ReadingSettings
    private var tracker: WeightTracker
    private(set) var record: DeviceRecord
    private var sequence = 0
    private var lastWritten: EventTime?
    private var pending: Reading?
    /// `--tare` still to be taken on the first frame (recordings).
    private var tareOnFirstFrame = false

    init(record: DeviceRecord, calibration: Calibration?, settings: ReadingSettings, output: any ReadingOutput) {
        self.record = record
        self.settings = settings
        self.output = output
        var configuration = TrackerConfiguration()
        if settings.smooth { configuration.smoothing = .oneEuro() }
        let range = record.description.pressureRange ?? AxisInfo(minimum: 0, maximum: 0)
        self.tracker = WeightTracker(pressureRange: range, configuration: configuration, calibration: calibration)
    }

    /// Announces the device (the `device` record), then reports what rests on it at open, tared with `--tare`.
    func start(_ tareStart: TareStart) throws {
        try output.device(record)
        switch tareStart {
        case .atFirstFrame:
            tareOnFirstFrame = settings.tareAtStart
        case .atOpen(let frame):
            guard let frame else { return }
            _ = tracker.consume(frame)
            if settings.tareAtStart { tracker.tare() }
            try emit(tracker.current)
        }
    }

    func consume(_ frame: ContactFrame) throws -> Bool {
        var reading = tracker.consume(frame)
        if tareOnFirstFrame {
            // `--tare` on a recording: zero what rests on the surface where the recording starts.
            tareOnFirstFrame = false
            tracker.tare()
            reading = tracker.current
        }
        try emit(reading)
        return false
    }

    /// Re-evaluates stability at device time `now` and flushes a reading held back by `--interval`.
    func tick(now: EventTime) throws -> Bool {
        if let reading = tracker.tick(now: now) {
            try emit(reading)
        }
        if var pending, let lastWritten, now.microseconds - lastWritten.microseconds >= settings.interval {
            // Nothing changed since the held-back frame, so it is the state at `now`: stamped so, the written
            // readings are at least an interval apart in kernel time too.
            self.pending = nil
            pending.time = Swift.max(pending.time, now)
            try write(pending)
        }
        return false
    }

    /// When a contact still settling becomes stable, or a reading held back by `--interval` is due.
    var nextDeadline: EventTime? {
        let flush =
            pending != nil ? lastWritten.map { EventTime(microseconds: $0.microseconds + settings.interval) } : nil
        switch (tracker.nextStabilityDeadline, flush) {
        case (let stability?, let flush?): return Swift.min(stability, flush)
        case (let stability?, nil): return stability
        case (nil, let flush): return flush
        }
    }

    func tare() {
        tracker.tare()
        output.status("tared")
    }

    func clearTare() {
        tracker.clearTare()
        output.status("tare cleared")
    }

    /// Writes whatever `--interval` held back: the latest state always reaches the output.
    func flush() throws {
        if let pending {
            self.pending = nil
            try write(pending)
        }
    }

    private func emit(_ reading: Reading) throws {
        if settings.interval > 0, let lastWritten,
            reading.time.microseconds - lastWritten.microseconds < settings.interval
        {
            pending = reading
            return
        }
        pending = nil
        try write(reading)
    }

    private func write(_ reading: Reading) throws {
        var reading = reading
        if let limit = settings.maxContacts, reading.contacts.count > limit {
            reading.contacts = reading.contacts.filter { $0.rank <= limit }
        }
        sequence += 1
        lastWritten = reading.time
        try output.frame(reading, sequence: sequence)
    }
}
