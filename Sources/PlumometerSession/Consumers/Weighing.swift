public import PlumometerCore
public import PlumometerOutput

/// When `weigh` answers: after the settle time, or as soon as `--objects N` objects rest.
public struct WeighingWait {
    /// `--objects N`: answer once N objects (besides what was tared) are down and everything down is stable.
    public var objects: Int?
    /// Without `--objects`: how long (seconds of kernel time) no new object may arrive before the answer, so that
    /// objects placed one by one are all weighed. 3 s: plums put down by hand one after another (the demo's come
    /// 1.7 s apart) are one weighing, and a scene at rest is answered 2.5 s after its last object came to rest.
    public var settle = 3.0

    public init(objects: Int? = nil) { self.objects = objects }
}

/// Weighing as a consumer of frames: the reading pipeline's tracker, stopped at the first reading in which every
/// contact down is stable and no new object arrived for the settle time (``WeighingWait``), or, with `--objects N`,
/// in which N objects are down and every contact is stable.
///
/// With a tare taken at the start, that reading must hold something other than what was tared (a new contact, or
/// the carrier put back, which is a new contact too): the tared objects alone, at rest, read zero and are not a
/// weighing. At the end of a recording nothing can arrive any more, so the settle time is over: what rests at its
/// last event is the answer (and nothing rests after it, docs/quantities.md). When something is lifted before the
/// settle time ran out, the scene at rest just before is the answer: the weighing was of what was put down.
public final class Weighing: FrameConsumer {
    /// The first reading in which every contact down is stable.
    public private(set) var result: Reading?
    private var tracker: WeightTracker
    /// Every reading of the session, for the summary weigh ends with.
    private var summarizer = SessionSummarizer()
    private var stoppedBySignal = false
    private let start: TareStart
    /// The device weighed, as it was opened.
    private let device: OpenedDevice
    private let wait: WeighingWait
    /// The node or recording weighed, as the answer names it.
    public let path: String
    /// The device's position axes, for the millimetres of the answer.
    public let scale: PositionAxes?
    /// When the last object arrived (a contact began), for the settle time.
    private var lastArrival: EventTime?
    /// The scene at rest since the last arrival, still waiting for the settle time: the answer if something is
    /// lifted before the settle time runs out.
    private var atRest: Reading?
    /// The latest kernel time seen (a frame's or a tick's).
    private var latestTime: EventTime?
    /// Whether the input (a recording) ended.
    private var ended = false
    private var startTaken = false
    /// The contacts zeroed where reading started.
    private var tared: Set<Int> = []
    /// On a recording: the kernel time at which to give up.
    private var kernelDeadline: EventTime?
    private var timedOut = false
    /// What the weights are when they are no weights: ``DeviceRecord/contactAreaNotice`` for a contact-size device
    /// (or a profile made for one).
    public let meaningNotice: String?

    /// Weighs `device` with its profile's calibration (found by its preparation).
    public init(_ device: OpenedDevice, start: TareStart, wait: WeighingWait = WeighingWait()) {
        tracker = ReadingPipeline.tracker(
            for: device.description,
            calibration: device.profile?.calibration,
            smooth: false
        )
        meaningNotice = device.comparesContactAreas ? DeviceRecord.contactAreaNotice : nil
        self.device = device
        self.start = start
        self.wait = wait
        path = device.path
        scale = PositionAxes(device.description)
    }

    /// Starts weighing where reading starts: on a live device, with what rested on it at open taken first (the
    /// tare is taken there, ``TareStart``); on a recording, whose first event is the start, giving up `timeout`
    /// seconds of its own time later (the tare waits for its first frame).
    /// - Returns: true when what rests on a live device at open is the answer already.
    /// - Throws: ``TareStartRefusal`` when `--carrier` finds no single contact down at open.
    public func begin(timeout: Double) throws -> Bool {
        if TareStart.waitsForFirstFrame(device) {
            kernelDeadline = device.start.adding(seconds: timeout)
            Diagnostics.note("weighing what \(path) shows once it rests still")
            return false
        }
        if let frame = device.initialFrame, try consume(frame) { return true }
        try takeStartTare()
        Diagnostics.note("put what to weigh on \(path) and keep it still (up to \(NumberText.trimmed(timeout)) s)")
        return false
    }

    /// How the run ended, for ``whyNoReading(timeout:)``: the wall-clock timeout of a live device ran out, or a stop
    /// signal came.
    public func ended(timedOut: Bool, stoppedBySignal: Bool) {
        if timedOut { self.timedOut = true }
        self.stoppedBySignal = stoppedBySignal
    }

    /// The session so far: every reading from where reading started to the weighing (or to where it gave up).
    public func summary() -> SessionSummary { summarizer.summary() }

