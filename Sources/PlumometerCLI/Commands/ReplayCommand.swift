import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession

extension ReplayCommand: Command {
    static let spec = CommandSpec(
        name: "replay",
        summary: "Replay an evemu or `libinput record` recording through the same pipeline as a live device.",
        options: [RecordingOptions.device, RecordingOptions.desc] + PacingOptions.all + OutputOptions.all
            + ReadingOptions.all,
        exclusions: [PacingOptions.fastOrSpeed, ReadingOptions.profileOrNone],
        positionals: [
            PositionalSpec(
                name: "FILE",
                help: "the recording to replay (evemu or libinput record YAML).",
                required: true,
                completion: .file
            )
        ],
        examples: [
            "plumometer replay --fast -f jsonl session.evemu",
            "plumometer replay --desc touchpad.desc touchpad.tap.events",
            "plumometer replay -d 1 libinput-record.yml",
        ]
    )
}

/// `plumometer replay FILE`: a recording through exactly the same decoder, tracker and outputs as a live device.
enum ReplayCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let path = arguments.positionals[0]
        let settings = try arguments.readingSettings()
        let pacing = try Pacing(arguments)
        let input = try RecordingFile.input(
            path,
            selector: arguments.value(of: RecordingOptions.device),
            description: arguments.value(of: RecordingOptions.desc)
        )
        try play(
            input,
            settings: settings,
            pacing: pacing,
            format: try arguments.value(of: ReadingOptions.format),
            output: try arguments.outputSettings(),
            realTimeHint: true
        )
    }

    /// Plays the device `input` picks (a file's, standard input's, the demo's) through a ``ReadingRun`` at `pacing`,
    /// as it arrives.
    /// - Parameters:
    ///   - announce: said once the device is known, before its first reading (the demo names it).
    ///   - realTimeHint: say on stderr, when the readings go to no terminal and the recording is paced, that it
    ///     plays in real time and `--fast` converts it at once (`replay FILE -f csv > out.csv` otherwise waits the
    ///     recording's length without a word).
    static func play(
        _ input: RecordingInput,
        settings: ReadingSettings,
        pacing: Pacing,
        format: OutputFormat?,
        output: OutputSettings = OutputSettings(),
        realTimeHint: Bool = false,
        announce: @escaping (OpenedDevice) -> Void = { _ in }
    ) throws {
        let run = try ReadingRun(
            settings: settings,
            format: format,
            latestStateWins: false,
            outputSettings: output
        )
        defer { run.end() }
        // A recording typed at the terminal (or `/dev/stdin` on one) is read in its line mode, not raw for keys.
        run.keysAllowed = !input.file.isTerminal
        if input.file.isTerminal {
            // Without a word, `replay -` at a prompt looks hung.
            Diagnostics.note(
                "reading a recording typed at the terminal (standard input); end it with Ctrl-D, or stop with "
                    + "Ctrl-C and give a FILE or a pipe: evemu-record /dev/input/eventN | plumometer replay -"
            )
        }
        if realTimeHint, let speed = pacing.speed, !run.outputIsTerminal {
            let pace =
                speed == 1
                ? "in real time, as it was recorded"
                : "paced, " + NumberText.trimmed(speed) + " times as fast as it was recorded"
            Diagnostics.note("plays the recording " + pace + "; --fast converts it at once")
        }
        let session = run.session
        let source = try session.openReadings(.recording(input, pacing: pacing), announce: announce)
        try session.run(source)
        // A malformed line ends the recording early: everything before it was played, and the error says where.
        if let failure = source.failure { throw failure }
        if session.stoppedBySignal { Diagnostics.note("stopped") }
    }
}
