public import PlumometerCore

/// The live input devices: evdev nodes, opened read-only (the bridge's `EvdevDevice`; the test kit's emulated
/// devices).
public protocol DeviceAccess: AnyObject {
    /// Opens the evdev node at `path` read-only, never a keyboard, whatever path led to it (`-d`, auto mode, hotplug).
    /// - Parameters:
    ///   - path: an evdev node, `/dev/input/eventN`.
    ///   - grab: grab it, so that no other program sees its events.
    /// - Throws: a refusal naming the path for a keyboard (never opened); an error naming the path, the failing call
    ///   and the fix when it cannot be opened or grabbed.
    func open(_ path: String, grab: Bool) throws -> any InputDevice
}

/// One open live input device.
public protocol InputDevice: AnyObject {
    /// The node that was opened.
    var path: String { get }
    /// What the device said about itself at open.
    var description: DeviceDescription { get }
    /// What rested on it at open: every slot, axis and key.
    var openingState: DeviceState { get }
    /// Whether its events are stamped with `CLOCK_MONOTONIC` (else `CLOCK_REALTIME`, evdev's default).
    var usesMonotonicClock: Bool { get }
    /// The descriptor to watch; readable when it has events.
    var fileDescriptor: Int32 { get }
    /// What it has now, never waiting: events, and the resynchronisation markers of a `SYN_DROPPED`.
    /// - Throws: an error naming the device; one that is a ``DeviceFailure`` says whether the device is gone.
    func read() throws -> [DeviceInput]
    /// Closes it. Safe to call twice.
    func close()
}

/// A device read's error that can say the device has gone (unplugged), which a stream survives.
public protocol DeviceFailure: Error {
    /// Whether the device has gone.
    var deviceHasGone: Bool { get }
}

/// No devices: a detached runtime's.
public final class NoDevices: DeviceAccess {
    public init() {}

    public func open(_ path: String, grab: Bool) throws -> any InputDevice {
        throw NotInstalled("\(path): no input devices are installed")
    }
}
