/// The core's own names for the kernel's input event vocabulary (linux/input-event-codes.h).
///
/// The core must build on any platform, so it cannot import the kernel headers; the values are cross-checked
/// against the C constants by a test in the Linux bridge.

/// An event type (`EV_*`).
public struct EventType: RawRepresentable, Hashable, Comparable, Sendable, Codable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `EV_SYN`: frame boundaries and synchronisation markers.
    public static let syn = EventType(rawValue: 0x00)
    /// `EV_KEY`: keys and buttons, including `BTN_TOUCH` and the tool bits.
    public static let key = EventType(rawValue: 0x01)
    /// `EV_REL`: relative axes (mice).
    public static let rel = EventType(rawValue: 0x02)
    /// `EV_ABS`: absolute axes (positions, pressure, multitouch slots).
    public static let abs = EventType(rawValue: 0x03)
    /// `EV_MSC`: miscellaneous (timestamps, scan codes).
    public static let msc = EventType(rawValue: 0x04)
    /// `EV_SW`: switches.
    public static let sw = EventType(rawValue: 0x05)
    /// `EV_LED`: keyboard LEDs.
    public static let led = EventType(rawValue: 0x11)
    /// `EV_SND`: sounds.
    public static let snd = EventType(rawValue: 0x12)
    /// `EV_REP`: autorepeat.
    public static let rep = EventType(rawValue: 0x14)
    /// `EV_FF`: force feedback (haptic touchpads).
    public static let ff = EventType(rawValue: 0x15)
    /// `EV_PWR`: power.
    public static let pwr = EventType(rawValue: 0x16)
    /// `EV_FF_STATUS`: force feedback status.
    public static let ffStatus = EventType(rawValue: 0x17)

    /// `EV_MAX`: the largest event type.
    public static let max = EventType(rawValue: 0x1f)

    public static func < (lhs: EventType, rhs: EventType) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The kernel's name, for example `EV_ABS`, or nil for a type this vocabulary does not name.
    public var name: String? {
        switch rawValue {
        case 0x00: "EV_SYN"
        case 0x01: "EV_KEY"
        case 0x02: "EV_REL"
        case 0x03: "EV_ABS"
        case 0x04: "EV_MSC"
        case 0x05: "EV_SW"
        case 0x11: "EV_LED"
        case 0x12: "EV_SND"
        case 0x14: "EV_REP"
        case 0x15: "EV_FF"
        case 0x16: "EV_PWR"
        case 0x17: "EV_FF_STATUS"
        default: nil
        }
    }
}

/// A code of the `EV_SYN` type.
public struct SynCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `SYN_REPORT`: the end of a frame; state applies here.
    public static let report = SynCode(rawValue: 0)
    /// `SYN_CONFIG`.
    public static let config = SynCode(rawValue: 1)
    /// `SYN_MT_REPORT`: the end of one contact in multitouch protocol A.
    public static let mtReport = SynCode(rawValue: 2)
    /// `SYN_DROPPED`: the kernel's buffer overflowed and events were lost; the reader must resynchronise.
    public static let dropped = SynCode(rawValue: 3)
}

