/// The guided part of `plumometer probe`: a synchronous state machine on kernel time, fed the probed device's
/// contact frames (live or from a recording of the same gestures), that walks the user through four steps and
/// decides what the pressure axis follows.
///
/// No I/O and no clock: `consume(frame)` for every frame, `tick(now:)` when `nextDeadline` passes without
/// frames (a still finger on a pad with fuzz sends none), as for `WeightTracker`. The steps:
/// 1. rest lightly: starts at the first touch (times out after `fingerTimeout`), lasts `restDuration`;
/// 2. press harder: detected when pressure rises `riseThreshold` of the span over the resting level;
/// 3. roll or flatten: detected when touch major grows `flattenThreshold` beyond its resting size and its size
///    during the press (pressing flattens a finger too), or the contact moves `rollDistance` from its rest;
///    steps 2 and 3 complete once their change held for `hold`, or time out after `stepTimeout`;
/// 4. lift: completes when the surface is clear, or times out after `liftTimeout`.
/// A finger lifted before step 4 ends the probe early, with a note. The decision is ``ProbeDecision``'s.
public struct ProbeAnalyzer: Sendable {
    /// The probed device's static classification (its findings, and whether it is semi-multitouch).
    public let classification: DeviceClassification
    let description: DeviceDescription
    let configuration: ProbeConfiguration

    /// The current step, nil before the probe begins; stays at the last step once finished.
    public private(set) var step: ProbeStep?
    /// Whether the probe is over.
    public private(set) var isFinished = false
    /// The report, once finished.
    public private(set) var report: ProbeReport?
    /// The samples of each step.
    public private(set) var samples: [ProbeStep: [ProbeSample]] = [:]

    private var beganAt: EventTime?
    private var stepStartedAt: EventTime?
    private var detectedAt: EventTime?
    private var trackedID: Int?
    private var lastProgressTenth = -1
    private var notes: [String] = []
    private var detections: [ProbeStep: EventTime] = [:]
    private var stepStarts: [ProbeStep: EventTime] = [:]
    private var restLevel: RestingLevel?
    /// The contact size while step 2's press held: pressing flattens a finger too, so step 3 looks for a size
    /// beyond this one.
    private var pressedSize: Double?

    /// Creates an analyzer for `description`.
    public init(description: DeviceDescription, configuration: ProbeConfiguration = ProbeConfiguration()) {
        self.description = description
        self.classification = DeviceClassifier.classify(description)
        self.configuration = configuration
    }

    /// Begins the probe at `time` (the first prompt): step 1's wait for a finger starts now.
    public mutating func begin(at time: EventTime) -> [ProbeEvent] {
        guard beganAt == nil else { return [] }
        beganAt = time
        step = .rest
        stepStartedAt = nil
        return [.started(.rest)]
    }

    /// The next time `tick(now:)` must run if no frame arrives, nil when only a frame can move the probe on.
    public var nextDeadline: EventTime? {
        guard !isFinished, let step, let beganAt else { return nil }
        switch step {
        case .rest:
            guard let stepStartedAt else { return Self.after(beganAt, configuration.fingerTimeout) }
            let end = Self.after(stepStartedAt, configuration.restDuration)
            return nextProgress(since: stepStartedAt, over: configuration.restDuration).map { Swift.min($0, end) }
                ?? end
        case .press, .roll:
            guard let stepStartedAt else { return nil }
            let timeout = Self.after(stepStartedAt, configuration.stepTimeout)
            guard let detectedAt else { return timeout }
            let held = Swift.min(timeout, Self.after(detectedAt, configuration.hold))
            return nextProgress(since: detectedAt, over: configuration.hold).map { Swift.min($0, held) } ?? held
        case .lift:
            return stepStartedAt.map { Self.after($0, configuration.liftTimeout) }
        }
    }

    /// Feeds one frame of the probed device.
    ///
    /// - Returns: What the caller shows: new steps, progress, timeouts, the end.
    public mutating func consume(_ frame: ContactFrame) -> [ProbeEvent] {
        let frame = classification.semiMultitouch ? frame.mergingBoundingBox() : frame
        let contact = frame.contacts.first { $0.id == trackedID } ?? (trackedID == nil ? frame.contacts.first : nil)
        trackedID = contact?.id
        let sample = contact.flatMap { contact in
            contact.pressure.map {
                ProbeSample(
                    time: frame.time,
                    pressure: $0,
                    touchMajor: contact.touchMajor,
                    touchMinor: contact.touchMinor,
                    x: contact.x,
                    y: contact.y
                )
            }
        }
        return consume(sample, touching: contact != nil, at: frame.time)
    }

