import PlumometerCore
import PlumometerLinux
import PlumometerOutput

/// The terminal counterpart of the original app's circles: one bar per contact sized by its force, its
/// percent (and weight when known), the heaviest in yellow, redrawn in place at most 30 times a second.
final class LiveView: ReadingOutput {
    private let sink: FileDescriptorWriter
    private let colour: Bool
    private let unit: WeightUnit
    private let terminalSize: () -> (columns: Int, rows: Int)
    private var record: DeviceRecord?
    private var latest: Reading?
    private var sequence = 0
    private var message = ""
    private var dirty = false
    private var lastDraw: EventTime?
    private var started = false
    private var removedPath: String?
    /// The force a full bar stands for: auto-ranged like a meter, so five plums on a 6 kg pad are not all
    /// invisible slivers. It only grows during a run (bars never jump back), in 1-2-5 steps up to full scale.
    private var barScale = 0.01
    /// The minimum time between two redraws: 30 per second at most.
    static let redrawInterval: Int64 = 33_333

    init(
        sink: FileDescriptorWriter,
        colour: Bool,
        unit: WeightUnit,
        terminalSize: @escaping () -> (columns: Int, rows: Int)
    ) {
        self.sink = sink
        self.colour = colour
        self.unit = unit
        self.terminalSize = terminalSize
    }

    func device(_ record: DeviceRecord) throws {
        self.record = record
        removedPath = nil
        latest = nil
        if !started {
            started = true
            // Alternate screen, hidden cursor: the user's scrollback is left as it was.
            try sink.write("\u{1B}[?1049h\u{1B}[?25l")
        }
        try draw(now: MonotonicClock.now())
    }

    func frame(_ reading: Reading, sequence: Int) throws {
        latest = reading
        self.sequence = sequence
        dirty = true
        try idle(now: MonotonicClock.now())
    }

    func removed(path: String, time: EventTime) throws {
        removedPath = path
        latest = nil
        try draw(now: MonotonicClock.now())
    }

    /// The terminal changed size: redraw at the next chance, to the new width and height.
    func resized() {
        dirty = true
    }

    func status(_ message: String) {
        self.message = message
        dirty = true
    }

    func idle(now: EventTime) throws {
        guard dirty else { return }
        if let lastDraw, now.microseconds - lastDraw.microseconds < Self.redrawInterval { return }
        try draw(now: now)
    }

    func idleDeadline(now: EventTime) -> Int64? {
        guard dirty else { return nil }
        guard let lastDraw else { return 0 }
        return max(0, Self.redrawInterval - (now.microseconds - lastDraw.microseconds))
    }

    func finish() throws {
        guard started else { return }
        try draw(now: MonotonicClock.now())
        try sink.write("\u{1B}[?25h\u{1B}[?1049l")
        started = false
    }

    /// Restores the terminal without throwing (error paths).
    func restoreTerminal() {
        guard started else { return }
        try? sink.write("\u{1B}[?25h\u{1B}[?1049l")
        started = false
    }

    private func style(_ code: String, _ text: String) -> String {
        colour ? "\u{1B}[" + code + "m" + text + "\u{1B}[0m" : text
    }

    private func draw(now: EventTime) throws {
        lastDraw = now
        dirty = false
        try sink.write(render())
    }

