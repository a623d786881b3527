import PlumometerCore
import PlumometerLinux
import PlumometerOutput
import PlumometerSession

/// `stream`'s source: the target device, followed through udev hotplug, read by a ``LiveSource`` into the session.
///
/// A device that vanishes is announced (`removed`) and waited for; one that appears and fits the target is opened
/// and read as if it had been there from the start; SIGHUP reopens the device for a fresh description and state.
final class DeviceStream: FrameSource {
    private let target: DeviceTarget
    private let grab: Bool
    private let session: Session
    private var source: LiveSource?
    private var identity: DeviceIdentity?
    private var monitor: HotplugMonitor?
    /// With `stream --record`: where the raw events of the first device opened go, until it is reopened or removed.
    var recorder: RawRecorder?
    private var recording = false

    /// A stream of `target`'s device into `session`; nothing is opened yet.
    init(target: DeviceTarget, grab: Bool, session: Session) {
        self.target = target
        self.grab = grab
        self.session = session
    }

    /// Opens `path`, announces it and reports what already rests on it.
    func open(path: String) throws {
        // The first device opened with `stream --record`: its raw events are kept from here on.
        let recorder = recording ? nil : self.recorder
        var opened: LiveSource?
        _ = try session.open(
            .live { [unowned self] in
                let source = try LiveSource(path: path, grab: self.grab)
                source.onResync = {
                    Diagnostics.note("\(path): events were dropped by the kernel (SYN_DROPPED); resynchronised")
                }
                source.onGone = { [unowned self] in try self.disconnected() }
                if let recorder { source.onInputs = { inputs in try recorder.record(inputs, device: 0) } }
                opened = source
                return source
            },
            for: .reading(session.settings)
        ) { [unowned self] device in
            let pipeline = try self.session.pipeline(for: device)
            if let recorder {
                // Recording from here on, even when its first write fails (finishRecording then says so).
                self.recording = true
                try recorder.begin([
                    RawRecorder.Device(description: device.description, node: path, initialFrame: device.initialFrame)
                ])
            }
            return pipeline
        }
        guard let source = opened else { return }
        self.source = source
        identity = source.description.identity
        Diagnostics.note("reading \(path) ('\(source.description.name.forTerminalName)'); Ctrl-C to stop")
    }

    /// Whether udev add/remove events are followed.
    var followsHotplug: Bool { monitor != nil }

    /// Opens the target's device and follows hotplug from then on; SIGHUP reopens the device. With `wait` (`--wait`:
    /// a background reader started before its device, a Bluetooth trackpad still off at login), no device yet is
    /// no failure: it is waited for through udev, as after an unplug.
    /// - Throws: when no device fits and `wait` is not asked for, or udev cannot be reached to wait.
    func start(wait: Bool) throws {
        if wait {
            followHotplug()
            guard followsHotplug else {
                throw CLIError.runtime("--wait needs udev to announce devices, and udev cannot be reached here.")
            }
            do {
                try open(path: try target.resolve())
            } catch {
                Diagnostics.note("no device to read yet (\(error)); waiting for one to appear")
            }
        } else {
            try open(path: try target.resolve())
            followHotplug()
        }
        // `unowned`: the loop is the session's, which this stream holds; a strong reference was a cycle.
        session.loop.onHangup = { [unowned self] in try self.reopen() }
    }

    /// Starts following udev add/remove events, if udev can be reached.
    func followHotplug() {
        do {
            let monitor = try HotplugMonitor()
            self.monitor = monitor
            session.loop.watch(monitor.fileDescriptor) { [unowned self] in try self.hotplug() }
        } catch {
            Diagnostics.note("not following hotplug: \(error)")
        }
    }

    /// SIGHUP: close and open the same device again (a fresh description and state).
    func reopen() throws {
        guard let path = source?.path else { return }
        try session.pipeline?.flush()
        try finishRecording()
        close()
        Diagnostics.note("SIGHUP: reopening \(path)")
        try open(path: path)
    }

    /// The device's deadlines (a contact becoming stable while nothing moves, a reading held back by
    /// `--interval`); nothing is due while no device is open.
    func due() throws -> Due {
        try source?.due() ?? .idle
    }

    /// Stops reading the device and closes it; a `--record` file ends here.
    func close() {
        // Reached by a `defer` on the way out of an error: the error in hand is the one to report.
        try? finishRecording()
        source?.close()
        source = nil
    }

    /// Ends the `--record` file (once; later calls do nothing).
    func finishRecording() throws {
        guard let recorder, recording else { return }
        self.recorder = nil
        // Said even when the end fails (a full disk): what the file holds, never what was read.
        defer {
            if recorder.failed, recorder.eventCount == 0 {
                Diagnostics.note("the --record file was not written: its first write failed")
            } else {
                Diagnostics.note(
                    "the --record file holds \(recorder.eventCount) events"
                        + (recorder.failed ? " (it is cut short)" : "")
                )
            }
        }
        try recorder.finish(at: source?.clock.now())
    }

    private func disconnected() throws {
        guard let source else { return }
        let path = source.path
        try session.pipeline?.flush()
        try session.output?.removed(path: path, time: source.clock.now())
        try finishRecording()
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
}
