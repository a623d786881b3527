import PlumometerCore
import Testing

/// One contact's state in a hand-built reading.
private struct Plum {
    var id: Int
    var value: Double
    var grams = true
    var stable = true
    var heaviest = false
}

/// A reading at `seconds` with the given contacts (grams, or percent when `grams` is false).
private func reading(_ seconds: Double, _ plums: [Plum], resync: Bool = false) -> Reading {
    Reading(
        time: at(seconds),
        contacts: plums.enumerated().map { index, plum in
            ContactReading(
                id: plum.id,
                slot: index,
                x: 100,
                y: 100,
                pressure: 100,
                force: plum.value / 1000,
                percent: plum.grams ? plum.value / 10 : plum.value,
                ratio: 1,
                share: 1,
                rank: index + 1,
                heaviest: plum.heaviest,
                stable: plum.stable,
                saturated: false,
                grams: plum.grams ? plum.value : nil
            )
        },
        resync: resync
    )
}

@Suite("Session summary: per-contact settled weights and heaviest time, session counts, on kernel time")
struct SessionSummaryTests {
    @Test("a plum stable at 50 g +-1 for 2 s: settled is its last stable value; min, max and deviation its run's")
    func settledWeightOfOnePlum() throws {
        var summarizer = SessionSummarizer()
        summarizer.consume(reading(0, [Plum(id: 7, value: 20, stable: false, heaviest: true)]))
        // 2 s at 1 kHz alternating 49 and 51 g: mean 50, std 1 exactly (time-weighted, equal holds).
        for step in 0..<2000 {
            let value = step % 2 == 0 ? 49.0 : 51.0
            summarizer.consume(reading(0.5 + Double(step) / 1000, [Plum(id: 7, value: value, heaviest: true)]))
        }
        summarizer.consume(reading(2.5, []))
        let summary = summarizer.summary()
        let plum = try #require(summary.contacts.first)
        #expect(summary.contacts.count == 1)
        #expect(plum.id == 7)
        #expect(plum.placed == at(0))
        #expect(plum.lifted == at(2.5))
        let settled = try #require(plum.settled)
        #expect(settled.unit == .grams)
        #expect(settled.mean == 51, "what its last stable reading showed, as every view shows it")
        #expect(settled.minimum == 49)
        #expect(settled.maximum == 51)
        #expect(abs(settled.standardDeviation - 1) < 0.01)
        #expect(abs(settled.stableSeconds - 2) < 1e-9)
        #expect(abs(plum.heaviestSeconds - 2.5) < 1e-9)
        #expect(plum.peak.unit == .grams && plum.peak.value == 51, "the largest reading, stable or not")
        #expect(summary.frames == 2002)
        #expect(abs(summary.duration - 2.5) < 1e-9)
    }

    @Test("the run's deviation is weighted by how long each stable value held, not by how many readings carried it")
    func timeWeightedMean() throws {
        var summarizer = SessionSummarizer()
        // 100 g held 3 s, then a burst of ten readings at 200 g over 1 s.
        summarizer.consume(reading(0, [Plum(id: 1, value: 100)]))
        for step in 0..<10 { summarizer.consume(reading(3 + Double(step) * 0.1, [Plum(id: 1, value: 200)])) }
        let summary = summarizer.summary(endingAt: at(4))
        let settled = try #require(summary.contacts.first?.settled)
        #expect(settled.mean == 200, "the last stable value")
        #expect(abs(settled.standardDeviation - 43.30127) < 1e-4)  // sqrt(0.75 * 0.25) * 100
        #expect(summary.contacts.first?.lifted == nil, "still down at the end")
        #expect(summary.duration == 4)
    }