    /// The whole screen as one string (cursor home, each line cleared to its end, the rest cleared).
    func render() -> String {
        var lines: [String] = []
        let size = terminalSize()
        let width = max(20, size.columns)
        // Every line is cut to the width less one column, so the terminal never wraps and redraws stay in place.
        let fit = { (text: String) -> String in String(text.prefix(width - 1)) }
        if let record {
            lines.append(
                style("1", "plumometer")
                    + String(
                        ("  " + record.description.name.forTerminal + "  " + record.path.forTerminal).prefix(width - 11)
                    )
            )
            var detail = record.classification.reason
            switch record.gramsSource {
            case .none: break
            case .resolution(let resolution): detail += " Grams from the axis resolution (\(resolution)/g)."
            case .calibration: detail += " Grams from a calibration profile."
            }
            lines.append(style("2", fit(detail)))
        } else {
            lines.append(style("1", "plumometer") + "  waiting for a device")
        }
        lines.append("")
        if let removedPath {
            lines.append(fit("  " + removedPath.forTerminal + " was removed; waiting for it to come back."))
        } else if let latest, !latest.contacts.isEmpty {
            let largest = latest.contacts.map(\.force).max() ?? 0
            while barScale < 1 && largest > barScale {
                barScale = Self.nextScale(after: barScale)
            }
            // Header, blank, blank and status take four rows; a 16-finger pad on a short terminal shows the
            // heaviest first and says how many more there are.
            let room = max(1, size.rows - 5)
            var shown = latest.contacts
            if shown.count > room {
                let kept = Set(shown.sorted { $0.rank < $1.rank }.prefix(room - 1).map(\.id))
                shown = shown.filter { kept.contains($0.id) }
            }
            // One bar width for every line, so bars compare: what the widest text of any line leaves.
            let widestTail =
                shown.map { Self.tail(of: $0, unit: unit, colour: colour).reduce(0) { $0 + $1.text.count } }.max() ?? 0
            var barWidth = min(60, width - 1 - 7 - widestTail)
            if barWidth < 4 { barWidth = 0 }
            for contact in shown {
                lines.append(contactLine(contact, width: width - 1, barWidth: barWidth))
            }
            if shown.count < latest.contacts.count {
                lines.append(fit("  ... and \(latest.contacts.count - shown.count) more (lighter) contacts"))
            }
        } else {
            lines.append(
                fit("  Nothing on the surface. Place objects; only conductive ones (fingers, coins, fruit) register.")
            )
        }
        lines.append("")
        var statusLine = ""
        if let latest {
            statusLine += "\(latest.contacts.count) contact" + (latest.contacts.count == 1 ? "" : "s")
            statusLine += "  t=" + NumberText.seconds(latest.time) + "  #\(sequence)   "
            if latest.resync { statusLine += "resynchronised   " }
        }
        if !message.isEmpty { statusLine += message + "   " }
        statusLine += "[t] tare [c] clear [q] quit   bar: " + NumberText.fixed(barScale * 100, 0) + "% of full scale"
        lines.append(style("2", fit(statusLine)))
        return "\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J"
    }

    /// 1% → 2% → 5% → 10% → 20% → 50% → 100%.
    static func nextScale(after scale: Double) -> Double {
        for step in [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0] where step > scale + 1e-12 { return step }
        return 1
    }

    /// The text after a contact's bar: percent, weight, state and marks, each with its colour.
    static func tail(of contact: ContactReading, unit: WeightUnit, colour: Bool) -> [(text: String, code: String?)] {
        var tail: [(text: String, code: String?)] = [
            (" " + NumberText.padLeft(NumberText.fixed(contact.percent, 1) + "%", 6), nil)
        ]
        if let grams = contact.grams { tail.append((NumberText.padLeft(unit.format(grams: grams), 11), nil)) }
        tail.append((contact.stable ? "  stable  " : "  settling", nil))
        if contact.heaviest { tail.append(("  " + (colour ? "heaviest" : "* heaviest"), "1;33")) }
        if contact.saturated { tail.append(("  SATURATED (weight is at least this)", "31")) }
        return tail
    }

    /// One contact: id, bar, then its tail, in at most `width` visible columns; on a very narrow terminal the text
    /// is cut. Colour is applied after cutting, so escape sequences never count as columns.
    private func contactLine(_ contact: ContactReading, width: Int, barWidth: Int) -> String {
        var line = NumberText.padLeft("#\(contact.id)", 6) + " "
        var remaining = width - line.count
        if barWidth > 0 {
            let filled = Int((max(0, min(1, contact.force / barScale)) * Double(barWidth)).rounded())
            let bar =
                String(repeating: "\u{2588}", count: filled) + String(repeating: "\u{2591}", count: barWidth - filled)
            line += contact.heaviest ? style("33", bar) : bar
            remaining -= barWidth
        }
        for segment in Self.tail(of: contact, unit: unit, colour: colour) where remaining > 0 {
            let text = String(segment.text.prefix(remaining))
            remaining -= text.count
            line += segment.code.map { style($0, text) } ?? text
        }
        return line
    }
}
