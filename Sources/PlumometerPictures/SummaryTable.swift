public import PlumometerCore
public import PlumometerOutput

/// The session summary as a small text table for people (stderr at the end of a live session or a replay):
/// one row per contact, then a line for the session.
///
/// ```
/// contact   placed    lifted        settled   heaviest
///     #11   1.00 s         -   72.0 ± 0.2 g      6.3 s
///     #12   3.00 s    8.00 s   95.0 ± 0.2 g      4.7 s
/// 12.00 s, 1201 readings, 1 resync, 0 skipped
/// ```
///
/// Times are seconds from the session's first reading; the settled weight is the mean and standard deviation over
/// the contact's stable windows, in `unit` when grams are known, else percent of full scale; a contact that was never
/// stable shows its peak instead, said as such (`peak 12.5%`), as the plot's table does.
public enum SummaryTable {
    /// The table's lines, without line ends; `ascii` replaces `±` with `+-` for a non-UTF-8 terminal.
    public static func lines(_ summary: SessionSummary, unit: WeightUnit = .grams, ascii: Bool = false) -> [String] {
        let origin = summary.start ?? .zero
        let seconds = { (time: EventTime) in NumberText.fixed(time.seconds(since: origin), 2) + " s" }
        var rows = [["contact", "placed", "lifted", "settled", "heaviest"]]
        for contact in summary.contacts {
            rows.append([
                "#\(contact.id)", seconds(contact.placed), contact.lifted.map(seconds) ?? "-",
                contact.settled.map { settledText($0, unit: unit, ascii: ascii) } ?? peakText(contact.peak, unit: unit),
                NumberText.fixed(contact.heaviestSeconds, 1) + " s",
            ])
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        // Every column right-aligned, so the numbers line up on their units.
        var lines = rows.map { row in
            row.enumerated().map { column, cell in String(repeating: " ", count: widths[column] - cell.count) + cell }
                .joined(separator: "   ")
        }
        if summary.contacts.isEmpty { lines = ["no contacts"] }
        var session = NumberText.fixed(summary.duration, 2) + " s, " + plural(summary.frames, "reading")
        session += ", " + plural(summary.resyncs, "resync") + ", \(summary.skipped) skipped"
        lines.append(session)
        return lines
    }

    /// `72.0 ± 0.2 g`, `45.0 ± 0.1%`.
    static func settledText(_ weight: SessionSummary.SettledWeight, unit: WeightUnit, ascii: Bool) -> String {
        let number = Number(unit: weight.unit, shownIn: unit)
        return number.text(weight.mean) + (ascii ? " +- " : " \u{00B1} ") + number.text(weight.standardDeviation)
            + number.suffix
    }

    /// `peak 72.0 g`, `peak 45.0%`: the largest value of a contact that never settled.
    static func peakText(_ peak: SessionSummary.Peak, unit: WeightUnit) -> String {
        let number = Number(unit: peak.unit, shownIn: unit)
        return "peak " + number.text(peak.value) + number.suffix
    }

    /// How the table writes a summary value: grams in the `--unit` chosen, with that unit's decimals as the text
    /// lines have them (`0.159 lb`, never `0.2 lb`), percent with 1.
    private struct Number {
        let factor: Double
        let decimals: Int
        let suffix: String

        init(unit: SessionSummary.WeightUnit, shownIn shown: WeightUnit) {
            let grams = unit == .grams
            factor = grams ? shown.value(fromGrams: 1) : 1
            decimals = grams ? shown.decimals : 1
            suffix = grams ? " " + shown.rawValue : "%"
        }

        func text(_ value: Double) -> String { NumberText.fixed(value * factor, decimals) }
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) " + noun + (count == 1 ? "" : "s")
    }
}
