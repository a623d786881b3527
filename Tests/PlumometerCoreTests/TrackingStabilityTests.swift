import PlumometerCore
import Testing

@Suite("Tracking: stability over kernel time, with and without events")
struct TrackingStabilityTests {
    @Test("a tick with nothing down does not become the tracker's time (a clock not yet related to the device's)")
    func tickWithNothingDownIsIgnored() {
        var tracker = WeightTracker(pressureRange: range1000)
        #expect(tracker.tick(now: at(1_000)) == nil)
        _ = tracker.consume(frame(1.0, [(1, 500)]))
        _ = tracker.consume(frame(1.1, [(1, 700)]))
        #expect(tracker.tick(now: at(1.2)) == nil, "0.1 s after a change: still settling")
        #expect(tracker.current[id: 1]?.stable == false)
        #expect(tracker.tick(now: at(1.7))?[id: 1]?.stable == true)
    }

    @Test("a resting contact becomes stable through tick alone, and tick reports only changes")
    func tickWithoutEvents() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        let first = tracker.consume(frame(10, [(1, 500)]))
        #expect(first[id: 1]?.stable == false)
        #expect(tracker.tick(now: at(10.3)) == nil)
        #expect(tracker.tick(now: at(10.499)) == nil)
        let readingTick = tracker.tick(now: at(10.5))
        let reading = try #require(readingTick)
        #expect(reading.time == at(10.5))
        #expect(reading[id: 1]?.stable == true)
        #expect(reading[id: 1]?.force == 0.5)
        #expect(tracker.current == reading)
        #expect(tracker.tick(now: at(11)) == nil)
        #expect(tracker.tick(now: at(60)) == nil)
    }

    @Test("changes within the tolerance of the anchor keep the window running; leaving it restarts the window")
    func toleranceAroundAnchor() throws {
        var tracker = WeightTracker(pressureRange: range1000)  // 1% of full scale = 10 units.
        _ = tracker.consume(frame(0, [(1, 500)]))
        _ = tracker.consume(frame(0.2, [(1, 508)]))
        #expect(tracker.consume(frame(0.5, [(1, 492)]))[id: 1]?.stable == true)
        // Drift measured from the anchor (500), not from the previous value (492): 511 is out.
        #expect(tracker.consume(frame(0.6, [(1, 511)]))[id: 1]?.stable == false)
        #expect(tracker.tick(now: at(1.0)) == nil)
        let backTick = tracker.tick(now: at(1.1))
        let back = try #require(backTick)
        #expect(back[id: 1]?.stable == true)
    }

    @Test("with grams known, the tolerance is in grams (2 g by default)")
    func gramsTolerance() throws {
        // 10 units per gram: 2 g is 20 units, while 1% of this 0...10000 range would be 100 units.
        var tracker = WeightTracker(pressureRange: AxisInfo(minimum: 0, maximum: 10000, resolution: 10))
        _ = tracker.consume(frame(0, [(1, 5000)]))
        _ = tracker.consume(frame(0.3, [(1, 5020)]))
        #expect(tracker.tick(now: at(0.5))?[id: 1]?.stable == true)
        #expect(tracker.consume(frame(0.6, [(1, 5021)]))[id: 1]?.stable == false)
    }

    @Test("with a calibration, the grams tolerance goes through its slope")
    func calibrationTolerance() throws {
        let identity = DeviceIdentity(bus: 3, vendor: 1, product: 2, version: 0, name: "Pad")
        let points = [CalibrationPoint(pressure: 100, grams: 0), CalibrationPoint(pressure: 600, grams: 50)]
        let calibration = try Calibration.fit(points: points, device: identity, pressureRange: range1000)
        var tracker = WeightTracker(pressureRange: range1000, calibration: calibration)  // 0.1 g per unit: 2 g = 20
        _ = tracker.consume(frame(0, [(1, 400)]))
        _ = tracker.consume(frame(0.2, [(1, 380)]))
        #expect(tracker.tick(now: at(0.5))?[id: 1]?.stable == true)
        #expect(tracker.consume(frame(0.6, [(1, 379)]))[id: 1]?.stable == false)
    }

    @Test("only the contacts whose stability changed matter; others keep theirs")
    func independentContacts() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 500)]))
        _ = tracker.consume(frame(0.4, [(1, 500), (2, 300)]))
        let readingTick = tracker.tick(now: at(0.5))
        let reading = try #require(readingTick)
        #expect(reading[id: 1]?.stable == true)
        #expect(reading[id: 2]?.stable == false)
        let laterTick = tracker.tick(now: at(0.9))
        let later = try #require(laterTick)
        #expect(later[id: 2]?.stable == true)
    }

    @Test("a tick earlier than the last frame does not undo stability")
    func tickInThePast() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 500)]))
        #expect(tracker.consume(frame(1, [(1, 500)]))[id: 1]?.stable == true)
        #expect(tracker.tick(now: at(0.1)) == nil)
        #expect(tracker.current[id: 1]?.stable == true)
    }

    @Test("a zero window is stable at once; the window is configurable")
    func window() throws {
        var configuration = TrackerConfiguration()
        configuration.stabilityWindow = 0
        var immediate = WeightTracker(pressureRange: range1000, configuration: configuration)
        #expect(immediate.consume(frame(0, [(1, 500)]))[id: 1]?.stable == true)
        configuration.stabilityWindow = 2
        var slow = WeightTracker(pressureRange: range1000, configuration: configuration)
        _ = slow.consume(frame(0, [(1, 500)]))
        #expect(slow.tick(now: at(1.9)) == nil)
        #expect(slow.tick(now: at(2))?[id: 1]?.stable == true)
    }

    @Test("tare and calibration changes do not disturb stability")
    func tareKeepsStability() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 500)]))
        _ = tracker.tick(now: at(1))
        tracker.tare()
        #expect(tracker.current[id: 1]?.stable == true)
        #expect(tracker.consume(frame(1.1, [(1, 501)]))[id: 1]?.stable == true)
    }

    @Test("an empty tracker ticks to nothing")
    func emptyTick() {
        var tracker = WeightTracker(pressureRange: range1000)
        #expect(tracker.tick(now: at(5)) == nil)
    }
}
