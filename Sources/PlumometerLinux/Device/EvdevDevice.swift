import CLibevdev
import Glibc
public import PlumometerCore

/// An open evdev input device, read through libevdev.
///
/// Opens the node read-only, non-blocking and close-on-exec, describes it, asks for `CLOCK_MONOTONIC` event
/// times, and turns what libevdev gives into the core's values: the description, the state at open
/// (``openingState``) and the events, with `SYN_DROPPED` resynchronisations bracketed by markers. It decodes
/// nothing: every source drives the one ``ContactDecoder`` the same way. It never grabs the device unless asked,
/// because the user still needs the touchpad while plumometer reads it.
///
/// Not thread-safe: one reader loop owns it.
public final class EvdevDevice {
    /// The node that was opened, for example `/dev/input/event7`.
    public let path: String
    /// The device as libevdev saw it at open.
    public let description: DeviceDescription
    /// Whether the device was grabbed (`EVIOCGRAB`) at open.
    public let isGrabbed: Bool
    /// Whether event times come from `CLOCK_MONOTONIC`; false when the kernel (or an emulation such as umockdev)
    /// refused `EVIOCSCLOCKID` and times are the device's default, `CLOCK_REALTIME`.
    public let usesMonotonicClock: Bool
    /// The device's state when it was opened (what rests on it, the keys held), stamped with the event clock:
    /// seed a ``ContactDecoder`` with it before feeding the events ``read()`` returns.
    public let openingState: DeviceState

    private var descriptor: Int32
    private var handle: OpaquePointer?

    /// Opens and describes the device at `path`.
    ///
    /// - Parameters:
    ///   - path: an evdev node, `/dev/input/eventN`.
    ///   - grab: grab the device so that no other program sees its events (`EVIOCGRAB`).
    /// - Throws: ``DeviceError`` with the failing C function (`open`, `libevdev_new_from_fd`, `libevdev_grab`).
    public init(path: String, grab: Bool = false) throws(DeviceError) {
        self.path = path
        let fd = try openInputNode(path)
        var device: OpaquePointer?
        if case .failure(let error) = retryingLibevdev({ libevdev_new_from_fd(fd, &device) }) {
            closeDescriptor(fd)
            throw DeviceError(path: path, function: "libevdev_new_from_fd", errno: error.rawValue)
        }
        guard let device else {
            closeDescriptor(fd)
            throw DeviceError(code: .other, path: path, function: "libevdev_new_from_fd", errno: ENOMEM)
        }
        if grab, case .failure(let error) = retryingLibevdev({ libevdev_grab(device, LIBEVDEV_GRAB) }) {
            libevdev_free(device)
            closeDescriptor(fd)
            throw DeviceError(path: path, function: "libevdev_grab", errno: error.rawValue)
        }
        // Under umockdev EVIOCSCLOCKID fails; the device's default clock is still consistent within a run.
        let monotonic = libevdev_set_clock_id(device, CLOCK_MONOTONIC) == 0

        self.descriptor = fd
        self.handle = device
        self.isGrabbed = grab
        self.usesMonotonicClock = monotonic
        let description = Self.describe(device, path: path)
        self.description = description
        let time = EventTime(microseconds: clockMicroseconds(monotonic: monotonic))
        self.openingState = Self.currentState(device, description: description, at: time)
    }

    deinit {
        close()
    }

    /// The device's file descriptor, for `poll`; -1 after ``close()``.
    public var fileDescriptor: Int32 { descriptor }

    /// The most events one ``read()`` returns outside a resync.
    public static let maximumBatchEvents = 4_096