/// An absolute axis (`ABS_*`).
public struct AbsoluteAxis: RawRepresentable, Hashable, Comparable, Sendable, Codable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let x = AbsoluteAxis(rawValue: 0x00)
    public static let y = AbsoluteAxis(rawValue: 0x01)
    /// `ABS_PRESSURE`: single-touch (or legacy, oldest-contact) pressure.
    public static let pressure = AbsoluteAxis(rawValue: 0x18)
    public static let distance = AbsoluteAxis(rawValue: 0x19)
    public static let tiltX = AbsoluteAxis(rawValue: 0x1a)
    public static let tiltY = AbsoluteAxis(rawValue: 0x1b)
    public static let toolWidth = AbsoluteAxis(rawValue: 0x1c)
    public static let misc = AbsoluteAxis(rawValue: 0x28)
    /// `ABS_MT_SLOT`: selects the slot that following `ABS_MT_*` events describe (protocol B).
    public static let mtSlot = AbsoluteAxis(rawValue: 0x2f)
    public static let mtTouchMajor = AbsoluteAxis(rawValue: 0x30)
    public static let mtTouchMinor = AbsoluteAxis(rawValue: 0x31)
    public static let mtWidthMajor = AbsoluteAxis(rawValue: 0x32)
    public static let mtWidthMinor = AbsoluteAxis(rawValue: 0x33)
    public static let mtOrientation = AbsoluteAxis(rawValue: 0x34)
    public static let mtPositionX = AbsoluteAxis(rawValue: 0x35)
    public static let mtPositionY = AbsoluteAxis(rawValue: 0x36)
    public static let mtToolType = AbsoluteAxis(rawValue: 0x37)
    public static let mtBlobID = AbsoluteAxis(rawValue: 0x38)
    /// `ABS_MT_TRACKING_ID`: a contact's identity; -1 ends the contact in the current slot.
    public static let mtTrackingID = AbsoluteAxis(rawValue: 0x39)
    /// `ABS_MT_PRESSURE`: per-contact pressure (force on force sensors, contact size on most pads).
    public static let mtPressure = AbsoluteAxis(rawValue: 0x3a)
    public static let mtDistance = AbsoluteAxis(rawValue: 0x3b)
    public static let mtToolX = AbsoluteAxis(rawValue: 0x3c)
    public static let mtToolY = AbsoluteAxis(rawValue: 0x3d)

    /// `ABS_MAX`.
    public static let max = AbsoluteAxis(rawValue: 0x3f)

    public static func < (lhs: AbsoluteAxis, rhs: AbsoluteAxis) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether this is one of the `ABS_MT_*` axes.
    public var isMultitouch: Bool { rawValue >= 0x2f && rawValue <= 0x3d }

    /// The kernel's name, for example `ABS_MT_PRESSURE`, or `ABS_0xNN` for an axis this vocabulary does not name.
    public var name: String {
        switch rawValue {
        case 0x00: "ABS_X"
        case 0x01: "ABS_Y"
        case 0x02: "ABS_Z"
        case 0x18: "ABS_PRESSURE"
        case 0x19: "ABS_DISTANCE"
        case 0x1a: "ABS_TILT_X"
        case 0x1b: "ABS_TILT_Y"
        case 0x1c: "ABS_TOOL_WIDTH"
        case 0x28: "ABS_MISC"
        case 0x2f: "ABS_MT_SLOT"
        case 0x30: "ABS_MT_TOUCH_MAJOR"
        case 0x31: "ABS_MT_TOUCH_MINOR"
        case 0x32: "ABS_MT_WIDTH_MAJOR"
        case 0x33: "ABS_MT_WIDTH_MINOR"
        case 0x34: "ABS_MT_ORIENTATION"
        case 0x35: "ABS_MT_POSITION_X"
        case 0x36: "ABS_MT_POSITION_Y"
        case 0x37: "ABS_MT_TOOL_TYPE"
        case 0x38: "ABS_MT_BLOB_ID"
        case 0x39: "ABS_MT_TRACKING_ID"
        case 0x3a: "ABS_MT_PRESSURE"
        case 0x3b: "ABS_MT_DISTANCE"
        case 0x3c: "ABS_MT_TOOL_X"
        case 0x3d: "ABS_MT_TOOL_Y"
        default: "ABS_0x" + String(rawValue, radix: 16)
        }
    }
}

