import PlumometerCore
import PlumometerLinux
import PlumometerOutput
import PlumometerRecording

extension WeighCommand: Command {
    /// `weigh`'s own options; the tare, profile and unit options are the reading commands' (``ReadingOptions``).
    enum Options {
        static let device = Option.inputDevice(
            help: "The device: /dev/input/eventN, or a substring of its name. Default: the best force-sensing device."
        )
        static let replay = Option.replayFile(
            help: "Weigh what a recording shows instead of a device (evemu or libinput record)."
        )
        static let format = Option<WeighFormat>.choice(
            "format",
            short: "f",
            cases: WeighFormat.allCases,
            help: "text: one line per contact and the total; jsonl: exactly one frame object (default text)."
        )
        static let objects = Option<Int>.wholeNumber(
            "objects",
            value: "N",
            range: 1...4_096,
            help: "Answer as soon as N objects (besides what was tared) are down and everything down is stable, "
                + "without waiting for the settle time."
        )
        static let timeout = Option<Double>.number(
            "timeout",
            value: "SECONDS",
            maximum: 86_400,
            help: "Give up (exit 1) when nothing rests still within SECONDS (default 30; a recording's own time)."
        )
    }

    static let spec = CommandSpec(
        name: "weigh",
        summary: "A kitchen scale in one command: wait until everything down rests still, print its weights, exit.",
        options: [
            Options.device, Options.replay, ReplayCommand.Options.desc, Options.format, Options.objects,
            Options.timeout, ReadingOptions.tare,
            ReadingOptions.carrier, ReadingOptions.profile, ReadingOptions.noProfile, ReadingOptions.unit, Flag.quiet,
        ],
        discussion: """
            Waits until every contact down is stable (its value kept within the tolerance for half a second) and \
            no new object has arrived for 3 s (the settle time, so that objects placed one by one are all \
            weighed), then prints each contact's settled weight, heaviest first (grams when known, else percent \
            of full scale), and the total in grams, and exits 0. --objects N answers instead as soon as N objects \
            are down and everything down is stable, without the settle time; a recording that ends with fewer \
            than N at rest exits 1. Something lifted before the settle time ran out leaves the scene at rest \
            just before it as the answer, and at the end of a recording no object can arrive any more: what \
            rests there is the answer. On a contact-size device (most touchpads and touchscreens) those \
            figures compare contact areas, and the answer ends with '(contact area, not weight: ...)'. With \
            --tare or --carrier the zero is taken where reading starts \
            and weigh waits for something else to rest: an object placed beside what was tared, or the carrier \
            put back loaded. -f jsonl prints exactly one `frame` object (docs/output-format.md) and nothing else \
            on stdout. Then, in either format, the session's summary goes to stderr as a table (each contact: \
            when it was placed and lifted, its settled weight, how long it was the heaviest; --quiet leaves it \
            out), also when no stable reading came. A timeout (wall clock on a device, the recording's kernel time on a recording), the end of \
            a recording, or a stop by SIGINT/SIGTERM before a stable reading exits 1. A recording shows nothing \
            after its last event: what had not rested for half a second by then is not weighed.
            """,
        examples: [
            "plumometer weigh",
            "plumometer weigh --carrier --timeout 60     # tare the spoon, lift it, fill it, put it back",
            "plumometer weigh --objects 3                # three plums: answer once all three rest",
            "plumometer demo --save demo.evemu && plumometer weigh --replay demo.evemu -f jsonl",
        ]
    )
}

/// What `weigh` prints.
enum WeighFormat: String, CaseIterable, Sendable {
    case text
    case jsonl
}