    @Test("the settled weight is the last stable run's: an earlier run (a plum still settling) does not count")
    func lastStableRun() throws {
        var summarizer = SessionSummarizer()
        // Stable at 59.4 g for 1 s (the run still decaying), moving, then stable at 57.7 g for 2 s.
        summarizer.consume(reading(0, [Plum(id: 418, value: 59.4)]))
        summarizer.consume(reading(1, [Plum(id: 418, value: 58.5, stable: false)]))
        summarizer.consume(reading(1.5, [Plum(id: 418, value: 57.6)]))
        summarizer.consume(reading(2.5, [Plum(id: 418, value: 57.7)]))
        let settled = try #require(summarizer.summary(endingAt: at(3.5)).contacts.first?.settled)
        #expect(settled.mean == 57.7)
        #expect(settled.minimum == 57.6 && settled.maximum == 57.7)
        #expect(abs(settled.standardDeviation - 0.05) < 1e-9)
        #expect(abs(settled.stableSeconds - 3) < 1e-9, "stable seconds over every run")
    }

    @Test("only stable readings count; without grams the settled weight is in percent")
    func percentWhenGramsUnknown() throws {
        var summarizer = SessionSummarizer()
        summarizer.consume(reading(0, [Plum(id: 3, value: 90, grams: false, stable: false)]))
        summarizer.consume(reading(1, [Plum(id: 3, value: 42.5, grams: false)]))
        summarizer.consume(reading(2, [Plum(id: 3, value: 80, grams: false, stable: false)]))
        summarizer.consume(reading(3, []))
        let settled = try #require(summarizer.summary().contacts.first?.settled)
        #expect(settled.unit == .percent)
        #expect(settled.mean == 42.5)
        #expect(settled.minimum == 42.5 && settled.maximum == 42.5)
        #expect(settled.standardDeviation == 0)
        #expect(settled.stableSeconds == 1)
        let peak = try #require(summarizer.summary().contacts.first?.peak)
        #expect(peak.unit == .percent && peak.value == 90, "unstable readings too")
    }

