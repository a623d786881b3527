public import PlumometerCore

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
}

/// Frames in, readings out: the one path every source (live device, recording, demo) goes through.
///
/// It owns the tracker for the current device, numbers the readings, applies `--max-contacts` and
/// `--interval` (latest state wins), and hands readings to the output.
final class ReadingPipeline {
    private let output: any ReadingOutput
    private let settings: ReadingSettings
    private var tracker: WeightTracker
    private(set) var record: DeviceRecord
    private var sequence = 0
    private var lastWritten: EventTime?
    private var pending: Reading?
    private var tareWhenFirstContacts: Bool
    /// Readings held back by `--interval` and later replaced by a newer one.
    private(set) var skipped = 0

    init(record: DeviceRecord, calibration: Calibration?, settings: ReadingSettings, output: any ReadingOutput) {
        self.record = record
        self.settings = settings
        self.output = output
        var configuration = TrackerConfiguration()
        if settings.smooth { configuration.smoothing = .oneEuro() }
        let range = record.description.pressureRange ?? AxisInfo(minimum: 0, maximum: 0)
        self.tracker = WeightTracker(pressureRange: range, configuration: configuration, calibration: calibration)
        self.tareWhenFirstContacts = settings.tareAtStart
    }

    /// Announces the device (the `device` record).
    func start() throws {
        try output.device(record)
    }

    /// Feeds one frame from the decoder.
    func consume(_ frame: ContactFrame) throws {
        var reading = tracker.consume(frame)
        if tareWhenFirstContacts && !frame.contacts.isEmpty {
            // `--tare`: zero whatever rests on the surface when reading starts (an empty container, a finger).
            tareWhenFirstContacts = false
            tracker.tare()
            reading = tracker.current
        }
        try emit(reading)
    }

    /// Re-evaluates stability at device time `now` and flushes a reading held back by `--interval`.
    func tick(now: EventTime) throws {
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
    }

    /// Whether time passing can change the output: a contact still settling, or a reading held back.
    var wantsTicks: Bool {
        pending != nil || tracker.current.contacts.contains { !$0.stable }
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
        if settings.interval > 0, let lastWritten, reading.time.microseconds - lastWritten.microseconds < settings.interval {
            if pending != nil { skipped += 1 }
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
