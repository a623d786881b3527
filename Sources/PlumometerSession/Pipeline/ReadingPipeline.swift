public import PlumometerCore
public import PlumometerOutput

/// Settings that shape readings, shared by live streaming and replay.
public struct ReadingSettings: Sendable {
    /// Minimum kernel time between two written readings, in microseconds (0: every frame).
    public var interval: Int64 = 0
    /// Report only the N heaviest contacts.
    public var maxContacts: Int?
    public var smooth = false
    public var tareAtStart = false
    /// `--carrier`: tare the one contact down where reading starts as a carrier.
    public var carrierAtStart = false
    /// `--no-profile`: read without the saved calibration profile of the device.
    public var ignoreSavedProfile = false
    public var unit: WeightUnit = .grams
    public var profilePath: String?
    /// `--summary`: a summary of the session at the end (read by the output, not by the pipeline).
    public var summary = false
    /// `--view`: the live view to start with (nil: the map when the device has positions).
    public var view: LiveViewMode?

    public init() {}
}

/// When `--tare` takes its zero.
public enum TareStart {
    /// A live device: what rests on it when it is opened (nothing, if it is empty: then the tare is zero).
    case atOpen(ContactFrame?)
    /// A recording: its first frame, where reading it starts.
    case atFirstFrame
}

/// Frames in, readings out: the one path every source (live device, recording, demo) goes through.
///
/// It owns the tracker for the current device, numbers the readings, applies `--max-contacts` and
/// `--interval` (latest state wins), and hands readings to the output.
public final class ReadingPipeline: FrameConsumer {
    private let output: any ReadingOutput
    private let settings: ReadingSettings
    private var tracker: WeightTracker
    public private(set) var record: DeviceRecord
    private var sequence = 0
    private var lastWritten: EventTime?
    private var pending: Reading?
    /// `--tare` still to be taken on the first frame (recordings).
    private var tareOnFirstFrame = false

    public init(record: DeviceRecord, calibration: Calibration?, settings: ReadingSettings, output: any ReadingOutput) {
        self.record = record
        self.settings = settings
        self.output = output
        self.tracker = Self.tracker(for: record.description, calibration: calibration, smooth: settings.smooth)
    }

    /// The tracker every reading command uses for a device: its pressure range, its position scale (a carrier is
    /// recognised within millimetres), the calibration and `--smooth`.
    public static func tracker(
        for description: DeviceDescription,
        calibration: Calibration?,
        smooth: Bool
    ) -> WeightTracker {
        var configuration = TrackerConfiguration()
        if smooth { configuration.smoothing = .oneEuro() }
        return WeightTracker(
            pressureRange: description.pressureRange ?? AxisInfo(minimum: 0, maximum: 0),
            configuration: configuration,
            calibration: calibration,
            positionScale: PositionScale(description)
        )
    }

    /// Announces the device (the `device` record), then reports what rests on it at open, tared with `--tare`.
    public func start(_ tareStart: TareStart) throws {
        try output.device(record)
        switch tareStart {
        case .atFirstFrame:
            tareOnFirstFrame = settings.tareAtStart || settings.carrierAtStart
        case .atOpen(let frame):
            if let frame { _ = tracker.consume(frame) }
            // With nothing down a tare is zero, and `--carrier` says there is no carrier.
            takeStartTare()
            if frame != nil { try emit(tracker.current) }
        }
    }

    public func consume(_ frame: ContactFrame) throws -> Bool {
        var reading = tracker.consume(frame)
        if tareOnFirstFrame {
            // `--tare` on a recording: zero what rests on the surface where the recording starts.
            tareOnFirstFrame = false
            takeStartTare()
            reading = tracker.current
        }
        try emit(reading)
        return false
    }

    /// Re-evaluates stability at device time `now` and flushes a reading held back by `--interval`.
    public func tick(now: EventTime) throws -> Bool {
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

    /// The end of a recording: deadlines up to its last event are honoured, then the tracker is told the evidence
    /// ended there, and the heaviest holds still pending resolve at their own deadlines (the final frame a live
    /// device would show), with no contact becoming stable after the end.
    public func inputEnded(at time: EventTime) throws -> Bool {
        if try tickDeadlines(through: time) { return true }
        if let reading = tracker.endOfEvidence(at: time) { try emit(reading) }
        // Only holds remain (each move goes to a heavier contact, so they end). A reading --interval holds back is
        // written by flush() with its own time, not stamped past the end.
        var last = time
        while let deadline = tracker.nextDeadline, deadline > last {
            last = deadline
            if let reading = tracker.tick(now: deadline) { try emit(reading) }
        }
        return false
    }

    /// When a contact still settling becomes stable, or a reading held back by `--interval` is due.
    public var nextDeadline: EventTime? {
        let flush =
            pending != nil ? lastWritten.map { EventTime(microseconds: $0.microseconds + settings.interval) } : nil
        switch (tracker.nextStabilityDeadline, flush) {
        case (let stability?, let flush?): return Swift.min(stability, flush)
        case (let stability?, nil): return stability
        case (nil, let flush): return flush
        }
    }

    /// The `t` key: tares the contacts down now and shows the result at once (a resting object sends no events).
    public func tare() throws {
        let count = tracker.tare()
        output.status(count == 0 ? "nothing to tare" : "tared")
        try emit(tracker.current)
    }

    /// The `k` key: tares the one contact down as a carrier; a refusal is a status, and nothing changes.
    public func tareCarrier() throws {
        do throws(TareError) {
            let id = try tracker.tareCarrier()
            output.status("carrier #\(id) tared: lift it, load it, put it back")
        } catch .nothingDown {
            output.status("carrier: put exactly one contact down (nothing is down)")
        } catch .severalDown(let count) {
            output.status("carrier: put exactly one contact down (\(count) are down)")
        }
        try emit(tracker.current)
    }

    /// The `c` key: removes every tare, the carrier's too.
    public func clearTare() throws {
        tracker.clearTare()
        output.status("tare cleared")
        try emit(tracker.current)
    }

    /// `--tare` and `--carrier` where reading starts. A carrier that cannot be tared is said on stderr and reading
    /// goes on without it.
    private func takeStartTare() {
        if settings.tareAtStart { tracker.tare() }
        guard settings.carrierAtStart else { return }
        do throws(TareError) {
            try tracker.tareCarrier()
        } catch {
            Diagnostics.error("--carrier: \(error)")
        }
    }

    /// Writes whatever `--interval` held back: the latest state always reaches the output.
    public func flush() throws {
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
