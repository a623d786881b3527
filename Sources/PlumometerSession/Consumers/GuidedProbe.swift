public import PlumometerCore

/// The guided part as a ``FrameConsumer``: the ``ProbeAnalyzer`` fed by a live device or a recording, its prompts
/// and progress on stderr (one updating line on a terminal, one line per step elsewhere).
public final class GuidedProbe: FrameConsumer {
    private var analyzer: ProbeAnalyzer
    private let terminal = Runtime.current.console.errorIsTerminal
    private var progressShown = false
    /// Whether the gestures come from a recording: its steps are looked for, nobody is asked to do them.
    private let fromRecording: Bool

    public init(description: DeviceDescription, configuration: ProbeConfiguration) {
        analyzer = ProbeAnalyzer(description: description, configuration: configuration)
        fromRecording = configuration.fromRecording
    }

    /// The report, once the analyzer finished.
    public var report: ProbeReport? { analyzer.report }

    /// Shows the first prompt at `time`.
    public func begin(at time: EventTime) { show(analyzer.begin(at: time)) }

    /// Ends the probe at `time` when it has not finished by itself (the recording ended, a signal).
    public func end(at time: EventTime) { show(analyzer.finish(at: time)) }

    public func consume(_ frame: ContactFrame) throws -> Bool {
        show(analyzer.consume(frame))
        return analyzer.isFinished
    }

    public func tick(now: EventTime) throws -> Bool {
        show(analyzer.tick(now: now))
        return analyzer.isFinished
    }

    public var nextDeadline: EventTime? { analyzer.nextDeadline }

    private func show(_ events: [ProbeEvent]) {
        for event in events {
            switch event {
            case .started(let step):
                if fromRecording {
                    line("Step \(step.rawValue)/4 (\(step.name)): looking in the recording for \(step.sought).")
                } else {
                    line("Step \(step.rawValue)/4: \(step.instruction)")
                }
            case .progress(let step, let fraction):
                // A recording is read as fast as it comes: no progress to watch.
                guard terminal, !Diagnostics.quiet, !fromRecording else { continue }
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