    /// Feeds one reading: `sample` is nil when the finger is down without a pressure yet, or up (`touching`
    /// false). The CLI may use this instead of frames.
    public mutating func consume(_ sample: ProbeSample?, touching: Bool, at time: EventTime) -> [ProbeEvent] {
        var events = begin(at: time)
        guard !isFinished, let step else { return events }
        if !touching {
            trackedID = nil
            switch step {
            case .rest where stepStartedAt == nil:
                events += tick(now: time)
            case .lift:
                events += finish(at: time)
            default:
                notes.append("The finger lifted during step \(step.rawValue) (\(step.name)); the probe ended early.")
                events += finish(at: time)
            }
            return events
        }
        if step == .rest, stepStartedAt == nil {
            // A touch after the finger timeout comes too late, whether or not a tick saw the timeout pass.
            events += tick(now: time)
            if isFinished { return events }
            stepStartedAt = time
            lastProgressTenth = -1
        }
        // Time first (the frame may come after the step's end), then the sample, then a hold it may complete.
        events += tick(now: time)
        if let sample, !isFinished, let current = self.step, current != .lift {
            samples[current, default: []].append(sample)
            if current == .press || current == .roll { detect(sample, in: current) }
            events += tick(now: time)
        }
        return events
    }

    /// Lets kernel time pass without frames: completes held steps, reports progress, applies timeouts.
    public mutating func tick(now: EventTime) -> [ProbeEvent] {
        guard !isFinished, let step, let beganAt else { return [] }
        var events: [ProbeEvent] = []
        switch step {
        case .rest:
            guard let stepStartedAt else {
                if now >= Self.after(beganAt, configuration.fingerTimeout) {
                    let note =
                        configuration.fromRecording
                        ? "The recording shows no finger within \(Int(configuration.fingerTimeout)) s of its own "
                            + "time: nothing to probe."
                        : "No finger touched the surface within \(Int(configuration.fingerTimeout)) s: "
                            + "nothing to probe."
                    notes.append(note)
                    events.append(.timedOut(.rest, note))
                    events += finish(at: now)
                }
                return events
            }
            events += progress(.rest, since: stepStartedAt, now: now, over: configuration.restDuration)
            if now >= Self.after(stepStartedAt, configuration.restDuration) {
                restLevel = Self.restingLevel(
                    samples[.rest] ?? [],
                    from: stepStartedAt,
                    until: now,
                    configuration: configuration
                )
                events += advance(to: .press, at: now)
            }
        case .press, .roll:
            guard let stepStartedAt else { return events }
            if let detectedAt {
                events += progress(step, since: detectedAt, now: now, over: configuration.hold)
                if now >= Self.after(detectedAt, configuration.hold) {
                    detections[step] = detectedAt
                    if step == .press {
                        let held = (samples[.press] ?? []).filter { $0.time >= detectedAt }
                        pressedSize = ProbeStatistics.timeWeightedMedian(
                            held.compactMap { sample in sample.size.map { (sample.time, $0) } },
                            until: now
                        )
                    }
                    events += advance(to: step == .press ? .roll : .lift, at: now)
                    return events
                }
            }
            if now >= Self.after(stepStartedAt, configuration.stepTimeout) {
                let waited =
                    configuration.fromRecording
                    ? ": none in the recording within \(Int(configuration.stepTimeout)) s of its own time"
                    : " timed out after \(Int(configuration.stepTimeout)) s"
                let note =
                    step == .press
                    ? "Step 2 (press harder)\(waited): the pressure did "
                        + "not rise by \(Self.percent(configuration.riseThreshold)) of its range over the resting level."
                    : "Step 3 (roll or flatten)\(waited): neither the "
                        + "contact size nor the position changed enough."
                notes.append(note)
                events.append(.timedOut(step, note))
                events += advance(to: step == .press ? .roll : .lift, at: now)
            }
        case .lift:
            guard let stepStartedAt else { return events }
            if now >= Self.after(stepStartedAt, configuration.liftTimeout) {
                let note =
                    configuration.fromRecording
                    ? "Step 4 (lift): the recording shows no lift within \(Int(configuration.liftTimeout)) s of its "
                        + "own time; the verdict does not need it."
                    : "Step 4 (lift) timed out after \(Int(configuration.liftTimeout)) s; the verdict does not need "
                        + "it."
                notes.append(note)
                events.append(.timedOut(.lift, note))
                events += finish(at: now)
            }
        }
        return events
    }

    /// Ends the probe now (the recording ended, the user stopped it) and decides from what was collected.
    public mutating func finish(at time: EventTime) -> [ProbeEvent] {
        guard !isFinished else { return [] }
        isFinished = true
        let made = ProbeDecision.decide(
            description: description,
            classification: classification,
            samples: samples,
            detections: detections,
            stepStarts: stepStarts,
            finishedAt: time,
            configuration: configuration,
            notes: notes
        )
        report = made
        return [.finished(made)]
    }

