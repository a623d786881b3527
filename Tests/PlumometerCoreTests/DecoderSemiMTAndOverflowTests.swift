import PlumometerCore
import Testing

/// The decoder reads an `INPUT_PROP_SEMI_MT` pad's two slots as one contact, and counts the events it cannot
/// keep (slots beyond the ones it decodes) instead of dropping them silently.
@Suite struct DecoderSemiMTAndOverflowTests {
    /// A pad with exactly `slots` slots, semi-multitouch or not: a literal, as the tests are about those two fields.
    static func pad(slots: Int32, semiMT: Bool) -> DeviceDescription {
        var axes: [AbsoluteAxis: AxisInfo] = [
            .mtSlot: AxisInfo(minimum: 0, maximum: slots - 1),
            .mtTrackingID: AxisInfo(minimum: 0, maximum: 65_535),
            .mtPositionX: AxisInfo(minimum: 0, maximum: 1000),
            .mtPositionY: AxisInfo(minimum: 0, maximum: 1000),
            .mtPressure: AxisInfo(minimum: 0, maximum: 255),
        ]
        axes[.x] = AxisInfo(minimum: 0, maximum: 1000)
        return DeviceDescription(
            path: "pad",
            identity: DeviceIdentity(bus: 0x11, vendor: 2, product: 0x11, version: 1, name: "pad"),
            properties: semiMT ? [.pointer, .semiMT] : [.pointer],
            codes: [.key: [KeyCode.btnTouch.rawValue]],
            axes: axes
        )
    }

    static func twoCorners(_ time: EventTime) -> [RawEvent] {
        [
            .abs(.mtSlot, 0, at: time), .abs(.mtTrackingID, 7, at: time), .abs(.mtPositionX, 100, at: time),
            .abs(.mtPositionY, 200, at: time), .abs(.mtPressure, 40, at: time), .abs(.mtSlot, 1, at: time),
            .abs(.mtTrackingID, 8, at: time), .abs(.mtPositionX, 300, at: time), .abs(.mtPositionY, 600, at: time),
            .abs(.mtPressure, 90, at: time), .syn(.report, at: time),
        ]
    }

    static func frames(_ decoder: inout ContactDecoder, _ events: [RawEvent]) -> [ContactFrame] {
        events.compactMap { decoder.consume(.event($0)) }
    }

    @Test func aSemiMultitouchPadsBoundingBoxIsOneContact() throws {
        var decoder = ContactDecoder(device: Self.pad(slots: 2, semiMT: true))
        let frame = try #require(Self.frames(&decoder, Self.twoCorners(EventTime(microseconds: 1_000))).last)
        #expect(frame.contacts.count == 1)
        let contact = try #require(frame.contacts.first)
        #expect(contact.x == 200)
        #expect(contact.y == 400)
        #expect(contact.pressure == 90)
        #expect(contact.id == frame.contacts.first?.id)
    }

    @Test func anOrdinaryPadKeepsBothContacts() throws {
        var decoder = ContactDecoder(device: Self.pad(slots: 2, semiMT: false))
        let frame = try #require(Self.frames(&decoder, Self.twoCorners(EventTime(microseconds: 1_000))).last)
        #expect(frame.contacts.count == 2)
        #expect(decoder.droppedSlotEvents == 0)
    }

    @Test func eventsForSlotsBeyondTheDecodedOnesAreCounted() throws {
        var decoder = ContactDecoder(device: Self.pad(slots: 1, semiMT: false))
        // Slot 1 is beyond the one declared: its three value events are dropped, and counted.
        let frame = try #require(Self.frames(&decoder, Self.twoCorners(EventTime(microseconds: 1_000))).last)
        #expect(frame.contacts.count == 1)
        #expect(decoder.droppedSlotEvents == 4)
    }

    @Test func aDeclaredSlotCountAboveTheLimitDropsTheHighSlots() throws {
        let time = EventTime(microseconds: 5)
        var decoder = ContactDecoder(device: Self.pad(slots: Int32(ContactDecoder.maximumSlots) + 6, semiMT: false))
        let events: [RawEvent] = [
            .abs(.mtSlot, Int32(ContactDecoder.maximumSlots) + 2, at: time), .abs(.mtTrackingID, 3, at: time),
            .abs(.mtPressure, 10, at: time), .syn(.report, at: time),
        ]
        _ = Self.frames(&decoder, events)
        #expect(decoder.droppedSlotEvents == 2)
        #expect(decoder.contacts.isEmpty)
    }
}