    @Test("a contact never stable has no settled weight, and its peak is its largest reading, not its last")
    func neverStable() {
        var summarizer = SessionSummarizer()
        // A tap: pressed in, harder, eased off, lifted; beside it a plum resting the whole time.
        for (seconds, value) in [(0.0, 10.0), (0.05, 35.5), (0.1, 20.0), (0.15, 4.0)] {
            summarizer.consume(reading(seconds, [Plum(id: 1, value: value, stable: false), Plum(id: 2, value: 60)]))
        }
        summarizer.consume(reading(0.2, [Plum(id: 2, value: 60)]))
        let contacts = summarizer.summary().contacts
        #expect(contacts.first?.settled == nil)
        #expect(contacts.first?.lifted == at(0.2))
        #expect(contacts.first?.peak.unit == .grams && contacts.first?.peak.value == 35.5)
        #expect(
            contacts.last?.peak.unit == .grams && contacts.last?.peak.value == 60,
            "the plum's own, never the tap's"
        )
    }

    @Test("three plums: heaviest durations add up to the time any contact was down, each the time it held the mark")
    func heaviestDurations() throws {
        var summarizer = SessionSummarizer()
        summarizer.consume(reading(1, [Plum(id: 1, value: 50, heaviest: true)]))
        summarizer.consume(reading(2, [Plum(id: 1, value: 50, heaviest: true), Plum(id: 2, value: 30)]))
        summarizer.consume(
            reading(4, [Plum(id: 1, value: 50), Plum(id: 2, value: 30), Plum(id: 3, value: 90, heaviest: true)])
        )
        summarizer.consume(reading(7, [Plum(id: 2, value: 30, heaviest: true), Plum(id: 3, value: 10)]))
        summarizer.consume(reading(8, []))
        summarizer.consume(reading(9, []))  // nothing down: nobody holds the mark
        summarizer.consume(reading(10, [Plum(id: 4, value: 5, heaviest: true)]))
        let summary = summarizer.summary(endingAt: at(10.5))
        let byID = Dictionary(uniqueKeysWithValues: summary.contacts.map { ($0.id, $0) })
        #expect(summary.contacts.map(\.id) == [1, 2, 3, 4])
        #expect(byID[1]?.heaviestSeconds == 3)
        #expect(byID[2]?.heaviestSeconds == 1)
        #expect(byID[3]?.heaviestSeconds == 3)
        #expect(byID[4]?.heaviestSeconds == 0.5)
        let anyDown = 7.0 + 0.5  // 1..8 and 10..10.5
        #expect(abs(summary.contacts.map(\.heaviestSeconds).reduce(0, +) - anyDown) < 1e-9)
        #expect(byID[1]?.lifted == at(7))
        #expect(byID[3]?.placed == at(4))
        #expect(byID[4]?.lifted == nil)
        #expect(summary.start == at(1))
        #expect(summary.end == at(10.5))
        #expect(summary.duration == 9.5)
    }

    @Test("resyncs seen and skipped are counted, and readings a slow consumer skipped")
    func sessionCounts() {
        var summarizer = SessionSummarizer()
        summarizer.consume(reading(0, []))
        summarizer.consume(reading(1, [], resync: true))
        summarizer.noteSkipped(readings: 40, resyncs: 2)
        summarizer.noteSkipped(readings: 2)
        summarizer.consume(reading(2, []))
        let summary = summarizer.summary()
        #expect(summary.frames == 3)
        #expect(summary.resyncs == 3)
        #expect(summary.skipped == 42)
        #expect(summary.contacts.isEmpty)
        #expect(SessionSummarizer().summary().duration == 0)
        #expect(SessionSummarizer().summary().start == nil)
    }

    @Test("the summary is a snapshot: asking for it does not end the contacts still down")
    func summaryIsASnapshot() throws {
        var summarizer = SessionSummarizer()
        summarizer.consume(reading(0, [Plum(id: 1, value: 10, heaviest: true)]))
        _ = summarizer.summary(endingAt: at(5))
        summarizer.consume(reading(1, [Plum(id: 1, value: 10, heaviest: true)]))
        let contact = try #require(summarizer.summary().contacts.first)
        #expect(contact.heaviestSeconds == 1)
        #expect(contact.settled?.stableSeconds == 1)
    }

    @Test("through the real tracker: settled percent is the resting pressure, heaviest time adds up to time down")
    func throughTheTracker() throws {
        var tracker = WeightTracker(pressureRange: range1000)
        var summarizer = SessionSummarizer()
        // Contact 1 rests at 300 (30%) from 0 s; contact 2 at 500 (50%) from 1 s to 3 s; all lift at 4 s.
        for step in 0...400 {
            let time = Double(step) / 100
            while let deadline = tracker.nextStabilityDeadline, deadline < at(time) {
                if let reading = tracker.tick(now: deadline) { summarizer.consume(reading) }
            }
            var contacts: [(Int, Int32?)] = []
            if time < 4 { contacts.append((1, step % 2 == 0 ? 299 : 301)) }
            if time >= 1 && time < 3 { contacts.append((2, 500)) }
            summarizer.consume(tracker.consume(frame(time, contacts)))
        }
        let summary = summarizer.summary()
        let first = try #require(summary.contacts.first)
        let second = try #require(summary.contacts.last)
        #expect(summary.contacts.map(\.id) == [1, 2])
        let settled = try #require(first.settled)
        #expect(settled.unit == .percent)
        #expect(abs(settled.mean - 30) < 0.01)
        // Stable readings report their settled value: steadier than the raw 299/301 (29.9..30.1%).
        #expect(settled.minimum >= 29.9 - 1e-9 && settled.maximum <= 30.1 + 1e-9)
        #expect(settled.maximum - settled.minimum < 0.1, "\(settled.minimum)...\(settled.maximum)")
        #expect(abs(settled.stableSeconds - 3.5) < 1e-6, "stable from 0.5 s to the lift at 4 s")
        #expect(abs(second.settled!.mean - 50) < 1e-9)
        // Contact 2 leads by far more than the margin: it takes the mark after the tracker's hold, keeps it to 3 s.
        let hold = TrackerConfiguration().heaviestHold
        #expect(abs(second.heaviestSeconds - (2 - hold)) < 1e-6, "\(second.heaviestSeconds)")
        #expect(abs(first.heaviestSeconds - (2 + hold)) < 1e-6, "\(first.heaviestSeconds)")
        #expect(abs(first.heaviestSeconds + second.heaviestSeconds - 4) < 1e-6, "someone was down from 0 to 4 s")
        #expect(first.lifted == at(4) && second.lifted == at(3))
    }
}
