import PlumometerCore
import Testing

@Suite("Tracking: tare per contact and per device")
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

    @Test("grams after tare may be negative (resolution)")
    func gramsTare() throws {
        var tracker = WeightTracker(pressureRange: AxisInfo(minimum: 0, maximum: 4000, resolution: 4))
        _ = tracker.consume(frame(0, [(1, 400)]))
        #expect(tracker.current[id: 1]?.grams == 100)
        tracker.tare(contact: 1)
        #expect(tracker.current[id: 1]?.grams == 0)
        #expect(tracker.consume(frame(0.1, [(1, 380)]))[id: 1]?.grams == -5)
    }

    @Test("device tare: contacts down now read zero, later contacts lose the mean tared pressure")
    func deviceTare() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 200), (2, 400)]))
        tracker.tare()
        #expect(tracker.deviceTarePressure == 300)
        #expect(tracker.current.contacts.map(\.force) == [0, 0])
        let reading = tracker.consume(frame(0.1, [(1, 200), (2, 400), (3, 500)]))
        #expect(try #require(reading[id: 3]?.force) == 0.5 - 0.3)
    }

    @Test("tare survives contacts lifting and returning; clearTare removes it")
    func tareThenLiftAndReturn() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 250), (2, 250)]))
        tracker.tare()
        // Contact 1 lifts: contact 2 keeps its tare.
        var reading = tracker.consume(frame(0.1, [(2, 260)]))
        #expect(try #require(reading[id: 2]?.force) == 0.26 - 0.25)
        // Everything lifts, then an object returns with a new id: still tared by the device offset.
        _ = tracker.consume(frame(0.2, []))
        #expect(tracker.deviceTarePressure == 250)
        reading = tracker.consume(frame(0.3, [(7, 250)]))
        #expect(reading[id: 7]?.force == 0)
        tracker.clearTare()
        #expect(tracker.deviceTarePressure == nil)
        #expect(tracker.current[id: 7]?.force == 0.25)
        #expect(tracker.consume(frame(0.4, [(7, 250), (8, 100)]))[id: 8]?.force == 0.1)
    }

    @Test("taring the empty pad clears the device offset")
    func tareEmpty() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 250)]))
        tracker.tare()
        _ = tracker.consume(frame(0.1, []))
        tracker.tare()
        #expect(tracker.deviceTarePressure == nil)
        #expect(tracker.consume(frame(0.2, [(2, 250)]))[id: 2]?.force == 0.25)
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
}
