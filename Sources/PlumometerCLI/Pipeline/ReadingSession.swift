import PlumometerCore
import PlumometerLinux
import PlumometerOutput

/// Where the device being read comes from, for what a session says about it.
enum SourceKind {
    /// A live evdev device: another one could be chosen.
    case device
    /// A recording, or the bundled demo.
    case recording
}

/// One run of a reading command (stream, replay, demo): the poll loop, the output with its live view and keys, and
/// the pipeline of the device being read.
///
/// ``begin(_:path:at:from:tare:)`` is the one place a device, live or recorded, becomes a ``ReadingPipeline``;
/// ``run(_:)`` is the one shape of timed work: the source's, then the output's redraws.
final class ReadingSession {
    let driver: Driver
    let output: any ReadingOutput
    let settings: ReadingSettings
    /// The pipeline of the device being read (the last one, after it vanished).
    private(set) var pipeline: ReadingPipeline?
    private let live: LiveView?
    private let latestStateWins: Bool
    private var keyboard: RawKeyboard?
    private var keysAttached = false
    /// False when standard input is not the user's to press keys on (a replay reading a recording typed or piped
    /// there): the terminal is then left as it is, not put in raw mode.
    var keysAllowed = true
    private var finished = false

    /// Starts a session.
    /// - Parameters:
    ///   - settings: what shapes the readings.
    ///   - format: `--format`, or nil for the live view on a terminal and JSON Lines elsewhere.
    ///   - latestStateWins: a live device: lines are written from a thread of their own, so a stalled stdout
    ///     never stops reading (a recording waits for its consumer instead and loses nothing).
    /// - Throws: when the poll loop cannot be set up.
    ///   - outputSettings: where lines go (stdout, `-o FILE`), `--count`, `--timestamps`.
    init(
        settings: ReadingSettings,
        format: String?,
        latestStateWins: Bool,
        outputSettings: OutputSettings = OutputSettings()
    ) throws {
        // The loop blocks SIGINT/SIGTERM/SIGHUP for this thread and reads them from a signalfd; it must exist before
        // any other thread (the stdout writer), which then inherits the blocked mask. A thread that did not would
        // take the default action for a SIGTERM: death mid-line.
        driver = try Driver()
        let (chosen, live) = OutputChoice.make(
            format: format,
            settings: settings,
            latestStateWins: latestStateWins,
            output: outputSettings
        )
        let sink = outputSettings.sink
        self.live = live
        output = outputSettings.frameLimit.map { FrameLimitOutput(chosen, limit: $0) } ?? chosen
        // `>> log`: a line an earlier run left cut stays on its own, and this run's first record starts a line.
        try sink.startOnNewLineIfAppending()
        // `-o FIFO` stalled by its reader still hears SIGINT/SIGTERM between lines, as stdout does.
        if sink !== FileDescriptorWriter.standardOutput(), sink.isPipe {
            sink.interruptDescriptor = driver.loop.signalFileDescriptor
        }
        self.settings = settings
        self.latestStateWins = latestStateWins
        driver.stopWhenOutputCloses()
    }

    /// Builds the pipeline for a device and starts it: the device record, then what rests on it.
    ///
    /// Refuses a device without a pressure axis, finds its calibration profile, classifies it and attaches the
    /// live view's keys the first time.
    /// - Parameters:
    ///   - description: the device.
    ///   - path: the node or the recording's name, as the outputs show it.
    ///   - time: the device time at which reading starts.
    ///   - kind: where the device comes from.
    ///   - tare: when `--tare` takes its zero.
    /// - Returns: the pipeline, the one frames of this device go into.
    @discardableResult
    func begin(
        _ description: DeviceDescription,
        path: String,
        at time: EventTime,
        from kind: SourceKind,
        tare: TareStart
    ) throws -> ReadingPipeline {
        let (record, profile) = try Self.prepare(description, path: path, at: time, from: kind, settings: settings)
        let pipeline = ReadingPipeline(
            record: record,
            calibration: profile?.calibration,
            settings: settings,
            output: output
        )
        self.pipeline = pipeline
        try pipeline.start(tare)
        attachKeys(holdAtEnd: kind == .recording)
        return pipeline
    }

