import PlumometerCore
import PlumometerLinux
import PlumometerOutput
import PlumometerRecording

extension ProbeCommand: Command {
    /// `probe`'s options.
    enum Options {
        static let device = Option.inputDevice(
            help: "The device to probe (default: the best one found)."
        )
        static let replay = Option.replayFile(
            help: "Probe a recording of the four gestures instead; a .desc alone gives the static part only."
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
        options: [
            Options.device, Options.replay, ReplayCommand.Options.desc, Options.staticOnly, Options.format,
            Options.stepTimeout, Flag.quiet,
        ],
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
        if arguments.has(Options.device) && arguments.has(Options.replay) {
            throw arguments.usageError("Give either --device or --replay, not both.")
        }
        let format = try arguments.value(of: Options.format) ?? .text
        var configuration = ProbeConfiguration()
        if let timeout = try arguments.value(of: Options.stepTimeout) {
            configuration.stepTimeout = timeout
            configuration.liftTimeout = timeout
            configuration.fingerTimeout = Swift.max(timeout, configuration.restDuration)
        }
        let staticOnly = arguments.flag(Options.staticOnly)
        let result: ProbeResult
        let descriptionFile = try arguments.recordingDescription(replay: Options.replay)
        if let file = try arguments.value(of: Options.replay) {
            let recorded = try ArrivingDevice(path: file, description: descriptionFile)
            let path = recorded.node ?? recorded.description.path
            if staticOnly || recorded.first == nil {
                if !staticOnly { Diagnostics.note("\(file) holds no events: the static part only.") }
                result = ProbeResult(description: recorded.description, path: path, report: nil)
            } else {
                let probe = GuidedProbe(description: recorded.description, configuration: configuration)
                probe.begin(at: recorded.startTime)
                let played = try recorded.play(into: probe)
                if let failure = played.failure { throw failure }
                probe.end(at: played.lastTime)
                result = ProbeResult(description: recorded.description, path: path, report: probe.report)
            }
        } else {
            let node = try DeviceTarget(arguments.value(of: Options.device)).resolve()
            let source = try LiveSource(path: node)
            defer { source.close() }
            if staticOnly {
                result = ProbeResult(description: source.description, path: node, report: nil)
            } else {
                result = ProbeResult(
                    description: source.description,
                    path: node,
                    report: try guided(source, configuration: configuration)
                )
            }
        }
        let sink = FileDescriptorWriter.standardOutput()
        try sink.write(format == .json ? ProbeText.json(result) : ProbeText.text(result))
        if let report = result.report, !report.conclusive, !report.notes.isEmpty {
            throw CLIError.runtime(
                "the guided part timed out without a verdict (\(report.notes.joined(separator: " "))) "
                    + "Run 'plumometer probe' again and follow each prompt, or use --step-timeout for more time."
            )
        }
    }

    /// Runs the guided part on a live device until the analyzer finishes, a signal or an error.
    static func guided(_ source: LiveSource, configuration: ProbeConfiguration) throws -> ProbeReport? {
        let probe = GuidedProbe(description: source.description, configuration: configuration)
        let driver = try Driver()
        probe.begin(at: source.clock.now())
        if let frame = source.initialFrame, try probe.consume(frame) { return probe.report }
        source.start(in: driver, into: probe)
        driver.work = { try source.due() }
        try driver.run()
        probe.end(at: source.clock.now())
        return probe.report
    }
}

/// What `probe` prints: the device, and the guided report when there was a guided part.
struct ProbeResult {
    let description: DeviceDescription
    let path: String
    let report: ProbeReport?

    /// The static classification (the report's own when there is one).
    var classification: DeviceClassification {
        report?.classification ?? DeviceClassifier.classify(description)
    }

    /// The verdict: the guided one, or the static one.
    var sensing: PressureSensing { report?.sensing ?? classification.sensing }
}

/// The guided part as a ``FrameConsumer``: the ``ProbeAnalyzer`` fed by a live device or a recording, its prompts
/// and progress on stderr (one updating line on a terminal, one line per step elsewhere).
final class GuidedProbe: FrameConsumer {
    private var analyzer: ProbeAnalyzer
    private let terminal = FileDescriptorWriter.standardError.isTerminal
    private var progressShown = false

    init(description: DeviceDescription, configuration: ProbeConfiguration) {
        analyzer = ProbeAnalyzer(description: description, configuration: configuration)
    }

    /// The report, once the analyzer finished.
    var report: ProbeReport? { analyzer.report }

    /// Shows the first prompt at `time`.
    func begin(at time: EventTime) { show(analyzer.begin(at: time)) }

    /// Ends the probe at `time` when it has not finished by itself (the recording ended, a signal).
    func end(at time: EventTime) { show(analyzer.finish(at: time)) }

    func consume(_ frame: ContactFrame) throws -> Bool {
        show(analyzer.consume(frame))
        return analyzer.isFinished
    }

    func tick(now: EventTime) throws -> Bool {
        show(analyzer.tick(now: now))
        return analyzer.isFinished
    }

    var nextDeadline: EventTime? { analyzer.nextDeadline }

    private func show(_ events: [ProbeEvent]) {
        for event in events {
            switch event {
            case .started(let step):
                line("Step \(step.rawValue)/4: \(step.instruction)")
            case .progress(let step, let fraction):
                guard terminal, !Diagnostics.quiet else { continue }
                let filled = Int((fraction * 20).rounded())
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
                Diagnostics.writeError(
                    "\r\u{1B}[K  step \(step.rawValue)/4 (\(step.name)) [\(bar)] \(Int((fraction * 100).rounded())) %"
                )
                progressShown = true
            case .timedOut(_, let note):
                line("  " + note)
            case .finished:
                if progressShown { Diagnostics.writeError("\r\u{1B}[K") }
                progressShown = false
                line("Done.")
            }
        }
    }

    private func line(_ text: String) {
        guard !Diagnostics.quiet else { return }
        if progressShown { Diagnostics.writeError("\r\u{1B}[K") }
        progressShown = false
        Diagnostics.writeError(text + "\n")
    }
}
