import PlumometerCore
import PlumometerLinux

/// `plumometer [stream]`: the background reader. One reading per frame on stdout until a signal.
enum StreamCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let settings = try arguments.readingSettings(command: "stream")
        // The loop blocks SIGINT/SIGTERM/SIGHUP for this thread and reads them from a signalfd; it must exist before
        // any other thread (the stdout writer), which then inherits the blocked mask. A thread that did not would
        // take the default action for a SIGTERM: death mid-line.
        let driver = try Driver()
        let (output, live) = OutputChoice.make(
            format: arguments.value("format"),
            unit: settings.unit,
            latestStateWins: true
        )
        var finished = false
        defer {
            // On an error path too, whatever was read reaches stdout before the error is reported.
            if !finished { try? output.finish() }
            live?.restoreTerminal()
        }
        let target = DeviceTarget(arguments.value("device"))
        driver.stopWhenOutputCloses()
        let session = StreamSession(
            target: target,
            grab: arguments.has("grab"),
            settings: settings,
            output: output,
            driver: driver
        )
        if arguments.has("wait") {
            // A background reader started before its device (a Bluetooth trackpad still off at login): wait for it
            // through udev instead of failing, as it already does after an unplug.
            session.followHotplug()
            guard session.followsHotplug else {
                throw CLIError.runtime("--wait needs udev to announce devices, and udev cannot be reached here.")
            }
            do {
                try session.open(path: try target.resolve())
            } catch {
                Diagnostics.note("no device to read yet (\(error)); waiting for one to appear")
            }
        } else {
            try session.open(path: try target.resolve())
            session.followHotplug()
        }
        let keyboard = LiveKeys.attach(live, to: driver, pipeline: { session.pipeline })
        defer { keyboard?.restore() }
        driver.onHangup = { try session.reopen() }
        driver.work = { .within(try session.due()) }
        defer { session.close() }
        try driver.run()
        try session.pipeline?.flush()
        finished = true
        try output.finish()
    }
}

/// Which device `--device` names: a node path, a name substring, or (absent) the best one found.
enum DeviceTarget {
    case path(String)
    case name(String)
    case best

    init(_ selector: String?) {
        guard let selector, !selector.isEmpty else {
            self = .best
            return
        }
        self = selector.hasPrefix("/") ? .path(selector) : .name(selector)
    }

    /// The node to open now.
    /// - Throws: ``CLIError`` that says why nothing fits (no candidates, permissions, no match).
    func resolve() throws -> String {
        switch self {
        case .path(let path):
            return path
        case .name(let name):
            let report = try DeviceDiscovery.scan(includeSkipped: false)
            guard let match = report.select(name) else {
                let names = report.devices.map { "'\($0.name)' (\($0.node))" }.joined(separator: ", ")
                throw CLIError.runtime(
                    "no input device's name contains '\(name)'"
                        + (names.isEmpty ? "." : "; candidates: \(names).") + " See 'plumometer list --all'."
                )
            }
            return match.node
        case .best:
            let report = try DeviceDiscovery.scan(includeSkipped: false)
            guard let best = report.best else { throw CLIError.runtime(report.whyNothingUsable) }
            return best.node
        }
    }

    /// Whether a device that just appeared is the one to read: the same identity as before, or in auto mode
    /// (and for a name) any suitable device.
    func accepts(_ candidate: DiscoveredDevice, previous: DeviceIdentity?) -> Bool {
        guard candidate.isUsable, let identity = candidate.description?.identity else { return false }
        if let previous, identity == previous { return true }
        switch self {
        case .path(let path): return candidate.node == path
        case .name(let name): return candidate.name.lowercased().contains(name.lowercased())
        case .best: return true
        }
    }
}

/// The state of one streaming run: the open device, its pipeline, and hotplug following.
final class StreamSession {
    private let target: DeviceTarget
    private let grab: Bool
    private let settings: ReadingSettings
    private let output: any ReadingOutput
    private let driver: Driver
    private var source: LiveSource?
    private var identity: DeviceIdentity?
    private var monitor: HotplugMonitor?
    private(set) var pipeline: ReadingPipeline?

    init(target: DeviceTarget, grab: Bool, settings: ReadingSettings, output: any ReadingOutput, driver: Driver) {
        self.target = target
        self.grab = grab
        self.settings = settings
        self.output = output
        self.driver = driver
    }

