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
///   no `BTN_TOUCH`, or a `BTN_TOOL_*` key when it has neither; one contact with a synthetic id per touch.
///
/// State applies at `SYN_REPORT`. Devices whose multitouch contacts carry no `ABS_MT_PRESSURE` but that report a
/// legacy `ABS_PRESSURE` (the kernel's pointer emulation, which follows the oldest contact) get that pressure on
/// their oldest contact, as `libinput measure touchpad-pressure` does.
public struct ContactDecoder: Sendable {
    /// The last values of one protocol B slot.
    private struct Slot: Sendable {
        var trackingID: Int32 = -1
        var values = SlotValues()
        /// Whether this slot's state is known: seeded from the device, or a tracking id seen. A recording starts
        /// with every slot unknown, since evemu keeps no initial state.
        var known = false
    }

    /// The values of one slot that a ``ContactSample`` carries, kept in fields rather than a dictionary: this is
    /// written for every event of a 1 kHz, 16-finger pad. Other `ABS_MT_*` axes (orientation, tool type, ...) are
    /// not reported, so they are not kept.
    private struct SlotValues: Sendable, Equatable {
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

    /// One protocol A contact of the current or the previous frame.
    private struct AnonymousContact: Sendable {
        var id: Int
        var values: [AbsoluteAxis: Int32]
    }

    private let device: DeviceDescription
    private let contactProtocol: ContactProtocol
    private let legacyPressureOnly: Bool
    private let matchDistanceSquared: Double

    // Protocol B.
    private var slots: [Slot]
    private var currentSlot = 0

    // Protocol A.
    private var pendingValues: [AbsoluteAxis: Int32] = [:]
    private var pendingContacts: [[AbsoluteAxis: Int32]] = []
    private var sawMTReport = false
    private var anonymous: [AnonymousContact] = []

    // Single touch and legacy values (also used by the MT protocols for `ABS_PRESSURE`).
    private var singleValues: [AbsoluteAxis: Int32] = [:]
    private var keys: Set<KeyCode> = []
    private var singleTouchID: Int?
    /// Whether a `BTN_TOUCH` event (or a seed) told the single-touch state; a recording may start mid-touch.
    private var touchKeyKnown = false

    // Shared.
    private var nextSyntheticID = 0
    /// Contact ids in order of appearance, for the legacy pressure rule.
    private var appearanceOrder: [Int] = []
    private var published: [ContactSample] = []
    private var resyncPending = false
    /// After a raw `SYN_DROPPED`: everything up to and including the next `SYN_REPORT` is ignored.
    private var droppingUntilReport = false
    /// Protocol A after a resync: wait for a frame that lists contacts (or says none are down).
    private var awaitingCompleteFrame = false

    /// Creates a decoder for `device`, with no contact down.
    ///
    /// - Parameter device: the device whose events will be fed; its axes decide the protocol.
    public init(device: DeviceDescription) {
        self.device = device
        self.contactProtocol = device.contactProtocol
        self.legacyPressureOnly = !device.hasAxis(.mtPressure) && device.hasAxis(.pressure)
        // A description can declare any slot range (2^32 slots from a hostile recording); the kernel refuses more
        // than 1024 (`input_mt_init_slots`), so no real device has more, and events for slots beyond are ignored.
        let slotCount = Swift.min(device.slotCount ?? 0, Self.maximumSlots)
        self.slots = Array(repeating: Slot(), count: slotCount)
        // Protocol A matching: a contact that moved more than a quarter of the larger axis span since the previous
        // frame is a different contact. Fingers do not move that far in one report (about 12 ms).
        let xSpan = (device.axes[.mtPositionX] ?? device.axes[.x])?.span ?? 0
        let ySpan = (device.axes[.mtPositionY] ?? device.axes[.y])?.span ?? 0
        let limit = Swift.max(xSpan, ySpan) / 4
        self.matchDistanceSquared = limit > 0 ? limit * limit : Double.infinity
    }

    /// The most protocol B slots decoded: the kernel's own limit for a multitouch device.
    public static let maximumSlots = 1024

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

