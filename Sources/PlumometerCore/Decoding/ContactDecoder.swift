/// Turns a device's raw event stream into complete contact frames.
///
/// A synchronous state machine (no I/O, no clocks): the Linux bridge feeds it live events, the recording readers
/// feed it recorded ones, and both get the same frames. It understands the three ways a device reports contacts:
///
/// - Multitouch protocol B: `ABS_MT_SLOT` selects a slot; `ABS_MT_TRACKING_ID` starts a contact (a new id) or
///   ends it (-1). The kernel omits values that did not change, so every slot keeps its last value of every axis,
///   also across a lift and a re-touch in the same slot.
/// - Multitouch protocol A: each contact's values are followed by `SYN_MT_REPORT`; the kernel does not filter them,
///   so every frame lists every contact afresh. Contacts get synthetic ids, kept while a contact lasts by matching
///   each new contact to the nearest contact of the previous frame.
/// - Single touch (touchpads without MT axes, pen tablets): `BTN_TOUCH`, or `ABS_PRESSURE` > 0 when the device has
///   no `BTN_TOUCH`, or a `BTN_TOOL_*` key when it has neither; one contact with a synthetic id per touch. A device
///   that declares `BTN_TOUCH` touches only while it is down, whatever its pressure: a pen in proximity reports
///   `ABS_PRESSURE` while it hovers or grazes below the driver's touch threshold (the kernel's wacom driver sets
///   `BTN_TOUCH` from its own threshold, and libinput's tablet code ignores pressure without it), and such a sample
///   is no contact. A recording that starts mid-touch (evemu keeps no key state) therefore shows the touch from
///   its first `BTN_TOUCH` press: before it there is no evidence that anything touches.
///
/// State applies at `SYN_REPORT`. Devices whose multitouch contacts carry no `ABS_MT_PRESSURE` but that report a
/// legacy `ABS_PRESSURE` (the kernel's pointer emulation, which follows the oldest contact) get that pressure on
/// their oldest contact, as `libinput measure touchpad-pressure` does.
///
/// Lost events (the kernel's `SYN_DROPPED`, see the kernel's `event-codes.rst`: "ignore all events up to and
/// including next SYN_REPORT event and query the device") come two ways, and both end in one resync frame:
/// - From a live device, bracketed by ``DeviceInput/resyncBegan(_:)`` and ``DeviceInput/resyncEnded``: libevdev's
///   synthesised difference to the true state updates the state, its one or two `SYN_REPORT`s publish nothing, and
///   the end publishes the merged state once. libevdev discards the rest of the frame the overflow broke when it is
///   already queued; events that carry the `SYN_DROPPED`'s time and arrive after the resync (the kernel stamps one
///   time on all events of a frame) are that rest, already part of the state libevdev re-read, and are ignored up
///   to and including their `SYN_REPORT`. Without that rule the result depended on whether the rest had reached
///   the buffer when libevdev drained it.
/// - In a recording, as a raw `SYN_DROPPED` event: everything up to and including the next `SYN_REPORT` is ignored
///   and the frame after it is marked as a resync (a recording cannot re-read the device).
public struct ContactDecoder: Sendable {
    private let device: DeviceDescription
    let contactProtocol: ContactProtocol
    let legacyPressureOnly: Bool
    /// `INPUT_PROP_SEMI_MT`: the two slots are a bounding box's corners, published as one contact.
    private let semiMultitouch: Bool

    // Protocol B.
    var slots: [SlotState]
    private var currentSlot = 0
    /// `ABS_MT_SLOT`'s minimum: slot indices count from it. Read once, not per `ABS_MT_SLOT` event.
    private let slotMinimum: Int

    // Protocol A.
    private var pendingValues: [AbsoluteAxis: Int32] = [:]
    private var pendingContacts: [[AbsoluteAxis: Int32]] = []
    private var sawMTReport = false
    var anonymous: AnonymousContacts

    // Single touch and legacy values (also used by the MT protocols for `ABS_PRESSURE`).
    var singleValues = PointerValues()
    private var keys: Set<KeyCode> = []
    var singleTouchID: Int?

    // Shared.
    private var nextSyntheticID = 0
    /// Contact ids in order of appearance, for the legacy pressure rule.
    var appearanceOrder: [Int] = []
    private var published: [ContactSample] = []
    /// The buffer the next frame's contacts are gathered in: the last published list but one, whose storage is free
    /// again once its frame has been consumed, so a frame allocates nothing for its contacts.
    private var gathered: [ContactSample] = []
    private var lost = LostEvents()
    /// Protocol A after a resync: wait for a frame that lists contacts (or says none are down).
    private var awaitingCompleteFrame = false

