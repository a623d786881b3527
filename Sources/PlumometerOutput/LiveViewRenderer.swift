public import PlumometerCore

/// What the live view shows at one moment, as values: the device, its latest reading and the status line's note.
public struct LiveViewContent: Sendable {
    /// The device being read, nil before the first one is open.
    public var record: DeviceRecord?
    /// The latest reading, nil before the first frame (and after a removal).
    public var reading: Reading?
    /// The latest reading's sequence number, as in the line formats' `seq`.
    public var sequence: Int
    /// The device that went away, while the view waits for it to come back.
    public var removedPath: String?
    /// A short note for people (`tared`, `tare cleared`), shown in the status line; empty for none.
    public var status: String
    /// The recording has ended and its last frame stays on screen: the status line says so and offers only the keys
    /// that still do something.
    public var ended: Bool

    /// Creates the content of a screen.
    public init(
        record: DeviceRecord? = nil,
        reading: Reading? = nil,
        sequence: Int = 0,
        removedPath: String? = nil,
        status: String = "",
        ended: Bool = false
    ) {
        self.record = record
        self.reading = reading
        self.sequence = sequence
        self.removedPath = removedPath
        self.status = status
        self.ended = ended
    }
}

/// The live view's screen, drawn from values: the terminal counterpart of the original app's circles, one bar per
/// contact sized by its force, its percent (and weight when known), the heaviest in yellow.
///
/// Nothing here reads a clock, the terminal or the environment: the caller passes the content, the terminal's
/// size, the unit and whether colour is allowed, and writes the text it gets back. The time on the status line is
/// the reading's kernel time. The one state kept between screens is the bar scale, which only grows.
public struct LiveViewRenderer: Sendable {
    /// The unit weights are shown in.
    public let unit: WeightUnit
    /// Whether to use colour and bold (only on a terminal, never with `NO_COLOR`).
    public let colour: Bool
    /// The force a full bar stands for: auto-ranged like a meter, so five plums on a 6 kg pad are not all
    /// invisible slivers. It only grows during a run (bars never jump back), in 1-2-5 steps up to full scale.
    private(set) var barScale = 0.01
    /// A contact's position for the bars' position column (`x 42 y 17 mm`, `left`), or nil for no column: set by
    /// the caller, which knows the surface (PlumometerPictures' `PadGeometry.positionText`).
    public var position: (@Sendable (ContactReading) -> String?)?

    /// Switches to the alternate screen and hides the cursor: the user's scrollback is left as it was.
    public static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l"
    /// Shows the cursor and leaves the alternate screen, back to the user's terminal as it was.
    public static let leaveScreen = "\u{1B}[?25h\u{1B}[?1049l"
    /// Clears the screen (still the alternate one) and hides the cursor: before a whole redraw after a stop that
    /// did not leave the alternate screen (a SIGSTOP from elsewhere, the shell writing over it).
    public static let clearScreen = "\u{1B}[2J\u{1B}[?25l"
    /// The status line's note while a recording's last frame is held.
    public static let endOfRecording = "end of recording, q to quit"

    /// Creates a renderer whose bar scale starts at 1% of full scale.
    public init(unit: WeightUnit, colour: Bool) {
        self.unit = unit
        self.colour = colour
    }

    /// The whole screen as one string: cursor home, each line cleared to its end, the rest of the screen cleared.
    /// - Parameters:
    ///   - content: what to show.
    ///   - columns: the terminal's width (at least 20 is assumed).
    ///   - rows: the terminal's height.
    ///   - body: draws the part between the header and the footer instead of the bars (the live map): given the
    ///     columns and rows it may use, its lines, or nil for the bars.
    /// - Returns: the text that redraws the terminal in place.
    public mutating func screen(
        _ content: LiveViewContent,
        columns: Int,
        rows: Int,
        body: ((_ columns: Int, _ rows: Int) -> [String]?)? = nil
    ) -> String {
        "\u{1B}[H"
            + lines(content, columns: columns, rows: rows, body: body).map { $0 + "\u{1B}[K" }.joined(
                separator: "\r\n"
            )
            + "\u{1B}[J"
    }

