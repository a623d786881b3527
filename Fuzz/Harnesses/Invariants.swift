import PlumometerCore

/// Feeds events through the decoder and the tracker the way `plumometer replay` does, and stops the process (so
/// libFuzzer records the input) the moment an output breaks one of the invariants every consumer relies on.
struct CheckedPipeline {
    var decoder: ContactDecoder
    var tracker: WeightTracker
    let device: DeviceDescription
    /// Whether a `.resyncBegan` has not been ended yet. The bridge always ends the resync it begins (the begin and
    /// end markers bracket libevdev's synced events within one read); raw fuzz inputs may leave one open.
    private(set) var resyncOpen = false

    init(device: DeviceDescription, configuration: TrackerConfiguration = .init()) {
        self.device = device
        decoder = ContactDecoder(device: device)
        tracker = WeightTracker(
            pressureRange: device.pressureRange ?? AxisInfo(minimum: 0, maximum: 0),
            configuration: configuration
        )
    }

    /// Feeds one event; checks the frame and the reading it produced, if any.
    mutating func consume(_ event: RawEvent) {
        consume(.event(event))
    }

    /// Feeds one input (an event or a resync marker); checks the frame and the reading it produced, if any.
    mutating func consume(_ input: DeviceInput) {
        switch input {
        case .resyncBegan: resyncOpen = true
        case .resyncEnded: resyncOpen = false
        default: break
        }
        guard let frame = decoder.consume(input) else { return }
        check(frame)
        let reading = tracker.consume(frame)
        check(reading, against: frame)
    }

    /// Ends a resync as the bridge does: libevdev's synthesised difference always closes with a `SYN_REPORT`
    /// before the end marker (its frames are whole), so the decoder never sees a marker end a half frame.
    mutating func endResync(at time: EventTime) {
        if resyncOpen { consume(RawEvent(time: time, type: .syn, code: SynCode.report.rawValue, value: 0)) }
        consume(.resyncEnded)
    }

    /// Seeds the decoder like a live source does when it opens a device.
    mutating func seed(with state: DeviceState) {
        guard let frame = decoder.seed(with: state) else { return }
        check(frame)
        check(tracker.consume(frame), against: frame)
    }

    mutating func tick(now: EventTime) {
        if let reading = tracker.tick(now: now) { check(reading, against: nil) }
    }

    mutating func tare() {
        tracker.tare()
        check(tracker.current, against: nil)
    }

    func check(_ frame: ContactFrame) {
        let ids = frame.contacts.map(\.id)
        require(ids == ids.sorted(), "frame contacts not ordered by id: \(ids)")
        require(Set(ids).count == ids.count, "frame repeats a contact id: \(ids)")
        require(frame.contacts == decoder.contacts, "frame differs from the decoder's published contacts")
        if let slots = device.slotCount {
            for contact in frame.contacts {
                guard let slot = contact.slot else { fail("protocol B contact without a slot") }
                require(slot >= 0 && slot < slots, "slot \(slot) outside 0..<\(slots)")
            }
        }
    }

    func check(_ reading: Reading, against frame: ContactFrame?) {
        let ids = reading.contacts.map(\.id)
        require(Set(ids).count == ids.count, "reading repeats a contact id: \(ids)")
        require(ids == ids.sorted(), "reading not ordered by id: \(ids)")
        if let frame {
            require(Set(ids) == Set(frame.contacts.map(\.id)), "reading ids \(ids) differ from the frame's")
            require(reading.resync == frame.resync, "resync mark lost")
        }
        require(Set(reading.contacts.map(\.rank)) == Set(1...max(1, ids.count)) || ids.isEmpty, "ranks not 1...n")
        require(reading.contacts.filter(\.heaviest).count <= 1, "more than one heaviest")
        for contact in reading.contacts {
            require(contact.force.isFinite, "force \(contact.force) not finite")
            require(contact.percent.isFinite, "percent \(contact.percent) not finite")
            require(contact.ratio.isFinite && contact.ratio >= 0 && contact.ratio <= 1, "ratio \(contact.ratio)")
            require(
                contact.share.isFinite && contact.share >= 0 && contact.share <= 1.000_000_1,
                "share \(contact.share)"
            )
            require(contact.force >= -1 && contact.force <= 1, "force \(contact.force) outside -1...1")
            if let grams = contact.grams { require(grams.isFinite, "grams \(grams) not finite") }
            if contact.heaviest { require(contact.force > 0, "heaviest with force \(contact.force)") }
        }
    }
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
    fatalError("invariant broken: \(message)")
}
