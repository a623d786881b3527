/// The contact list as a frame publishes it: the state gathered per protocol, ordered by id, with the legacy
/// pressure rule applied (the decoder's frame assembly; ContactDecoder.swift keeps the event bookkeeping).
extension ContactDecoder {
    /// Appends the contacts as the state stands now, without the legacy pressure rule, ordered by id.
    func snapshot(into result: inout [ContactSample]) {
        switch contactProtocol {
        case .multitouchSlots:
            for index in slots.indices where slots[index].trackingID != -1 {
                let slot = slots[index]
                result.append(
                    ContactSample(
                        id: Int(slot.trackingID),
                        slot: index,
                        x: slot.values.x,
                        y: slot.values.y,
                        pressure: slot.values.pressure,
                        touchMajor: slot.values.touchMajor,
                        touchMinor: slot.values.touchMinor
                    )
                )
            }
            // In place: a short list is sorted by insertion with no buffer, and the slots mostly hold ascending ids.
            result.sort { $0.id != $1.id ? $0.id < $1.id : ($0.slot ?? 0) < ($1.slot ?? 0) }
            // The kernel gives every contact its own tracking id, but a uinput device (or a hand-edited recording)
            // can put one id in two slots. A contact is one id: the lowest slot holding it wins, as in the tracker.
            Self.dropRepeatedIDs(&result)
        case .multitouchAnonymous:
            for contact in anonymous.contacts {
                result.append(Self.sample(id: contact.id, slot: nil, values: contact.values))
            }
            result.sort { $0.id < $1.id }
        case .singleTouch:
            guard let id = singleTouchID else { return }
            result.append(
                ContactSample(id: id, x: singleValues.x, y: singleValues.y, pressure: singleValues.pressure)
            )
        }
    }

    /// Keeps the first of each run of samples with the same id in a list ordered by id.
    static func dropRepeatedIDs(_ samples: inout [ContactSample]) {
        guard samples.count > 1 else { return }
        var kept = 1
        for index in 1..<samples.count where samples[index].id != samples[kept - 1].id {
            if kept != index { samples[kept] = samples[index] }
            kept += 1
        }
        if kept < samples.count { samples.removeLast(samples.count - kept) }
    }

    static func sample(id: Int, slot: Int?, values: [AbsoluteAxis: Int32]) -> ContactSample {
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

    /// Appends the contacts as the state stands now, with the legacy pressure rule applied.
    mutating func gatherContacts(into contacts: inout [ContactSample]) {
        snapshot(into: &contacts)
        // Only the legacy pressure rule needs the order; keeping it costs linear time per frame (sets, not
        // `contains` on the array, which made a frame with a thousand contacts quadratic).
        guard legacyPressureOnly, contactProtocol != .singleTouch else { return }
        let ids = Set(contacts.map(\.id))
        appearanceOrder.removeAll { !ids.contains($0) }
        var known = Set(appearanceOrder)
        for contact in contacts where known.insert(contact.id).inserted {
            appearanceOrder.append(contact.id)
        }
        applyLegacyPressure(&contacts)
    }

    /// Gives a multitouch device's legacy `ABS_PRESSURE` to its oldest contact when it has no per-contact pressure.
    func applyLegacyPressure(_ contacts: inout [ContactSample]) {
        guard legacyPressureOnly, contactProtocol != .singleTouch, let oldest = appearanceOrder.first,
            let pressure = singleValues.pressure
        else { return }
        for index in contacts.indices where contacts[index].id == oldest { contacts[index].pressure = pressure }
    }
}

/// The values of the axes that are not multitouch that the decoder reads (`ABS_X`, `ABS_Y`, `ABS_PRESSURE`), in
/// fields: a pad's pointer emulation sends them in every frame, and a dictionary hashed each of them.
struct PointerValues: Sendable {
    var x: Int32?
    var y: Int32?
    var pressure: Int32?

    /// Keeps `value` when `axis` is one of the three; other axes are not read, so not kept.
    mutating func set(_ axis: AbsoluteAxis, _ value: Int32) {
        switch axis {
        case .x: x = value
        case .y: y = value
        case .pressure: pressure = value
        default: break
        }
    }

    /// Takes the values `axes` holds for the three, keeping the others as they are.
    mutating func merge(_ axes: [AbsoluteAxis: Int32]) {
        for (axis, value) in axes { set(axis, value) }
    }
}
