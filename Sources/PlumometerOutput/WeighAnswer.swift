public import PlumometerCore

/// What `plumometer weigh` prints as text: one line per contact, heaviest first, then the total.
public enum WeighAnswer {
    /// One line per contact, heaviest first (`#418   72.0 g  heaviest`), then `total   107.5 g` when grams are known,
    /// then the meaning notice in parentheses when there is one (a contact-size device's).
    /// - Parameters:
    ///   - reading: the settled reading.
    ///   - unit: the unit of the weights.
    ///   - notice: what the figures mean when they are no weights, e.g. `contact area, not weight: ...`.
    /// - Returns: the lines, each ending in a newline.
    public static func text(_ reading: Reading, unit: WeightUnit, notice: String? = nil) -> String {
        let contacts = reading.contacts.sorted { $0.rank < $1.rank }
        let width = Swift.max(contacts.map { "#\($0.id)".count }.max() ?? 0, 5)
        var lines: [String] = []
        for contact in contacts {
            let weight = contact.grams.map { unit.format(grams: $0) } ?? "\(NumberText.fixed(contact.percent, 1))%"
            var line = "\(padRight("#\(contact.id)", width)) \(NumberText.padLeft(weight, 10))"
            if contact.heaviest && contacts.count > 1 { line += "  heaviest" }
            if contact.carrier { line += "  carrier" }
            if contact.saturated { line += "  saturated (the weight is at least this)" }
            lines.append(line)
        }
        if let total = reading.totalGrams {
            lines.append("\(padRight("total", width)) \(NumberText.padLeft(unit.format(grams: total), 10))")
        }
        if let notice { lines.append("(\(notice))") }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `text` followed by spaces up to `width` characters.
    private static func padRight(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: Swift.max(0, width - text.count))
    }
}
