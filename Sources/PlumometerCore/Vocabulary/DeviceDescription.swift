/// The range and resolution of one absolute axis (`struct input_absinfo`).
public struct AxisInfo: Hashable, Sendable, Codable {
    /// The smallest value the device reports (the kernel does not clamp: values outside happen).
    public var minimum: Int32
    /// The largest value the device reports: full scale.
    public var maximum: Int32
    /// Noise filter: the kernel drops changes smaller than this.
    public var fuzz: Int32
    /// Dead zone (joysticks); reported for completeness.
    public var flat: Int32
    /// Units per millimetre for positions; for pressure axes, units per gram. 0 means "not known".
    public var resolution: Int32

    /// Creates an axis description; fuzz, flat and resolution default to 0 (none, none, unknown).
    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// `maximum - minimum` as a Double (0 for a zero-width or inverted range).
    public var span: Double { Swift.max(0, Double(maximum) - Double(minimum)) }
}

/// The identity of a device: what stays the same when it is unplugged and plugged back in under another node.
public struct DeviceIdentity: Hashable, Sendable, Codable {
    /// The bus (`BUS_USB` = 0x03, `BUS_BLUETOOTH` = 0x05, `BUS_I2C` = 0x18, ...).
    public var bus: UInt16
    /// The vendor id (0x05ac for Apple over USB).
    public var vendor: UInt16
    /// The product id.
    public var product: UInt16
    /// The firmware or hardware version the driver reports.
    public var version: UInt16
    /// The kernel's device name.
    public var name: String

    /// Creates an identity from the kernel's `input_id` and name.
    public init(bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16, name: String) {
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.name = name
    }

    /// `BBBB:VVVV:PPPP:RRRR` in lowercase hexadecimal, as in the JSON Lines `device` record.
    public var idString: String {
        [bus, vendor, product, version].map { value in
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
        }.joined(separator: ":")
    }
}

/// How a device reports its contacts.
public enum ContactProtocol: String, Hashable, Sendable, Codable {
    /// Multitouch protocol B: slots (`ABS_MT_SLOT`) with tracking ids.
    case multitouchSlots = "mt-b"
    /// Multitouch protocol A: anonymous contacts separated by `SYN_MT_REPORT`.
    case multitouchAnonymous = "mt-a"
    /// A single contact: `ABS_PRESSURE` (or `BTN_TOUCH`) with `ABS_X`/`ABS_Y`, no `ABS_MT_*` axes.
    case singleTouch = "single"
}

/// Everything the core needs to know about a device: identity, properties, supported codes and axis ranges.
///
/// Built by the Linux bridge from a live device, or by a recording reader from its description lines.
public struct DeviceDescription: Hashable, Sendable {
    /// Where the device came from: `/dev/input/eventN`, or a recording's file name.
    public var path: String
    public var identity: DeviceIdentity
    public var properties: Set<InputProperty>
    /// Supported event codes by type (`EV_KEY` -> the `BTN_*` codes, `EV_ABS` -> the axes, ...).
    public var codes: [EventType: Set<UInt16>]
    /// Axis information for every supported absolute axis.
    public var axes: [AbsoluteAxis: AxisInfo]

    public init(
        path: String,
        identity: DeviceIdentity,
        properties: Set<InputProperty> = [],
        codes: [EventType: Set<UInt16>] = [:],
        axes: [AbsoluteAxis: AxisInfo] = [:]
    ) {
        self.path = path
        self.identity = identity
        self.properties = properties
        self.codes = codes
        self.axes = axes
        // Every axis with an absinfo is a supported EV_ABS code, even if the caller forgot to say so.
        if !axes.isEmpty {
            self.codes[.abs, default: []].formUnion(axes.keys.map(\.rawValue))
        }
    }

    public var name: String { identity.name }

    /// Whether the device supports `type`/`code`.
    public func supports(_ type: EventType, code: UInt16) -> Bool {
        codes[type]?.contains(code) ?? false
    }

    /// Whether the device has absolute axis `axis`.
    public func hasAxis(_ axis: AbsoluteAxis) -> Bool { axes[axis] != nil }

    /// Whether the device supports the key or button `key`.
    public func hasKey(_ key: KeyCode) -> Bool { supports(.key, code: key.rawValue) }

    /// Whether the device is libevdev's "fake multitouch": it sets the `ABS_MT_SLOT - 1` bit (0x2e), which no real
    /// axis uses, as devices that claim every absolute axis do (some keyboards, joysticks and tablets). Their
    /// `ABS_MT_*` codes are not multitouch axes; libevdev and udev's input_id ignore them, and so do we.
    public var hasFakeMultitouch: Bool { supports(.abs, code: AbsoluteAxis.mtSlot.rawValue - 1) }

    /// The number of multitouch slots (`ABS_MT_SLOT` maximum + 1), or nil for devices without slots (and for fake
    /// multitouch devices).
    public var slotCount: Int? {
        guard !hasFakeMultitouch, let slot = axes[.mtSlot], slot.maximum >= slot.minimum else { return nil }
        return Int(slot.maximum) - Int(slot.minimum) + 1
    }

    /// How the device reports contacts.
    public var contactProtocol: ContactProtocol {
        if hasFakeMultitouch { return .singleTouch }
        if slotCount != nil { return .multitouchSlots }
        if axes.keys.contains(where: { $0.isMultitouch }) { return .multitouchAnonymous }
        return .singleTouch
    }

    /// The axis that carries per-contact pressure: `ABS_MT_PRESSURE` if present (and real: not on a fake
    /// multitouch device), else `ABS_PRESSURE`.
    public var pressureAxis: AbsoluteAxis? {
        if axes[.mtPressure] != nil, !hasFakeMultitouch { return .mtPressure }
        if axes[.pressure] != nil { return .pressure }
        return nil
    }

    /// The pressure axis' range, or nil when the device has no pressure axis.
    public var pressureRange: AxisInfo? { pressureAxis.flatMap { axes[$0] } }
}