    /// Grows the bar scale to the heaviest of `contacts` (in 1-2-5 steps, never shrinking), as drawing them does.
    public mutating func growScale(for contacts: [ContactReading]) {
        let largest = contacts.map(\.force).max() ?? 0
        while barScale < 1 && largest > barScale {
            barScale = Self.nextScale(after: barScale)
        }
    }

    /// The force a full bar (or the largest circle of the map) stands for, as a fraction of full scale.
    public var scale: Double { barScale }

    /// The screen's lines, colour codes included, without the cursor and clearing codes; grows the bar scale to
    /// the heaviest contact shown.
    mutating func lines(
        _ content: LiveViewContent,
        columns: Int,
        rows: Int,
        body: ((_ columns: Int, _ rows: Int) -> [String]?)? = nil
    ) -> [String] {
        var lines: [String] = []
        let width = max(20, columns)
        // Every line is cut to the width less one column, so the terminal never wraps and redraws stay in place.
        // A short terminal gives the objects its rows first: one each (at least one for the body), then the two
        // blank rows, then up to three of the device's note; below that the note and the blank rows go.
        let needed = max(1, content.reading?.contacts.count ?? 0)
        let spare = rows - 2 - needed
        let blanks = spare >= 2
        let detailLimit = max(0, min(3, spare - (blanks ? 2 : 0)))
        if let record = content.record {
            let title = "  " + record.description.name.forTerminalName + "  " + record.path.forTerminalName
            lines.append(style("1", "plumometer") + Self.cutAtWord(title, width: width - 11))
            var detail = record.classification.reason
            switch record.gramsSource {
            case .none: break
            case .resolution(let resolution): detail += " Grams from the axis resolution (\(resolution)/g)."
            case .calibration:
                // The reason may say the device reads grams by itself: a profile overrides that, so it is named.
                detail = record.classification.sensing.rawValue + ": grams from " + (record.profileText ?? "") + "."
            }
            if let notice = record.meaningNotice {
                // What a contact-size device's figures compare comes first, whatever gives them grams.
                detail =
                    record.classification.sensing.rawValue + ": " + notice + "."
                    + (record.profileText.map { " Grams from " + $0 + "." } ?? "")
            }
            // The note wraps at word boundaries (three lines at most), so what it says is not cut off.
            if detailLimit > 0 {
                lines += Self.wrap(detail.forTerminalName, width: width - 1, maximumLines: detailLimit).map {
                    style("2", $0)
                }
            }
        } else {
            lines.append(style("1", "plumometer") + "  waiting for a device")
        }
        if blanks { lines.append("") }
        // Header, a blank row, the body, a blank row and the status line.
        let bodyRows = max(1, rows - lines.count - (blanks ? 2 : 1))
        if let removedPath = content.removedPath {
            lines += Self.wrap(
                removedPath.forTerminalName + " was removed; waiting for it to come back.",
                width: width - 3,
                maximumLines: bodyRows
            ).map { "  " + $0 }
        } else if let body, content.record != nil, let drawn = body(width - 1, bodyRows) {
            growScale(for: content.reading?.contacts ?? [])
            lines += drawn
        } else if let latest = content.reading, !latest.contacts.isEmpty {
            lines += contactLines(latest.contacts, width: width, rows: rows, bodyRows: bodyRows, record: content.record)
        } else {
            lines += Self.wrap(
                "Nothing on the surface. Place objects; only conductive ones (fingers, coins, fruit) register.",
                width: width - 3,
                maximumLines: bodyRows
            ).map { "  " + $0 }
        }
        if blanks { lines.append("") }
        lines.append(style("2", Self.statusLine(statusParts(content, map: body != nil), width: width - 1)))
        return lines
    }

