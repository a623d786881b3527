public import PlumometerCore

/// What one ``EvdevDevice/read()`` drained from a device: the raw events, the frames they completed, and how
/// many `SYN_DROPPED` resynchronisations happened on the way.
public struct DeviceBatch: Sendable, Hashable {
    /// Every event read, in order, including libevdev's synthesised resync events and the `SYN_DROPPED` itself.
    public var events: [RawEvent]
    /// The frames the events completed (see ``ContactDecoder/consume(_:)``).
    public var frames: [ContactFrame]
    /// How many times the kernel's buffer overflowed and libevdev resynchronised.
    public var resyncs: Int

    public init(events: [RawEvent] = [], frames: [ContactFrame] = [], resyncs: Int = 0) {
        self.events = events
        self.frames = frames
        self.resyncs = resyncs
    }
}
