import PlumometerCore
import PlumometerTestKit
import Testing

/// The decoder's two ways of learning the whole truth about a device, as pure values: the state at open (a seed)
/// and libevdev's resynchronisation after `SYN_DROPPED` (events between the bridge's begin and end markers).
///
/// The umockdev tests (UmockdevBridgeTests, LiveResyncTests) run the same situations through real libevdev;
/// these pin the rules themselves, independent of how reads happen to split the events.
struct DecoderSeedAndResyncTests {
    static func t(_ ms: Int64) -> EventTime { EventTime(microseconds: ms * 1000) }

    static let slotted = ContactDecoderTests.slotted
    static let anonymous = ContactDecoderTests.anonymous
    static let pen = ContactDecoderTests.pen

    /// Feeds inputs and collects the frames.
    static func frames(_ decoder: inout ContactDecoder, _ inputs: [DeviceInput]) -> [ContactFrame] {
        inputs.compactMap { decoder.consume($0) }
    }

    /// Feeds events and collects the frames.
    static func frames(_ decoder: inout ContactDecoder, events: [RawEvent]) -> [ContactFrame] {
        frames(&decoder, events.map(DeviceInput.event))
    }

    /// Four empty slots, with `values` in the slots given.
    static func slots(_ values: [Int: [AbsoluteAxis: Int32]]) -> [[AbsoluteAxis: Int32]] {
        (0..<4).map { values[$0] ?? [.mtTrackingID: -1] }
    }

    /// Contact 7 in slot 0 (pressure 90) and contact 8 in slot 1 (pressure 70), as a complete frame at 10 ms.
    static func twoContacts() -> ContactDecoder {
        var decoder = ContactDecoder(device: slotted)
        _ = frames(
            &decoder,
            events: EventScript(startingAt: t(10))
                .touch(slot: 0, id: 7, pressure: 90).touch(slot: 1, id: 8, pressure: 70).report()
                .events
        )
        return decoder
    }

    // MARK: Batches