    /// Why there is no reading: a stop signal, the timeout, or the input ended.
    public func whyNoReading(timeout: Double) -> CLIError {
        if stoppedBySignal {
            return CLIError.runtime("stopped before everything on \(path) rested still; nothing was weighed.")
        }
        let down = tracker.contactIDs.count
        let state =
            down == 0
            ? "nothing is down" : "\(down) contact\(down == 1 ? " is" : "s are") down, not all of them still"
        let atRest = tracker.current.contacts.filter { $0.stable && !tared.contains($0.id) }.count
        if let wanted = wait.objects, atRest < wanted {
            let objects = "\(atRest) object\(atRest == 1 ? "" : "s") at rest"
            if timedOut {
                return CLIError.runtime(
                    "no \(wanted) objects at rest on \(path) within \(NumberText.trimmed(timeout)) s (\(objects), "
                        + "\(state)); put \(wanted) down and keep them still, or give a longer --timeout SECONDS."
                )
            }
            return CLIError.runtime(
                "\(path) ended with \(objects), not the \(wanted) that --objects asks for (\(state))."
            )
        }
        if timedOut {
            return CLIError.runtime(
                "no stable reading on \(path) within \(NumberText.trimmed(timeout)) s (\(state)); keep the objects "
                    + "still for half a second, or give a longer --timeout SECONDS."
            )
        }
        return CLIError.runtime(
            "\(path) ended without a stable reading (\(state)): nothing rested still for half a second before "
                + "its last event (a recording shows nothing after it)"
                + (tared.isEmpty ? "." : " apart from what was tared at the start.")
        )
    }

    public func consume(_ frame: ContactFrame) throws -> Bool {
        if expired(frame.time) { return true }
        ended = false
        latestTime = latestTime.map { Swift.max($0, frame.time) } ?? frame.time
        var reading = tracker.consume(frame)
        let changes = tracker.lastChanges
        if !changes.began.isEmpty {
            // A new scene: what rested before is no answer any more.
            lastArrival = frame.time
            atRest = nil
        } else if let atRest, result == nil, !changes.ended.isEmpty || !changes.cancelled.isEmpty {
            // Something is taken away before the settle time ran out: the scene at rest before it is the answer
            // (and the session's summary ends there too).
            result = atRest
            return true
        }
        if !startTaken {
            try takeStartTare()
            reading = tracker.current
        }
        summarizer.consume(reading)
        return check(reading, at: frame.time)
    }

    public func tick(now: EventTime) throws -> Bool {
        if expired(now) { return true }
        latestTime = latestTime.map { Swift.max($0, now) } ?? now
        if let reading = tracker.tick(now: now) { summarizer.consume(reading) }
        // Also when nothing changed: the settle time may have run out on a scene at rest.
        return check(tracker.current, at: now)
    }

    /// The end of a recording: stability up to its last event, and none after it; no object can arrive any more,
    /// so the settle time is over.
    public func inputEnded(at time: EventTime) throws -> Bool {
        if try tickDeadlines(through: time) { return true }
        if let reading = tracker.endOfEvidence(at: time) { summarizer.consume(reading) }
        ended = true
        return check(tracker.current, at: Swift.max(tracker.current.time, time))
    }

    public var nextDeadline: EventTime? {
        [tracker.nextDeadline, kernelDeadline, settleDeadline].compactMap { $0 }.min()
    }

    /// When the settle time runs out (no `--objects`, something down, no answer yet), while it lies ahead.
    private var settleDeadline: EventTime? {
        guard wait.objects == nil, result == nil, !ended, !tracker.contactIDs.isEmpty, let lastArrival else {
            return nil
        }
        let due = lastArrival.adding(seconds: wait.settle)
        return latestTime.map { due > $0 } ?? true ? due : nil
    }

    /// Whether a recording's time ran past the timeout.
    private func expired(_ time: EventTime) -> Bool {
        guard let kernelDeadline, time >= kernelDeadline, result == nil else { return false }
        timedOut = true
        return true
    }

    /// Takes `--tare` and `--carrier` on what rests where reading starts (``TareStart``: its frame, already
    /// consumed); a carrier that cannot be tared ends the weighing, since its answer would weigh the carrier too.
    private func takeStartTare() throws {
        guard !startTaken else { return }
        startTaken = true
        tared = try start.take(on: &tracker, path: path)
    }

    /// Keeps the first reading, as at kernel time `time`, in which every contact down is stable and one of them was
    /// not tared at the start, once no object has arrived for the settle time (or the input ended); with
    /// `--objects N`, as soon as N of them were not tared.
    private func check(_ reading: Reading, at time: EventTime) -> Bool {
        guard result == nil else { return true }
        guard !reading.contacts.isEmpty, reading.contacts.allSatisfy(\.stable) else { return false }
        let objects = reading.contacts.filter { !tared.contains($0.id) }.count
        if let wanted = wait.objects {
            guard objects >= wanted else { return false }
        }
        var answer = reading
        // Nothing changed since the reading, so it is the state at `time`.
        answer.time = Swift.max(reading.time, time)
        if wait.objects == nil {
            guard objects > 0 else { return false }
            if !ended, let lastArrival, time.seconds(since: lastArrival) < wait.settle {
                atRest = answer
                return false
            }
        }
        result = answer
        return true
    }
}