    /// A line per contact, all bars one width; on a short terminal the heaviest, and how many more there are.
    private mutating func contactLines(
        _ contacts: [ContactReading],
        width: Int,
        rows: Int,
        bodyRows: Int,
        record: DeviceRecord?
    ) -> [String] {
        growScale(for: contacts)
        // The position column: every text padded to the widest, so the columns after it line up.
        let positions = position.map { position in contacts.map { position($0) ?? "" } } ?? []
        let positionWidth = positions.map(\.count).max() ?? 0
        // Header, blank, blank and status take the other rows; a 16-finger pad on a short terminal shows the
        // heaviest first and says how many more there are.
        let room = max(1, bodyRows)
        // More objects than rows: several to a line, each its name and weight (or percent), before any is left out.
        if contacts.count > room, let tiles = tiles(contacts, columns: width - 1, rows: room) { return tiles }
        var shown = contacts
        if shown.count > room {
            let kept = Set(shown.sorted { $0.rank < $1.rank }.prefix(room - 1).map(\.id))
            shown = shown.filter { kept.contains($0.id) }
        }
        // One layout for every line, so bars and columns compare: the first of the layouts (widest first) that
        // leaves a bar of a useful width beside the widest tail; else the compact one without a bar, dropping the
        // least needed marks (`Segment.priority`) from every line until the widest fits. The name, the percent and
        // the heaviest mark are the last to go, so the heaviest is marked (and coloured) down to 40 columns.
        let positionText = { (contact: ContactReading) -> String? in
            guard positionWidth > 0, let index = contacts.firstIndex(where: { $0.id == contact.id }) else { return nil }
            return positions[index] + String(repeating: " ", count: positionWidth - positions[index].count)
        }
        let columns = width - 1
        let names = shown.map { "#\($0.id)" }
        let gramsWidth = shown.compactMap { $0.grams.map { unit.format(grams: $0).count } }.max() ?? 0
        let layouts: [(compact: Bool, position: Bool, minimumBar: Int)] = [
            (false, true, 8), (false, false, 8), (true, false, 4),
        ]
        var chosen: (tails: [[Segment]], nameWidth: Int, barWidth: Int)?
        for layout in layouts {
            let tails = shown.map {
                Self.tail(
                    of: $0,
                    unit: unit,
                    colour: colour,
                    position: layout.position ? positionText($0) : nil,
                    compact: layout.compact ? gramsWidth : nil
                )
            }
            let nameWidth = layout.compact ? (names.map(\.count).max() ?? 0) : 6
            let widestTail = tails.map { $0.reduce(0) { $0 + $1.text.count } }.max() ?? 0
            // The compact tail starts with no space: the bar, when there is one, is followed by one.
            let barWidth = min(60, columns - nameWidth - 1 - widestTail - (layout.compact ? 1 : 0))
            if barWidth >= layout.minimumBar {
                chosen = (tails, nameWidth, barWidth)
                break
            }
            if layout.compact { chosen = (tails, nameWidth, 0) }
        }
        var (tails, nameWidth, barWidth) = chosen!
        while barWidth == 0 {
            let widest = tails.map { $0.reduce(0) { $0 + $1.text.count } }.max() ?? 0
            guard nameWidth + 1 + widest > columns,
                let lowest = tails.joined().map(\.priority).filter({ $0 < Segment.kept }).min()
            else { break }
            tails = tails.map { $0.filter { $0.priority != lowest } }
        }
        var lines = zip(shown, tails).map { contact, tail in
            contactLine(contact, width: columns, nameWidth: nameWidth, barWidth: barWidth, tail: tail)
        }
        if shown.count < contacts.count {
            lines.append(
                Self.cutAtWord("  ... and \(contacts.count - shown.count) more (lighter) contacts", width: width - 1)
            )
        }
        return lines
    }

    /// The last step down, for more objects than rows: each object as `#id weight` (its percent without grams), `*`
    /// after the heaviest's (bold yellow with colour), as many to a line as fit in columns of one width, in the
    /// reading's order; nil when even that leaves some out (then the heaviest first and a count of the rest).
    private func tiles(_ contacts: [ContactReading], columns: Int, rows: Int) -> [String]? {
        let texts = contacts.map { contact in
            "#\(contact.id) "
                + (contact.grams.map { unit.format(grams: $0) } ?? NumberText.fixed(contact.percent, 1) + "%")
        }
        let width = (texts.map(\.count).max() ?? 0) + 2
        let perLine = max(1, (columns + 2) / (width + 2))
        guard contacts.count <= perLine * rows, perLine > 1 else { return nil }
        var lines: [String] = []
        for start in stride(from: 0, to: contacts.count, by: perLine) {
            let end = min(contacts.count, start + perLine)
            var line = ""
            for index in start..<end {
                let text = texts[index] + (contacts[index].heaviest ? " *" : "")
                // Columns of one width, two spaces apart; nothing after the last.
                let gap = index + 1 < end ? String(repeating: " ", count: width - text.count + 2) : ""
                line += (contacts[index].heaviest && colour ? style("1;33", text) : text) + gap
            }
            lines.append(line)
        }
        return lines
    }