/// `plumometer weigh`: one settled reading of everything down, from a device or a recording, then exit.
enum WeighCommand {
    static func run(_ arguments: ParsedArguments) throws {
        if arguments.has(Options.device) && arguments.has(Options.replay) {
            throw arguments.usageError("Give either --device or --replay, not both.")
        }
        let profilePath = try arguments.value(of: ReadingOptions.profile)
        let ignoreSaved = arguments.flag(ReadingOptions.noProfile)
        if profilePath != nil && ignoreSaved {
            throw arguments.usageError("Give either --profile or --no-profile, not both.")
        }
        let timeout = try arguments.value(of: Options.timeout) ?? 30
        let format = try arguments.value(of: Options.format) ?? .text
        let unit = try arguments.value(of: ReadingOptions.unit) ?? .grams
        let start = StartTare(
            tare: arguments.flag(ReadingOptions.tare),
            carrier: arguments.flag(ReadingOptions.carrier)
        )
        let wait = WeighingWait(objects: try arguments.value(of: Options.objects))

        let weighing: Weighing
        let path: String
        let scale: PositionAxes?
        let descriptionFile = try arguments.recordingDescription(replay: Options.replay)
        func weighingOf(_ description: DeviceDescription, _ path: String) throws -> Weighing {
            try Weighing(description, path: path, start: start, wait: wait, profile: (profilePath, ignoreSaved))
        }
        if let file = try arguments.value(of: Options.replay) {
            let recorded = try ArrivingDevice(path: file, description: descriptionFile)
            path = recorded.description.path
            scale = PositionAxes(recorded.description)
            weighing = try weighingOf(recorded.description, path)
            try weighing.weigh(recorded, timeout: timeout)
        } else {
            let source = try LiveSource(path: try DeviceTarget(arguments.value(of: Options.device)).resolve())
            defer { source.close() }
            path = source.path
            scale = PositionAxes(source.description)
            weighing = try weighingOf(source.description, path)
            try weighing.weigh(source, timeout: timeout)
        }
        guard let reading = weighing.result else {
            // The session ran its course without a stable reading: what it saw, then why that is no weighing.
            SummaryOutput.writeTable(weighing.summary(), unit: unit)
            throw weighing.whyNoReading(timeout: timeout)
        }
        let sink = FileDescriptorWriter.standardOutput()
        switch format {
        case .jsonl:
            try sink.write(JSONLinesFormatter().frame(reading, sequence: 1, device: path, positions: scale) ?? "")
        case .text: try sink.write(text(reading, unit: unit) + (weighing.meaningNotice.map { "(\($0))\n" } ?? ""))
        }
        // Always, in either format, on stderr: stdout stays the answer alone (one frame object with -f jsonl).
        SummaryOutput.writeTable(weighing.summary(), unit: unit)
    }

    /// One line per contact, heaviest first (`#418   72.0 g  heaviest`), then `total   107.5 g` when grams are known.
    static func text(_ reading: Reading, unit: WeightUnit) -> String {
        let contacts = reading.contacts.sorted { $0.rank < $1.rank }
        let idWidth = contacts.map { "#\($0.id)".count }.max() ?? 0
        var text = ""
        for contact in contacts {
            var line = padRight("#\(contact.id)", Swift.max(idWidth, 5)) + " "
            line += NumberText.padLeft(
                contact.grams.map { unit.format(grams: $0) } ?? NumberText.fixed(contact.percent, 1) + "%",
                10
            )
            if contact.heaviest && contacts.count > 1 { line += "  heaviest" }
            if contact.carrier { line += "  carrier" }
            if contact.saturated { line += "  saturated (the weight is at least this)" }
            text += line + "\n"
        }
        if let total = reading.totalGrams {
            text +=
                padRight("total", Swift.max(idWidth, 5)) + " "
                + NumberText.padLeft(unit.format(grams: total), 10) + "\n"
        }
        return text
    }

    /// `text` followed by spaces up to `width` characters.
    private static func padRight(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: Swift.max(0, width - text.count))
    }
}

/// When `weigh` answers: after the settle time, or as soon as `--objects N` objects rest.
struct WeighingWait {
    /// `--objects N`: answer once N objects (besides what was tared) are down and everything down is stable.
    var objects: Int?
    /// Without `--objects`: how long (seconds of kernel time) no new object may arrive before the answer, so that
    /// objects placed one by one are all weighed. 3 s: plums put down by hand one after another (the demo's come
    /// 1.7 s apart) are one weighing, and a scene at rest is answered 2.5 s after its last object came to rest.
    var settle = 3.0
}

/// `--tare` and `--carrier`, taken where reading starts.
struct StartTare {
    var tare: Bool
    var carrier: Bool
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
final class Weighing: FrameConsumer {
    /// The first reading in which every contact down is stable.
    private(set) var result: Reading?
    private var tracker: WeightTracker
    /// Every reading of the session, for the summary weigh ends with.
    private var summarizer = SessionSummarizer()
    private var stoppedBySignal = false
    private let start: StartTare
    private let wait: WeighingWait
    private let path: String
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
    let meaningNotice: String?