    /// What every reader of a device does before its first frame: refuses a device without a pressure axis, finds
    /// its calibration profile (announced), classifies it (warning about a bogus axis, and noting that a contact-size
    /// device's figures, or a profile made for one, compare contact areas) and makes its record. The session's pipelines and `plot` share it.
    /// - Parameter consequence: what the missing pressure axis means for the caller, ending the refusal.
    static func prepare(
        _ description: DeviceDescription,
        path: String,
        at time: EventTime,
        from kind: SourceKind,
        settings: ReadingSettings,
        consequence: String = "it cannot weigh anything"
    ) throws -> (record: DeviceRecord, profile: Profile?) {
        try requirePressureAxis(description, path: path, listHint: kind == .device, consequence: consequence)
        let profile = try ProfileStore.profile(
            for: description,
            explicitPath: settings.profilePath,
            ignoreSaved: settings.ignoreSavedProfile
        )
        let classification = DeviceClassifier.classify(description)
        if classification.sensing == .bogus {
            // Declared but unusable (an empty or inverted range, a range copied from a position axis): readings
            // are still written, but the user must know not to trust them.
            Diagnostics.error(
                "warning: \(description.name.forTerminalName): \(classification.reason) Its readings cannot be trusted; "
                    + "'plumometer probe' tells more."
            )
        }
        noteMeaning(description, classification: classification, profile: profile?.calibration)
        var record = DeviceRecord(
            path: path,
            description: description,
            time: time,
            classification: classification,
            gramsSource: Self.gramsSource(description, profile: profile?.path),
            wallTime: WallClock.now()
        )
        record.profileMade = profile?.made
        record.profileMapsContactArea = profile?.calibration.measuresContactArea == true
        return (record, profile)
    }

    /// Says on stderr, for every reader of a contact-size device (live or recorded, with a profile or not), that its
    /// figures compare contact areas: ``DeviceRecord/contactAreaNotice``, then why the device is taken for one.
    /// - Returns: whether the figures compare contact areas: a contact-size device, or a profile made for one.
    @discardableResult
    static func noteMeaning(
        _ description: DeviceDescription,
        classification: DeviceClassification,
        profile: Calibration?
    ) -> Bool {
        let marked = profile?.measuresContactArea == true
        guard classification.sensing == .contactSize || marked else { return false }
        Diagnostics.note(
            "\(description.name.forTerminalName): \(DeviceRecord.contactAreaNotice). "
                + (classification.sensing == .contactSize
                    ? classification.reason : "Its calibration profile was made with --allow-contact-size.")
        )
        return true
    }

    /// The one refusal of a device without a pressure axis (neither `ABS_MT_PRESSURE` nor `ABS_PRESSURE`).
    /// - Parameters:
    ///   - listHint: add "'plumometer list' shows which devices can" (a live device: another could be chosen).
    ///   - consequence: what it means for the caller ("it cannot weigh anything", "there is nothing to plot").
    static func requirePressureAxis(
        _ description: DeviceDescription,
        path: String,
        listHint: Bool,
        consequence: String = "it cannot weigh anything"
    ) throws {
        guard description.pressureAxis == nil else { return }
        throw CLIError.runtime(
            "\(path.forTerminalName) ('\(description.name.forTerminalName)') has no pressure axis (neither "
                + "ABS_MT_PRESSURE nor ABS_PRESSURE), so \(consequence)."
                + (listHint ? " 'plumometer list' shows which devices can." : "")
        )
    }

    /// Attaches the live view's keys and resize redraws (once); the keys act on the current pipeline.
    /// - Parameter holdAtEnd: a recording: its last frame stays on screen at its end until `q`.
    func attachKeys(holdAtEnd: Bool = false) {
        guard !keysAttached, keysAllowed else { return }
        keysAttached = true
        keyboard = LiveKeys.attach(
            live,
            to: driver,
            holdAtEnd: holdAtEnd,
            pipeline: { [unowned self] in self.pipeline }
        )
    }

    /// Runs the poll loop until `source` finishes, a signal or an error, then writes what is left and finishes
    /// the output.
    func run(_ source: any FrameSource) throws {
        driver.work = { [unowned self] in
            let due = try source.due()
            if due == .finished { try self.pipeline?.flush() }
            try self.output.idle(now: MonotonicClock.now())
            return due.sooner(.within(self.output.idleDeadline(now: MonotonicClock.now())))
        }
        try driver.run()
        try pipeline?.flush()
        finished = true
        try output.finish()
    }

    /// Restores the keyboard and the terminal. On an error path a live session first writes what it read, so it
    /// reaches stdout before the error is reported.
    func end() {
        keyboard?.restore()
        if latestStateWins && !finished { try? output.finish() }
        live?.restoreTerminal()
    }

    /// Where grams come from: a calibration profile, else the pressure axis' resolution (units per gram), else
    /// nowhere.
    static func gramsSource(_ description: DeviceDescription, profile: String?) -> DeviceRecord.GramsSource {
        if let profile { return .calibration(profile) }
        if let range = description.pressureRange, range.resolution > 0 { return .resolution(range.resolution) }
        return .none
    }
}
