import PlumometerCore
import PlumometerOutput
import PlumometerSession

/// Where and how a reading command writes its lines: the sink (standard output, or `stream -o FILE`), a frame
/// limit (`stream --count`) and the clock of the times (`--timestamps`).
struct OutputSettings {
    /// `stream -o FILE`: lines are appended there (nil or `-`: standard output).
    var file: String?
    /// `stream -o FILE --max-size --keep`: when the file starts anew, and how many older ones are kept.
    var rotation: Rotation?
    /// Frames after the N-th are not written (``FrameLimitOutput``).
    var frameLimit: Int?
    /// `--timestamps wall`: times are Unix seconds, the kernel's time plus the offset measured at open.
    var wallTimestamps = false
}

/// Picks the output for `--format`: the live view on a terminal unless a format is given, JSON Lines otherwise.
enum OutputChoice {
    /// The output, and the live view when that is what was chosen (it needs the keyboard).
    ///
    /// With `latestStateWins` (live devices), line formats are written from a thread of their own so a slow
    /// consumer never stalls reading; a replay instead waits for its consumer and loses nothing.
    ///
    /// With `settings.summary`, the output is wrapped in a ``SummaryOutput`` that writes the session's summary at
    /// the end; `settings.view` is the live view's first view.
    static func make(
        format: OutputFormat?,
        settings: ReadingSettings,
        latestStateWins: Bool = false,
        sink: any TextSink,
        wallTimestamps wall: Bool
    ) -> (output: any ReadingOutput, live: LiveView?) {
        let unit = settings.unit
        // A sink without a latest-state mode (a file, a test's plain console) takes lines as they come.
        let writer = latestStateWins ? sink.makeLatestStateWriter() : nil
        let lineSink: any LineSink = writer ?? TextLineSink(sink)
        let made: (output: any ReadingOutput, live: LiveView?)
        let destination: SummaryOutput.Destination
        switch format ?? (sink.isTerminal ? .live : .jsonl) {
        case .live:
            // The view writes its screens as they come, on the loop's thread, never from a writer thread.
            let view = LiveView(sink: TextLineSink(sink), colour: sink.colourAllowed, unit: unit, view: settings.view) {
                sink.terminalSize
            }
            (made, destination) = ((view, view), .standardError)
        case .jsonl:
            (made, destination) = (
                (LineOutput(formatter: JSONLinesFormatter(), sink: lineSink, wallTimestamps: wall), nil), .jsonLines
            )
        case .text:
            (made, destination) = (
                (LineOutput(formatter: TextFormatter(unit: unit), sink: lineSink, wallTimestamps: wall), nil), .text
            )
        case .csv:
            (made, destination) = (
                (LineOutput(formatter: CSVFormatter(), sink: lineSink, wallTimestamps: wall), nil), .csv
            )
        }
        guard settings.summary else { return made }
        let summary = SummaryOutput(wrapping: made.output, destination: destination, unit: unit) {
            writer?.skipped ?? 0
        }
        return (summary, made.live)
    }
}

/// The session of a command that writes readings (stream, replay, demo): the output `--format` chose (the live
/// view on a terminal) with the live view's keys, its resize and job control, and a stalled `-o FIFO` that still
/// hears a stop. Everything else is the pure ``Session``'s, in the runtime's loop (an embedded one in tests, where
/// the lines go to the runtime's console and the keys are typed by the test).
final class ReadingRun {
    /// `stream --count N`: the output that stops writing after N frames (nil without a limit).
    let frameLimit: FrameLimitOutput?
    let session: Session
    /// The runtime's loop the session runs in.
    let loop: any EventLoop
    private let live: LiveView?
    /// Whether readings go to a terminal (stdout or `-o` one), where a person watches them come.
    let outputIsTerminal: Bool
    private let latestStateWins: Bool
    private var keyboard: (any Keyboard)?
    private var keysAttached = false
    /// False when standard input is not the user's to press keys on (a replay reading a recording typed or piped
    /// there): the terminal is then left as it is, not put in raw mode.
    var keysAllowed = true

    /// Starts a run.
    /// - Parameters:
    ///   - settings: what shapes the readings.
    ///   - format: `--format`, or nil for the live view on a terminal and JSON Lines elsewhere.
    ///   - latestStateWins: a live device: lines are written from a thread of their own, so a stalled stdout
    ///     never stops reading (a recording waits for its consumer instead and loses nothing).
    ///   - outputSettings: where lines go (stdout, `-o FILE`), `--count`, `--timestamps`.
    /// - Throws: when `-o FILE` or the poll loop cannot be set up.
    init(
        settings: ReadingSettings,
        format: OutputFormat?,
        latestStateWins: Bool,
        outputSettings: OutputSettings = OutputSettings()
    ) throws {
        // `-o FILE` first, as before the loop: a FIFO's open waits for its reader, hearing a stop through StopRequests.
        let file = try outputSettings.file.map { path in
            path == "-"
                ? Runtime.current.console.standardOutput
                : try Runtime.current.files.appendOutput(path, rotation: outputSettings.rotation)
        }
        // The loop must exist before the writer thread below (see the bridge's Driver.init); a stream also ends once
        // the reader of a piped stdout has gone.
        let loop = try Runtime.current.makeLoop()
        loop.stopWhenOutputCloses()
        self.loop = loop
        let sink: any TextSink = file ?? Runtime.current.console.standardOutput
        let (chosen, live) = OutputChoice.make(
            format: format,
            settings: settings,
            latestStateWins: latestStateWins,
            sink: sink,
            wallTimestamps: outputSettings.wallTimestamps
        )
        self.live = live
        outputIsTerminal = sink.isTerminal
        frameLimit = outputSettings.frameLimit.map { FrameLimitOutput(chosen, limit: $0) }
        let output: any ReadingOutput = frameLimit ?? chosen
        // `>> log`: a line an earlier run left cut stays on its own, and this run's first record starts a line.
        // (`-o FIFO` stalled by its reader hears SIGINT/SIGTERM between lines through StopRequests, as stdout.)
        try sink.startOnNewLineIfAppending()
        self.latestStateWins = latestStateWins
        session = try Session(output: output, settings: settings, loop: loop)
        session.onBegin = { [unowned self] kind in self.attachKeys(holdAtEnd: kind == .recording) }
    }

    /// Attaches the live view's keys and resize redraws (once); the keys act on the current pipeline.
    /// - Parameter holdAtEnd: a recording: its last frame stays on screen at its end until `q`.
    func attachKeys(holdAtEnd: Bool = false) {
        guard !keysAttached, keysAllowed else { return }
        keysAttached = true
        keyboard = LiveKeys.attach(
            live,
            to: loop,
            holdAtEnd: holdAtEnd,
            pipeline: { [unowned self] in self.session.pipeline }
        )
    }

    /// Restores the keyboard and the terminal. On an error path a live session first writes what it read, so it
    /// reaches stdout before the error is reported.
    func end() {
        keyboard?.restore()
        if latestStateWins && !session.finished { try? session.output?.finish() }
        live?.restoreTerminal()
    }
}
