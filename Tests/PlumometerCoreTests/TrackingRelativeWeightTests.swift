import PlumometerCore
import Testing

@Suite("Tracking: ratio, share, rank and the heaviest mark")
struct TrackingRelativeWeightTests {
    @Test("ratio is force / largest force, share is force / sum, rank 1 is the largest")
    func relativeWeights() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        let reading = tracker.consume(frame(0, [(1, 100), (2, 400), (3, 500)]))
        let one = try #require(reading[id: 1])
        let two = try #require(reading[id: 2])
        let three = try #require(reading[id: 3])
        #expect(three.ratio == 1)
        #expect(two.ratio == 0.8)
        #expect(one.ratio == 0.2)
        #expect(one.share == 0.1)
        #expect(two.share == 0.4)
        #expect(three.share == 0.5)
        #expect([one.rank, two.rank, three.rank] == [3, 2, 1])
        #expect(reading.heaviest?.id == 3)
        #expect(reading.contacts.filter(\.heaviest).count == 1)
    }

    @Test("all forces zero: ratio and share are 0, not NaN, and nothing is heaviest")
    func allZero() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        let reading = tracker.consume(frame(0, [(1, 0), (2, 0)]))
        for contact in reading.contacts {
            #expect(contact.ratio == 0)
            #expect(contact.share == 0)
        }
        #expect(reading.heaviest == nil)
        #expect(reading.contacts.map(\.rank) == [1, 2])
    }

    @Test("exact ties rank and mark the contact that began first, whatever its id")
    func exactTies() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(9, 300)]))
        let reading = tracker.consume(frame(0.1, [(2, 300), (9, 300)]))
        #expect(reading[id: 9]?.rank == 1)
        #expect(reading[id: 2]?.rank == 2)
        #expect(reading.heaviest?.id == 9)
        // Beginning in the same frame, the frame's order (by id) decides.
        var fresh = WeightTracker(pressureRange: range1000)
        let same = fresh.consume(frame(0, [(9, 300), (2, 300)]))
        #expect(same.heaviest?.id == 2)
        #expect(same[id: 2]?.rank == 1)
    }

    @Test("hysteresis: a near-tie does not move the mark, a clear lead does")
    func hysteresis() throws {
        var tracker = WeightTracker(pressureRange: range1000)  // margin 1% = 10 units.
        #expect(tracker.consume(frame(0, [(1, 500), (2, 400)])).heaviest?.id == 1)
        // Contact 2 overtakes by 5 units, then by exactly the margin: still 1, although 2 ranks first.
        var reading = tracker.consume(frame(0.1, [(1, 500), (2, 505)]))
        #expect(reading.heaviest?.id == 1)
        #expect(reading[id: 2]?.rank == 1)
        #expect(reading[id: 1]?.ratio == 500.0 / 505.0)
        reading = tracker.consume(frame(0.2, [(1, 500), (2, 510)]))
        #expect(reading.heaviest?.id == 1)
        // More than the margin: the mark moves.
        reading = tracker.consume(frame(0.3, [(1, 500), (2, 511)]))
        #expect(reading.heaviest?.id == 2)
        // And it does not flicker back on a near-tie the other way.
        reading = tracker.consume(frame(0.4, [(1, 515), (2, 511)]))
        #expect(reading.heaviest?.id == 2)
    }

    @Test("the margin is configurable and is a fraction of full scale")
    func marginConfigurable() throws {
        var configuration = TrackerConfiguration()
        configuration.heaviestMargin = 0.1
        var tracker = WeightTracker(
            pressureRange: AxisInfo(minimum: -1000, maximum: 1000),
            configuration: configuration
        )
        _ = tracker.consume(frame(0, [(1, 0), (2, -100)]))
        #expect(tracker.consume(frame(0.1, [(1, 0), (2, 150)])).heaviest?.id == 1)  // 150 < 200 units lead
        #expect(tracker.consume(frame(0.2, [(1, 0), (2, 250)])).heaviest?.id == 2)
    }

    @Test("with grams known the margin is the smaller of 1% of full scale and 2 g")
    func heaviestMarginInGrams() {
        // A 6 kg pad reporting 1 unit per gram: 1% of full scale would be 60 g.
        var tracker = WeightTracker(pressureRange: AxisInfo(minimum: 0, maximum: 6000, resolution: 1))
        _ = tracker.consume(frame(0, [(1, 71)]))
        var reading = tracker.consume(frame(0.01, [(1, 71), (2, 72)]))
        #expect(reading[id: 1]?.heaviest == true, "a 1 g lead is within the 2 g margin")
        reading = tracker.consume(frame(0.02, [(1, 71), (2, 84)]))
        #expect(reading[id: 2]?.heaviest == true, "a 13 g lead moves the mark")

        // A 0..253 pad calibrated at 0.1 g per unit: 2 g would be 20 units, more than 1% (2.53 units).
        let device = DeviceIdentity(bus: 3, vendor: 0x05ac, product: 0x0265, version: 1, name: "pad")
        let range = AxisInfo(minimum: 0, maximum: 253)
        let calibration = try! Calibration.fit(
            points: [CalibrationPoint(pressure: 0, grams: 0), CalibrationPoint(pressure: 200, grams: 20)],
            device: device,
            pressureRange: range
        )
        var calibrated = WeightTracker(pressureRange: range, calibration: calibration)
        _ = calibrated.consume(frame(0, [(1, 100), (2, 99)]))
        reading = calibrated.consume(frame(0.01, [(1, 100), (2, 104)]))
        #expect(reading[id: 2]?.heaviest == true, "4 units is more than 1% of full scale, though only 0.4 g")
    }

    @Test("when the holder lifts, the mark goes to the largest remaining contact")
    func holderLifts() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 500), (2, 300), (3, 495)]))
        #expect(tracker.current.heaviest?.id == 1)
        let reading = tracker.consume(frame(0.1, [(2, 300), (3, 495)]))
        #expect(reading.heaviest?.id == 3)
    }

    @Test("the heaviest is decided the same way every time (deterministic)")
    func deterministic() throws {
        let frames: [ContactFrame] = (0..<200).map { (step: Int) -> ContactFrame in
            let first = Int32(500 + (step % 7) * 3)
            let second = Int32(505 - (step % 5) * 4)
            return frame(Double(step) * 0.01, [(1, first), (2, second), (3, 100)])
        }
        func run() -> [Int?] {
            var tracker = WeightTracker(pressureRange: range1000)
            return frames.map { tracker.consume($0).heaviest?.id }
        }
        let first = run()
        #expect(first == run())
        #expect(Set(first.compactMap { $0 }).isSubset(of: [1, 2]))
    }
}
