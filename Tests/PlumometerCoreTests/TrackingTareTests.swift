import PlumometerCore
import Testing

@Suite("Tracking: tare per contact, for everything down, and for a carrier")
struct TrackingTareTests {
    @Test("a tared contact reads zero, then the difference, negative values shown, not clamped")
    func perContact() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 300), (2, 100)]))
        tracker.tare(contact: 1)
        #expect(tracker.current[id: 1]?.force == 0)
        #expect(tracker.current[id: 2]?.force == 0.1)  // untouched
        var reading = tracker.consume(frame(0.1, [(1, 350), (2, 100)]))
        #expect(try #require(reading[id: 1]?.force) == 0.35 - 0.3)
        reading = tracker.consume(frame(0.2, [(1, 200), (2, 100)]))
        let tared = try #require(reading[id: 1])
        #expect(abs(tared.force - -0.1) < 1e-12)
        #expect(abs(tared.percent - -10) < 1e-9)
        #expect(tared.pressure == 200)  // the raw value is kept
        // Relative weights use max(force, 0): a negative contact has no share and no ratio.
        #expect(tared.ratio == 0)
        #expect(tared.share == 0)
        #expect(reading[id: 2]?.share == 1)
        #expect(reading[id: 2]?.rank == 1)
        #expect(tared.rank == 2)
        #expect(reading.heaviest?.id == 2)
    }

    @Test(
        "grams after tare may be negative (resolution) and are shown, but a tared object is no load: not in the total"
    )
    func gramsTare() throws {
        var tracker = WeightTracker(pressureRange: AxisInfo(minimum: 0, maximum: 4000, resolution: 4))
        _ = tracker.consume(frame(0, [(1, 400)]))
        #expect(tracker.current[id: 1]?.grams == 100)
        tracker.tare(contact: 1)
        #expect(tracker.current[id: 1]?.grams == 0)
        let reading = tracker.consume(frame(0.1, [(1, 380), (2, 200)]))
        #expect(reading[id: 1]?.grams == -5)
        #expect(reading.totalGrams == 50, "only the load counts")
    }

    @Test("a tared object at its zero is never the heaviest nor in the total; something put onto it is a load again")
    func taredIsNoLoadUntilLoaded() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        _ = tracker.consume(frame(0, [(1, 80)]))
        _ = tracker.tick(now: at(0.5))
        tracker.tare()
        #expect(tracker.current.heaviest == nil, "a tared plum at 0 g is not the heaviest")
        #expect(tracker.current.totalGrams == 0)
        // A 30 g plum beside it, then the tared one reads 0.6 g (noise): it stays out.
        var reading = tracker.consume(frame(1.0, [(1, 80), (2, 30)]))
        reading = tracker.consume(frame(1.1, [(1, 81), (2, 30)]))
        #expect(reading.heaviest?.id == 2)
        #expect(reading.totalGrams == 30)
        #expect(reading[id: 1]?.share == 0 && reading[id: 2]?.rank == 1)
        // 20 g put onto the tared plum: it is a load again, counted and compared.
        reading = tracker.consume(frame(1.2, [(1, 100), (2, 30)]))
        #expect(reading.totalGrams == 50)
        #expect(reading[id: 1]?.rank == 2 && reading[id: 1]!.share > 0)
        reading = tracker.consume(frame(1.3, [(1, 120), (2, 30)]))
        reading = tracker.consume(frame(1.5, [(1, 120), (2, 30)]))
        #expect(reading.heaviest?.id == 1, "40 g on the tared plum outweighs the 30 g one")
    }

    @Test("tare zeroes what is down now; an object placed later reads its own weight (500 g, then 100 g)")
    func laterObjectReadsItsOwnWeight() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        _ = tracker.consume(frame(0, [(1, 500)]))
        #expect(tracker.tare() == 1)
        #expect(tracker.current[id: 1]?.grams == 0)
        let reading = tracker.consume(frame(0.1, [(1, 500), (2, 100)]))
        #expect(reading[id: 2]?.grams == 100, "not 100 - 500")
        #expect(reading[id: 1]?.grams == 0)
        #expect(reading.totalGrams == 100)
        // Taring several at once zeroes each at its own value.
        var two = WeightTracker(pressureRange: range1000)
        _ = two.consume(frame(0, [(1, 200), (2, 400)]))
        #expect(two.tare() == 2)
        #expect(two.current.contacts.map(\.force) == [0, 0])
        #expect(two.consume(frame(0.1, [(1, 200), (2, 450), (3, 500)]))[id: 3]?.force == 0.5)
    }

    @Test("a tared contact that lifts is forgotten: the object put back reads its weight; taring nothing is a no-op")
    func liftedTareIsForgotten() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        _ = tracker.consume(frame(0, [(1, 250)]))
        tracker.tare()
        _ = tracker.consume(frame(0.1, []))
        #expect(tracker.tare() == 0)
        #expect(tracker.consume(frame(0.2, [(7, 250)]))[id: 7]?.grams == 250)
        tracker.tare()
        tracker.clearTare()
        #expect(tracker.current[id: 7]?.grams == 250)
    }

    @Test("tare records the clamped pressure: a contact above the range reads zero, then its drop")
    func tareOutOfRange() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 1200)]))
        tracker.tare(contact: 1)
        #expect(tracker.current[id: 1]?.force == 0)
        #expect(tracker.consume(frame(0.1, [(1, 900)]))[id: 1]?.force == 0.9 - 1)
    }

    @Test("the heaviest mark follows tared forces")
    func heaviestAfterTare() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 600), (2, 100)]))
        #expect(tracker.current.heaviest?.id == 1)
        tracker.tare(contact: 1)
        #expect(tracker.current.heaviest?.id == 2)
    }

    @Test("a stable contact is tared at its settled value, so it reads exactly zero")
    func tareAtSettledValue() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        for step in 0...60 { _ = tracker.consume(frame(Double(step) * 0.01, [(1, step % 2 == 0 ? 100 : 101)])) }
        #expect(tracker.current[id: 1]?.stable == true)
        #expect(tracker.current[id: 1]?.pressure == 100)
        tracker.tare()
        #expect(tracker.current[id: 1]?.grams == 0)
    }

    /// 500 g at ±1 unit (499, 501, 500, ...), 100 frames a second from `start` to `end` seconds, with `extra` (id 2,
    /// 100 g at ±1 unit) from `extraFrom` on.
    static func noisyScene(from start: Double, to end: Double, extraFrom: Double = .infinity) -> [ContactFrame] {
        let noise: [Int32] = [-1, 1, 0, 1, -1, 0]
        return stride(from: Int(start * 100), through: Int(end * 100), by: 1).map { step in
            let seconds = Double(step) / 100
            var contacts: [(Int, Int32?)] = [(1, 500 + noise[step % 6])]
            if seconds >= extraFrom { contacts.append((2, 100 - noise[(step + 2) % 6])) }
            return frame(seconds, contacts)
        }
    }

    @Test("a tare taken before the object settles moves to its settled value: 500 g at ±1 unit, then 100 g")
    func tareBeforeSettlingMovesToTheSettledValue() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        let frames = Self.noisyScene(from: 0, to: 2.5, extraFrom: 1)
        _ = tracker.consume(frames[0])
        #expect(tracker.current[id: 1]?.pressure == 499, "tared on one sample, 1 unit below the mean")
        #expect(tracker.tare() == 1)
        #expect(tracker.current[id: 1]?.grams == 0)
        var reading = tracker.current
        for frame in frames.dropFirst() { reading = tracker.consume(frame) }
        let tared = try #require(reading[id: 1])
        let added = try #require(reading[id: 2])
        #expect(tared.stable && added.stable)
        #expect(abs(try #require(tared.grams)) < 0.1, "the tared object reads 0.0 within its noise")
        #expect(abs(try #require(added.grams) - 100) < 0.1)
        #expect(abs(try #require(reading.totalGrams) - 100) < 0.1, "the total is what was added")
    }

    @Test("a provisional zero moves when a tick (no frame) finds the object settled; clearTare drops it")
    func provisionalZeroSettlesOnATick() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        let frames = Self.noisyScene(from: 0, to: 0.3)
        _ = tracker.consume(frames[0])
        tracker.tare()
        for frame in frames.dropFirst() { _ = tracker.consume(frame) }
        #expect(tracker.current[id: 1]?.stable == false)
        let moving = try #require(tracker.current[id: 1])
        #expect(moving.grams == Double(moving.pressure - 499), "the latest value against the provisional zero 499")
        let ticked = tracker.tick(now: at(0.5))
        let settled = try #require(ticked)
        #expect(settled[id: 1]?.stable == true)
        #expect(abs(try #require(settled[id: 1]?.grams)) < 0.2)
        // A tare cleared before the object settles leaves nothing to move.
        var cleared = WeightTracker(pressureRange: gramsRange)
        _ = cleared.consume(frames[0])
        cleared.tare()
        cleared.clearTare()
        for frame in frames.dropFirst() { _ = cleared.consume(frame) }
        #expect(cleared.tick(now: at(0.5))?[id: 1]?.grams.map { abs($0 - 500) < 0.5 } == true)
    }

    @Test("a carrier tared before it settles is zeroed at its settled value, and put back reads the load")
    func carrierTaredBeforeSettling() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        let frames = Self.noisyScene(from: 0, to: 1)
        _ = tracker.consume(frames[0])
        try tracker.tareCarrier()
        #expect(tracker.carrierTare?.pressure == 499)
        for frame in frames.dropFirst() { _ = tracker.consume(frame) }
        let carrier = tracker.carrierTare
        let zero = try #require(carrier?.pressure)
        #expect(abs(zero - 500) < 0.1, "the carrier's zero is its settled value")
        _ = tracker.consume(frame(1.1, []))
        let loaded = tracker.consume(frame(1.2, [(3, 530)]))
        #expect(loaded[id: 3]?.carrier == true)
        #expect(abs(try #require(loaded[id: 3]?.grams) - 30) < 0.1)
    }

    @Test("carrier tare needs exactly one contact down, and says why otherwise")
    func carrierNeedsOneContact() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        #expect(throws: TareError.nothingDown) { try tracker.tareCarrier() }
        _ = tracker.consume(frame(0, [(1, 30), (2, 40)]))
        #expect(throws: TareError.severalDown(count: 2)) { try tracker.tareCarrier() }
        #expect(tracker.carrierTare == nil)
        #expect(tracker.current[id: 1]?.grams == 30, "a refused carrier tare changes nothing")
        #expect(TareError.severalDown(count: 2).description.contains("lift everything but the carrier"))
    }

    @Test("carrier lifted, loaded and put back within a few mm reads the load (positions in mm)")
    func carrierPutBackReadsTheLoad() throws {
        // 0...6000 positions at 100 units per mm: 5 mm is 500 units.
        var tracker = WeightTracker(pressureRange: gramsRange, positionScale: PositionScale(x: 100, y: 100))
        _ = tracker.consume(placed(0, [(1, 40, 1000, 1000)]))  // a spoon held by a finger: 40 g
        #expect(try tracker.tareCarrier() == 1)
        #expect(tracker.current[id: 1]?.grams == 0)
        #expect(tracker.current[id: 1]?.carrier == true)
        _ = tracker.consume(placed(0.5, []))
        #expect(tracker.carrierTare?.contactID == nil)
        // Loaded with 12 g of sugar and put back 3 mm away, under a new id.
        let back = tracker.consume(placed(1.0, [(5, 52, 1300, 1000)]))
        #expect(back[id: 5]?.grams == 12)
        #expect(back[id: 5]?.carrier == true)
        #expect(tracker.carrierTare?.contactID == 5)
        // A contact elsewhere (a plum 40 mm away) is not the carrier: it reads its own weight.
        let plum = tracker.consume(placed(1.1, [(5, 52, 1300, 1000), (6, 80, 5300, 1000)]))
        #expect(plum[id: 6]?.grams == 80)
        #expect(plum[id: 6]?.carrier == false)
        #expect(plum.totalGrams == 92)
    }

    @Test("a carrier put back elsewhere is not the carrier; the next contact near where it lifted is")
    func carrierElsewhere() throws {
        var tracker = WeightTracker(pressureRange: gramsRange, positionScale: PositionScale(x: 100, y: 100))
        _ = tracker.consume(placed(0, [(1, 40, 1000, 1000)]))
        try tracker.tareCarrier()
        // The carrier moves while down: its last position counts.
        _ = tracker.consume(placed(0.1, [(1, 40, 2000, 1000)]))
        _ = tracker.consume(placed(0.2, []))
        let far = tracker.consume(placed(0.3, [(2, 60, 1000, 1000)]))  // 10 mm from where it lifted
        #expect(far[id: 2]?.grams == 60)
        #expect(far[id: 2]?.carrier == false)
        _ = tracker.consume(placed(0.4, []))
        let near = tracker.consume(placed(0.5, [(3, 60, 2100, 1050)]))
        #expect(near[id: 3]?.grams == 20)
        // Negative readings after a tare are shown, never clamped: the carrier put back lighter.
        _ = tracker.consume(placed(0.6, []))
        #expect(tracker.consume(placed(0.7, [(4, 25, 2100, 1050)]))[id: 4]?.grams == -15)
    }

    @Test("without a position resolution the radius is in device units")
    func carrierRadiusInUnits() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)  // no position scale: 300 units
        _ = tracker.consume(placed(0, [(1, 40, 1000, 1000)]))
        try tracker.tareCarrier()
        _ = tracker.consume(placed(0.1, []))
        #expect(tracker.consume(placed(0.2, [(2, 50, 1400, 1000)]))[id: 2]?.carrier == false, "400 units away")
        _ = tracker.consume(placed(0.3, []))
        #expect(tracker.consume(placed(0.4, [(3, 50, 1250, 1000)]))[id: 3]?.grams == 10, "250 units away")
    }

    @Test("without positions the carrier is the next contact alone on the pad")
    func carrierWithoutPositions() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        _ = tracker.consume(placed(0, [(1, 40, nil, nil)]))
        try tracker.tareCarrier()
        _ = tracker.consume(placed(0.1, []))
        // Two contacts begin together: neither can be told to be the carrier.
        let two = tracker.consume(placed(0.2, [(2, 50, nil, nil), (3, 70, nil, nil)]))
        #expect(two[id: 2]?.grams == 50 && two[id: 3]?.grams == 70)
        _ = tracker.consume(placed(0.3, []))
        let alone = tracker.consume(placed(0.4, [(4, 45, nil, nil)]))
        #expect(alone[id: 4]?.grams == 5)
        #expect(alone[id: 4]?.carrier == true)
        // An object placed beside the carrier while it is down is never the carrier.
        #expect(tracker.consume(placed(0.5, [(4, 45, nil, nil), (5, 30, nil, nil)]))[id: 5]?.grams == 30)
    }

    @Test("tare with the carrier down moves its zero; clearTare ends the carrier")
    func tareMovesCarrierZero() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        _ = tracker.consume(placed(0, [(1, 40, nil, nil)]))
        try tracker.tareCarrier()
        _ = tracker.consume(placed(0.1, [(1, 90, nil, nil)]))  // a dish on the spoon
        tracker.tare()
        #expect(tracker.carrierTare?.pressure == 90)
        _ = tracker.consume(placed(0.2, []))
        #expect(tracker.consume(placed(0.3, [(2, 100, nil, nil)]))[id: 2]?.grams == 10)
        tracker.clearTare()
        #expect(tracker.carrierTare == nil)
        #expect(tracker.current[id: 2]?.grams == 100)
        #expect(tracker.current[id: 2]?.carrier == false)
        _ = tracker.consume(placed(0.4, []))
        #expect(tracker.consume(placed(0.5, [(3, 100, nil, nil)]))[id: 3]?.grams == 100)
    }

    @Test("the position scale comes from the multitouch axes' resolution, nil when unknown")
    func positionScaleFromDescription() {
        // Literals: the test is about these axes' resolutions (the multitouch ones differ from ABS_X/Y's), which no
        // catalogue device has.
        let identity = DeviceIdentity(bus: 3, vendor: 1, product: 2, version: 0, name: "Pad")
        let known = DeviceDescription(
            path: "p",
            identity: identity,
            axes: [
                .mtPositionX: AxisInfo(minimum: 0, maximum: 6000, resolution: 100),
                .mtPositionY: AxisInfo(minimum: 0, maximum: 4000, resolution: 90),
                .x: AxisInfo(minimum: 0, maximum: 6000, resolution: 1),
                .y: AxisInfo(minimum: 0, maximum: 4000, resolution: 1),
            ]
        )
        #expect(PositionScale(known) == PositionScale(x: 100, y: 90))
        let unknown = DeviceDescription(
            path: "p",
            identity: identity,
            axes: [.x: AxisInfo(minimum: 0, maximum: 6000), .y: AxisInfo(minimum: 0, maximum: 4000)]
        )
        #expect(PositionScale(unknown) == nil)
    }
}
