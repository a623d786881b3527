import PlumometerCore
import PlumometerTestKit
import Testing

@Suite("Tracking: settled values while stable, and the total in grams")
struct TrackingSettledTests {
    /// ±1 unit of noise around `level`, one frame every 10 ms for `seconds`, on a 1-unit-per-gram pad.
    func noisyRun(level: Int32, seconds: Double, seed: UInt64) -> [Reading] {
        var random = SplitMix64(state: seed)
        var tracker = WeightTracker(pressureRange: gramsRange)
        return (0..<Int(seconds * 100)).map { step in
            tracker.consume(frame(Double(step) * 0.01, [(1, level + Int32.random(in: -1...1, using: &random))]))
        }
    }

    @Test("with ±1 unit of noise, a stable contact's grams vary by less than half a unit", arguments: [1, 2, 3])
    func steadyGrams(seed: Int) throws {
        let readings = noisyRun(level: 84, seconds: 20, seed: UInt64(seed))
        let stable = readings.compactMap { $0[id: 1] }.filter(\.stable)
        #expect(stable.count > 1000)
        let grams = stable.compactMap(\.grams)
        let spread = try #require(grams.max()) - (try #require(grams.min()))
        #expect(spread < 0.5, "stable grams ranged over \(spread)")
        #expect(abs(grams.last! - 84) < 0.25)
        // The raw pressure is untouched: it still shows every unit of noise.
        let raw = Set(stable.map(\.pressure))
        #expect(raw == [83, 84, 85])
        // Every reported quantity comes from the settled value.
        for contact in stable {
            #expect(abs(contact.force * 6000 - contact.grams!) < 1e-9)
            #expect(abs(contact.percent - contact.force * 100) < 1e-12)
        }
    }

    @Test("before it is stable a contact reports its latest value; a move beyond the tolerance starts afresh")
    func latestUntilStable() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        _ = tracker.consume(frame(0, [(1, 100)]))
        #expect(tracker.consume(frame(0.1, [(1, 101)]))[id: 1]?.grams == 101)
        _ = tracker.consume(frame(0.2, [(1, 100)]))
        let ticked = tracker.tick(now: at(0.5))
        let settled = try #require(ticked?[id: 1])
        #expect(settled.stable)
        #expect(abs(settled.grams! - 301.0 / 3) < 1e-9)
        #expect(settled.pressure == 100)
        // 10 g more: no longer stable, the latest value again, and the mean restarts from it.
        #expect(tracker.consume(frame(0.6, [(1, 110)]))[id: 1]?.grams == 110)
        _ = tracker.consume(frame(0.7, [(1, 111)]))
        _ = tracker.consume(frame(0.8, [(1, 110)]))
        let again = tracker.tick(now: at(1.1))
        #expect(abs(try #require(again?[id: 1]?.grams) - 331.0 / 3) < 1e-9)
    }

    @Test("ratio, share and the heaviest use settled values")
    func relativeFromSettled() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        _ = tracker.consume(frame(0, [(1, 100), (2, 50)]))
        _ = tracker.consume(frame(0.1, [(1, 101), (2, 51)]))
        _ = tracker.consume(frame(0.2, [(1, 100), (2, 50)]))
        let ticked = tracker.tick(now: at(0.6))
        let reading = try #require(ticked)
        let one = 301.0 / 3
        let two = 151.0 / 3
        #expect(abs(reading[id: 2]!.ratio - two / one) < 1e-12)
        #expect(abs(reading[id: 1]!.share - one / (one + two)) < 1e-12)
        #expect(abs(reading.totalGrams! - (one + two)) < 1e-9)
    }

    @Test("total grams: the sum of every contact, 0 with nothing down, nil when grams are unknown")
    func totalGrams() throws {
        var grams = WeightTracker(pressureRange: gramsRange)
        #expect(grams.current.totalGrams == 0)
        #expect(grams.consume(frame(0, [(1, 30), (2, 12)])).totalGrams == 42)
        #expect(grams.consume(frame(0.1, [])).totalGrams == 0)
        var percent = WeightTracker(pressureRange: range1000)
        #expect(percent.consume(frame(0, [(1, 300)])).totalGrams == nil)
        let identity = DeviceIdentity(bus: 3, vendor: 1, product: 2, version: 0, name: "Pad")
        percent.calibration = try Calibration.fit(
            points: [CalibrationPoint(pressure: 0, grams: 0), CalibrationPoint(pressure: 1000, grams: 100)],
            device: identity,
            pressureRange: range1000
        )
        #expect(percent.current.totalGrams == 30)
    }
}
