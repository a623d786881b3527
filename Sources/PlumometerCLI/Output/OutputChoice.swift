/// Picks the output for `--format`: the live view on a terminal unless a format is given, JSON Lines otherwise.
enum OutputChoice {
    /// The output, and the live view when that is what was chosen (it needs the keyboard).
    static func make(format: String?, unit: WeightUnit) -> (output: any ReadingOutput, live: LiveView?) {
        let sink = OutputSink.standardOutput()
        let format = format ?? (Terminal.isTerminal(sink.fileDescriptor) ? "live" : "jsonl")
        switch format {
        case "live":
            let view = LiveView(sink: sink, colour: Terminal.colourAllowed, unit: unit) {
                Terminal.size(of: sink.fileDescriptor).columns
            }
            return (view, view)
        case "text":
            return (LineOutput(formatter: TextFormatter(unit: unit), sink: sink), nil)
        case "csv":
            return (LineOutput(formatter: CSVFormatter(), sink: sink), nil)
        default:
            return (LineOutput(formatter: JSONLinesFormatter(), sink: sink), nil)
        }
    }
}