    private mutating func advance(to next: ProbeStep, at time: EventTime) -> [ProbeEvent] {
        step = next
        stepStarts[next] = time
        stepStartedAt = time
        detectedAt = nil
        lastProgressTenth = -1
        return [.started(next)]
    }

    /// `seconds` after `time`, in whole microseconds: every comparison with a deadline is exact.
    static func after(_ time: EventTime, _ seconds: Double) -> EventTime {
        EventTime(microseconds: time.microseconds &+ Swift.max(1, Int64((seconds * 1_000_000).rounded())))
    }

    /// The tenths of `duration` elapsed since `start`, reported once each.
    private mutating func progress(
        _ step: ProbeStep,
        since start: EventTime,
        now: EventTime,
        over duration: Double
    ) -> [ProbeEvent] {
        let length = Self.after(start, duration).microseconds - start.microseconds
        let elapsed = Swift.max(0, now.microseconds - start.microseconds)
        let tenth = Int(Swift.min(10, elapsed * 10 / length))
        guard tenth > lastProgressTenth else { return [] }
        lastProgressTenth = tenth
        return [.progress(step, Double(tenth) / 10)]
    }

    /// When the next tenth of `duration` since `start` is due, nil once all ten were reported.
    private func nextProgress(since start: EventTime, over duration: Double) -> EventTime? {
        let next = Int64(lastProgressTenth + 1)
        guard next <= 10 else { return nil }
        let length = Self.after(start, duration).microseconds - start.microseconds
        return EventTime(microseconds: start.microseconds + (next * length + 9) / 10)
    }

    /// Whether `sample` shows the change step 2 or 3 waits for; a sample without it resets the hold.
    private mutating func detect(_ sample: ProbeSample, in step: ProbeStep) {
        guard let rest = restLevel else { return }
        let changed: Bool
        if step == .press {
            let span = description.pressureRange?.span ?? 0
            changed = Double(sample.pressure) - rest.pressure >= configuration.riseThreshold * Swift.max(1, span)
        } else {
            var flattened = false
            if let size = sample.size, let restSize = rest.size {
                let base = Swift.max(restSize, pressedSize ?? restSize)
                flattened = size - base >= configuration.flattenThreshold * Swift.max(1, base)
            }
            changed = flattened || moved(sample, from: rest)
        }
        if !changed {
            if detectedAt != nil { lastProgressTenth = -1 }
            detectedAt = nil
        } else if detectedAt == nil {
            detectedAt = sample.time
        }
    }

    private func moved(
        _ sample: ProbeSample,
        from rest: RestingLevel
    )
        -> Bool
    {
        func limit(_ axes: [AbsoluteAxis]) -> Double? {
            guard let info = axes.lazy.compactMap({ description.axes[$0] }).first else { return nil }
            return info.resolution > 0 ? configuration.rollDistance * Double(info.resolution) : info.span / 100
        }
        if let x = sample.x, let restX = rest.x, let limit = limit([.mtPositionX, .x]),
            abs(Double(x) - restX) >= Swift.max(1, limit)
        {
            return true
        }
        if let y = sample.y, let restY = rest.y, let limit = limit([.mtPositionY, .y]),
            abs(Double(y) - restY) >= Swift.max(1, limit)
        {
            return true
        }
        return false
    }

    /// The resting level: time-weighted medians from the settling time to the end of step 1 (the last value
    /// before the settling time counts from there: a still finger sends nothing more).
    static func restingLevel(
        _ samples: [ProbeSample],
        from start: EventTime,
        until end: EventTime,
        configuration: ProbeConfiguration
    ) -> RestingLevel? {
        let used = ProbeFigureMaker.settledForLevel(samples, from: start, configuration: configuration)
        func level(_ value: (ProbeSample) -> Double?) -> Double? {
            ProbeStatistics.timeWeightedMedian(used.compactMap { s in value(s).map { (s.time, $0) } }, until: end)
        }
        guard let pressure = level({ Double($0.pressure) }) else { return nil }
        return RestingLevel(
            pressure: pressure,
            size: level(\.size),
            x: level { $0.x.map(Double.init) },
            y: level { $0.y.map(Double.init) }
        )
    }

    static func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded())) %" }

    /// A fraction as a percentage with its sign: "+21 %", "-18 %", "0 %".
    static func signedPercent(_ fraction: Double) -> String {
        let value = Int((fraction * 100).rounded())
        return (value > 0 ? "+" : "") + "\(value) %"
    }
}

/// The finger's resting state in step 1: medians after the settling time.
struct RestingLevel: Hashable, Sendable {
    var pressure: Double
    var size: Double?
    var x: Double?
    var y: Double?
}
