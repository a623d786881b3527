import PlumometerCore
import Testing

@Suite("Tracking: normalised force, percent and saturation")
struct TrackingForceTests {
    @Test("force is (pressure - min) / (max - min), percent is force * 100")
    func forceAndPercent() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        let reading = tracker.consume(frame(0, [(1, 250), (2, 1000), (3, 0)]))
        #expect(reading.contacts.map(\.id) == [1, 2, 3])
        let one = try #require(reading[id: 1])
        #expect(one.force == 0.25)
        #expect(one.percent == 25)
        #expect(one.pressure == 250)
        #expect(reading[id: 2]?.force == 1)
        #expect(reading[id: 3]?.force == 0)
    }

    @Test("values outside the declared range are clamped, but the raw pressure is kept")
    func outOfRange() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        let reading = tracker.consume(frame(0, [(1, 1500), (2, -40)]))
        #expect(reading[id: 1]?.force == 1)
        #expect(reading[id: 1]?.pressure == 1500)
        #expect(reading[id: 2]?.force == 0)
        #expect(reading[id: 2]?.pressure == -40)
    }

    @Test("a negative minimum is measured from the minimum")
    func negativeMinimum() throws {
        var tracker = WeightTracker(pressureRange: AxisInfo(minimum: -100, maximum: 300))
        let reading = tracker.consume(frame(0, [(1, 0), (2, -100), (3, 100), (4, -500)]))
        #expect(reading[id: 1]?.force == 0.25)
        #expect(reading[id: 2]?.force == 0)
        #expect(reading[id: 3]?.force == 0.5)
        #expect(reading[id: 4]?.force == 0)
    }

    @Test(
        "zero-width and inverted ranges give force 0, never NaN or infinity",
        arguments: [
            AxisInfo(minimum: 0, maximum: 0), AxisInfo(minimum: 255, maximum: 255), AxisInfo(minimum: 10, maximum: 5),
        ]
    )
    func degenerateRange(range: AxisInfo) throws {
        var tracker = WeightTracker(pressureRange: range)
        let reading = tracker.consume(frame(0, [(1, 255), (2, 7)]))
        for contact in reading.contacts {
            #expect(contact.force == 0)
            #expect(contact.percent == 0)
            #expect(contact.ratio == 0)
            #expect(contact.share == 0)
            #expect(contact.saturated == false)
            #expect(contact.grams == nil)
        }
        #expect(reading.heaviest == nil)
    }

    @Test("saturated at or above 98% of full scale, measured from the minimum")
    func saturation() throws {
        var tracker = WeightTracker(pressureRange: AxisInfo(minimum: -1000, maximum: 1000))
        // 98% of the 2000-unit span above -1000 is 960.
        let reading = tracker.consume(frame(0, [(1, 959), (2, 960), (3, 2000)]))
        #expect(reading[id: 1]?.saturated == false)
        #expect(reading[id: 2]?.saturated == true)
        #expect(reading[id: 3]?.saturated == true)
    }

    @Test("saturation follows the raw pressure, not the smoothed value")
    func saturationIsRaw() throws {
        var configuration = TrackerConfiguration()
        configuration.smoothing = .exponential(alpha: 0.1)
        var tracker = WeightTracker(pressureRange: range1000, configuration: configuration)
        _ = tracker.consume(frame(0, [(1, 0)]))
        let reading = tracker.consume(frame(0.01, [(1, 990)]))
        #expect(reading[id: 1]?.saturated == true)
        #expect(try #require(reading[id: 1]?.force) < 0.2)
    }

    @Test("a contact without a pressure keeps its last pressure, and starts at the minimum")
    func missingPressure() throws {
        var tracker = WeightTracker(pressureRange: AxisInfo(minimum: 20, maximum: 120))
        var reading = tracker.consume(frame(0, [(1, nil)]))
        #expect(reading[id: 1]?.pressure == 20)
        #expect(reading[id: 1]?.force == 0)
        reading = tracker.consume(frame(0.1, [(1, 70)]))
        #expect(reading[id: 1]?.force == 0.5)
        reading = tracker.consume(frame(0.2, [(1, nil)]))
        #expect(reading[id: 1]?.pressure == 70)
        #expect(reading[id: 1]?.force == 0.5)
    }

    @Test("grams come from the resolution (units per gram), else nil")
    func gramsFromResolution() throws {
        var withResolution = WeightTracker(pressureRange: AxisInfo(minimum: 0, maximum: 4000, resolution: 8))
        #expect(withResolution.knowsGrams)
        #expect(withResolution.consume(frame(0, [(1, 400)]))[id: 1]?.grams == 50)
        var without = WeightTracker(pressureRange: range1000)
        #expect(!without.knowsGrams)
        #expect(without.consume(frame(0, [(1, 400)]))[id: 1]?.grams == nil)
    }

    @Test("grams(pressure:tare:) clamps into the declared range like force does")
    func gramsClamped() throws {
        let tracker = WeightTracker(pressureRange: AxisInfo(minimum: 0, maximum: 1000, resolution: 10))
        #expect(tracker.grams(pressure: 1500) == 100)
        #expect(tracker.grams(pressure: -50) == 0)
        #expect(tracker.grams(pressure: 500, tare: 200) == 30)
        #expect(tracker.normalisedForce(pressure: 250) == 0.25)
    }

    @Test("the saturation threshold is configurable")
    func saturationThreshold() throws {
        var configuration = TrackerConfiguration()
        configuration.saturationThreshold = 0.5
        var tracker = WeightTracker(pressureRange: range1000, configuration: configuration)
        let reading = tracker.consume(frame(0, [(1, 499), (2, 500)]))
        #expect(reading[id: 1]?.saturated == false)
        #expect(reading[id: 2]?.saturated == true)
    }

    @Test("position and slot are passed through")
    func passThrough() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        let sample = ContactSample(id: 7, slot: 3, x: -5, y: 9000, pressure: 10)
        let reading = tracker.consume(ContactFrame(time: at(1), contacts: [sample]))
        let contact = try #require(reading[id: 7])
        #expect(contact.slot == 3)
        #expect(contact.x == -5)
        #expect(contact.y == 9000)
        #expect(reading.time == at(1))
    }
}