    /// Seeds the state from values read when the device was opened, so contacts already down are reported.
    ///
    /// - Parameters:
    ///   - slots: per protocol B slot, its current value of every `ABS_MT_*` axis (tracking id included).
    ///   - singleTouch: the current values of the non-multitouch axes (`ABS_X`, `ABS_Y`, `ABS_PRESSURE`).
    ///   - touching: whether the single-touch contact is down (see ``singleTouchIsDown(device:keysDown:pressure:)``).
    ///   - time: the time to stamp on the frame.
    /// - Returns: a resync frame with the contacts down, or nil when none is down and none was reported before (a
    ///   seed that clears contacts reported earlier returns an empty resync frame, so no consumer keeps them).
    public mutating func seed(
        slots seededSlots: [[AbsoluteAxis: Int32]],
        singleTouch: [AbsoluteAxis: Int32],
        touching: Bool,
        at time: EventTime
    ) -> ContactFrame? {
        singleValues.merge(singleTouch) { _, new in new }
        switch contactProtocol {
        case .multitouchSlots:
            for index in slots.indices {
                var slot = Slot()
                slot.known = true
                if index < seededSlots.count {
                    slot.values = SlotValues(seededSlots[index])
                    slot.trackingID = seededSlots[index][.mtTrackingID] ?? -1
                }
                slots[index] = slot
            }
        case .multitouchAnonymous:
            // Protocol A keeps no per-contact state in the kernel: contacts appear with the next report.
            break
        case .singleTouch:
            singleTouchID = touching ? takeSyntheticID() : nil
        }
        touchKeyKnown = true
        let before = published
        published = currentContacts()
        guard !published.isEmpty || !before.isEmpty else { return nil }
        return ContactFrame(time: time, contacts: published, resync: true)
    }

    /// The id of a contact found already down in a recording: above the device's tracking id range (so it never
    /// collides with a real id), or below zero for a device whose range leaves no room above.
    private func inferredTrackingID(slot: Int) -> Int32 {
        let maximum = Int64(device.axes[.mtTrackingID]?.maximum ?? 65_535)
        let candidate = Swift.max(maximum, 65_535) + 1 + Int64(slot)
        return candidate <= Int64(Int32.max) ? Int32(candidate) : Int32(-2 - slot)
    }

    /// Marks the next frame as a resynchronisation, after the bridge saw `SYN_DROPPED` and lets libevdev resync.
    ///
    /// The events that follow (libevdev's synthesised difference to the true state) update the state as usual;
    /// for protocol B they end vanished contacts with tracking id -1. Protocol A contacts are re-listed by the
    /// device in every frame, so the next frame that lists contacts (or a `BTN_TOUCH` release) is taken as truth.
    public mutating func beginResync() {
        resyncPending = true
        pendingValues = [:]
        pendingContacts = []
        sawMTReport = false
        if contactProtocol == .multitouchAnonymous { awaitingCompleteFrame = true }
    }

    /// Feeds one event.
    ///
    /// - Parameter event: the next event of the device.
    /// - Returns: a frame at `SYN_REPORT` when the contacts changed or the frame is a resync, otherwise nil.
    public mutating func consume(_ event: RawEvent) -> ContactFrame? {
        if droppingUntilReport {
            if event.isReport {
                droppingUntilReport = false
                resyncPending = true
                if contactProtocol == .multitouchAnonymous { awaitingCompleteFrame = true }
            }
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
            if key == .btnTouch { touchKeyKnown = true }
        default:
            break
        }
        return nil
    }

    private mutating func consumeSyn(_ event: RawEvent) -> ContactFrame? {
        switch SynCode(rawValue: event.code) {
        case .dropped:
            // A recording (or a raw stream) lost events: the partial frame is worthless and is dropped.
            droppingUntilReport = true
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
            return finishFrame(at: event.time)
        default:
            return nil
        }
    }

    private mutating func consumeAbs(_ axis: AbsoluteAxis, _ value: Int32) {
        switch contactProtocol {
        case .multitouchSlots:
            if axis == .mtSlot {
                let minimum = Int(device.axes[.mtSlot]?.minimum ?? 0)
                currentSlot = Int(value) - minimum
            } else if axis.isMultitouch {
                guard slots.indices.contains(currentSlot) else { return }
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
                singleValues[axis] = value
            }
        case .multitouchAnonymous:
            if axis.isMultitouch { pendingValues[axis] = value } else { singleValues[axis] = value }
        case .singleTouch:
            singleValues[axis] = value
        }
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
            matchAnonymous(pendingContacts)
            pendingContacts = []
            sawMTReport = false
        case .singleTouch:
            var down = Self.singleTouchIsDown(device: device, keysDown: keys, pressure: singleValues[.pressure])
            if !touchKeyKnown, device.hasKey(.btnTouch), device.hasAxis(.pressure) {
                // A recording that starts mid-touch has no BTN_TOUCH press yet: pressure tells until it comes.
                down = (singleValues[.pressure] ?? 0) > 0
            }
            if down && singleTouchID == nil {
                singleTouchID = takeSyntheticID()
            } else if !down {
                singleTouchID = nil
            }
        }
        let current = currentContacts()
        let resync = resyncPending
        resyncPending = false
        let changed = current != published
        published = current
        guard changed || resync else { return nil }
        return ContactFrame(time: time, contacts: current, resync: resync)
    }

