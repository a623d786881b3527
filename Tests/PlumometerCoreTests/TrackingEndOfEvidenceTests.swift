import PlumometerCore
import Testing

@Suite("Tracking: the end of the evidence (a recording's last event)")
struct TrackingEndOfEvidenceTests {
    @Test("nothing becomes stable after the end: no stability deadline past it, and later ticks judge at the end")
    func nothingBecomesStableAfterTheEnd() {
        var tracker = WeightTracker(pressureRange: gramsRange)
        for step in 0...30 { _ = tracker.consume(frame(Double(step) / 100, [(1, 420 + Int32(step % 2))])) }
        #expect(tracker.nextDeadline == at(0.5))
        #expect(tracker.endOfEvidence(at: at(0.3)) == nil)
        #expect(tracker.evidenceEnd == at(0.3))
        #expect(tracker.nextDeadline == nil, "nothing to wait for")
        #expect(tracker.tick(now: at(5)) == nil)
        #expect(tracker.current[id: 1]?.stable == false)
        // A frame is evidence again: the time up to it counts.
        let later = tracker.consume(frame(0.6, [(1, 420)]))
        #expect(tracker.evidenceEnd == nil)
        #expect(later[id: 1]?.stable == true)
    }

    @Test("stability due by the end is honoured at the end")
    func stabilityDueByTheEnd() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        _ = tracker.consume(frame(0, [(1, 420)]))
        let ended = tracker.endOfEvidence(at: at(0.7))
        #expect(ended?.time == at(0.7))
        #expect(ended?[id: 1]?.stable == true)
    }

    @Test("a heaviest hold pending at the end resolves at its deadline, with stability as at the end")
    func pendingHoldResolves() throws {
        var tracker = WeightTracker(pressureRange: gramsRange)
        for step in 0...100 { _ = tracker.consume(frame(Double(step) / 100, [(1, 80), (2, 60)])) }
        _ = tracker.consume(frame(1.01, [(1, 80), (2, 60), (3, 100)]))
        _ = tracker.consume(frame(1.05, [(1, 80), (2, 60), (3, 100)]))
        #expect(tracker.current.heaviest?.id == 1)
        #expect(tracker.endOfEvidence(at: at(1.05)) == nil, "nothing changes at the end itself")
        let next = tracker.nextDeadline
        let deadline = try #require(next)
        #expect(deadline == at(1.11), "only the hold: #3's lead began at 1.01 s")
        let ticked = tracker.tick(now: deadline)
        let resolved = try #require(ticked)
        #expect(resolved.heaviest?.id == 3)
        #expect(resolved.time == at(1.11))
        #expect(resolved[id: 3]?.stable == false, "#3 landed 40 ms before the end")
        #expect(resolved[id: 1]?.stable == true)
        #expect(tracker.nextDeadline == nil)
    }
}
