import PlumometerLinux
import PlumometerOutput

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
        sink: FileDescriptorWriter = .standardOutput()
    ) -> (output: any ReadingOutput, live: LiveView?) {
        let lineSink: any LineSink = latestStateWins ? LatestStateWriter(sink: sink) : sink
        let format = format ?? (sink.isTerminal ? "live" : "jsonl")
        switch format {
        case "live":
            let view = LiveView(sink: sink, colour: Terminal.colourAllowed(on: sink.fileDescriptor), unit: unit) {
                Terminal.size(of: sink.fileDescriptor)
            }
            return (view, view)
        case "text":
            return (LineOutput(formatter: TextFormatter(unit: unit), sink: lineSink), nil)
        case "csv":
            return (LineOutput(formatter: CSVFormatter(), sink: lineSink), nil)
        default:
            return (LineOutput(formatter: JSONLinesFormatter(), sink: lineSink), nil)
        }
    }
}