    /// Gives each protocol A contact of this frame the id of the nearest unmatched contact of the previous frame.
    private mutating func matchAnonymous(_ listed: [[AbsoluteAxis: Int32]]) {
        var previous = anonymous
        var next: [AnonymousContact] = []
        for values in listed {
            var bestIndex: Int?
            var bestDistance = Double.infinity
            for (index, old) in previous.enumerated() {
                // The device's own tracking id, when it sends one, decides outright.
                if let id = values[.mtTrackingID], let oldID = old.values[.mtTrackingID] {
                    if id == oldID {
                        bestIndex = index
                        bestDistance = 0
                        break
                    }
                    continue
                }
                let distance = Self.distanceSquared(values, old.values)
                if distance < bestDistance {
                    bestDistance = distance
                    bestIndex = index
                }
            }
            if let index = bestIndex, bestDistance <= matchDistanceSquared {
                next.append(AnonymousContact(id: previous[index].id, values: values))
                previous.remove(at: index)
            } else {
                next.append(AnonymousContact(id: takeSyntheticID(), values: values))
            }
        }
        anonymous = next
    }

    private static func distanceSquared(_ a: [AbsoluteAxis: Int32], _ b: [AbsoluteAxis: Int32]) -> Double {
        guard let ax = a[.mtPositionX], let ay = a[.mtPositionY], let bx = b[.mtPositionX], let by = b[.mtPositionY]
        else { return 0 }
        let dx = Double(ax) - Double(bx)
        let dy = Double(ay) - Double(by)
        return dx * dx + dy * dy
    }

    private mutating func takeSyntheticID() -> Int {
        defer { nextSyntheticID += 1 }
        return nextSyntheticID
    }

    /// The contacts as the state stands now, without the legacy pressure rule.
    private func snapshot() -> [ContactSample] {
        switch contactProtocol {
        case .multitouchSlots:
            var result: [ContactSample] = []
            // The kernel gives every contact its own tracking id, but a uinput device (or a hand-edited recording)
            // can put one id in two slots. A contact is one id: the lowest slot holding it wins, as in the tracker.
            var taken = Set<Int32>()
            for (index, slot) in slots.enumerated() where slot.trackingID != -1 {
                guard taken.insert(slot.trackingID).inserted else { continue }
                let values = slot.values
                result.append(
                    ContactSample(
                        id: Int(slot.trackingID),
                        slot: index,
                        x: values.x,
                        y: values.y,
                        pressure: values.pressure,
                        touchMajor: values.touchMajor,
                        touchMinor: values.touchMinor
                    )
                )
            }
            return result.sorted { $0.id < $1.id }
        case .multitouchAnonymous:
            return anonymous.map { Self.sample(id: $0.id, slot: nil, values: $0.values) }.sorted { $0.id < $1.id }
        case .singleTouch:
            guard let id = singleTouchID else { return [] }
            return [
                ContactSample(
                    id: id,
                    x: singleValues[.x],
                    y: singleValues[.y],
                    pressure: singleValues[.pressure]
                )
            ]
        }
    }

    private static func sample(id: Int, slot: Int?, values: [AbsoluteAxis: Int32]) -> ContactSample {
        ContactSample(
            id: id,
            slot: slot,
            x: values[.mtPositionX],
            y: values[.mtPositionY],
            pressure: values[.mtPressure],
            touchMajor: values[.mtTouchMajor],
            touchMinor: values[.mtTouchMinor]
        )
    }

    /// The contacts as the state stands now, with the legacy pressure rule applied.
    private mutating func currentContacts() -> [ContactSample] {
        let contacts = snapshot()
        // Only the legacy pressure rule needs the order; keeping it costs linear time per frame (sets, not
        // `contains` on the array, which made a frame with a thousand contacts quadratic).
        guard legacyPressureOnly, contactProtocol != .singleTouch else { return contacts }
        let ids = Set(contacts.map(\.id))
        appearanceOrder.removeAll { !ids.contains($0) }
        var known = Set(appearanceOrder)
        for contact in contacts where known.insert(contact.id).inserted {
            appearanceOrder.append(contact.id)
        }
        return applyLegacyPressure(contacts)
    }

    /// Gives a multitouch device's legacy `ABS_PRESSURE` to its oldest contact when it has no per-contact pressure.
    private func applyLegacyPressure(_ contacts: [ContactSample]) -> [ContactSample] {
        guard legacyPressureOnly, contactProtocol != .singleTouch, let oldest = appearanceOrder.first,
            let pressure = singleValues[.pressure]
        else { return contacts }
        return contacts.map { contact in
            var contact = contact
            if contact.id == oldest { contact.pressure = pressure }
            return contact
        }
    }
}
