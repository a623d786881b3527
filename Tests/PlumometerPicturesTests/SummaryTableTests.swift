import PlumometerCore
import PlumometerPictures
import Testing

@Suite("Summary table: the session summary for people")
struct SummaryTableTests {
    @Test("the three plums: one row per plum, times from the first reading, settled weights, heaviest times")
    func threePlumsTable() throws {
        var summarizer = SessionSummarizer()
        threePlums { summarizer.consume($0) }
        let lines = SummaryTable.lines(summarizer.summary())
        #expect(lines.count == 5)
        #expect(lines[0] == "contact   placed    lifted        settled   heaviest")
        // Settled readings: a resting plum's reported weight holds still (± 0.0 g).
        #expect(lines[1] == "    #11   1.00 s         -   72.0 ± 0.0 g      6.4 s")
        // The last stable value, the weight the plum settled at (a mean over every stable window said 95.1 g).
        #expect(lines[2] == "    #12   3.00 s    8.00 s   95.0 ± 0.0 g      4.6 s")
        #expect(lines[3] == "    #13   5.50 s   10.00 s   48.0 ± 0.0 g      0.0 s")
        #expect(lines[4] == "12.00 s, 1201 readings, 1 resync, 0 skipped")
    }

    @Test("percent without grams, ounces, pounds, carats, ASCII, a contact never stable, an empty session")
    func variants() {
        var summarizer = SessionSummarizer()
        summarizer.consume(Reading(time: at(0), contacts: [contact(1, atMM: 10, 10, force: 0.45, stable: true)]))
        summarizer.consume(
            Reading(
                time: at(2),
                contacts: [
                    contact(1, atMM: 10, 10, force: 0.45, stable: true), contact(2, atMM: 50, 10, force: 0.1),
                ]
            )
        )
        summarizer.noteSkipped(readings: 3)
        let lines = SummaryTable.lines(summarizer.summary(endingAt: at(4)), ascii: true)
        #expect(lines[1].hasSuffix("45.0 +- 0.0%      0.0 s"))
        // Never stable: its peak, said as such, where the settled weight would be.
        #expect(lines[2].hasSuffix("   peak 10.0%      0.0 s"), "\(lines[2])")
        #expect(lines[3] == "4.00 s, 2 readings, 0 resyncs, 3 skipped")
        var grams = SessionSummarizer()
        grams.consume(Reading(time: at(0), contacts: [contact(1, atMM: 1, 1, force: 0.2, grams: 56.699, stable: true)]))
        #expect(SummaryTable.lines(grams.summary(), unit: .ounces)[1].contains("2.00 ± 0.00 oz"))
        // Pounds with the text lines' 3 decimals: a 57 g plum is 0.125 lb, which 1 decimal would round to 0.1.
        #expect(SummaryTable.lines(grams.summary(), unit: .pounds)[1].contains("0.125 ± 0.000 lb"))
        #expect(SummaryTable.lines(grams.summary(), unit: .carats)[1].contains("283.5 ± 0.0 ct"))
        var tap = SessionSummarizer()
        tap.consume(Reading(time: at(0), contacts: [contact(1, atMM: 1, 1, force: 0.2, grams: 56.699)]))
        tap.consume(Reading(time: at(0.1), contacts: [contact(1, atMM: 1, 1, force: 0.1, grams: 28.35)]))
        tap.consume(Reading(time: at(0.2), contacts: []))
        #expect(SummaryTable.lines(tap.summary(), unit: .ounces)[1].hasSuffix("   peak 2.00 oz      0.0 s"))
        #expect(SummaryTable.lines(tap.summary())[1].hasSuffix("   peak 56.7 g      0.0 s"))
        #expect(
            SummaryTable.lines(SessionSummarizer().summary()) == [
                "no contacts", "0.00 s, 0 readings, 0 resyncs, 0 skipped",
            ]
        )
    }
}
