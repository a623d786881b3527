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

        self.chunk = .allocate(capacity: EvdevDevice.readChunkEvents)
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
        chunk.deallocate()
    }

    /// The device's file descriptor, for `poll`; -1 after ``close()``.
    public var fileDescriptor: Int32 { descriptor }

    /// The most events one ``read()`` returns outside a resync.
    public static let maximumBatchEvents = 4_096

    /// The events one `read(2)` of the node takes at most: a whole batch (96 KiB, allocated once and touched only as
    /// far as reads fill it), so that a batch is one read and its inputs one array sized once: with chunks of 1,024
    /// events a burst grew the array twice per batch, copying it (3k instructions per 16-contact frame).
    static let readChunkEvents = maximumBatchEvents

    /// Where `read(2)` puts the node's events; allocated once the device is open (an initialiser that throws runs no
    /// `deinit`: allocated as the property's default, it leaked 96 KiB with every refused open, which AddressSanitizer's
    /// leak check found in discovery).
    private let chunk: UnsafeMutablePointer<input_event>
    /// libevdev's copy of the device's state as the events read so far left it; nil until the first read and after
    /// a resynchronisation, when libevdev's own copy is the truth.
    private var state: LibevdevState?

    /// Reads every event available now, until the kernel has no more (`EAGAIN`) or ``maximumBatchEvents`` were
    /// read.
    ///
    /// Events are read with `read(2)` in chunks of whole `input_event`s, not one by one through
    /// `libevdev_next_event`, which cost 68k of the 170k instructions of a 16-contact frame (docs/performance.md):
    /// libevdev shifts its whole queue down by one event for every event it hands out, and updates its copy of the
    /// device's state through several calls per event. That copy matters only to a resynchronisation, which
    /// compares it with the kernel's; ``LibevdevState`` keeps the same copy in Swift as the events are read, with
    /// libevdev's own filter (codes the device does not declare are dropped, a slot index out of range is capped to
    /// the last slot, a tracking id that does not go from -1 to an id or back is dropped, each with libevdev's log
    /// message), and hands it to libevdev just before a resynchronisation.
    ///
    /// On `SYN_DROPPED` the rest of the chunk is discarded, as libevdev discards its queue before it syncs, and
    /// libevdev resynchronises (`LIBEVDEV_READ_FLAG_FORCE_SYNC`, then `LIBEVDEV_READ_FLAG_SYNC` until `-EAGAIN`).
    /// libevdev's synthesised difference to the true state is bracketed with ``DeviceInput/resyncBegan(_:)``
    /// (stamped with the `SYN_DROPPED`'s time) and ``DeviceInput/resyncEnded``, and each of its events carries the
    /// `SYN_DROPPED`'s time, the time libevdev gives them when it reads the `SYN_DROPPED` itself; the decoder merges
    /// what lies between.
    ///
    /// - Returns: the inputs read, in order.
    /// - Throws: ``DeviceError`` with code `.gone` when the device vanished, another code for other failures.
    public func read() throws(DeviceError) -> [DeviceInput] {
        guard let device = handle else {
            throw DeviceError(code: .other, path: path, function: "read", errno: EBADF)
        }
        var inputs: [DeviceInput] = []
        let eventSize = MemoryLayout<input_event>.stride
        while inputs.count < Self.maximumBatchEvents {
            // A device (or emulation) that keeps the buffer full would otherwise keep this loop going, holding every
            // event in memory and none on its way out. The descriptor is still readable, so the poll loop comes
            // straight back for the rest; the decoder keeps any partial frame.
            let room = Swift.min(Self.readChunkEvents, Self.maximumBatchEvents - inputs.count)
            let length = Glibc.read(descriptor, chunk, room * eventSize)
            if length <= 0 {
                let error = length == 0 ? EAGAIN : errno
                if error == EINTR { continue }
                guard error == EAGAIN || error == EWOULDBLOCK else {
                    throw DeviceError(path: path, function: "read", errno: error)
                }
                // No more now (a FIFO standing in for a node reads 0 when its writer left: the same).
                if inputs.isEmpty && descriptorHasHungUp(descriptor) {
                    throw DeviceError(code: .gone, path: path, function: "poll", errno: ENODEV)
                }
                return inputs
            }
            guard length % eventSize == 0 else {
                // libevdev's own answer to a read that is not whole events (`read_more_events`).
                throw DeviceError(path: path, function: "read", errno: EINVAL)
            }
            let count = length / eventSize
            inputs.reserveCapacity(inputs.count + count)
            if state == nil { state = LibevdevState(device) }
            let dropped = state!.admit(chunk, count: count, device: device, into: &inputs)
            if let dropped {
                // Everything after the SYN_DROPPED in this chunk is discarded, as libevdev discards its queue.
                state!.hand(to: device)
                state = nil
                try resynchronise(device, droppedAt: dropped, into: &inputs)
            }
        }
        return inputs
    }

    /// The kernel dropped events (`SYN_DROPPED` at `time`): libevdev discards what is pending, re-reads the device
    /// and synthesises the difference to its state, which is appended to `inputs` between the resync markers.
    private func resynchronise(
        _ device: OpaquePointer,
        droppedAt time: EventTime,
        into inputs: inout [DeviceInput]
    ) throws(DeviceError) {
        inputs.append(.resyncBegan(time))
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_FORCE_SYNC.rawValue
        while true {
            let status = libevdev_next_event(device, flags, &event)
            if status == LIBEVDEV_READ_STATUS_SYNC.rawValue || status == LIBEVDEV_READ_STATUS_SUCCESS.rawValue {
                if flags == LIBEVDEV_READ_FLAG_FORCE_SYNC.rawValue {
                    // The forced SYN_DROPPED itself: switch to draining libevdev's synthesised difference.
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                    continue
                }
                var raw = Self.rawEvent(event)
                raw.time = time
                inputs.append(.event(raw))
            } else if status == -EAGAIN {
                inputs.append(.resyncEnded)
                return
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

    fileprivate static func rawEvent(_ event: input_event) -> RawEvent {
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

/// What libevdev would know of a device after the events read so far: the values of its axes, slots, keys, LEDs and
/// switches, and the current slot. libevdev keeps this to compute the difference after `SYN_DROPPED`; keeping it
/// here, in arrays, costs a few instructions per event where `libevdev_next_event` and `libevdev_set_event_value`
/// cost hundreds. It starts from libevdev's own copy and goes back into it just before a resynchronisation.
///
/// The filter is libevdev's (`sanitize_event`, libevdev 1.13): an event whose type or code the device does not
/// declare is dropped (`EV_SYN` always passes); `ABS_MT_SLOT` outside the slots is capped to the last slot; an
/// `ABS_MT_TRACKING_ID` that does not alternate between -1 and an id is dropped. The last two are device bugs that
/// libevdev logs, so they are handed to libevdev to log them as before.
private struct LibevdevState {
    /// libevdev's slot count (`libevdev_get_num_slots`): -1 for a device without slots.
    let slotCount: Int
    /// Per event type, whether each code is declared; empty for a type the device does not have.
    let declared: [[Bool]]
    /// The current slot, -1 when unknown.
    var currentSlot: Int
    /// The value of every `EV_ABS` code.
    var absolute: [Int32]
    /// Per slot, the value of each multitouch code from `ABS_MT_SLOT` to `ABS_MT_TOOL_Y` (libevdev's range).
    var slotValues: [Int32]
    /// Whether each key, LED and switch is on.
    var keys: [Bool]
    var leds: [Bool]
    var switches: [Bool]

    static let multitouchFirst = Int(ABS_MT_SLOT)
    static let multitouchLast = Int(ABS_MT_TOOL_Y)
    static let multitouchCodes = multitouchLast - multitouchFirst + 1

    /// libevdev's copy as it stands now.
    init(_ device: OpaquePointer) {
        var declared: [[Bool]] = []
        for type in 0...UInt32(EV_MAX) {
            let maximum = libevdev_event_type_get_max(type)
            guard type != UInt32(EV_SYN), libevdev_has_event_type(device, type) == 1, maximum >= 0 else {
                declared.append([])
                continue
            }
            declared.append((0...UInt32(maximum)).map { libevdev_has_event_code(device, type, $0) == 1 })
        }
        self.declared = declared
        slotCount = Int(libevdev_get_num_slots(device))
        currentSlot = slotCount >= 0 ? Int(libevdev_get_current_slot(device)) : -1
        func values(_ type: Int32) -> [Int32] {
            let count = Int(libevdev_event_type_get_max(UInt32(type))) + 1
            return (0..<UInt32(count)).map { libevdev_get_event_value(device, UInt32(type), $0) }
        }
        absolute = values(EV_ABS)
        keys = values(EV_KEY).map { $0 != 0 }
        leds = values(EV_LED).map { $0 != 0 }
        switches = values(EV_SW).map { $0 != 0 }
        var slotValues = [Int32](repeating: 0, count: Swift.max(slotCount, 0) * Self.multitouchCodes)
        for slot in 0..<Swift.max(slotCount, 0) {
            for offset in 0..<Self.multitouchCodes {
                let code = UInt32(Self.multitouchFirst + offset)
                slotValues[slot * Self.multitouchCodes + offset] = libevdev_get_slot_value(device, UInt32(slot), code)
            }
        }
        self.slotValues = slotValues
    }

    /// Filters the `count` events at `events` as libevdev does, applies them and appends the ones libevdev would
    /// have handed out to `inputs`.
    /// - Returns: the time of a `SYN_DROPPED`, where it stopped (the events after it are not looked at), or nil.
    mutating func admit(
        _ events: UnsafeMutablePointer<input_event>,
        count: Int,
        device: OpaquePointer,
        into inputs: inout [DeviceInput]
    ) -> EventTime? {
        for index in 0..<count {
            var event = events[index]
            let type = Int(event.type)
            let code = Int(event.code)
            if type == Int(EV_SYN) {
                if code == Int(SYN_DROPPED) { return EvdevDevice.rawEvent(event).time }
            } else {
                guard type < declared.count, code < declared[type].count, declared[type][code] else { continue }
                switch Int32(type) {
                case EV_ABS:
                    guard applyAbsolute(&event, device: device) else { continue }
                case EV_KEY: keys[code] = event.value != 0
                case EV_LED: leds[code] = event.value != 0
                case EV_SW: switches[code] = event.value != 0
                default: break
                }
            }
            inputs.append(.event(EvdevDevice.rawEvent(event)))
        }
        return nil
    }

    /// Applies an `EV_ABS` event as libevdev's `sanitize_event` and `update_abs_state` do; false to drop it.
    private mutating func applyAbsolute(_ event: inout input_event, device: OpaquePointer) -> Bool {
        let code = Int(event.code)
        if slotCount > -1 && code >= Self.multitouchFirst && code <= Self.multitouchLast {
            if code == Self.multitouchFirst {
                if event.value < 0 || Int(event.value) >= slotCount {
                    // libevdev logs the bug ("invalid slot index") and refuses the value; the event goes on capped.
                    _ = libevdev_set_event_value(device, UInt32(EV_ABS), UInt32(code), event.value)
                    event.value = Int32(slotCount - 1)
                }
                currentSlot = Int(event.value)
            } else if currentSlot >= 0 {
                let index = currentSlot * Self.multitouchCodes + code - Self.multitouchFirst
                if code == Int(ABS_MT_TRACKING_ID) && (event.value == -1) == (slotValues[index] == -1) {
                    // libevdev drops a tracking id that does not alternate with -1 and logs the bug: its copy of
                    // this slot is brought up to date so that it says the same.
                    _ = libevdev_set_slot_value(device, UInt32(currentSlot), UInt32(code), slotValues[index])
                    _ = libevdev_set_event_value(
                        device,
                        UInt32(EV_ABS),
                        UInt32(Self.multitouchFirst),
                        Int32(currentSlot)
                    )
                    _ = libevdev_set_event_value(device, UInt32(EV_ABS), UInt32(code), event.value)
                    return false
                }
                slotValues[index] = event.value
            }
        }
        absolute[code] = event.value
        return true
    }

    /// Hands this copy to libevdev (before it resynchronises: the difference it synthesises is to this state).
    func hand(to device: OpaquePointer) {
        let abs = UInt32(EV_ABS)
        for slot in 0..<Swift.max(slotCount, 0) {
            for offset in 1..<Self.multitouchCodes where declared[Int(EV_ABS)][Self.multitouchFirst + offset] {
                let value = slotValues[slot * Self.multitouchCodes + offset]
                _ = libevdev_set_slot_value(device, UInt32(slot), UInt32(Self.multitouchFirst + offset), value)
            }
        }
        if slotCount > 0 && currentSlot >= 0 {
            _ = libevdev_set_event_value(device, abs, UInt32(Self.multitouchFirst), Int32(currentSlot))
        }
        for (code, isDeclared) in declared[Int(EV_ABS)].enumerated()
        where isDeclared && (code < Self.multitouchFirst || code > Self.multitouchLast) {
            _ = libevdev_set_event_value(device, abs, UInt32(code), absolute[code])
        }
        for (type, values) in [(EV_KEY, keys), (EV_LED, leds), (EV_SW, switches)] {
            for (code, isDeclared) in declared[Int(type)].enumerated() where isDeclared {
                _ = libevdev_set_event_value(device, UInt32(type), UInt32(code), values[code] ? 1 : 0)
            }
        }
    }
}
