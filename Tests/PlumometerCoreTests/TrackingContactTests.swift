import PlumometerCore
import Testing

@Suite("Tracking: contacts begin, update, end and cancel")
struct TrackingContactTests {
    @Test("a frame's contact list is the complete truth: a missing contact has ended")
    func missingContactEnds() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 100), (2, 200), (3, 300)]))
        #expect(tracker.lastChanges == ContactChanges(began: [1, 2, 3]))
        // Contact 2 lifts mid-stream while 1 and 3 carry on.
        let reading = tracker.consume(frame(0.1, [(1, 110), (3, 310)]))
        #expect(reading.contacts.map(\.id) == [1, 3])
        #expect(tracker.lastChanges == ContactChanges(ended: [2]))
        #expect(tracker.contactIDs == [1, 3])
        #expect(tracker.current == reading)
    }

    @Test("a resync frame that lacks a contact cancels it")
    func resyncCancels() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 100), (2, 200)]))
        let reading = tracker.consume(frame(0.5, [(2, 200), (4, 50)], resync: true))
        #expect(reading.resync)
        #expect(reading.contacts.map(\.id) == [2, 4])
        #expect(tracker.lastChanges == ContactChanges(began: [4], cancelled: [1]))
    }

    @Test("an empty frame ends every contact and clears the heaviest mark")
    func emptyFrame() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 100), (2, 500)]))
        let reading = tracker.consume(frame(0.1, []))
        #expect(reading.contacts.isEmpty)
        #expect(reading.heaviest == nil)
        #expect(tracker.lastChanges.ended == [1, 2])
        #expect(tracker.contactIDs.isEmpty)
    }

    @Test("an id that returns after ending is a new contact with no state from the old one")
    func idReuseStartsFresh() throws {
        var configuration = TrackerConfiguration()
        configuration.smoothing = .exponential(alpha: 0.5)
        var tracker = WeightTracker(pressureRange: range1000, configuration: configuration)
        _ = tracker.consume(frame(0, [(1, 800), (2, 100)]))
        _ = tracker.consume(frame(0.6, [(1, 800), (2, 100)]))
        let tared = tracker.tare(contact: 1)
        #expect(tared)
        #expect(tracker.current[id: 1]?.stable == true)
        #expect(tracker.current.heaviest?.id == 2)  // Contact 1 tared to zero, so 2 is heaviest.
        _ = tracker.consume(frame(0.7, [(2, 100)]))
        let reading = tracker.consume(frame(0.8, [(1, 300), (2, 100)]))
        let returned = try #require(reading[id: 1])
        // Not smoothed towards the old 800, not tared by the old tare, not stable from the old anchor.
        #expect(returned.force == 0.3)
        #expect(returned.stable == false)
        #expect(tracker.lastChanges.began == [1])
        // It began after contact 2, so it does not win a tie-break on begin order; it wins on force, once its lead
        // has lasted the hold time.
        #expect(reading.heaviest?.id == 2)
        #expect(tracker.tick(now: at(0.9))?.heaviest?.id == 1)
    }

    @Test("a repeated id within one frame: the first sample wins")
    func duplicateIDs() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        let frameWithDuplicate = ContactFrame(
            time: at(0),
            contacts: [ContactSample(id: 5, pressure: 100), ContactSample(id: 5, pressure: 900)]
        )
        let reading = tracker.consume(frameWithDuplicate)
        #expect(reading.contacts.count == 1)
        #expect(reading[id: 5]?.pressure == 100)
    }

    @Test("a frame whose contacts were reordered after it was made is read the same, readings by id")
    func unorderedFrame() throws {
        var ordered = WeightTracker(pressureRange: range1000)
        var unordered = WeightTracker(pressureRange: range1000)
        let frames = [
            frame(0, [(1, 100), (4, 400), (7, 700)]), frame(0.1, [(1, 110), (2, 50), (7, 690)]),
            frame(0.2, [(2, 60), (7, 650), (9, 10)]),
        ]
        for original in frames {
            var shuffled = original
            shuffled.contacts.reverse()
            shuffled.contacts.append(shuffled.contacts[0])
            let expected = ordered.consume(original)
            #expect(unordered.consume(shuffled) == expected)
            #expect(unordered.lastChanges.ended == ordered.lastChanges.ended)
            #expect(Set(unordered.lastChanges.began) == Set(ordered.lastChanges.began))
        }
        #expect(unordered.contactIDs == [2, 7, 9])
    }

    @Test("tare(contact:) on an unknown id changes nothing")
    func tareUnknown() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        let before = tracker.consume(frame(0, [(1, 100)]))
        let tared = tracker.tare(contact: 99)
        #expect(tared == false)
        #expect(tracker.current == before)
    }
}