    /// A whole read fed at once gives the frames of the same inputs fed one by one, and stops where asked.
    @Test func aBatchGivesTheFramesOfItsInputsOneByOne() {
        let inputs: [DeviceInput] =
            EventScript(startingAt: Self.t(10))
            .touch(slot: 0, id: 7, pressure: 90).touch(slot: 1, id: 8, pressure: 70).report()
            .events.map(DeviceInput.event)
            + [
                .resyncBegan(Self.t(20)), .event(.abs(.mtSlot, 1, at: Self.t(20))),
                .event(.abs(.mtTrackingID, -1, at: Self.t(20))), .event(.syn(.report, at: Self.t(20))), .resyncEnded,
            ]
            + [
                .event(.abs(.mtSlot, 0, at: Self.t(30))), .event(.abs(.mtPressure, 95, at: Self.t(30))),
                .event(.syn(.report, at: Self.t(30))),
            ]
        var single = ContactDecoder(device: Self.slotted)
        let expected = Self.frames(&single, inputs)
        #expect(expected.count == 3)
        var batched = ContactDecoder(device: Self.slotted)
        var frames: [ContactFrame] = []
        let stopped = batched.consume(inputs) { frame in
            frames.append(frame)
            return false
        }
        #expect(!stopped)
        #expect(frames == expected)
        var stopping = ContactDecoder(device: Self.slotted)
        var seen = 0
        #expect(
            stopping.consume(inputs) { _ in
                seen += 1
                return seen == 2
            }
        )
        #expect(seen == 2)
        #expect(stopping.contacts == expected[1].contacts, "the inputs after the frame that stopped it are not fed")
    }

    // MARK: Seeding

    @Test func aSeedReportsWhatRestsOnTheSurfaceAndKeepsItsValues() {
        var decoder = ContactDecoder(device: Self.slotted)
        let state = DeviceState(
            slots: Self.slots([1: [.mtTrackingID: 5, .mtPositionX: 50, .mtPressure: 90, .mtTouchMajor: 300]]),
            time: Self.t(1)
        )
        #expect(
            decoder.seed(with: state)
                == ContactFrame(
                    time: Self.t(1),
                    contacts: [ContactSample(id: 5, slot: 1, x: 50, pressure: 90, touchMajor: 300)],
                    resync: true
                )
        )
        // The seeded slot keeps the values the kernel will not resend.
        let next = Self.frames(
            &decoder,
            events: [
                .abs(.mtSlot, 1, at: Self.t(2)), .abs(.mtPressure, 91, at: Self.t(2)), .syn(.report, at: Self.t(2)),
            ]
        )
        #expect(
            next == [
                ContactFrame(
                    time: Self.t(2),
                    contacts: [ContactSample(id: 5, slot: 1, x: 50, pressure: 91, touchMajor: 300)]
                )
            ]
        )
        var empty = ContactDecoder(device: Self.slotted)
        #expect(empty.seed(with: DeviceState(time: Self.t(1))) == nil, "nothing down, nothing reported before")
    }

    /// A live device is seeded at open: an empty slot there is known to be empty, so values for it make no contact.
    @Test func aSeededEmptySlotMakesNoContact() {
        var decoder = ContactDecoder(device: Self.slotted)
        _ = decoder.seed(with: DeviceState(slots: Self.slots([:]), time: Self.t(0)))
        #expect(
            Self.frames(&decoder, events: [.abs(.mtPressure, 80, at: Self.t(1)), .syn(.report, at: Self.t(1))]).isEmpty
        )
        #expect(decoder.contacts.isEmpty)
    }

    /// The kernel sends `ABS_MT_SLOT` only when the slot changes: the first values after open are for the slot
    /// selected at open, not for slot 0.
    @Test func valuesWithoutASlotEventGoToTheSlotSelectedAtOpen() {
        var decoder = ContactDecoder(device: Self.slotted)
        let state = DeviceState(
            slots: Self.slots([0: [.mtTrackingID: 4, .mtPressure: 10], 2: [.mtTrackingID: 6, .mtPressure: 20]]),
            currentSlot: 2,
            time: Self.t(1)
        )
        _ = decoder.seed(with: state)
        let frames = Self.frames(
            &decoder,
            events: [.abs(.mtPressure, 25, at: Self.t(2)), .syn(.report, at: Self.t(2))]
        )
        #expect(frames.first?.contacts.map(\.pressure) == [10, 25])
    }

    /// A pen resting on a tablet at open: `BTN_TOUCH` is held, and the next frame (which does not repeat it) must
    /// not lift the pen.
    @Test func keysHeldAtOpenStayHeld() {
        var decoder = ContactDecoder(device: Self.pen)
        let state = DeviceState(
            axes: [.x: 700, .y: 300, .pressure: 800],
            keysDown: [.btnTouch, .btnToolPen],
            time: Self.t(1)
        )
        #expect(decoder.seed(with: state)?.contacts == [ContactSample(id: 0, x: 700, y: 300, pressure: 800)])
        let frames = Self.frames(&decoder, events: [.abs(.pressure, 810, at: Self.t(2)), .syn(.report, at: Self.t(2))])
        #expect(frames.map(\.contacts) == [[ContactSample(id: 0, x: 700, y: 300, pressure: 810)]])
        // Hovering at open (the tool in range, the tip up) is no contact.
        var hovering = ContactDecoder(device: Self.pen)
        #expect(hovering.seed(with: DeviceState(axes: [.pressure: 0], keysDown: [.btnToolPen], time: Self.t(1))) == nil)
    }

    // MARK: Resynchronisation

    /// libevdev's difference ends the contact the true state lacks and restores a value: one resync frame at the
    /// end, stamped with libevdev's `SYN_REPORT`, and events after it apply as usual.
    @Test func aResyncPublishesTheTrueStateOnceAtItsEnd() {
        var decoder = Self.twoContacts()
        let during = Self.frames(
            &decoder,
            [
                .resyncBegan(Self.t(60)),
                .event(.abs(.mtSlot, 1, at: Self.t(60))), .event(.abs(.mtTrackingID, -1, at: Self.t(60))),
                .event(.abs(.mtSlot, 0, at: Self.t(60))), .event(.abs(.mtPressure, 40, at: Self.t(60))),
                .event(.syn(.report, at: Self.t(60))),
            ]
        )
        #expect(during.isEmpty, "nothing is published before the resynchronisation ends")
        let end = decoder.consume(.resyncEnded)
        #expect(
            end == ContactFrame(time: Self.t(60), contacts: [ContactSample(id: 7, slot: 0, pressure: 40)], resync: true)
        )
        let after = Self.frames(
            &decoder,
            events: [.abs(.mtPressure, 41, at: Self.t(300)), .syn(.report, at: Self.t(300))]
        )
        #expect(after == [ContactFrame(time: Self.t(300), contacts: [ContactSample(id: 7, slot: 0, pressure: 41)])])
    }

    /// A contact whose tracking id changed during the overflow: libevdev first ends it (one frame), then starts the
    /// new one (a second frame). The two merge into one resync frame; no consumer ever sees the surface empty.
    @Test func libevdevsTwoResyncFramesMergeIntoOne() {
        var decoder = Self.twoContacts()
        let frames = Self.frames(
            &decoder,
            [
                .resyncBegan(Self.t(60)),
                .event(.abs(.mtSlot, 0, at: Self.t(60))), .event(.abs(.mtTrackingID, -1, at: Self.t(60))),
                .event(.abs(.mtSlot, 1, at: Self.t(60))), .event(.abs(.mtTrackingID, -1, at: Self.t(60))),
                .event(.syn(.report, at: Self.t(60))),
                .event(.abs(.mtSlot, 0, at: Self.t(61))), .event(.abs(.mtTrackingID, 9, at: Self.t(61))),
                .event(.abs(.mtPressure, 30, at: Self.t(61))), .event(.syn(.report, at: Self.t(61))),
                .resyncEnded,
            ]
        )
        #expect(
            frames == [
                ContactFrame(time: Self.t(61), contacts: [ContactSample(id: 9, slot: 0, pressure: 30)], resync: true)
            ]
        )
    }

    /// The reads that carry a resynchronisation may split it anywhere: what the decoder publishes depends on the
    /// inputs only, and nothing is published until the end marker, however many reads later it comes.
    @Test func aResyncSplitOverReadsGivesTheSameFrame() {
        let inputs: [DeviceInput] = [
            .resyncBegan(Self.t(60)),
            .event(.abs(.mtSlot, 0, at: Self.t(60))), .event(.abs(.mtTrackingID, -1, at: Self.t(60))),
            .event(.syn(.report, at: Self.t(60))),
            .event(.abs(.mtTrackingID, 9, at: Self.t(61))), .event(.abs(.mtPressure, 30, at: Self.t(61))),
            .event(.syn(.report, at: Self.t(61))),
            .resyncEnded,
        ]
        var whole = Self.twoContacts()
        let expected = Self.frames(&whole, inputs)
        #expect(expected.count == 1)
        for split in 1..<inputs.count {
            var decoder = Self.twoContacts()
            let first = Self.frames(&decoder, Array(inputs[..<split]))
            #expect(first.isEmpty, "split after \(split) inputs: published before the end")
            #expect(Self.frames(&decoder, Array(inputs[split...])) == expected, "split after \(split) inputs")
        }
    }

    /// libevdev synthesises nothing when the state did not change; the end still says the state is the truth.
    @Test func aResyncThatChangesNothingStillEndsWithAResyncFrame() {
        var decoder = Self.twoContacts()
        let frames = Self.frames(&decoder, [.resyncBegan(Self.t(60)), .resyncEnded])
        #expect(frames == [ContactFrame(time: Self.t(60), contacts: decoder.contacts, resync: true)])
        #expect(frames.first?.contacts.map(\.id) == [7, 8])
        // The next frame is an ordinary one.
        let next = Self.frames(
            &decoder,
            events: [.abs(.mtPressure, 91, at: Self.t(70)), .syn(.report, at: Self.t(70))]
        )
        #expect(next.map(\.resync) == [false])
    }

    /// The drop broke a frame in the middle: its rest (stamped with the `SYN_DROPPED`'s time) reached the reader
    /// only after libevdev had drained the buffer and resynchronised. The state libevdev re-read already holds
    /// that frame, so its rest is skipped up to its `SYN_REPORT`; a later frame applies. This is the rule whose
    /// absence made LiveResyncTests.dropInTheMiddleOfAFrame depend on the reader's timing.
    @Test func theRestOfTheBrokenFrameIsSkipped() {
        var decoder = Self.twoContacts()
        let frames = Self.frames(
            &decoder,
            [
                // Half a frame (contact 11 begins), then the overflow.
                .event(.abs(.mtSlot, 2, at: Self.t(50))), .event(.abs(.mtTrackingID, 11, at: Self.t(50))),
                .event(.abs(.mtPressure, 80, at: Self.t(50))),
                .resyncBegan(Self.t(50)),
                .event(.abs(.mtSlot, 2, at: Self.t(50))), .event(.abs(.mtTrackingID, -1, at: Self.t(50))),
                .event(.abs(.mtSlot, 1, at: Self.t(50))), .event(.abs(.mtTrackingID, -1, at: Self.t(50))),
                .event(.abs(.mtSlot, 0, at: Self.t(50))), .event(.abs(.mtPressure, 40, at: Self.t(50))),
                .event(.syn(.report, at: Self.t(50))),
                .resyncEnded,
                // The rest of the broken frame, late.
                .event(.abs(.mtSlot, 0, at: Self.t(50))), .event(.abs(.mtPressure, 99, at: Self.t(50))),
                .event(.syn(.report, at: Self.t(50))),
                // The device's next frame.
                .event(.abs(.mtPressure, 42, at: Self.t(300))), .event(.syn(.report, at: Self.t(300))),
            ]
        )
        #expect(frames.map(\.resync) == [true, false])
        #expect(frames.map { $0.contacts.map(\.id) } == [[7], [7]])
        #expect(frames.map { $0.contacts.map(\.pressure) } == [[40], [42]], "never the broken frame's 99")
    }

    /// When libevdev drained the rest of the broken frame itself, the next events are a new frame with a later
    /// time: they apply, even when they lift everything.
    @Test func aLaterFrameAfterAResyncApplies() {
        var decoder = Self.twoContacts()
        let frames = Self.frames(
            &decoder,
            [
                .resyncBegan(Self.t(50)),
                .event(.abs(.mtSlot, 1, at: Self.t(50))), .event(.abs(.mtTrackingID, -1, at: Self.t(50))),
                .event(.syn(.report, at: Self.t(50))),
                .resyncEnded,
                .event(.abs(.mtSlot, 0, at: Self.t(300))), .event(.abs(.mtTrackingID, -1, at: Self.t(300))),
                .event(.key(.btnTouch, 0, at: Self.t(300))), .event(.syn(.report, at: Self.t(300))),
            ]
        )
        #expect(frames.map { $0.contacts.map(\.id) } == [[7], []])
        #expect(frames.map(\.resync) == [true, false])
    }

    /// An end without a beginning (a source that started reading mid-resync) changes nothing.
    @Test func anEndWithoutABeginningIsIgnored() {
        var decoder = Self.twoContacts()
        #expect(decoder.consume(.resyncEnded) == nil)
        let next = Self.frames(
            &decoder,
            events: [.abs(.mtPressure, 91, at: Self.t(20)), .syn(.report, at: Self.t(20))]
        )
        #expect(next.map(\.resync) == [false])
        #expect(next.first?.contacts.map(\.pressure) == [90, 91], "slot 1 is still selected")
    }

    /// Protocol A: libevdev's difference lists no contacts (the kernel keeps none; an `ABS_MT_*` value in it is
    /// the kernel's last one, not a contact), so it is no lift; the device's next complete frame is the resync frame.
    @Test func protocolAResyncWaitsForTheDevicesOwnFrame() {
        var decoder = ContactDecoder(device: Self.anonymous)
        _ = Self.frames(
            &decoder,
            events: [
                .key(.btnTouch, 1, at: Self.t(1)), .abs(.mtPositionX, 10, at: Self.t(1)),
                .syn(.mtReport, at: Self.t(1)),
                .syn(.report, at: Self.t(1)),
            ]
        )
        let resync = Self.frames(
            &decoder,
            [
                .resyncBegan(Self.t(2)), .event(.abs(.mtPositionX, 11, at: Self.t(2))),
                .event(.syn(.report, at: Self.t(2))), .resyncEnded,
            ]
        )
        #expect(resync.isEmpty, "not a lift, and not yet the truth")
        let frames = Self.frames(
            &decoder,
            events: [
                .abs(.mtPositionX, 12, at: Self.t(3)), .syn(.mtReport, at: Self.t(3)), .syn(.report, at: Self.t(3)),
            ]
        )
        #expect(frames == [ContactFrame(time: Self.t(3), contacts: [ContactSample(id: 0, x: 12)], resync: true)])
    }

    /// Protocol A: a `BTN_TOUCH` release in libevdev's difference says nothing is down: the end publishes that.
    @Test func protocolAResyncWithTheTouchReleased() {
        var decoder = ContactDecoder(device: Self.anonymous)
        _ = Self.frames(
            &decoder,
            events: [
                .key(.btnTouch, 1, at: Self.t(1)), .abs(.mtPositionX, 10, at: Self.t(1)),
                .syn(.mtReport, at: Self.t(1)),
                .syn(.report, at: Self.t(1)),
            ]
        )
        let frames = Self.frames(
            &decoder,
            [
                .resyncBegan(Self.t(2)), .event(.key(.btnTouch, 0, at: Self.t(2))),
                .event(.syn(.report, at: Self.t(2))), .resyncEnded,
            ]
        )
        #expect(frames == [ContactFrame(time: Self.t(2), contacts: [], resync: true)])
    }

    /// A single-touch device: libevdev's difference releases `BTN_TOUCH`, the touch ends in the resync frame.
    @Test func singleTouchResyncEndsTheTouch() {
        var decoder = ContactDecoder(device: Self.pen)
        _ = Self.frames(
            &decoder,
            events: [
                .key(.btnTouch, 1, at: Self.t(1)), .abs(.pressure, 500, at: Self.t(1)), .syn(.report, at: Self.t(1)),
            ]
        )
        let frames = Self.frames(
            &decoder,
            [
                .resyncBegan(Self.t(5)), .event(.key(.btnTouch, 0, at: Self.t(5))),
                .event(.abs(.pressure, 0, at: Self.t(5))),
                .event(.syn(.report, at: Self.t(5))), .resyncEnded,
            ]
        )
        #expect(frames == [ContactFrame(time: Self.t(5), contacts: [], resync: true)])
    }

    /// What a recording keeps of each input: the `SYN_DROPPED` for a resync's start, nothing for its end.
    @Test func recordedEventsOfInputs() {
        let event = RawEvent.abs(.mtPressure, 3, at: Self.t(1))
        #expect(DeviceInput.event(event).recordedEvent == event)
        #expect(DeviceInput.resyncBegan(Self.t(2)).recordedEvent == .syn(.dropped, at: Self.t(2)))
        #expect(DeviceInput.resyncEnded.recordedEvent == nil)
    }
}
