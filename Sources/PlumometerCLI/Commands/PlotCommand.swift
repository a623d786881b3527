import PlumometerCore
import PlumometerOutput
import PlumometerPictures
import PlumometerRecording
import PlumometerSession

extension PlotCommand: Command {
    /// `plot`'s own options are ``PlotRequest``'s; `--profile`, `--tare`, `--smooth` and `--unit` are replay's.
    static let spec = CommandSpec(
        name: "plot",
        summary: "Draw a recording as an SVG: weight over time per contact, and where each contact sat on the pad.",
        options: [
            PlotRequest.Options.output, RecordingOptions.device, RecordingOptions.desc, PlotRequest.Options.from,
            PlotRequest.Options.to,
            ReadingOptions.profile, ReadingOptions.noProfile, ReadingOptions.smooth, ReadingOptions.tare,
            ReadingOptions.unit, Flag.quiet,
        ],
        exclusions: [ReadingOptions.profileOrNone],
        positionals: [
            PositionalSpec(
                name: "FILE",
                help: "the recording to plot (evemu or libinput record YAML; - for standard input).",
                required: true,
                completion: .file
            )
        ],
        examples: [
            "plumometer plot session.evemu -o session.svg",
            "plumometer plot --from 2 --to 10 --unit oz session.evemu -o part.svg",
            "evemu-record /dev/input/event7 | plumometer plot - -o live.svg",
        ]
    )
}

/// `plumometer plot FILE -o OUT.svg`: a recording, read through the same decoder and tracker as `replay --fast`,
/// drawn by ``SVGPlot`` into one self-contained SVG.
///
/// The recording is read as it arrives, as `replay` reads it (``RecordingInput`` in the poll loop): `-` is
/// standard input, a FIFO or a pipe from a live `evemu-record` works, SIGINT and SIGTERM are heard while it waits,
/// and memory is the plot's own (one bucket per pixel column and contact), whatever the recording's length.
///
/// The date in the title is today's (UTC), or the one `SOURCE_DATE_EPOCH` gives (reproducible builds' variable:
/// seconds since 1970), so a plot can be made byte for byte again.
enum PlotCommand {
    /// What the title calls standard input (`-`); messages call it `-`, as replay's do.
    static let standardInputName = "standard input"

    static func run(_ arguments: ParsedArguments) throws {
        let path = arguments.positionals[0]
        let request = try PlotRequest(arguments)
        let destination = request.destination
        try arguments.refuseSameFiles(
            outputs: [("-o", destination)],
            inputs: [
                ("FILE", path), ("--desc", try arguments.value(of: RecordingOptions.desc)),
                ("--profile", try arguments.value(of: ReadingOptions.profile)),
            ]
        )
        var settings = ReadingSettings()
        settings.smooth = arguments.flag(ReadingOptions.smooth)
        settings.tareAtStart = arguments.flag(ReadingOptions.tare)
        settings.unit = try arguments.value(of: ReadingOptions.unit) ?? .grams
        settings.profilePath = try arguments.value(of: ReadingOptions.profile)
        settings.ignoreSavedProfile = arguments.flag(ReadingOptions.noProfile)
        let input = try RecordingFile.input(
            path,
            selector: arguments.value(of: RecordingOptions.device),
            description: arguments.value(of: RecordingOptions.desc)
        )
        let file = path == "-" ? standardInputName : path.split(separator: "/").last.map(String.init) ?? path
        // The recording as it arrives, into a reading pipeline whose output is the plot: one run.
        let output = PlotOutput(file: file, from: request.from, to: request.to, unit: settings.unit)
        let session = try Session(output: output, settings: settings)
        let source = try session.openReadings(.recording(input, pacing: Pacing(speed: nil)))
        try session.run(source)
        guard output.hasDevice else {
            // Stopped by a signal while the recording had not yet described its device.
            let name = path == "-" ? standardInputName : path.forTerminalName
            throw CLIError.runtime("stopped before \(name) described a device; nothing was plotted.")
        }
        // A recording that breaks before its first reading has nothing to plot: an SVG already there is kept.
        if let failure = source.failure, output.count == 0 { throw failure }
        // A malformed line ends the recording early: what came before it is plotted, and the error says where.
        let svg = output.render(
            date: dateText(
                ["SOURCE_DATE_EPOCH": Runtime.current.files.environment("SOURCE_DATE_EPOCH")].compactMapValues { $0 }
            )
        )
        if destination == "-" {
            try StandardOutput.write(svg)
        } else if let failure = source.failure, Runtime.current.files.isReadableFile(destination),
            !Runtime.current.files.isFIFO(destination)
        {
            // Only a whole recording replaces a plot already there: a partial one would pass for it.
            throw CommandFailure(
                "",
                cause: failure,
                "; \(destination) was left as it was (a plot of the \(output.count) readings before the error goes "
                    + "to a new file: -o another.svg)"
            )
        } else {
            try Runtime.current.files.write(svg, to: destination)
            Diagnostics.note("wrote \(destination) (\(output.count) readings)")
        }
        if let failure = source.failure { throw failure }
        if session.stoppedBySignal { Diagnostics.note("stopped") }
    }

    /// The date for the title: `SOURCE_DATE_EPOCH` (whole seconds since 1970, UTC) when set, else today, as
    /// `YYYY-MM-DD`.
    static func dateText(_ environment: [String: String]) -> String {
        let seconds = environment["SOURCE_DATE_EPOCH"].flatMap(Int64.init)
        let microseconds = seconds.map { $0 * 1_000_000 } ?? MonotonicClock.realtime().microseconds
        return UTCTime.day(microseconds: microseconds)
    }
}
