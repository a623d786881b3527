/// The last values of one protocol B slot.
struct SlotState: Sendable {
    var trackingID: Int32 = -1
    var values = SlotValues()
    /// Whether this slot's state is known: seeded from the device, or a tracking id seen. A recording starts with
    /// every slot unknown, since evemu keeps no initial state.
    var known = false
}

/// The values of one slot that a ``ContactSample`` carries, kept in fields rather than a dictionary: this is
/// written for every event of a 1 kHz, 16-finger pad. Other `ABS_MT_*` axes (orientation, tool type, ...) are not
/// reported, so they are not kept.
struct SlotValues: Sendable, Equatable {
    var x: Int32?
    var y: Int32?
    var pressure: Int32?
    var touchMajor: Int32?
    var touchMinor: Int32?

    init() {}

    init(_ values: [AbsoluteAxis: Int32]) {
        x = values[.mtPositionX]
        y = values[.mtPositionY]
        pressure = values[.mtPressure]
        touchMajor = values[.mtTouchMajor]
        touchMinor = values[.mtTouchMinor]
    }

    mutating func set(_ axis: AbsoluteAxis, _ value: Int32) {
        switch axis {
        case .mtPositionX: x = value
        case .mtPositionY: y = value
        case .mtPressure: pressure = value
        case .mtTouchMajor: touchMajor = value
        case .mtTouchMinor: touchMinor = value
        default: break
        }
    }
}
