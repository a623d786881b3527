public import PlumometerCore
public import PlumometerSeams

/// Live input devices in memory, behind the runtime's ``DeviceAccess``: a test adds a device of the catalogue at a
/// path, then feeds it events (an ``EventScript``) while a session reads it, as the kernel would. Each fed batch makes
/// the device ready on the ``EmbeddedEventLoop`` given, and is read whole by the next read.
///
/// As the bridge: a keyboard is refused before it is opened (udev's test, every key from `KEY_ESC` to `KEY_S`), a
/// path with no device fails to open, and a device unplugged says so (a ``DeviceFailure`` that has gone).
public final class ScriptedDevices: DeviceAccess {
    /// The loop fed devices are made ready on.
    public weak var loop: EmbeddedEventLoop?
    private var devices: [String: ScriptedDevice] = [:]
    private var nextDescriptor: Int32 = 100
    /// The paths opened so far, in order.
    public private(set) var opened: [String] = []

    /// Devices made ready on `loop` when fed.
    public init(loop: EmbeddedEventLoop? = nil) {
        self.loop = loop
    }

    /// Puts a device at `path`.
    /// - Parameters:
    ///   - path: its node, `/dev/input/eventN`.
    ///   - description: what it says about itself (the ``DeviceCatalogue``'s).
    ///   - state: what rests on it at open (nil: nothing, at the clocks' now).
    ///   - monotonic: whether its events are stamped with `CLOCK_MONOTONIC` (the runtime's clocks).
    /// - Returns: the device, to feed.
    @discardableResult
    public func add(
        _ path: String,
        _ description: DeviceDescription,
        state: DeviceState? = nil,
        monotonic: Bool = true
    ) -> ScriptedDevice {
        var described = description
        described.path = path
        let device = ScriptedDevice(
            owner: self,
            path: path,
            description: described,
            openingState: state,
            usesMonotonicClock: monotonic,
            fileDescriptor: nextDescriptor
        )
        nextDescriptor += 1
        devices[path] = device
        return device
    }

    /// Why an emulated device was not opened: a keyboard, or nothing at the path.
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    public func open(_ path: String, grab: Bool) throws -> any InputDevice {
        guard let device = devices[path], !device.unplugged else {
            throw Refusal(description: "cannot open \(path): No such file or directory. Check the device's path.")
        }
        if (1...31).allSatisfy({ device.description.supports(.key, code: UInt16($0)) }) {
            throw Refusal(
                description:
                    "refusing to open \(path): it has every key from KEY_ESC to KEY_S, udev's test for a keyboard"
            )
        }
        opened.append(path)
        device.open(grabbed: grab)
        return device
    }
}

/// One emulated live device (``ScriptedDevices``).
public final class ScriptedDevice: InputDevice {
    /// The device has gone (``ScriptedDevice/unplug()``).
    public struct Gone: DeviceFailure, CustomStringConvertible {
        public var path: String
        public var deviceHasGone: Bool { true }
        public var description: String { "\(path) was removed (unplugged)" }
    }

    private weak var owner: ScriptedDevices?
    public let path: String
    public let description: DeviceDescription
    private let state: DeviceState?
    public let usesMonotonicClock: Bool
    public let fileDescriptor: Int32
    private var pending: [DeviceInput] = []
    fileprivate private(set) var unplugged = false
    /// Whether it is open now.
    public private(set) var isOpen = false
    /// Whether the last open grabbed it.
    public private(set) var isGrabbed = false

    fileprivate init(
        owner: ScriptedDevices,
        path: String,
        description: DeviceDescription,
        openingState: DeviceState?,
        usesMonotonicClock: Bool,
        fileDescriptor: Int32
    ) {
        self.owner = owner
        self.path = path
        self.description = description
        self.state = openingState
        self.usesMonotonicClock = usesMonotonicClock
        self.fileDescriptor = fileDescriptor
    }

    fileprivate func open(grabbed: Bool) {
        isOpen = true
        isGrabbed = grabbed
        pending = []
    }

    public var openingState: DeviceState {
        state
            ?? DeviceState(
                time: usesMonotonicClock ? Runtime.current.clocks.monotonic() : Runtime.current.clocks.realtime()
            )
    }

    /// Queues `script`'s events, as the kernel would, and makes the device ready.
    public func feed(_ script: EventScript) { feed(script.events.map(DeviceInput.event)) }

    /// Queues `inputs` (events and resynchronisation markers) and makes the device ready.
    public func feed(_ inputs: [DeviceInput]) {
        pending += inputs
        owner?.loop?.makeReady(fileDescriptor)
    }

    /// Unplugs it: the next read says it has gone, and it cannot be opened again.
    public func unplug() {
        unplugged = true
        owner?.loop?.makeReady(fileDescriptor)
    }

    public func read() throws -> [DeviceInput] {
        if unplugged { throw Gone(path: path) }
        defer { pending = [] }
        return pending
    }

    public func close() { isOpen = false }
}

/// Standard input's terminal with keys the test types (``type(_:)``), as the bridge's `RawKeyboard` reads them: raw
/// mode entered and restored (``isRaw``), the terminal's end-of-file key (Ctrl-D) ending it, a hang-up too.
public final class TypedKeyboard: Keyboard {
    /// Typed keys make this loop's descriptor ready.
    public weak var loop: EmbeddedEventLoop?
    public let fileDescriptor: Int32 = 0
    private var pending: [UInt8] = []
    private var gone = false
    public private(set) var hasEnded = false
    /// Whether the terminal is in raw mode now.
    public private(set) var isRaw = false
    /// Whether the terminal refuses raw mode (as one that is no terminal does).
    public var refusesRawMode = false

    /// A keyboard whose keys are made ready on `loop`.
    public init(loop: EmbeddedEventLoop? = nil) {
        self.loop = loop
    }

    /// Types `keys`; Ctrl-D (`\u{4}`) is the end-of-file key.
    public func type(_ keys: String) {
        pending += Array(keys.utf8)
        loop?.makeReady(fileDescriptor)
    }

    /// The terminal hangs up: the next read says nothing more comes.
    public func hangUp() {
        gone = true
        loop?.makeReady(fileDescriptor)
    }

    public func readKeys() -> [UInt8]? {
        if gone {
            hasEnded = true
            return nil
        }
        defer { pending = [] }
        if pending.contains(4) { hasEnded = true }
        return pending.filter { $0 != 4 }
    }

    @discardableResult
    public func enter() -> Bool {
        guard !refusesRawMode else { return false }
        isRaw = true
        return true
    }

    public func restore() { isRaw = false }
}
