import PlumometerCore
import PlumometerTestKit
import Testing

/// The decoder as a pure state machine: events in, frames out.
struct ContactDecoderTests {
    static func t(_ ms: Int64) -> EventTime { EventTime(microseconds: ms * 1000) }

    /// Protocol B: slots, tracking ids, `ABS_MT_PRESSURE` and `ABS_MT_TOUCH_MAJOR`.
    static let slotted = DeviceCatalogue.magicTrackpad2

    /// Protocol A: anonymous contacts separated by `SYN_MT_REPORT`.
    static let anonymous = DeviceCatalogue.protocolATouchscreen

    /// Single touch with `BTN_TOUCH`, `BTN_TOOL_PEN` and `ABS_PRESSURE`.
    static let pen = DeviceCatalogue.penTablet

    /// Feeds events and collects the frames.
    static func frames(_ decoder: inout ContactDecoder, _ events: [RawEvent]) -> [ContactFrame] {
        events.compactMap { decoder.consume($0) }
    }

    @Test func protocolBContactsLiftAndRetouch() {
        var decoder = ContactDecoder(device: Self.slotted)
        var frames = Self.frames(
            &decoder,
            EventScript(startingAt: Self.t(1))
                .touch(slot: 0, id: 10, x: 100, pressure: 30).touch(slot: 2, id: 11, x: 700, pressure: 60)
                .at(Self.t(2)).report()
                .events
        )
        #expect(
            frames == [
                ContactFrame(
                    time: Self.t(2),
                    contacts: [
                        ContactSample(id: 10, slot: 0, x: 100, pressure: 30),
                        ContactSample(id: 11, slot: 2, x: 700, pressure: 60),
                    ]
                )
            ]
        )
        // Nothing changes: no frame. The slot stays selected across frames.
        #expect(Self.frames(&decoder, [.syn(.report, at: Self.t(3))]).isEmpty)
        frames = Self.frames(&decoder, [.abs(.mtPressure, 65, at: Self.t(4)), .syn(.report, at: Self.t(4))])
        #expect(frames.first?.contacts.map(\.pressure) == [30, 65])
        // Lift slot 2, then a new contact in the same slot keeps the slot's values the kernel did not resend.
        frames = Self.frames(&decoder, [.abs(.mtTrackingID, -1, at: Self.t(5)), .syn(.report, at: Self.t(5))])
        #expect(frames.first?.contacts.map(\.id) == [10])
        frames = Self.frames(
            &decoder,
            [
                .abs(.mtTrackingID, 12, at: Self.t(6)), .abs(.mtPressure, 20, at: Self.t(6)),
                .syn(.report, at: Self.t(6)),
            ]
        )
        #expect(frames.first?.contacts.last == ContactSample(id: 12, slot: 2, x: 700, pressure: 20))
        // A tracking id replaced within a frame: a new contact, the old one ends.
        frames = Self.frames(&decoder, [.abs(.mtTrackingID, 13, at: Self.t(7)), .syn(.report, at: Self.t(7))])
        #expect(frames.first?.contacts.map(\.id) == [10, 13])
        #expect(decoder.contacts.map(\.id) == [10, 13])
    }

    /// evemu keeps no initial state: a recording that starts with a finger down sends its slot's values with no
    /// tracking id first. That contact is reported (under an id above the tracking id range) until it lifts.
    @Test func aRecordingThatStartsMidTouchReportsTheContactAlreadyDown() throws {
        var decoder = ContactDecoder(device: Self.slotted)
        let beforeReport = decoder.consume(.abs(.mtPressure, 80, at: Self.t(0)))
        #expect(beforeReport == nil)
        let firstFrame = decoder.consume(.syn(.report, at: Self.t(0)))
        let first = try #require(firstFrame)
        #expect(first.contacts.map(\.id) == [65_536])
        #expect(first.contacts.first?.pressure == 80)
        _ = decoder.consume(.abs(.mtSlot, 1, at: Self.t(10)))
        _ = decoder.consume(.abs(.mtTrackingID, 7, at: Self.t(10)))
        _ = decoder.consume(.abs(.mtPressure, 30, at: Self.t(10)))
        let secondFrame = decoder.consume(.syn(.report, at: Self.t(10)))
        let second = try #require(secondFrame)
        #expect(second.contacts.map(\.id) == [7, 65_536])
        _ = decoder.consume(.abs(.mtSlot, 0, at: Self.t(20)))
        _ = decoder.consume(.abs(.mtTrackingID, -1, at: Self.t(20)))
        let thirdFrame = decoder.consume(.syn(.report, at: Self.t(20)))
        let third = try #require(thirdFrame)
        #expect(third.contacts.map(\.id) == [7])
        // The slot is known now: later values for an empty slot make no contact (the kernel never sends them).
        _ = decoder.consume(.abs(.mtPressure, 50, at: Self.t(30)))
        let quiet = decoder.consume(.syn(.report, at: Self.t(30)))
        #expect(quiet == nil)
        #expect(decoder.contacts.map(\.id) == [7])
    }

    /// A pen in proximity reports pressure while it hovers (or grazes below the driver's touch threshold): without
    /// `BTN_TOUCH` no such sample is a contact, from the first event on, before and after a touch.
    @Test func penHoverWithPressureIsNoContact() throws {
        var decoder = ContactDecoder(device: Self.pen)
        let events = EventScript(startingAt: Self.t(0))
            .key(.btnToolPen, 1).abs(.x, 7000).abs(.y, 4000).abs(.pressure, 40).report(after: .milliseconds(10))
            .abs(.pressure, 60).report(after: .milliseconds(10))
            .key(.btnTouch, 1).abs(.pressure, 900).report(after: .milliseconds(10))
            .abs(.pressure, 950).report(after: .milliseconds(10))
            .key(.btnTouch, 0).abs(.pressure, 30).report(after: .milliseconds(10))
            .abs(.pressure, 25).report(after: .milliseconds(10))
            .key(.btnToolPen, 0).abs(.pressure, 0).report()
            .events
        let frames = Self.frames(&decoder, events)
        #expect(frames.map { $0.contacts.map(\.pressure) } == [[900], [950], []], "hover samples make no frame")
        #expect(frames.first?.time == Self.t(20), "the first contact is the BTN_TOUCH press")
        #expect(decoder.contacts.isEmpty)
    }

    /// A pen recording that starts mid-stroke (evemu keeps no key state) shows nothing until its first `BTN_TOUCH`
    /// press: pressure without it is no evidence of a touch (it is what a hovering pen sends too).
    @Test func aPenRecordingThatStartsMidStrokeWaitsForBTNTouch() throws {
        var decoder = ContactDecoder(device: Self.pen)
        let events = EventScript(startingAt: Self.t(0))
            .abs(.pressure, 900).report(after: .milliseconds(10))
            .key(.btnTouch, 0).abs(.pressure, 0).report(after: .milliseconds(10))
            .abs(.pressure, 5).report(after: .milliseconds(10))
            .key(.btnTouch, 1).abs(.pressure, 700).report()
            .events
        let frames = Self.frames(&decoder, events)
        #expect(frames.map { $0.contacts.map(\.pressure) } == [[700]])
        // A device without BTN_TOUCH has only its pressure to tell: above zero is a touch.
        var bare = Self.pen
        bare.codes[.key] = [KeyCode.btnToolPen.rawValue]
        var plain = ContactDecoder(device: bare)
        let touched = Self.frames(&plain, EventScript(startingAt: Self.t(0)).abs(.pressure, 40).report().events)
        #expect(touched.map { $0.contacts.map(\.pressure) } == [[40]])
    }

    @Test func stateAppliesOnlyAtSynReport() {
        var decoder = ContactDecoder(device: Self.slotted)
        #expect(decoder.consume(.abs(.mtTrackingID, 1, at: Self.t(1))) == nil)
        #expect(decoder.contacts.isEmpty)
        #expect(decoder.consume(.syn(.report, at: Self.t(9)))?.time == Self.t(9))
        #expect(decoder.contacts.map(\.id) == [1])
    }

    @Test func rawSynDroppedDropsThePartialFrame() {
        var decoder = ContactDecoder(device: Self.slotted)
        _ = Self.frames(
            &decoder,
            [.abs(.mtTrackingID, 1, at: Self.t(1)), .abs(.mtPressure, 10, at: Self.t(1)), .syn(.report, at: Self.t(1))]
        )
        let frames = Self.frames(
            &decoder,
            [
                .abs(.mtPressure, 99, at: Self.t(2)),
                .syn(.dropped, at: Self.t(2)),
                .abs(.mtPressure, 50, at: Self.t(3)),  // dropped: the rest of a broken frame
                .syn(.report, at: Self.t(3)),
                .abs(.mtPressure, 20, at: Self.t(4)),
                .syn(.report, at: Self.t(4)),
                .abs(.mtPressure, 21, at: Self.t(5)),
                .syn(.report, at: Self.t(5)),
            ]
        )
        #expect(frames.map(\.resync) == [true, false])
        #expect(frames.map { $0.contacts.first?.pressure } == [20, 21])
    }

    @Test func protocolAKeepsIdsByPosition() {
        var decoder = ContactDecoder(device: Self.anonymous)
        func report(_ contacts: [(Int32, Int32, Int32)], at ms: Int64) -> ContactFrame? {
            var events: [RawEvent] = []
            for (x, y, p) in contacts {
                events += [
                    .abs(.mtPositionX, x, at: Self.t(ms)), .abs(.mtPositionY, y, at: Self.t(ms)),
                    .abs(.mtPressure, p, at: Self.t(ms)), .syn(.mtReport, at: Self.t(ms)),
                ]
            }
            if contacts.isEmpty { events.append(.syn(.mtReport, at: Self.t(ms))) }
            events.append(.syn(.report, at: Self.t(ms)))
            return Self.frames(&decoder, events).last
        }
        let first = report([(100, 100, 10), (3000, 3000, 20)], at: 1)
        #expect(first?.contacts.map(\.id) == [0, 1])
        let swapped = report([(3010, 3010, 25), (110, 105, 15)], at: 2)
        #expect(
            swapped?.contacts == [
                ContactSample(id: 0, x: 110, y: 105, pressure: 15),
                ContactSample(id: 1, x: 3010, y: 3010, pressure: 25),
            ]
        )
        // A contact that jumps across the pad is a new contact, not the old one moved.
        let jumped = report([(3010, 3010, 25), (110, 3900, 15)], at: 3)
        #expect(jumped?.contacts.map(\.id) == [1, 2])
        #expect(report([], at: 4)?.contacts == [])
        #expect(report([(500, 500, 5)], at: 5)?.contacts.map(\.id) == [3])
    }

    @Test func penCountsTheTipNotTheHover() {
        var decoder = ContactDecoder(device: Self.pen)
        var frames = Self.frames(
            &decoder,
            [
                .key(.btnToolPen, 1, at: Self.t(1)), .abs(.x, 500, at: Self.t(1)), .syn(.report, at: Self.t(1)),
            ]
        )
        #expect(frames.isEmpty)
        frames = Self.frames(
            &decoder,
            [
                .key(.btnTouch, 1, at: Self.t(2)), .abs(.pressure, 800, at: Self.t(2)), .syn(.report, at: Self.t(2)),
                .key(.btnTouch, 0, at: Self.t(3)), .abs(.pressure, 0, at: Self.t(3)), .syn(.report, at: Self.t(3)),
                .key(.btnTouch, 1, at: Self.t(4)), .abs(.pressure, 300, at: Self.t(4)), .syn(.report, at: Self.t(4)),
            ]
        )
        #expect(
            frames.map(\.contacts) == [
                [ContactSample(id: 0, x: 500, pressure: 800)], [], [ContactSample(id: 1, x: 500, pressure: 300)],
            ]
        )
    }

    @Test func singleTouchWithoutBtnTouchUsesPressure() {
        // The single-touch touchpad without its keys: only `ABS_PRESSURE` can tell a touch.
        var device = DeviceCatalogue.singleTouchTouchpad
        device.codes[.key] = nil
        var decoder = ContactDecoder(device: device)
        let frames = Self.frames(
            &decoder,
            [
                .abs(.pressure, 5, at: Self.t(1)), .syn(.report, at: Self.t(1)),
                .abs(.pressure, 0, at: Self.t(2)), .syn(.report, at: Self.t(2)),
            ]
        )
        #expect(frames.map { $0.contacts.map(\.pressure) } == [[5], []])
        #expect(ContactDecoder.singleTouchIsDown(device: Self.pen, keysDown: [.btnToolPen], pressure: 100) == false)
        #expect(ContactDecoder.singleTouchIsDown(device: device, keysDown: [], pressure: 1))
    }

    @Test func legacyPressureGoesToTheOldestContact() {
        // Protocol A with only the legacy `ABS_PRESSURE`, as bcm5974 reports.
        var device = DeviceCatalogue.protocolATouchscreen
        device.axes[.mtPressure] = nil
        var decoder = ContactDecoder(device: device)
        var frames = Self.frames(
            &decoder,
            [
                .abs(.mtPositionX, 100, at: Self.t(1)), .syn(.mtReport, at: Self.t(1)),
                .abs(.pressure, 40, at: Self.t(1)), .syn(.report, at: Self.t(1)),
                .abs(.mtPositionX, 100, at: Self.t(2)), .syn(.mtReport, at: Self.t(2)),
                .abs(.mtPositionX, 3000, at: Self.t(2)), .syn(.mtReport, at: Self.t(2)),
                .abs(.pressure, 45, at: Self.t(2)), .syn(.report, at: Self.t(2)),
            ]
        )
        #expect(frames.map { $0.contacts.map(\.pressure) } == [[40], [45, nil]])
        // A change of the legacy pressure alone is a change of the contacts.
        frames = Self.frames(
            &decoder,
            [
                .abs(.mtPositionX, 100, at: Self.t(3)), .syn(.mtReport, at: Self.t(3)),
                .abs(.mtPositionX, 3000, at: Self.t(3)), .syn(.mtReport, at: Self.t(3)),
                .abs(.pressure, 50, at: Self.t(3)), .syn(.report, at: Self.t(3)),
            ]
        )
        #expect(frames.first?.contacts.first?.pressure == 50)
    }
}
