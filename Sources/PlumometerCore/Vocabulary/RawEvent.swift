/// One input event exactly as the kernel delivers it (`struct input_event`), in the core's own types.
///
/// The Linux bridge and the recording readers produce these; the ``ContactDecoder`` turns them into frames.
public struct RawEvent: Hashable, Sendable {
    /// When the kernel stamped the event.
    public var time: EventTime
    /// The event type (`EV_*`).
    public var type: EventType
    /// The code within the type (`ABS_*`, `BTN_*`, `SYN_*`, ...).
    public var code: UInt16
    /// The value; for `EV_ABS` an axis value, for `EV_KEY` 0/1/2 (up, down, repeat).
    public var value: Int32

    public init(time: EventTime, type: EventType, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// An `EV_ABS` event.
    public static func abs(_ axis: AbsoluteAxis, _ value: Int32, at time: EventTime) -> RawEvent {
        RawEvent(time: time, type: .abs, code: axis.rawValue, value: value)
    }

    /// An `EV_KEY` event.
    public static func key(_ key: KeyCode, _ value: Int32, at time: EventTime) -> RawEvent {
        RawEvent(time: time, type: .key, code: key.rawValue, value: value)
    }

    /// An `EV_SYN` event.
    public static func syn(_ code: SynCode, at time: EventTime) -> RawEvent {
        RawEvent(time: time, type: .syn, code: code.rawValue, value: 0)
    }

    /// Whether this is a `SYN_REPORT`, the end of a frame.
    public var isReport: Bool { type == .syn && code == SynCode.report.rawValue }
}
