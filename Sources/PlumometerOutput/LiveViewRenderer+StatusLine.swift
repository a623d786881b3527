import PlumometerCore

/// The live view's status line: its parts (counts, time, total, note, keys, scale) and how they shorten on a narrow
/// terminal, and the text helpers the screen's messages share.
extension LiveViewRenderer {
    /// One part of the status line: its forms from the longest to the shortest ("" to leave it out), and when it is
    /// shortened: parts with a lower `order` give up a form first.
    struct StatusPart {
        var forms: [String]
        /// One entry per shortening (`forms.count - 1`): when, among all parts' shortenings, it comes.
        var order: [Int]
        /// The spaces before it when a part precedes it.
        var gap = "   "
        /// Whether the part after it follows two spaces, not its own gap (the total's, as the line always was).
        var tightAfter = false
    }

    /// The status line's parts: the counts, the session's time and sequence, the total, the note, the keys and the
    /// scale, each with the shorter forms it takes on a narrow terminal.
    func statusParts(_ content: LiveViewContent, map: Bool) -> [StatusPart] {
        var parts: [StatusPart] = []
        if let latest = content.reading {
            let count = latest.contacts.count
            parts.append(StatusPart(forms: ["\(count) contact" + (count == 1 ? "" : "s"), ""], order: [10]))
            // The session's elapsed time (from when reading the device started), not the kernel's seconds since
            // boot.
            let start = content.record?.time ?? latest.time
            let elapsed = Double(max(0, latest.time.microseconds - start.microseconds)) / 1e6
            parts.append(StatusPart(forms: [NumberText.fixed(elapsed, 1) + " s", ""], order: [4], gap: "  "))
            parts.append(StatusPart(forms: ["#\(content.sequence)", ""], order: [2], gap: "  "))
            if latest.resync { parts.append(StatusPart(forms: ["resynchronised", "resync"], order: [5])) }
            if let total = latest.totalGrams, !latest.contacts.isEmpty {
                parts.append(
                    StatusPart(forms: ["total " + unit.format(grams: total), ""], order: [9], tightAfter: true)
                )
            }
        }
        let mapKey = map ? "[m]ap " : ""
        if content.ended {
            // Nothing more is read: taring would change nothing on screen, so only the view and quitting are offered.
            let compact = "ended " + (map ? "[m] " : "") + "[q]uit"
            parts.append(
                StatusPart(forms: [Self.endOfRecording + (map ? "   [m]ap" : ""), compact, "[q]uit"], order: [3, 6])
            )
        } else {
            // The note answers a key just pressed: it is cut after a whole word, and left out only after the keys
            // are down to `[q]uit`.
            if !content.status.isEmpty {
                let short = Self.cutAtWord(content.status, width: 40)
                parts.append(StatusPart(forms: [content.status, short, ""], order: [7, 8]))
            }
            // The keys in as few columns as they can be read in, then each key's letter alone, and at the last
            // `[q]uit` alone, which is never left out.
            parts.append(
                StatusPart(
                    forms: [
                        "[t]are [c]lear [k]carrier " + mapKey + "[q]uit",
                        "[t][c][k]" + (map ? "[m]" : "") + " [q]uit", "[q]uit",
                    ],
                    order: [3, 6]
                )
            )
        }
        let percent = NumberText.fixed(barScale * 100, 0) + "%"
        parts.append(
            StatusPart(
                forms: [
                    (map ? "scale: " : "bar: ") + percent + " of full scale", (map ? "scale " : "bar ") + percent, "",
                ],
                order: [0, 1]
            )
        )
        return parts
    }

    /// The status line in at most `width` columns: its parts apart by their gaps, shortened one step at a time in
    /// the steps' order (the scale's words first, `[q]uit` never), so nothing is cut inside a word; cut only when
    /// even the shortest forms do not fit.
    static func statusLine(_ parts: [StatusPart], width: Int) -> String {
        var chosen = Array(repeating: 0, count: parts.count)
        func text() -> String {
            var out = ""
            var tight = false
            for (index, part) in parts.enumerated() where !part.forms[chosen[index]].isEmpty {
                out += (out.isEmpty ? "" : tight ? "  " : part.gap) + part.forms[chosen[index]]
                tight = part.tightAfter
            }
            return out
        }
        let steps = parts.enumerated().flatMap { index, part in part.order.map { (order: $0, part: index) } }
            .sorted { ($0.order, $0.part) < ($1.order, $1.part) }
        var line = text()
        for step in steps where line.count > width {
            chosen[step.part] = min(chosen[step.part] + 1, parts[step.part].forms.count - 1)
            line = text()
        }
        return String(line.prefix(max(0, width)))
    }

    /// `text` cut into lines of at most `width` columns at spaces (a word longer than a line is cut), at most
    /// `maximumLines` of them, the last ending in `...` when text is left over.
    static func wrap(_ text: String, width: Int, maximumLines: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if candidate.count <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            current = String(word.prefix(width))
        }
        if !current.isEmpty { lines.append(current) }
        guard lines.count > maximumLines else { return lines.isEmpty ? [""] : lines }
        var kept = Array(lines.prefix(maximumLines))
        kept[maximumLines - 1] = String(kept[maximumLines - 1].prefix(max(0, width - 3))) + "..."
        return kept
    }

    /// `text` in at most `width` columns, cut after its last whole word with `...` when it is longer (a single word
    /// longer than that is cut).
    static func cutAtWord(_ text: String, width: Int) -> String {
        guard text.count > width else { return text }
        let room = String(text.prefix(max(0, width - 3)))
        guard let space = room.lastIndex(of: " "), room[..<space].contains(where: { $0 != " " }) else {
            return String(text.prefix(max(0, width)))
        }
        return String(room[..<space]) + "..."
    }
}
