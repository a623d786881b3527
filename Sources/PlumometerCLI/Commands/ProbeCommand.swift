import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession

extension ProbeCommand: Command {
    /// `probe`'s options.
    enum Options {
        /// `-d`, `--replay`, `--desc`.
        static let selection = ReadingSelection.Options(
            device: "The device to probe (default: the best one found).",
            replay: "Probe a recording of the four gestures instead; a .desc alone gives the static part only."
        )
        static let staticOnly = Flag("static", help: "Only the static part: what the device description says.")
        static let format = Option<ReportFormat>.choice(
            "format",
            short: "f",
            cases: ReportFormat.allCases,
            help: "Output format of the verdict (default text)."
        )
        static let stepTimeout = Option<Double>.number(
            "step-timeout",
            value: "SECONDS",
            above: 0,
            maximum: 3600,
            help: "How long each step waits for its gesture before it times out (default 8; 20 for the first touch)."
        )
    }

    static let spec = CommandSpec(
        name: "probe",
        summary: "Find out what a device's pressure axis measures: force, contact size, or nothing usable.",
        options: Options.selection.all + [Options.staticOnly, Options.format, Options.stepTimeout, Flag.quiet],
        discussion: """
            The static part reads the device description alone: the pressure axis, its range and resolution, \
            INPUT_PROP_PRESSUREPAD, INPUT_PROP_SEMI_MT, fake multitouch, empty, inverted or copied ranges, a \
            missing ABS_MT_TOUCH_MAJOR, and what each implies. The guided part then asks for four gestures (rest a \
            finger lightly, press harder, roll or flatten the finger, lift) and decides from how the pressure \
            followed them. Prompts and progress go to stderr, the verdict to stdout. Exit status 0 when a verdict \
            was reached (also bogus, none or contact-size), 1 when the guided part timed out without one. See \
            docs/devices.md.
            """,
        examples: [
            "plumometer probe                      # the best device, guided",
            "plumometer probe -d /dev/input/event7 --static",
            "plumometer probe --replay gestures.evemu -f json",
        ]
    )
}

/// `plumometer probe`: the static verdict from the description, then (live, or from a recording of the same
/// gestures) the guided one.
enum ProbeCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let format = try arguments.value(of: Options.format) ?? .text
        var configuration = ProbeConfiguration()
        if let timeout = try arguments.value(of: Options.stepTimeout) {
            configuration.stepTimeout = timeout
            configuration.liftTimeout = timeout
            configuration.fingerTimeout = Swift.max(timeout, configuration.restDuration)
        }
        let staticOnly = arguments.flag(Options.staticOnly)
        // A source, the guided probe (unless --static, or a recording without events), one run.
        let selection = try ReadingSelection(arguments, Options.selection)
        let replay = selection.replay
        // A recording is read as a recording: its gestures are looked for on its own time, nobody is prompted.
        configuration.fromRecording = replay != nil
        let session = try Session()
        var probe: GuidedProbe?
        let source = try session.open(
            .chosen(
                device: selection.device,
                replay: replay,
                description: selection.description
            ),
            for: .inspecting
        ) { device in
            guard !staticOnly else { return nil }
            guard device.hasEvents else {
                Diagnostics.note("\(replay ?? device.path) holds no events: the static part only.")
                return nil
            }
            if let replay {
                Diagnostics.note("looking for the four gestures in \(replay), on its own time")
            }
            let made = GuidedProbe(description: device.description, configuration: configuration)
            made.begin(at: device.start)
            probe = made
            return try device.initialFrame.map(made.consume) == true ? nil : made
        }
        defer { source.close() }
        try session.run(source)
        guard let found = source.device else {
            // Stopped while the recording had not yet described its device and its first event.
            Diagnostics.note("stopped")
            return
        }
        if let failure = source.failure { throw failure }
        if let end = source.endTime { probe?.end(at: end) }
        // A live device's node, or the one a recording names (else the recording's name for its device).
        let path = found.node ?? found.path
        let result = ProbeResult(description: found.description, path: path, report: probe?.report)
        try StandardOutput.write(format == .json ? ProbeText.json(result) : ProbeText.text(result))
        if let report = result.report, !report.conclusive, !report.notes.isEmpty {
            if let replay {
                throw CLIError.runtime(
                    "\(replay) does not show the four gestures (\(report.notes.dropFirst().joined(separator: " "))) Record "
                        + "them again with 'plumometer record', doing each step of 'plumometer probe', or probe the "
                        + "device itself."
                )
            }
            throw CLIError.runtime(
                "the guided part timed out without a verdict (\(report.notes.joined(separator: " "))) "
                    + "Run 'plumometer probe' again and follow each prompt, or use --step-timeout for more time."
            )
        }
    }
}
