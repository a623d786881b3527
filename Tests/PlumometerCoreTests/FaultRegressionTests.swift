import PlumometerCore
import Testing

/// Regressions for faults the libFuzzer campaign found in the decoder and the tracker (see docs/reliability.md).
///
/// Each test replays the smallest event sequence that broke an invariant, written out by hand.
struct FaultRegressionTests {
    static func t(_ ms: Int64) -> EventTime { EventTime(microseconds: ms * 1000) }

    static let singleTouch = DeviceDescription(
        path: "single",
        identity: DeviceIdentity(bus: 3, vendor: 1, product: 2, version: 1, name: "Single"),
        codes: [.key: [KeyCode.btnTouch.rawValue]],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 4000),
            .y: AxisInfo(minimum: 0, maximum: 4000),
            .pressure: AxisInfo(minimum: 0, maximum: 255),
        ]
    )

    /// A seed that finds nothing down after contacts were reported must say so: before the fix it returned nil and
    /// the tracker kept the contact for ever (fuzz-decoder: "readings left after an all-lift").
    @Test func seedThatClearsContactsReturnsAnEmptyResyncFrame() throws {
        var decoder = ContactDecoder(device: Self.singleTouch)
        var tracker = WeightTracker(pressureRange: Self.singleTouch.pressureRange!)
        let touch: [RawEvent] = [
            .key(.btnTouch, 1, at: Self.t(1)), .abs(.pressure, 30, at: Self.t(1)), .syn(.report, at: Self.t(1)),
        ]
        for event in touch { if let frame = decoder.consume(event) { _ = tracker.consume(frame) } }
        #expect(tracker.contactIDs.count == 1)

        let seeded = decoder.seed(slots: [], singleTouch: [.pressure: 0], touching: false, at: Self.t(2))
        let frame = try #require(seeded)
        #expect(frame.contacts.isEmpty)
        #expect(frame.resync)
        let reading = tracker.consume(frame)
        #expect(reading.contacts.isEmpty)
        #expect(tracker.lastChanges.cancelled.count == 1)
        // Lifting afterwards changes nothing: there is nothing left to lift.
        #expect(decoder.consume(.key(.btnTouch, 0, at: Self.t(3))) == nil)
        #expect(decoder.consume(.syn(.report, at: Self.t(3))) == nil)
    }
}

extension FaultRegressionTests {
    static let slotted = DeviceDescription(
        path: "mt-b",
        identity: DeviceIdentity(bus: 3, vendor: 1, product: 2, version: 1, name: "MT-B"),
        codes: [.key: [KeyCode.btnTouch.rawValue]],
        axes: [
            .mtSlot: AxisInfo(minimum: 0, maximum: 15),
            .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535),
            .mtPositionX: AxisInfo(minimum: 0, maximum: 4000),
            .mtPressure: AxisInfo(minimum: 0, maximum: 255),
        ]
    )

    /// Two slots with the same tracking id (a uinput device can send that) are one contact, the lower slot's: before
    /// the fix the frame listed the id twice (fuzz-decoder: "frame repeats a contact id: [8, 8]").
    @Test func oneTrackingIDInTwoSlotsIsOneContact() throws {
        var decoder = ContactDecoder(device: Self.slotted)
        let events: [RawEvent] = [
            .abs(.mtSlot, 3, at: Self.t(1)), .abs(.mtTrackingID, 8, at: Self.t(1)), .abs(.mtPressure, 90, at: Self.t(1)),
            .abs(.mtSlot, 1, at: Self.t(1)), .abs(.mtTrackingID, 8, at: Self.t(1)), .abs(.mtPressure, 20, at: Self.t(1)),
            .syn(.report, at: Self.t(1)),
        ]
        var frames: [ContactFrame] = []
        for event in events { if let frame = decoder.consume(event) { frames.append(frame) } }
        let frame = try #require(frames.last)
        #expect(frame.contacts.map(\.id) == [8])
        #expect(frame.contacts.first?.slot == 1)
        #expect(frame.contacts.first?.pressure == 20)
        // When the lower slot lifts, the id lives on in the other slot.
        let lift: [RawEvent] = [.abs(.mtTrackingID, -1, at: Self.t(2)), .syn(.report, at: Self.t(2))]
        frames = []
        for event in lift { if let frame = decoder.consume(event) { frames.append(frame) } }
        let after = try #require(frames.last)
        #expect(after.contacts.map(\.slot) == [3])
        #expect(after.contacts.first?.pressure == 90)
    }
}
