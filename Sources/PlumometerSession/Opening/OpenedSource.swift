public import PlumometerCore

/// The source ``Session/open(_:for:begin:)`` returns: a live device or a recording, reading into the consumer
/// built for its ``OpenedDevice``. Run it with ``Session/run(_:)``; close it when done.
public final class OpenedSource: FrameSource {
    /// The device, once known: at once for a live device, once a recording described it and its first event.
    public fileprivate(set) var device: OpenedDevice?
    /// The live device read, if it is one.
    public let live: LiveSource?
    fileprivate var recording: RecordingSource?
    /// Whether a consumer reads the device's frames (false: nothing to read, or raw inputs only).
    fileprivate var reads = false

    fileprivate init(live: LiveSource?) {
        self.live = live
    }

    public func due() throws -> Due {
        if let recording { return try recording.due() }
        guard reads, let live else { return .finished }
        return try live.due()
    }

    /// Whether the device is a live one (its time is the wall clock's), not a recording.
    public var isLive: Bool { live != nil }

    /// The error that ended a recording early, if any: everything before it has been played.
    public var failure: (any Error)? { recording?.failure }

    /// Where reading ended in device time: a recording's last event played, or now on a live device's clock.
    public var endTime: EventTime? { recording?.lastTime ?? live?.clock.now() }

    /// Closes a live device (safe to call twice).
    public func close() { live?.close() }
}

extension Session {
    /// The one way a device reaches a consumer: opens `selection` (a live device at once; a recording once it has
    /// described its device and its first event has arrived), prepares it once for `use`
    /// (``DevicePreparation/prepare(_:path:node:from:at:initialFrame:hasEvents:for:)``), and has `begin` build
    /// the consumer its frames go into.
    ///
    /// A live device is watched in this session's loop from here on; when `begin` builds no consumer its raw inputs
    /// still reach its own hooks (`record`), and as a source it is finished at once. A recording plays nothing
    /// then. A failure to prepare or to begin closes a live device before it propagates.
    /// - Parameters:
    ///   - begin: builds the consumer for the device, having it take ``OpenedDevice/initialFrame``; nil when
    ///     there is nothing to read (the answer is in already, or only the device was wanted).
    /// - Returns: the source to ``run(_:)``, holding the device once known.
    public func open(
        _ selection: DeviceOpening,
        for use: DeviceUse,
        begin: @escaping (OpenedDevice) throws -> (any FrameConsumer)?
    ) throws -> OpenedSource {
        switch selection {
        case .live(let opening):
            let live = try opening()
            let source = OpenedSource(live: live)
            let consumer: (any FrameConsumer)?
            do {
                let device = try DevicePreparation.prepare(
                    live.description,
                    path: live.path,
                    node: live.path,
                    from: .device,
                    at: live.clock.now(),
                    initialFrame: live.initialFrame,
                    hasEvents: true,
                    for: use
                )
                source.device = device
                consumer = try begin(device)
            } catch {
                live.close()
                throw error
            }
            source.reads = consumer != nil
            live.start(in: loop, into: consumer)
            return source
        case .recording(let input, let pacing):
            let source = OpenedSource(live: nil)
            // `unowned`: the source holds the recording, which holds this closure.
            source.recording = RecordingSource(input, pacing: pacing, loop: loop) { [unowned source] streamed, first in
                let device = try DevicePreparation.prepare(
                    streamed.description,
                    path: streamed.description.path,
                    node: streamed.node,
                    from: .recording,
                    at: first?.time ?? .zero,
                    initialFrame: nil,
                    hasEvents: first != nil,
                    for: use
                )
                source.device = device
                return try begin(device)
            }
            return source
        }
    }
}