/// A key or button code (`KEY_*`, `BTN_*`) that the core needs to recognise.
public struct KeyCode: RawRepresentable, Hashable, Comparable, Sendable, Codable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let keyEsc = KeyCode(rawValue: 1)
    public static let keyA = KeyCode(rawValue: 30)
    public static let keySpace = KeyCode(rawValue: 57)
    public static let btnLeft = KeyCode(rawValue: 0x110)
    public static let btnRight = KeyCode(rawValue: 0x111)
    public static let btnMiddle = KeyCode(rawValue: 0x112)
    public static let btnToolPen = KeyCode(rawValue: 0x140)
    public static let btnToolRubber = KeyCode(rawValue: 0x141)
    public static let btnToolFinger = KeyCode(rawValue: 0x145)
    public static let btnToolQuinttap = KeyCode(rawValue: 0x148)
    public static let btnTouch = KeyCode(rawValue: 0x14a)
    public static let btnStylus = KeyCode(rawValue: 0x14b)
    public static let btnToolDoubletap = KeyCode(rawValue: 0x14d)
    public static let btnToolTripletap = KeyCode(rawValue: 0x14e)
    public static let btnToolQuadtap = KeyCode(rawValue: 0x14f)

    /// `KEY_MAX`.
    public static let max = KeyCode(rawValue: 0x2ff)

    public static func < (lhs: KeyCode, rhs: KeyCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A device property (`INPUT_PROP_*`).
public struct InputProperty: RawRepresentable, Hashable, Comparable, Sendable, Codable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `INPUT_PROP_POINTER`: needs a pointer (touchpads).
    public static let pointer = InputProperty(rawValue: 0x00)
    /// `INPUT_PROP_DIRECT`: a direct input device (touchscreens, screen tablets).
    public static let direct = InputProperty(rawValue: 0x01)
    /// `INPUT_PROP_BUTTONPAD`: a clickpad (the whole pad is the button).
    public static let buttonpad = InputProperty(rawValue: 0x02)
    /// `INPUT_PROP_SEMI_MT`: a bounding box, not true per-contact positions.
    public static let semiMT = InputProperty(rawValue: 0x03)
    /// `INPUT_PROP_TOPBUTTONPAD`: software buttons at the top (ThinkPad T440 generation).
    public static let topButtonpad = InputProperty(rawValue: 0x04)
    /// `INPUT_PROP_POINTING_STICK`.
    public static let pointingStick = InputProperty(rawValue: 0x05)
    /// `INPUT_PROP_ACCELEROMETER`.
    public static let accelerometer = InputProperty(rawValue: 0x06)
    /// `INPUT_PROP_PRESSUREPAD`: a touchpad whose button is a force sensor, not a switch (kernel 6.4+).
    ///
    /// Debian 12's headers and libevdev 1.13 do not name it, so the bridge tests for the raw bit 0x07.
    public static let pressurepad = InputProperty(rawValue: 0x07)

    /// `INPUT_PROP_MAX`.
    public static let max = InputProperty(rawValue: 0x1f)

    public static func < (lhs: InputProperty, rhs: InputProperty) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The kernel's name, for example `INPUT_PROP_BUTTONPAD`.
    public var name: String {
        switch rawValue {
        case 0x00: "INPUT_PROP_POINTER"
        case 0x01: "INPUT_PROP_DIRECT"
        case 0x02: "INPUT_PROP_BUTTONPAD"
        case 0x03: "INPUT_PROP_SEMI_MT"
        case 0x04: "INPUT_PROP_TOPBUTTONPAD"
        case 0x05: "INPUT_PROP_POINTING_STICK"
        case 0x06: "INPUT_PROP_ACCELEROMETER"
        case 0x07: "INPUT_PROP_PRESSUREPAD"
        default: "INPUT_PROP_0x" + String(rawValue, radix: 16)
        }
    }
}

/// The bus a device is attached by (`BUS_*`), for display and device identities.
public struct BusType: RawRepresentable, Hashable, Sendable, Codable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let usb = BusType(rawValue: 0x03)
    public static let bluetooth = BusType(rawValue: 0x05)
    public static let virtual = BusType(rawValue: 0x06)
    public static let i8042 = BusType(rawValue: 0x11)
    public static let i2c = BusType(rawValue: 0x18)
    public static let host = BusType(rawValue: 0x19)
    public static let spi = BusType(rawValue: 0x1c)
    public static let rmi = BusType(rawValue: 0x1d)
}