    /// Reads every event available now, until the kernel has no more (`EAGAIN`) or ``maximumBatchEvents`` were
    /// read.
    ///
    /// On `SYN_DROPPED` it lets libevdev resynchronise (`LIBEVDEV_READ_FLAG_SYNC` until `-EAGAIN`) and brackets
    /// libevdev's synthesised difference to the true state with ``DeviceInput/resyncBegan(_:)`` (stamped with the
    /// `SYN_DROPPED`'s time) and ``DeviceInput/resyncEnded``; the decoder merges what lies between.
    ///
    /// - Returns: the inputs read, in order.
    /// - Throws: ``DeviceError`` with code `.gone` when the device vanished, another code for other failures.
    public func read() throws(DeviceError) -> [DeviceInput] {
        guard let device = handle else {
            throw DeviceError(code: .other, path: path, function: "libevdev_next_event", errno: EBADF)
        }
        var inputs: [DeviceInput] = []
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let status = libevdev_next_event(device, flags, &event)
            if status == LIBEVDEV_READ_STATUS_SUCCESS.rawValue {
                inputs.append(.event(Self.rawEvent(event)))
                if inputs.count >= Self.maximumBatchEvents {
                    // A device (or emulation) that keeps the buffer full would otherwise keep this loop going,
                    // holding every event in memory and none on its way out. The descriptor is still readable,
                    // so the poll loop comes straight back for the rest; the decoder keeps any partial frame.
                    return inputs
                }
            } else if status == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                let raw = Self.rawEvent(event)
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                    // The SYN_DROPPED itself: switch to draining libevdev's synthesised difference.
                    inputs.append(.resyncBegan(raw.time))
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                } else {
                    inputs.append(.event(raw))
                }
            } else if status == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    inputs.append(.resyncEnded)
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                if inputs.isEmpty && descriptorHasHungUp(descriptor) {
                    throw DeviceError(code: .gone, path: path, function: "poll", errno: ENODEV)
                }
                return inputs
            } else if status == -EINTR {
                continue
            } else {
                throw DeviceError(path: path, function: "libevdev_next_event", errno: -status)
            }
        }
    }

    /// Releases the grab (if any), frees libevdev's state and closes the descriptor. Safe to call twice.
    public func close() {
        if let device = handle {
            if isGrabbed { _ = libevdev_grab(device, LIBEVDEV_UNGRAB) }
            libevdev_free(device)
            handle = nil
        }
        if descriptor >= 0 {
            closeDescriptor(descriptor)
            descriptor = -1
        }
    }

    private static func rawEvent(_ event: input_event) -> RawEvent {
        var event = event
        let seconds = Int64(plumometer_event_sec(&event))
        let microseconds = Int64(plumometer_event_usec(&event))
        return RawEvent(
            time: EventTime(seconds: seconds, microseconds: microseconds),
            type: EventType(rawValue: event.type),
            code: event.code,
            value: event.value
        )
    }

    /// Reads the identity, properties, supported codes and axis ranges from libevdev's cached description.
    private static func describe(_ device: OpaquePointer, path: String) -> DeviceDescription {
        let name = libevdev_get_name(device).map { String(cString: $0) } ?? ""
        let identity = DeviceIdentity(
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device)),
            name: name
        )
        var properties: Set<InputProperty> = []
        // Up to INPUT_PROP_MAX, by number: libevdev keeps the raw bitmask, so 0x07 (pressure pad) is seen even
        // though Debian 12's headers do not name it.
        for property in 0...UInt32(InputProperty.max.rawValue) where libevdev_has_property(device, property) == 1 {
            properties.insert(InputProperty(rawValue: UInt16(property)))
        }
        var codes: [EventType: Set<UInt16>] = [:]
        var axes: [AbsoluteAxis: AxisInfo] = [:]
        for type in 0...UInt32(EventType.max.rawValue) where libevdev_has_event_type(device, type) == 1 {
            let maximum = libevdev_event_type_get_max(type)
            var supported: Set<UInt16> = []
            if maximum >= 0 {
                for code in 0...UInt32(maximum) where libevdev_has_event_code(device, type, code) == 1 {
                    supported.insert(UInt16(code))
                }
            }
            codes[EventType(rawValue: UInt16(type))] = supported
            if type == UInt32(EV_ABS) {
                for code in supported {
                    guard let info = libevdev_get_abs_info(device, UInt32(code))?.pointee else { continue }
                    axes[AbsoluteAxis(rawValue: code)] = AxisInfo(
                        minimum: info.minimum,
                        maximum: info.maximum,
                        fuzz: info.fuzz,
                        flat: info.flat,
                        resolution: info.resolution
                    )
                }
            }
        }
        return DeviceDescription(path: path, identity: identity, properties: properties, codes: codes, axes: axes)
    }

    /// The state libevdev read at open (`EVIOCGMTSLOTS`, `EVIOCGABS`, `EVIOCGKEY`, cached by
    /// `libevdev_new_from_fd`): per-slot values, the current slot, the other axes' values and the keys down.
    private static func currentState(
        _ device: OpaquePointer,
        description: DeviceDescription,
        at time: EventTime
    ) -> DeviceState {
        var slots: [[AbsoluteAxis: Int32]] = []
        let slotCount = Int(libevdev_get_num_slots(device))
        let slotAxes = description.axes.keys.filter { $0.isMultitouch && $0 != .mtSlot }
        if slotCount > 0 {
            for slot in 0..<slotCount {
                var values: [AbsoluteAxis: Int32] = [:]
                for axis in slotAxes {
                    values[axis] = libevdev_get_slot_value(device, UInt32(slot), UInt32(axis.rawValue))
                }
                slots.append(values)
            }
        }
        var axes: [AbsoluteAxis: Int32] = [:]
        for axis in description.axes.keys where !axis.isMultitouch {
            axes[axis] = libevdev_get_event_value(device, UInt32(EV_ABS), UInt32(axis.rawValue))
        }
        var keysDown: Set<KeyCode> = []
        for code in description.codes[.key] ?? [] where code >= 0x100 {
            if libevdev_get_event_value(device, UInt32(EV_KEY), UInt32(code)) != 0 {
                keysDown.insert(KeyCode(rawValue: code))
            }
        }
        let currentSlot = slotCount > 0 ? libevdev_get_current_slot(device) : -1
        return DeviceState(
            slots: slots,
            currentSlot: currentSlot >= 0 ? currentSlot : nil,
            axes: axes,
            keysDown: keysDown,
            time: time
        )
    }
}