    /// Creates a decoder for `device`, with no contact down.
    ///
    /// - Parameter device: the device whose events will be fed; its axes decide the protocol.
    public init(device: DeviceDescription) {
        self.device = device
        self.contactProtocol = device.contactProtocol
        self.legacyPressureOnly = !device.hasAxis(.mtPressure) && device.hasAxis(.pressure)
        self.semiMultitouch = device.properties.contains(.semiMT)
        // A description can declare any slot range (2^32 slots from a hostile recording); the kernel refuses more
        // than 1024 (`input_mt_init_slots`), so no real device has more, and events for slots beyond are ignored.
        let slotCount = Swift.min(device.slotCount ?? 0, Self.maximumSlots)
        self.slots = Array(repeating: SlotState(), count: slotCount)
        self.slotMinimum = Int(device.axes[.mtSlot]?.minimum ?? 0)
        self.anonymous = AnonymousContacts(device: device)
    }

    /// The most protocol B slots decoded: the kernel's own limit for a multitouch device.
    public static let maximumSlots = 1024

    /// The events ignored because they were for a slot beyond the ones decoded (a declared slot count above
    /// ``maximumSlots``, or a slot the description did not declare); the CLI reports them once, never silently.
    public private(set) var droppedSlotEvents = 0

    /// The most contacts a protocol A frame may list; later ones in the same frame are ignored. Protocol A drivers
    /// report ten or twenty; the limit keeps the nearest-contact matching (quadratic in the contacts) bounded when
    /// a recording lists thousands in one frame.
    public static let maximumAnonymousContacts = 256

    /// The contacts down as of the last `SYN_REPORT`, ordered by id.
    public var contacts: [ContactSample] { published }

    /// Whether the single-touch rule counts a contact as down, given the keys held and the `ABS_PRESSURE` value.
    ///
    /// `BTN_TOUCH` decides when the device has it; otherwise `ABS_PRESSURE` > 0; otherwise any `BTN_TOOL_*` key.
    public static func singleTouchIsDown(device: DeviceDescription, keysDown: Set<KeyCode>, pressure: Int32?) -> Bool {
        if device.hasKey(.btnTouch) { return keysDown.contains(.btnTouch) }
        if device.hasAxis(.pressure) { return (pressure ?? 0) > 0 }
        // BTN_TOOL_PEN ... BTN_TOOL_LENS, BTN_TOOL_QUINTTAP and BTN_TOOL_DOUBLETAP ... BTN_TOOL_QUADTAP.
        return keysDown.contains { key in
            (0x140...0x148).contains(key.rawValue) || (0x14d...0x14f).contains(key.rawValue)
        }
    }

    /// Seeds the state with the device's state at open, so contacts already down are reported.
    ///
    /// The state is the whole truth: slots, keys, the current slot and the single-touch values replace what the
    /// decoder knew, and a resynchronisation in progress is over.
    ///
    /// - Parameter state: what the bridge read when it opened the device.
    /// - Returns: a resync frame with the contacts down, or nil when none is down and none was reported before (a
    ///   seed that clears contacts reported earlier returns an empty resync frame, so no consumer keeps them).
    public mutating func seed(with state: DeviceState) -> ContactFrame? {
        singleValues.merge(state.axes)
        keys = state.keysDown
        lost.reset()
        switch contactProtocol {
        case .multitouchSlots:
            for index in slots.indices {
                var slot = SlotState()
                slot.known = true
                if index < state.slots.count {
                    slot.values = SlotValues(state.slots[index])
                    slot.trackingID = state.slots[index][.mtTrackingID] ?? -1
                }
                slots[index] = slot
            }
            if let current = state.currentSlot { selectSlot(current) }
        case .multitouchAnonymous:
            // Protocol A keeps no per-contact state in the kernel: contacts appear with the next report.
            break
        case .singleTouch:
            let touching = Self.singleTouchIsDown(device: device, keysDown: keys, pressure: singleValues.pressure)
            singleTouchID = touching ? takeSyntheticID() : nil
        }
        let before = published
        var current: [ContactSample] = []
        gatherContacts(into: &current)
        published = current
        guard !published.isEmpty || !before.isEmpty else { return nil }
        lost.resyncPending = false
        return delivered(ContactFrame(time: state.time, orderedContacts: published, resync: true))
    }

