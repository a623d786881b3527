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
/// the contact's stable windows, in `unit` when grams are known, else percent of full scale (`-` when never stable).
public enum SummaryTable {
    /// The table's lines, without line ends; `ascii` replaces `±` with `+-` for a non-UTF-8 terminal.
    public static func lines(_ summary: SessionSummary, unit: WeightUnit = .grams, ascii: Bool = false) -> [String] {
        let origin = summary.start ?? .zero
        let seconds = { (time: EventTime) in NumberText.fixed(time.seconds(since: origin), 2) + " s" }
        var rows = [["contact", "placed", "lifted", "settled", "heaviest"]]
        for contact in summary.contacts {
            rows.append([
                "#\(contact.id)", seconds(contact.placed), contact.lifted.map(seconds) ?? "-",
                contact.settled.map { settledText($0, unit: unit, ascii: ascii) } ?? "-",
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
        let grams = weight.unit == .grams
        let factor = grams ? unit.value(fromGrams: 1) : 1
        let decimals = grams && unit == .ounces ? 2 : 1
        return NumberText.fixed(weight.mean * factor, decimals) + (ascii ? " +- " : " \u{00B1} ")
            + NumberText.fixed(weight.standardDeviation * factor, decimals) + (grams ? " " + unit.rawValue : "%")
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) " + noun + (count == 1 ? "" : "s")
    }
}
