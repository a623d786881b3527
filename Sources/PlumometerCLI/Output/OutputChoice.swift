import PlumometerLinux
import PlumometerOutput

/// Where and how a reading command writes its lines: the sink (standard output, or `stream -o FILE`), a frame
/// limit (`stream --count`) and the clock of the times (`--timestamps`).
struct OutputSettings {
    var sink = FileDescriptorWriter.standardOutput()
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
        format: String?,
        settings: ReadingSettings,
        latestStateWins: Bool = false,
        output: OutputSettings = OutputSettings()
    ) -> (output: any ReadingOutput, live: LiveView?) {
        let unit = settings.unit
        let sink = output.sink
        let wall = output.wallTimestamps
        let writer = latestStateWins ? LatestStateWriter(sink: sink) : nil
        let lineSink: any LineSink = writer ?? sink
        let format = format ?? (sink.isTerminal ? "live" : "jsonl")
        let made: (output: any ReadingOutput, live: LiveView?)
        let destination: SummaryOutput.Destination
        switch format {
        case "live":
            let view = LiveView(
                sink: sink,
                colour: Terminal.colourAllowed(on: sink.fileDescriptor),
                unit: unit,
                view: settings.view
            ) {
                Terminal.size(of: sink.fileDescriptor)
            }
            (made, destination) = ((view, view), .standardError)
        case "text":
            (made, destination) = (
                (LineOutput(formatter: TextFormatter(unit: unit), sink: lineSink, wallTimestamps: wall), nil), .text
            )
        case "csv":
            (made, destination) = (
                (LineOutput(formatter: CSVFormatter(), sink: lineSink, wallTimestamps: wall), nil), .csv
            )
        default:
            (made, destination) = (
                (LineOutput(formatter: JSONLinesFormatter(), sink: lineSink, wallTimestamps: wall), nil), .jsonLines
            )
        }
        guard settings.summary else { return made }
        let summary = SummaryOutput(wrapping: made.output, destination: destination, unit: unit) {
            writer?.skipped ?? 0
        }
        return (summary, made.live)
    }
}
