import PlumometerCore
import PlumometerLinux
import PlumometerOutput

extension StreamCommand: Command {
    /// `stream`'s own options; the reading options are ``ReadingOptions``.
    enum Options {
        static let device = Option<String>(
            "device",
            short: "d",
            value: "PATH|NAME",
            completion: .deviceNode,
            help:
                "The device: /dev/input/eventN, or a substring of its name. Default: the best force-sensing device found."
        )
        static let grab = Flag(
            "grab",
            help:
                "Grab the device (EVIOCGRAB) so no other program sees its events. Off by default: you keep your pointer."
        )
        static let wait = Flag(
            "wait",
            help: "If no device fits yet, wait for one to appear instead of failing (background services)."
        )
    }

    static let spec = CommandSpec(
        name: "stream",
        summary: "Read a pressure-sensing device and write one reading per frame (the default command).",
        options: [Options.device, Options.grab, Options.wait] + ReadingOptions.all,
        discussion: """
            Readings go to stdout, one per frame, flushed at once; messages go to stderr. On a terminal the \
            live view draws one bar per contact (t: tare, c: clear tare, q: quit). SIGINT and SIGTERM finish the \
            current line and exit 0; SIGHUP reopens the device. When the device goes away a 'removed' record is \
            written and reading resumes when it comes back.
            """,
        examples: [
            "plumometer                                  # live view of the best device",
            "plumometer --format jsonl > readings.jsonl  # background reader",
            "plumometer -d /dev/input/event7 -f text --interval 100",
        ]
    )
}

/// `plumometer [stream]`: the background reader. One reading per frame on stdout until a signal.
enum StreamCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let settings = try arguments.readingSettings()
        // The loop blocks SIGINT/SIGTERM/SIGHUP for this thread and reads them from a signalfd; it must exist before
        // any other thread (the stdout writer), which then inherits the blocked mask. A thread that did not would
        // take the default action for a SIGTERM: death mid-line.
        let driver = try Driver()
        let (output, live) = OutputChoice.make(
            format: try arguments.value(of: ReadingOptions.format)?.rawValue,
            unit: settings.unit,
            latestStateWins: true
        )
        var finished = false
        defer {
            // On an error path too, whatever was read reaches stdout before the error is reported.
            if !finished { try? output.finish() }
            live?.restoreTerminal()
        }
        let target = DeviceTarget(try arguments.value(of: Options.device))
        driver.stopWhenOutputCloses()
        let session = StreamSession(
            target: target,
            grab: arguments.flag(Options.grab),
            settings: settings,
            output: output,
            driver: driver
        )
        if arguments.flag(Options.wait) {
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
        driver.work = { try session.due() }
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
    private var device: EvdevDevice?
    private var deviceToken: Int?
    private var identity: DeviceIdentity?
    private var clock = DeviceClock(deviceUsesMonotonic: true)
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
        let device: EvdevDevice
        do throws(DeviceError) {
            device = try EvdevDevice(path: path, grab: grab)
        } catch {
            throw CLIError.runtime(error.description)
        }
        let description = device.description
        guard description.pressureAxis != nil else {
            device.close()
            throw CLIError.runtime(
                "\(path) ('\(description.name)') has no pressure axis (neither ABS_MT_PRESSURE nor ABS_PRESSURE), so it cannot weigh anything. 'plumometer list' shows which devices can."
            )
        }
        let calibration = try ProfileStore.calibration(for: description, explicitPath: settings.profilePath)
        clock = DeviceClock(deviceUsesMonotonic: device.usesMonotonicClock)
        let classification = DeviceClassifier.classify(description)
        if classification.sensing == .contactSize {
            Diagnostics.note(
                "\(description.name): \(classification.reason) Percentages compare contact sizes, not weights."
            )
        }
        let record = DeviceRecord(
            path: path,
            description: description,
            time: clock.now(),
            classification: classification,
            gramsSource: ReplaySession.gramsSource(description, calibration?.1)
        )
        let pipeline = ReadingPipeline(record: record, calibration: calibration?.0, settings: settings, output: output)
        self.device = device
        self.pipeline = pipeline
        self.identity = description.identity
        try pipeline.start(.atOpen(device.initialFrame()))
        deviceToken = driver.watch(device.fileDescriptor) { [unowned self] in try self.readable() }
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

    private func readable() throws {
        guard let device, let pipeline else { return }
        let batch: DeviceBatch
        do throws(DeviceError) {
            batch = try device.read()
        } catch let error where error.code == .gone {
            try disconnected()
            return
        } catch {
            throw CLIError.runtime(error.description)
        }
        if batch.resyncs > 0 {
            Diagnostics.note("\(device.path): events were dropped by the kernel (SYN_DROPPED); resynchronised")
        }
        for frame in batch.frames {
            clock.observed(frame.time)
            _ = try pipeline.consume(frame)
        }
    }

    private func disconnected() throws {
        guard let device else { return }
        let path = device.path
        try pipeline?.flush()
        try output.removed(path: path, time: clock.now())
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
                if node == device?.path { try disconnected() }
            case .added(let node):
                guard device == nil else { continue }
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
        guard let path = device?.path else { return }
        try pipeline?.flush()
        close()
        Diagnostics.note("SIGHUP: reopening \(path)")
        try open(path: path)
    }

    /// Timed work: redraws, and ticks at the pipeline's deadlines (a contact becoming stable while nothing moves,
    /// a reading held back by `--interval`). Returns the poll timeout in milliseconds: none at rest.
    func due() throws -> Int32 {
        let now = MonotonicClock.now()
        try output.idle(now: now)
        var wait = output.idleDeadline(now: now)
        if let pipeline, device != nil {
            let deviceNow = clock.now()
            _ = try pipeline.tickDeadlines(through: deviceNow)
            if let deadline = pipeline.nextDeadline {
                let untilDeadline = deadline.microseconds - deviceNow.microseconds
                wait = Swift.min(wait ?? untilDeadline, untilDeadline)
            }
        }
        return pollTimeout(microseconds: wait)
    }

    func close() {
        if let deviceToken { driver.unwatch(deviceToken) }
        deviceToken = nil
        device?.close()
        device = nil
    }
}
