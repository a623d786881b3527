import PlumometerCore
import Testing

@testable import PlumometerOutput

/// The live view's hooks for the map (a body drawn instead of the bars, the bars' position column, the elapsed
/// time, the wrapped note) and the `summary` record of JSON Lines.
struct LiveViewBodyAndSummaryTests {
    /// The record of the force pad, reading started 10 s before ``OutputTestValues/twoContacts``.
    static var content: LiveViewContent {
        var record = OutputTestValues.record()
        record.time = EventTime(microseconds: 2_500_000)
        return LiveViewContent(record: record, reading: OutputTestValues.twoContacts, sequence: 3)
    }

    @Test func theBodyReplacesTheBarsWithTheRowsLeftAndTheKeysSayM() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        var given: (Int, Int)?
        let lines = renderer.lines(Self.content, columns: 100, rows: 12) { columns, rows in
            given = (columns, rows)
            return ["MAP"]
        }
        #expect(given?.0 == 99, "one column is kept free so the terminal never wraps")
        #expect(given?.1 == 12 - 3 - 2, "header (2), a blank, then a blank and the status line")
        #expect(lines[3] == "MAP")
        #expect(lines.last?.hasPrefix("2 contacts  10.0 s  #3   [t]are [c]lear [k]carrier [m]ap [q]uit") == true)
        #expect(!lines.contains { $0.contains("#17") }, "no bars under the map")
    }

    @Test func aBodyThatDeclinesLeavesTheBarsWithTheirPositionColumn() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        renderer.position = { contact in contact.x.map { "x \($0)" } }
        let lines = renderer.lines(Self.content, columns: 100, rows: 24) { _, _ in nil }
        let first = lines.first { $0.contains("#17") } ?? ""
        let second = lines.first { $0.contains("#18") } ?? ""
        #expect(first.contains("3000.0 g  x 100  stable"), "\(first)")
        // #18 has no position: its column is blank.
        #expect(second.contains("25.0%  " + String(repeating: " ", count: 5) + "  settling"), "\(second)")
    }

    @Test func theNoteWrapsAtWordsInsteadOfBeingCut() {
        let lines = LiveViewRenderer.wrap("one two three four five six", width: 9, maximumLines: 3)
        #expect(lines == ["one two", "three", "four f..."])
        #expect(LiveViewRenderer.wrap("short", width: 9, maximumLines: 3) == ["short"])
        #expect(LiveViewRenderer.wrap("abcdefghijkl", width: 5, maximumLines: 3) == ["abcde"])
    }

    @Test func theSummaryRecordHasTheDocumentedKeysInOrder() {
        // #11 rests at 72 g from 1 s to the end (6 s), the heaviest all along; #12 is down from 3 s to 4.5 s,
        // never stable.
        let plum = { (stable: Bool) in
            OutputTestValues.contact(
                11,
                x: 10,
                y: 10,
                pressure: 72,
                force: 0.012,
                ratio: 1,
                share: 1,
                rank: 1,
                heaviest: true,
                stable: stable,
                grams: 72
            )
        }
        let light = OutputTestValues.contact(12, pressure: 5, force: 0.001, ratio: 0.07, share: 0.06, rank: 2)
        var summarizer = SessionSummarizer()
        summarizer.consume(Reading(time: EventTime(microseconds: 1_000_000), contacts: [plum(true)]))
        summarizer.consume(Reading(time: EventTime(microseconds: 3_000_000), contacts: [plum(true), light]))
        summarizer.consume(Reading(time: EventTime(microseconds: 4_500_000), contacts: [plum(true)], resync: true))
        let summary = summarizer.summary(endingAt: EventTime(microseconds: 6_000_000))
        #expect(
            JSONLinesFormatter().summary(summary, device: "/dev/input/event7")
                == "{\"type\":\"summary\",\"device\":\"/dev/input/event7\",\"start\":1.000000,\"end\":6.000000,"
                + "\"duration\":5.000000,\"frames\":3,\"resyncs\":1,\"skipped\":0,\"contacts\":["
                + "{\"id\":11,\"placed\":1.000000,\"lifted\":null,\"settled\":{\"unit\":\"g\",\"mean\":72.00,"
                + "\"min\":72.00,\"max\":72.00,\"sd\":0.00,\"stable_seconds\":5.000},"
                + "\"peak\":{\"unit\":\"g\",\"value\":72.00},\"heaviest_seconds\":5.000},"
                + "{\"id\":12,\"placed\":3.000000,\"lifted\":4.500000,\"settled\":null,"
                + "\"peak\":{\"unit\":\"%\",\"value\":0.10},\"heaviest_seconds\":0.000}"
                + "]}\n"
        )
        #expect(
            JSONLinesFormatter().summary(SessionSummarizer().summary(), device: "x")
                == "{\"type\":\"summary\",\"device\":\"x\",\"start\":null,\"end\":null,\"duration\":0.000000,"
                + "\"frames\":0,\"resyncs\":0,\"skipped\":0,\"contacts\":[]}\n"
        )
    }
}