    /// Looks up the device's profile (announced on stderr) and prepares its tracker.
    init(
        _ description: DeviceDescription,
        path: String,
        start: StartTare,
        wait: WeighingWait = WeighingWait(),
        profile: (path: String?, ignoreSaved: Bool)
    ) throws {
        try ReadingSession.requirePressureAxis(description, path: path, listHint: false)
        let found = try ProfileStore.profile(
            for: description,
            explicitPath: profile.path,
            ignoreSaved: profile.ignoreSaved
        )
        tracker = ReadingPipeline.tracker(for: description, calibration: found?.calibration, smooth: false)
        let comparesAreas = ReadingSession.noteMeaning(
            description,
            classification: DeviceClassifier.classify(description),
            profile: found?.calibration
        )
        meaningNotice = comparesAreas ? DeviceRecord.contactAreaNotice : nil
        self.start = start
        self.wait = wait
        self.path = path
    }

    /// Plays a recording until a stable reading, its end (its last event: nothing rests after it that it does not
    /// show) or `timeout` seconds of its own time.
    func weigh(_ recorded: ArrivingDevice, timeout: Double) throws {
        kernelDeadline = recorded.startTime.adding(seconds: timeout)
        Diagnostics.note("weighing what \(path) shows once it rests still")
        let played = try recorded.play(into: self)
        stoppedBySignal = recorded.stoppedBySignal
        if let failure = played.failure, result == nil { throw failure }
    }

    /// Reads a device until a stable reading, `timeout` seconds of the wall clock, or a stop signal.
    func weigh(_ source: LiveSource, timeout: Double) throws {
        let driver = try Driver()
        if let frame = source.initialFrame, try consume(frame) { return }
        try takeStartTare(nil)
        Diagnostics.note("put what to weigh on \(path) and keep it still (up to \(NumberText.trimmed(timeout)) s)")
        let deadline = MonotonicClock.now().adding(seconds: timeout)
        source.start(in: driver, into: self)
        driver.work = { [unowned self] in
            let now = MonotonicClock.now()
            guard now < deadline else {
                self.timedOut = true
                return .finished
            }
            return try source.due().sooner(.within(deadline.microseconds - now.microseconds))
        }
        try driver.run()
        stoppedBySignal = driver.stoppedBySignal
    }

    /// The session so far: every reading from where reading started to the weighing (or to where it gave up).
    func summary() -> SessionSummary { summarizer.summary() }

    /// Why there is no reading: a stop signal, the timeout, or the input ended.
    func whyNoReading(timeout: Double) -> CLIError {
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

    func consume(_ frame: ContactFrame) throws -> Bool {
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
            try takeStartTare(frame)
            reading = tracker.current
        }
        summarizer.consume(reading)
        return check(reading, at: frame.time)
    }

    func tick(now: EventTime) throws -> Bool {
        if expired(now) { return true }
        latestTime = latestTime.map { Swift.max($0, now) } ?? now
        if let reading = tracker.tick(now: now) { summarizer.consume(reading) }
        // Also when nothing changed: the settle time may have run out on a scene at rest.
        return check(tracker.current, at: now)
    }

    /// The end of a recording: stability up to its last event, and none after it; no object can arrive any more,
    /// so the settle time is over.
    func inputEnded(at time: EventTime) throws -> Bool {
        if try tickDeadlines(through: time) { return true }
        if let reading = tracker.endOfEvidence(at: time) { summarizer.consume(reading) }
        ended = true
        return check(tracker.current, at: Swift.max(tracker.current.time, time))
    }

    var nextDeadline: EventTime? {
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

    /// Takes `--tare` and `--carrier` on what rests where reading starts (`frame`, already consumed).
    private func takeStartTare(_ frame: ContactFrame?) throws {
        guard !startTaken else { return }
        startTaken = true
        if start.tare { tracker.tare() }
        if start.carrier {
            do throws(TareError) {
                try tracker.tareCarrier()
            } catch {
                throw CLIError.runtime("--carrier on \(path): \(error)")
            }
        }
        if start.tare || start.carrier { tared = Set(tracker.contactIDs) }
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