    /// Opens `path`, announces it and reports what already rests on it.
    func open(path: String) throws {
        let source = try LiveSource(path: path, grab: grab)
        let description = source.description
        guard description.pressureAxis != nil else {
            source.close()
            throw CLIError.runtime(
                "\(path) ('\(description.name)') has no pressure axis (neither ABS_MT_PRESSURE nor ABS_PRESSURE), so it cannot weigh anything. 'plumometer list' shows which devices can."
            )
        }
        let calibration = try ProfileStore.calibration(for: description, explicitPath: settings.profilePath)
        let classification = DeviceClassifier.classify(description)
        if classification.sensing == .contactSize {
            Diagnostics.note(
                "\(description.name): \(classification.reason) Percentages compare contact sizes, not weights."
            )
        }
        let record = DeviceRecord(
            path: path,
            description: description,
            time: source.clock.now(),
            classification: classification,
            gramsSource: ReplaySession.gramsSource(description, calibration?.1)
        )
        let pipeline = ReadingPipeline(record: record, calibration: calibration?.0, settings: settings, output: output)
        self.source = source
        self.pipeline = pipeline
        self.identity = description.identity
        try pipeline.start(.atOpen(source.initialFrame))
        source.onResync = {
            Diagnostics.note("\(path): events were dropped by the kernel (SYN_DROPPED); resynchronised")
        }
        source.onGone = { [unowned self] in try self.disconnected() }
        source.start(in: driver, into: pipeline)
        Diagnostics.note("reading \(path) ('\(description.name)'); Ctrl-C to stop")
    }

    /// Whether udev add/remove events are followed.
    var followsHotplug: Bool { monitor != nil }

    /// Starts following udev add/remove events, if udev can be reached.
    func followHotplug() {
        do {
            let monitor = try HotplugMonitor()
            self.monitor = monitor
            driver.watch(monitor.fileDescriptor) { [unowned self] in try self.hotplug() }
        } catch {
            Diagnostics.note("not following hotplug: \(error)")
        }
    }

    private func disconnected() throws {
        guard let source else { return }
        let path = source.path
        try pipeline?.flush()
        try output.removed(path: path, time: source.clock.now())
        close()
        if monitor == nil {
            throw CLIError.runtime("\(path) disappeared, and udev cannot be reached to wait for it to come back.")
        }
        Diagnostics.note("\(path) was removed; waiting for it to come back (Ctrl-C to stop)")
    }

    private func hotplug() throws {
        guard let monitor else { return }
        for event in monitor.receive() {
            switch event {
            case .removed(let node):
                if node == source?.path { try disconnected() }
            case .added(let node):
                guard source == nil else { continue }
                // Keyboards, mice and the like are skipped without a word, as in a scan.
                guard let candidate = try DeviceDiscovery.inspect(node: node) else { continue }
                if case .skipped = candidate.verdict { continue }
                guard target.accepts(candidate, previous: identity) else {
                    // Say why a device that came back (or a new candidate) is not read, rather than stay silent.
                    if let reason = candidate.verdict.reason {
                        Diagnostics.note("\(node) (\(candidate.name)) appeared but is not read: \(reason)")
                    }
                    continue
                }
                do {
                    try open(path: node)
                } catch {
                    Diagnostics.error("\(node) appeared but could not be read: \(error)")
                }
            }
        }
    }

    /// SIGHUP: close and open the same device again (a fresh description and state).
    func reopen() throws {
        guard let path = source?.path else { return }
        try pipeline?.flush()
        close()
        Diagnostics.note("SIGHUP: reopening \(path)")
        try open(path: path)
    }

    /// Timed work: redraws, and ticks at the pipeline's deadlines (a contact becoming stable while nothing moves,
    /// a reading held back by `--interval`). Returns the microseconds until it is next due: none at rest.
    func due() throws -> Int64? {
        let now = MonotonicClock.now()
        try output.idle(now: now)
        let wait = output.idleDeadline(now: now)
        guard let source, case .within(let untilDeadline?) = try source.due() else { return wait }
        return Swift.min(wait ?? untilDeadline, untilDeadline)
    }

    func close() {
        source?.close()
        source = nil
    }
}
