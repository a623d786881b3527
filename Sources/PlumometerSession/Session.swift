public import PlumometerCore
public import PlumometerRecording

/// One run of a command that reads a device, live or recorded: a source (``FrameSource``: a live device, a
/// recording, the demo) played into a consumer (``FrameConsumer``: the reading pipeline and its output, weigh's
/// weighing, the guided calibration or probe, a plot, the raw recorder) in one ``EventLoop``. Every reading command
/// is options, then a source, then a consumer, then ``run(_:)``: this is the one place the loop is wired.
///
/// A session with a reading ``output`` (stream, replay, demo, plot) also makes the pipeline of each device it is
/// given (``begin(_:path:at:from:tare:consequence:)``), redraws the output when it is idle, writes what `--interval` held back
/// and finishes the output at the end.
public final class Session {
    /// The loop the run happens in.
    public let loop: any EventLoop
    /// Where readings go (stream, replay, demo, plot), or nil for a consumer of its own (weigh, calibrate, probe,
    /// record).
    public let output: (any ReadingOutput)?
    /// What shapes the readings of the pipelines made here.
    public let settings: ReadingSettings
    /// The pipeline of the device being read (the last one, after it vanished).
    public private(set) var pipeline: ReadingPipeline?
    /// Called after each pipeline began, with where its device comes from (the live view attaches its keys).
    public var onBegin: (SourceKind) -> Void = { _ in }
    /// Whether the output was finished by ``run(_:)``.
    public private(set) var finished = false

    /// A session in `loop` (by default a new one from the runtime: `Runtime.current.makeLoop()`).
    /// - Parameters:
    ///   - output: where readings go, or nil when the consumer is the command's own.
    ///   - settings: what shapes the readings.
    /// - Throws: when the loop cannot be made.
    public init(
        output: (any ReadingOutput)? = nil,
        settings: ReadingSettings = ReadingSettings(),
        loop: (any EventLoop)? = nil
    ) throws {
        self.loop = try loop ?? Runtime.current.makeLoop()
        self.output = output
        self.settings = settings
    }

    /// Whether a stop signal (SIGINT, SIGTERM) ended the run.
    public var stoppedBySignal: Bool { loop.stoppedBySignal }

    /// Builds the pipeline for a device and starts it: the device record, then what rests on it.
    ///
    /// Refuses a device without a pressure axis, finds its calibration profile and classifies it
    /// (``DevicePreparation/prepare(_:path:at:from:settings:consequence:)``).
    /// - Parameters:
    ///   - description: the device.
    ///   - path: the node or the recording's name, as the outputs show it.
    ///   - time: the device time at which reading starts.
    ///   - kind: where the device comes from.
    ///   - tare: when `--tare` takes its zero.
    ///   - consequence: what a missing pressure axis means, ending its refusal.
    /// - Returns: the pipeline, the one frames of this device go into.
    @discardableResult
    public func begin(
        _ description: DeviceDescription,
        path: String,
        at time: EventTime,
        from kind: SourceKind,
        tare: TareStart,
        consequence: String = "it cannot weigh anything"
    ) throws -> ReadingPipeline {
        guard let output else { throw CLIError.runtime("a session without an output makes no pipeline") }
        let (record, profile) = try DevicePreparation.prepare(
            description,
            path: path,
            at: time,
            from: kind,
            settings: settings,
            consequence: consequence
        )
        let pipeline = ReadingPipeline(
            record: record,
            calibration: profile?.calibration,
            settings: settings,
            output: output
        )
        self.pipeline = pipeline
        try pipeline.start(tare)
        onBegin(kind)
        return pipeline
    }

    /// A recording as it arrives (replay, demo, plot), its device begun in this session's pipeline
    /// (``begin(_:path:at:from:tare:consequence:)``) once it and its first event are known, `--tare` taken on its
    /// first frame. The source holds the session unowned: run it in this session, while the session lives.
    /// - Parameters:
    ///   - announce: said once the device is known, before its device record (the demo names it).
    ///   - consequence: what a missing pressure axis means, ending its refusal.
    public func recording(
        _ input: RecordingInput,
        pacing: Pacing,
        consequence: String = "it cannot weigh anything",
        announce: @escaping (StreamedDevice) -> Void = { _ in }
    ) -> RecordingSource {
        RecordingSource(input, pacing: pacing, loop: loop) { [unowned self] device, first in
            announce(device)
            return try self.begin(
                device.description,
                path: device.description.path,
                at: first?.time ?? .zero,
                from: .recording,
                tare: .atFirstFrame,
                consequence: consequence
            )
        }
    }

    /// Runs the loop until `source` finishes, its consumer stops, ``EventLoop/finish()``, a stop signal or an
    /// error; then writes what `--interval` held back and finishes the output.
    ///
    /// Before every wait, the source plays or ticks what is due (``FrameSource/due()``) and the output redraws if
    /// a redraw is due; the loop sleeps until the sooner of the two needs it.
    public func run(_ source: any FrameSource) throws {
        try loop.run { [unowned self] in
            let due = try source.due()
            if due == .finished { try self.pipeline?.flush() }
            guard let output = self.output else { return due }
            try output.idle(now: MonotonicClock.now())
            return due.sooner(.within(output.idleDeadline(now: MonotonicClock.now())))
        }
        try pipeline?.flush()
        finished = true
        try output?.finish()
    }
}
