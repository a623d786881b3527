import PlumometerCore
import PlumometerOutput
import PlumometerSession

extension StreamCommand: Command {
    /// `stream`'s own options; the reading options are ``ReadingOptions``.
    enum Options {
        static let device = Option.inputDevice(
            help:
                "The device: /dev/input/eventN, or a substring of its name. Default: the best force-sensing device found."
        )
        static let grab = Flag(
            "grab",
            help:
                "Grab the device (EVIOCGRAB) so no other program sees its events. Off by default: you keep your pointer."
        )
        // A year at most, as for record: within Int64 microseconds.
        static let duration = Option<Double>.number(
            "duration",
            value: "S",
            maximum: 31_536_000,
            help: "Stop after S seconds (default: until a signal or q)."
        )
        static let record = Option<String>(
            "record",
            value: "FILE",
            completion: .file,
            help:
                "Also keep the raw events read in FILE: evemu, or libinput record YAML for a .yml/.yaml FILE (replay it for the same frames)."
        )
    }

    static let spec = CommandSpec(
        name: "stream",
        summary: "Read a pressure-sensing device and write one reading per frame (the default command).",
        options: [
            Options.device, Options.grab, ReadingOptions.wait, StreamOutput.Options.output, Options.record,
            Options.duration,
            StreamOutput.Options.count, StreamOutput.Options.maxSize, StreamOutput.Options.keep,
        ]
            + OutputOptions.all + ReadingOptions.all,
        exclusions: [ReadingOptions.profileOrNone],
        discussion: """
            Readings go to stdout, one per frame, flushed at once; messages go to stderr. On a terminal the \
            live view draws the pad to scale with a circle per contact (m: one bar per contact instead; t: tare, \
            c: clear tare, k: carrier, q: quit). SIGINT and SIGTERM finish the current line and exit 0; SIGHUP \
            reopens the device. When the device goes away a 'removed' record is written and reading resumes when it \
            comes back. --record FILE keeps the raw events of the device read, as 'plumometer record' writes them, \
            until the device is reopened or goes away.
            """,
        examples: [
            "plumometer                                  # live view of the best device",
            "plumometer --format jsonl > readings.jsonl  # background reader",
            "plumometer -d /dev/input/event7 -f text --interval 100",
            "plumometer stream -o plums.jsonl --duration 3600      # an hour appended to a log",
            "plumometer -f jsonl --record raw.yml > readings.jsonl # the readings, and the events they came from",
        ]
    )
}

/// `plumometer [stream]`: the background reader. One reading per frame on stdout until a signal.
enum StreamCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let settings = try arguments.readingSettings()
        // Every value checked before anything is opened: a bad --duration used to open the device and write its
        // `device` record before the usage error.
        let duration = try arguments.value(of: Options.duration).map { Int64($0 * 1_000_000) }
        let output = try StreamOutput(arguments).settings
        let recordPath = try arguments.value(of: Options.record)
        try arguments.refuseSameFiles(
            outputs: [("-o", output.file), ("--record", recordPath)],
            inputs: [("--profile", try arguments.value(of: ReadingOptions.profile))]
        )
        let run = try ReadingRun(
            settings: settings,
            format: try arguments.value(of: ReadingOptions.format),
            latestStateWins: true,
            outputSettings: output
        )
        defer { run.end() }
        let session = run.session
        let target = DeviceTarget(try arguments.value(of: Options.device))
        let stream = DeviceStream(target: target, grab: arguments.flag(Options.grab), session: session)
        defer { stream.close() }
        if let path = recordPath {
            if path == "-" { throw arguments.usageError("--record needs a FILE: stdout carries the readings.") }
            stream.recorder = RawRecorder(
                sink: try Runtime.current.files.createOutput(path),
                format: RecordingFileFormat.implied(by: path)
            )
        }
        try stream.start(wait: arguments.flag(ReadingOptions.wait))
        // Also while waiting for a device: q quits.
        run.attachKeys()
        try session.run(LimitedSource(stream, duration: duration) { run.frameLimit?.isFull ?? false })
        try stream.finishRecording()
    }
}
