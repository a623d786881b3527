import PlumometerCore
import PlumometerTestKit
import Testing

/// The test kit's event-script builder writes exactly the events a device would, stamped with its clock.
@Suite struct EventScriptTests {
    static func t(_ ms: Int64) -> EventTime { EventTime(microseconds: ms * 1000) }

    @Test func touchMoveLiftAndReportAreTheDevicesEvents() {
        let events = EventScript(startingAt: Self.t(10))
            .touch(slot: 0, id: 7, x: 100, y: 200, pressure: 90).report(after: .milliseconds(5))
            .move(slot: 0, pressure: 95).report(after: .milliseconds(5))
            .lift(slot: 0).report()
            .events
        #expect(
            events == [
                .abs(.mtSlot, 0, at: Self.t(10)), .abs(.mtTrackingID, 7, at: Self.t(10)),
                .abs(.mtPositionX, 100, at: Self.t(10)), .abs(.mtPositionY, 200, at: Self.t(10)),
                .abs(.mtPressure, 90, at: Self.t(10)), .syn(.report, at: Self.t(10)),
                .abs(.mtSlot, 0, at: Self.t(15)), .abs(.mtPressure, 95, at: Self.t(15)), .syn(.report, at: Self.t(15)),
                .abs(.mtSlot, 0, at: Self.t(20)), .abs(.mtTrackingID, -1, at: Self.t(20)),
                .syn(.report, at: Self.t(20)),
            ]
        )
    }

    @Test func singleTouchProtocolAAndDropsAreSpelledOut() {
        let script = EventScript()
            .key(.btnTouch, 1).abs(.pressure, 40).report(after: .microseconds(1500))
            .abs(.mtPressure, 5).contactReport().dropped()
            .at(Self.t(1)).report()
        #expect(
            script.events == [
                .key(.btnTouch, 1, at: .zero), .abs(.pressure, 40, at: .zero), .syn(.report, at: .zero),
                .abs(.mtPressure, 5, at: EventTime(microseconds: 1500)),
                .syn(.mtReport, at: EventTime(microseconds: 1500)),
                .syn(.dropped, at: EventTime(microseconds: 1500)), .syn(.report, at: Self.t(1)),
            ]
        )
        #expect(script.time == Self.t(1), "a report without an interval leaves the clock where it is")
    }

    @Test func aScriptDecodesLikeTheDevice() {
        var decoder = ContactDecoder(device: DeviceCatalogue.magicTrackpad2)
        let frames = EventScript(startingAt: Self.t(1))
            .touch(slot: 0, id: 3, x: 10, y: 20, pressure: 50).touch(slot: 1, id: 4, pressure: 60)
            .report(after: .milliseconds(10))
            .lift(slot: 0).report()
            .events.compactMap { decoder.consume($0) }
        #expect(frames.map { $0.contacts.map(\.id) } == [[3, 4], [4]])
        #expect(frames.first?.contacts.map(\.pressure) == [50, 60])
        #expect(frames.last?.time == Self.t(11))
    }
}
