import PlumometerCore

/// One run of a command that reads a device, live or recorded: a source (``FrameSource``: a live device, a
/// recording, the demo) played into a consumer (``FrameConsumer``: the reading pipeline and its output, weigh's
/// weighing, the guided calibration or probe, a plot, the raw recorder) in one ``EventLoop``. Every reading command
/// is options, then a source, then a consumer, then ``run(_:)``: this is the one place the loop is wired.
///
/// Every device reaches its consumer through ``open(_:for:begin:)``, whatever the source. A session with a reading
/// ``output`` (stream, replay, demo, plot) also makes the pipeline of each device it opens (``pipeline(for:)``),
/// redraws the output when it is idle, writes what `--interval` held back and finishes the output at the end.
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

    /// Builds the reading pipeline of a device this session opened (``open(_:for:begin:)``) and starts it: the
    /// device record, then what rests on a live device at open, with `--tare` and `--carrier` taken where reading
    /// starts (``TareStart``). It becomes ``pipeline``; ``onBegin`` is told where the device comes from.
    /// - Returns: the pipeline, the one frames of this device go into.
    public func pipeline(for device: OpenedDevice) throws -> ReadingPipeline {
        guard let output else { throw CLIError.runtime("a session without an output makes no pipeline") }
        let pipeline = ReadingPipeline(device: device, settings: settings, output: output)
        self.pipeline = pipeline
        try pipeline.start()
        onBegin(device.kind)
        return pipeline
    }

    /// Opens `selection` into this session's reading pipeline (stream, replay, demo, plot): ``open(_:for:begin:)``
    /// with the session's settings, then ``pipeline(for:)``. The source holds the session unowned: run it in this
    /// session, while the session lives.
    /// - Parameter announce: said once the device is known, before its device record (the demo names it).
    public func openReadings(
        _ selection: DeviceOpening,
        announce: @escaping (OpenedDevice) -> Void = { _ in }
    ) throws -> OpenedSource {
        try open(selection, for: .reading(settings)) { [unowned self] device in
            announce(device)
            return try self.pipeline(for: device)
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
