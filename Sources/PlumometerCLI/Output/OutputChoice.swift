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
    static func make(
        format: String?,
        unit: WeightUnit,
        latestStateWins: Bool = false,
        settings: OutputSettings = OutputSettings()
    ) -> (output: any ReadingOutput, live: LiveView?) {
        let sink = settings.sink
        let wall = settings.wallTimestamps
        let lineSink: any LineSink = latestStateWins ? LatestStateWriter(sink: sink) : sink
        let format = format ?? (sink.isTerminal ? "live" : "jsonl")
        switch format {
        case "live":
            let view = LiveView(sink: sink, colour: Terminal.colourAllowed(on: sink.fileDescriptor), unit: unit) {
                Terminal.size(of: sink.fileDescriptor)
            }
            return (view, view)
        case "text":
            return (LineOutput(formatter: TextFormatter(unit: unit), sink: lineSink, wallTimestamps: wall), nil)
        case "csv":
            return (LineOutput(formatter: CSVFormatter(), sink: lineSink, wallTimestamps: wall), nil)
        default:
            return (LineOutput(formatter: JSONLinesFormatter(), sink: lineSink, wallTimestamps: wall), nil)
        }
    }
}
