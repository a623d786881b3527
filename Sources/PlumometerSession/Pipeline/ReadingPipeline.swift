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
    /// `--tare` and `--carrier`, taken where reading starts.
    private let tareStart: TareStart
    /// Whether the start tare waits for the first frame (a recording).
    private var tareOnFirstFrame = false
    /// What rests on a live device at open, taken by ``start()``.
    private let initialFrame: ContactFrame?
    /// Whether `--tare` and `--carrier` wait for the first frame (a recording) rather than being taken at open.
    private let startsAtFirstFrame: Bool

    /// The pipeline of `device` (its record, its profile's calibration) into `output`.
    public init(device: OpenedDevice, settings: ReadingSettings, output: any ReadingOutput) {
        self.record = device.record
        self.settings = settings
        self.output = output
        self.tracker = Self.tracker(
            for: device.description,
            calibration: device.profile?.calibration,
            smooth: settings.smooth
        )
        tareStart = TareStart(settings)
        initialFrame = device.initialFrame
        startsAtFirstFrame = TareStart.waitsForFirstFrame(device)
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

    /// Announces the device (the `device` record), then reports what rests on a live device at open, with `--tare`
    /// and `--carrier` taken there (``TareStart``); on a recording they wait for its first frame.
    public func start() throws {
        try output.device(record)
        if startsAtFirstFrame {
            tareOnFirstFrame = !tareStart.isEmpty
            return
        }
        if let initialFrame { _ = tracker.consume(initialFrame) }
        // With nothing down a tare is zero, and `--carrier` says there is no carrier.
        takeStartTare()
        if initialFrame != nil { try emit(tracker.current) }
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

    /// `--tare` and `--carrier` where reading starts (``TareStart``). A carrier that cannot be tared is said on
    /// stderr and reading goes on without it: the readings are still true, only not tared.
    private func takeStartTare() {
        do throws(TareStartRefusal) {
            try tareStart.take(on: &tracker, path: record.path)
        } catch {
            Diagnostics.error("\(error) Reading on without a carrier.")
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