    /// The id of a contact found already down in a recording: above the device's tracking id range (so it never
    /// collides with a real id), or below zero for a device whose range leaves no room above.
    private func inferredTrackingID(slot: Int) -> Int32 {
        let maximum = Int64(device.axes[.mtTrackingID]?.maximum ?? 65_535)
        let candidate = Swift.max(maximum, 65_535) + 1 + Int64(slot)
        return candidate <= Int64(Int32.max) ? Int32(candidate) : Int32(-2 - slot)
    }

    /// Feeds one input: an event, or a marker of libevdev's resynchronisation.
    ///
    /// - Parameter input: the next input of the source.
    /// - Returns: a frame when the contacts changed at a `SYN_REPORT`, or the one resync frame of a
    ///   resynchronisation (at its end; for protocol A at the device's next complete frame), otherwise nil.
    public mutating func consume(_ input: DeviceInput) -> ContactFrame? {
        switch input {
        case .event(let event):
            return consume(event)
        case .resyncBegan(let time):
            beginResync(at: time)
            return nil
        case .resyncEnded:
            return endResync()
        }
    }

    /// Feeds a batch of inputs (one read of a device), handing each frame to `body` as it completes.
    ///
    /// The same as feeding each input to `consume(_ input:)` in turn, in one call: a decoder kept in a class's
    /// stored property is then reached once per batch instead of once per event (each access to a class's stored
    /// property is an exclusivity check at run time, ~120 instructions with the runtime's bookkeeping: 8k of a
    /// 16-contact frame's instructions went to them).
    ///
    /// - Parameters:
    ///   - inputs: the inputs of the source, in order.
    ///   - body: called with every frame; returns true to stop (the inputs after that frame's are not fed).
    /// - Returns: true when `body` asked to stop.
    public mutating func consume(
        _ inputs: [DeviceInput],
        each body: (ContactFrame) throws -> Bool
    ) rethrows -> Bool {
        for input in inputs {
            guard let frame = consume(input) else { continue }
            if try body(frame) { return true }
        }
        return false
    }

    /// Feeds one event.
    ///
    /// - Parameter event: the next event of the device.
    /// - Returns: a frame at `SYN_REPORT` when the contacts changed or the frame is a resync, otherwise nil.
    public mutating func consume(_ event: RawEvent) -> ContactFrame? {
        switch lost.admit(event) {
        case .apply:
            break
        case .skip:
            return nil
        case .skipLast:
            if lost.resyncPending, contactProtocol == .multitouchAnonymous { awaitingCompleteFrame = true }
            return nil
        }
        switch event.type {
        case .syn:
            return consumeSyn(event)
        case .abs:
            consumeAbs(AbsoluteAxis(rawValue: event.code), event.value)
        case .key:
            let key = KeyCode(rawValue: event.code)
            if event.value != 0 { keys.insert(key) } else { keys.remove(key) }
        default:
            break
        }
        return nil
    }

    /// The bridge saw `SYN_DROPPED` at `time` and lets libevdev resynchronise: the partial frame is worthless.
    ///
    /// The events that follow (libevdev's synthesised difference to the true state) update the state as usual;
    /// for protocol B they end vanished contacts with tracking id -1. Protocol A contacts are re-listed by the
    /// device in every frame, so the next frame that lists contacts (or a `BTN_TOUCH` release) is taken as truth.
    private mutating func beginResync(at time: EventTime) {
        lost.begin(at: time)
        pendingValues = [:]
        pendingContacts = []
        sawMTReport = false
        if contactProtocol == .multitouchAnonymous { awaitingCompleteFrame = true }
    }

    /// libevdev's difference is complete: publishes the merged state as the one resync frame.
    private mutating func endResync() -> ContactFrame? {
        guard let time = lost.end() else { return nil }
        // Protocol A: libevdev's difference holds no contacts; the device's next complete frame is the resync frame.
        if awaitingCompleteFrame { return nil }
        lost.resyncPending = false
        return delivered(ContactFrame(time: time, orderedContacts: published, resync: true))
    }

