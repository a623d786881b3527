public import PlumometerCore

/// A live evdev device as a source of frames in the poll loop: the live counterpart of ``RecordingPlayer``, and the
/// one place a device is read (stream, weigh, calibrate, probe, describe and record all read through it).
///
/// It watches the device, reads what it has, decodes it with the one ``ContactDecoder`` (seeded with the state at
/// open, fed the bridge's resync markers; ``SourceDecoder``), keeps the device's clock, and ticks its consumer at exactly the
/// consumer's deadlines: before a frame that comes later than one (as a recording is played) and when the poll
/// loop wakes for one. A vanished device is reported to ``onGone``; every other failure propagates whole (the
/// bridge's `DeviceError`) to the CLI's entry point.
///
/// The device comes from the runtime's ``DeviceAccess`` (``Runtime/devices``): evdev in the tool, an emulated device
/// in a test. An event goes from the bridge's poll straight here, to the decoder and the consumer.
public final class LiveSource: FrameSource {
    /// The open device.
    public let device: any InputDevice
    /// What rested on the device when it was opened, as a resync frame; nil when the surface was clear.
    public let initialFrame: ContactFrame?
    /// Maps now onto the device's event clock.
    public private(set) var clock: DeviceClock
    /// Called with every input read, before it is decoded (`record` writes them as they come).
    public var onInputs: (([DeviceInput]) throws -> Void)?
    /// Called for a read that holds a `SYN_DROPPED` resynchronisation.
    public var onResync: (() -> Void)?
    /// Called when the device vanished (unplugged); without it the error that says so (a ``DeviceFailure``)
    /// propagates.
    public var onGone: (() throws -> Void)?

    private var decoder: SourceDecoder
    private var consumer: (any FrameConsumer)?
    private weak var loop: (any EventLoop)?
    private var token: Int?
    /// The consumer asked to stop.
    private var finished = false

    /// Opens the device at `path` read-only and decodes what rests on it.
    /// - Parameters:
    ///   - path: an evdev node, `/dev/input/eventN`.
    ///   - grab: grab the device so that no other program sees its events.
    /// - Throws: the runtime's refusal of a keyboard (never opened, whatever path led to it: `-d`, auto mode,
    ///   hotplug; the bridge's `OpenRefusal`), its error when the device cannot be opened or grabbed (`DeviceError`).
    public init(path: String, grab: Bool = false) throws {
        device = try Runtime.current.devices.open(path, grab: grab)
        decoder = SourceDecoder(device.description, name: path)
        initialFrame = decoder.seed(with: device.openingState)
        clock = DeviceClock(deviceUsesMonotonic: device.usesMonotonicClock)
    }

    /// The node that was opened.
    public var path: String { device.path }

    /// The device as it described itself at open.
    public var description: DeviceDescription { device.description }

    /// Starts reading in a session's loop.
    /// - Parameters:
    ///   - loop: the loop to watch the device in.
    ///   - consumer: where frames go; nil to read inputs only (``onInputs``), without decoding them.
    public func start(in loop: any EventLoop, into consumer: (any FrameConsumer)?) {
        self.loop = loop
        self.consumer = consumer
        token = loop.watch(device.fileDescriptor) { [unowned self] in try self.readable() }
    }

    /// Ticks the consumer at its deadlines up to the device's now.
    /// - Returns: when the next deadline falls (nothing is due without one), or `.finished` once the consumer
    ///   asked to stop.
    public func due() throws -> Due {
        if finished { return .finished }
        guard let consumer, token != nil else { return .idle }
        // A consumer has deadlines only once something is down, by which time the device's clock is known.
        let now = clock.now()
        if try consumer.tickDeadlines(through: now) { return stop() }
        guard let deadline = consumer.nextDeadline else { return .idle }
        return .within(deadline.microseconds - now.microseconds)
    }

    /// Stops watching and closes the device. Safe to call twice.
    public func close() {
        if let token { loop?.unwatch(token) }
        token = nil
        device.close()
        decoder.reportDroppedSlots()
    }

    private func readable() throws {
        let inputs: [DeviceInput]
        do {
            inputs = try device.read()
        } catch let failure as any DeviceFailure where failure.deviceHasGone {
            guard let onGone else { throw failure }
            try onGone()
            return
        }
        if let onResync, inputs.contains(where: Self.beginsResync) { onResync() }
        try onInputs?(inputs)
        guard let consumer, !finished else { return }
        let stopped = try decoder.consume(inputs) { frame in
            clock.observed(frame.time)
            return try consumer.tickDeadlines(through: frame.time) || consumer.consume(frame)
        }
        if stopped { _ = stop() }
    }

    private static func beginsResync(_ input: DeviceInput) -> Bool {
        if case .resyncBegan = input { return true }
        return false
    }

    private func stop() -> Due {
        finished = true
        loop?.finish()
        return .finished
    }
}
