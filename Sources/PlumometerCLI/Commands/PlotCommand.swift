import PlumometerCore
import PlumometerOutput
import PlumometerPictures
import PlumometerRecording
import PlumometerSession

extension PlotCommand: Command {
    /// `plot`'s own options; `--profile`, `--tare`, `--smooth` and `--unit` are replay's.
    enum Options {
        static let output = Option<String>(
            "output",
            short: "o",
            value: "FILE",
            completion: .file,
            help: "Write the SVG to FILE (required; FILE.svg, a FIFO, or - for standard output)."
        )
        static let from = seconds("from", help: "Plot from SECONDS after the recording's first event (default 0).")
        static let to = seconds("to", help: "Plot up to SECONDS after the recording's first event (default: the end).")

        /// A time in seconds from the start, 0 to a year.
        static func seconds(_ name: String, help: String) -> Option<Double> {
            Option(name, value: "SECONDS", help: help) { text throws(ValueError) in
                guard let number = Double(text), number.isFinite, number >= 0, number <= 31_536_000 else {
                    throw .invalid(text, for: name, expected: "a number of seconds from 0 to 31536000")
                }
                return number
            }
        }
    }

    static let spec = CommandSpec(
        name: "plot",
        summary: "Draw a recording as an SVG: weight over time per contact, and where each contact sat on the pad.",
        options: [
            Options.output, ReplayCommand.Options.device, ReplayCommand.Options.desc, Options.from, Options.to,
            ReadingOptions.profile, ReadingOptions.noProfile, ReadingOptions.smooth, ReadingOptions.tare,
            ReadingOptions.unit, Flag.quiet,
        ],
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
        guard let destination = try arguments.value(of: Options.output) else {
            throw arguments.usageError("Name the SVG to write with -o FILE.")
        }
        // plot writes SVG only: an SVG under another name (x.png) opens as a broken image. A FIFO is written into
        // whatever its name (its reader takes the SVG; docs/reliability.md), as standard output is.
        if destination != "-", !destination.lowercased().hasSuffix(".svg"), !Runtime.current.files.isFIFO(destination) {
            let name = destination.split(separator: "/").last.map(String.init) ?? destination
            throw arguments.usageError(
                "plot writes SVG, not what '\(name.forTerminalName)' is named for: give -o FILE.svg, and convert it if "
                    + "you need another format (rsvg-convert FILE.svg -o FILE.png)."
            )
        }
        try arguments.refuseSameFiles(
            outputs: [("-o", destination)],
            inputs: [
                ("FILE", path), ("--desc", try arguments.value(of: ReplayCommand.Options.desc)),
                ("--profile", try arguments.value(of: ReadingOptions.profile)),
            ]
        )
        let from = try arguments.value(of: Options.from) ?? 0
        let to = try arguments.value(of: Options.to)
        if let to, to < from { throw arguments.usageError("--to must not be before --from.") }
        var settings = ReadingSettings()
        settings.smooth = arguments.flag(ReadingOptions.smooth)
        settings.tareAtStart = arguments.flag(ReadingOptions.tare)
        settings.unit = try arguments.value(of: ReadingOptions.unit) ?? .grams
        settings.profilePath = try arguments.value(of: ReadingOptions.profile)
        settings.ignoreSavedProfile = arguments.flag(ReadingOptions.noProfile)
        if settings.profilePath != nil && settings.ignoreSavedProfile {
            throw arguments.usageError("Give either --profile or --no-profile, not both.")
        }
        let input = try RecordingFile.input(
            path,
            selector: arguments.value(of: ReplayCommand.Options.device),
            description: arguments.value(of: ReplayCommand.Options.desc)
        )
        let file = path == "-" ? standardInputName : path.split(separator: "/").last.map(String.init) ?? path
        // The recording as it arrives, into a reading pipeline whose output is the plot: one run.
        let output = PlotOutput(file: file, from: from, to: to, unit: settings.unit)
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
            throw CLIError.runtime(
                "\(failure); \(destination) was left as it was (a plot of the \(output.count) readings before the "
                    + "error goes to a new file: -o another.svg)"
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
        return String(UTCTime.iso8601(microseconds: microseconds, fractionDigits: 0).prefix(10))
    }
}