    private mutating func consumeSyn(_ event: RawEvent) -> ContactFrame? {
        switch SynCode(rawValue: event.code) {
        case .dropped:
            // A recording (or a raw stream) lost events: the partial frame is worthless and is dropped. A
            // resynchronisation never holds one (libevdev synthesises none), so there it is ignored.
            guard !lost.resynchronising else { return nil }
            lost.rawDrop()
            pendingValues = [:]
            pendingContacts = []
            sawMTReport = false
            return nil
        case .mtReport:
            sawMTReport = true
            if !pendingValues.isEmpty {
                if pendingContacts.count < Self.maximumAnonymousContacts { pendingContacts.append(pendingValues) }
                pendingValues = [:]
            }
            return nil
        case .report:
            guard lost.resynchronising else { return finishFrame(at: event.time) }
            // libevdev's difference comes in one or two frames; only the state after the last is the truth. For
            // protocol A its `ABS_MT_*` values are the kernel's last ones, not a listing of the contacts down.
            pendingValues = [:]
            pendingContacts = []
            sawMTReport = false
            _ = finishFrame(at: event.time)
            lost.syntheticReport(at: event.time)
            return nil
        default:
            return nil
        }
    }

    private mutating func consumeAbs(_ axis: AbsoluteAxis, _ value: Int32) {
        switch contactProtocol {
        case .multitouchSlots:
            if axis == .mtSlot {
                selectSlot(value)
            } else if axis.isMultitouch {
                guard slots.indices.contains(currentSlot) else {
                    droppedSlotEvents += 1
                    return
                }
                if axis == .mtTrackingID {
                    // -1 ends the contact; the kernel never sends another negative id, so none makes one.
                    slots[currentSlot].trackingID = value < 0 ? -1 : value
                    slots[currentSlot].known = true
                } else {
                    if !slots[currentSlot].known {
                        // Values for a slot whose contact began before the recording did (evemu keeps no initial
                        // state, and the kernel sends a slot's values only while it holds a contact): that contact
                        // is down, under an id no tracking id can have.
                        slots[currentSlot].known = true
                        slots[currentSlot].trackingID = inferredTrackingID(slot: currentSlot)
                    }
                    slots[currentSlot].values.set(axis, value)
                }
            } else {
                singleValues.set(axis, value)
            }
        case .multitouchAnonymous:
            if axis.isMultitouch { pendingValues[axis] = value } else { singleValues.set(axis, value) }
        case .singleTouch:
            singleValues.set(axis, value)
        }
    }

    /// A frame as it is published: a semi-multitouch pad's bounding box read as one contact with the pressure the
    /// pad reports (``ContactFrame/mergingBoundingBox()``), so every source and consumer sees the same contact.
    private func delivered(_ frame: ContactFrame) -> ContactFrame {
        semiMultitouch ? frame.mergingBoundingBox() : frame
    }

    /// Selects the slot `ABS_MT_SLOT` names with `value` (slots count from the axis' minimum).
    private mutating func selectSlot(_ value: Int32) {
        currentSlot = Int(value) - slotMinimum
    }

    private mutating func finishFrame(at time: EventTime) -> ContactFrame? {
        switch contactProtocol {
        case .multitouchSlots:
            break
        case .multitouchAnonymous:
            if !pendingValues.isEmpty {
                // A device that ends its last contact with SYN_REPORT instead of SYN_MT_REPORT.
                if pendingContacts.count < Self.maximumAnonymousContacts { pendingContacts.append(pendingValues) }
                pendingValues = [:]
            }
            let listed = !pendingContacts.isEmpty || sawMTReport
            let released = device.hasKey(.btnTouch) && !keys.contains(.btnTouch)
            if awaitingCompleteFrame && !listed && !released {
                // libevdev's resync frame for a protocol A device carries no contacts: wait for the device's own.
                return nil
            }
            awaitingCompleteFrame = false
            anonymous.match(pendingContacts, nextID: &nextSyntheticID)
            pendingContacts = []
            sawMTReport = false
        case .singleTouch:
            let down = Self.singleTouchIsDown(device: device, keysDown: keys, pressure: singleValues.pressure)
            if down && singleTouchID == nil {
                singleTouchID = takeSyntheticID()
            } else if !down {
                singleTouchID = nil
            }
        }
        // The contacts are gathered in the spare buffer; when they differ from the published ones the two trade
        // places (an unchanged list leaves `published` as it was, which is the same list).
        var current: [ContactSample] = []
        swap(&current, &gathered)
        current.removeAll(keepingCapacity: true)
        gatherContacts(into: &current)
        let resync = lost.resyncPending
        lost.resyncPending = false
        let changed = current != published
        if changed { swap(&current, &published) }
        gathered = current
        guard changed || resync else { return nil }
        return delivered(ContactFrame(time: time, orderedContacts: published, resync: resync))
    }

    private mutating func takeSyntheticID() -> Int {
        defer { nextSyntheticID += 1 }
        return nextSyntheticID
    }
}