    /// 1% → 2% → 5% → 10% → 20% → 50% → 100%.
    public static func nextScale(after scale: Double) -> Double {
        for step in [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0] where step > scale + 1e-12 { return step }
        return 1
    }

    /// One part of the text after a contact's bar: its text, its colour, and how much it is needed when the line
    /// is too narrow for all of them (the lowest priority goes first; ``kept`` ones never).
    struct Segment {
        var text: String
        var code: String?
        var priority: Int

        /// The priority of the parts never dropped: the percent and the heaviest mark.
        static let kept = 10
    }

    /// The text after a contact's bar: percent, weight, position, state and marks, each with its colour.
    ///
    /// - Parameters:
    ///   - compact: nil for the wide layout; for the narrow one, the width of the widest weight shown (weights are
    ///     padded to it, parts are one space apart and a saturation says `SATURATED` alone).
    static func tail(
        of contact: ContactReading,
        unit: WeightUnit,
        colour: Bool,
        position: String? = nil,
        compact: Int? = nil
    ) -> [Segment] {
        let gap = compact == nil ? "  " : " "
        let percent = NumberText.padLeft(NumberText.fixed(contact.percent, 1) + "%", 6)
        var tail = [Segment(text: (compact == nil ? " " : "") + percent, priority: Segment.kept)]
        if let grams = contact.grams {
            let text = unit.format(grams: grams)
            tail.append(
                Segment(
                    text: compact.map { " " + NumberText.padLeft(text, $0) } ?? NumberText.padLeft(text, 11),
                    priority: 4
                )
            )
        }
        if let position { tail.append(Segment(text: "  " + position, priority: 0)) }
        tail.append(Segment(text: gap + (contact.stable ? "stable  " : "settling"), priority: 1))
        if contact.carrier { tail.append(Segment(text: gap + "carrier", priority: 3)) }
        if contact.heaviest {
            tail.append(Segment(text: gap + (colour ? "heaviest" : "* heaviest"), code: "1;33", priority: Segment.kept))
        }
        if contact.saturated {
            let text = compact == nil ? "SATURATED (weight is at least this)" : "SATURATED"
            tail.append(Segment(text: gap + text, code: "31", priority: 5))
        }
        return tail
    }

    /// One contact: its name, bar, then its tail, in at most `width` visible columns; on a terminal narrower than
    /// the tail, the text is cut. Colour is applied after cutting, so escape sequences never count as columns.
    private func contactLine(
        _ contact: ContactReading,
        width: Int,
        nameWidth: Int,
        barWidth: Int,
        tail: [Segment]
    ) -> String {
        var line = NumberText.padLeft("#\(contact.id)", nameWidth) + " "
        var remaining = width - line.count
        if barWidth > 0 {
            let filled = Int((max(0, min(1, contact.force / barScale)) * Double(barWidth)).rounded())
            let bar =
                String(repeating: "\u{2588}", count: filled) + String(repeating: "\u{2591}", count: barWidth - filled)
            line += contact.heaviest ? style("33", bar) : bar
            remaining -= barWidth
            // The compact layout's percent has no space of its own before it (it follows the name when there is no
            // bar): one goes after the bar.
            if tail.first?.text.first != " " {
                line += " "
                remaining -= 1
            }
        }
        for segment in tail where remaining > 0 {
            let text = String(segment.text.prefix(remaining))
            remaining -= text.count
            line += segment.code.map { style($0, text) } ?? text
        }
        return line
    }

    /// `text` in the SGR style `code` when colour is on, plain otherwise.
    private func style(_ code: String, _ text: String) -> String {
        colour ? "\u{1B}[" + code + "m" + text + "\u{1B}[0m" : text
    }
}
