public import PlumometerCore

/// The terminal counterpart of the original app's circles: one bar per contact sized by its force, its
/// percent (and weight when known), the heaviest in yellow, redrawn in place at most 30 times a second.
final class LiveView: ReadingOutput {
    private let sink: OutputSink
    private let colour: Bool
    private let unit: WeightUnit
    private let columns: () -> Int
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

    init(sink: OutputSink, colour: Bool, unit: WeightUnit, columns: @escaping () -> Int) {
        self.sink = sink
        self.colour = colour
        self.unit = unit
        self.columns = columns
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
        let width = max(40, columns())
        // Every line is cut to the width less one column, so the terminal never wraps and redraws stay in place.
        let fit = { (text: String) -> String in String(text.prefix(width - 1)) }
        if let record {
            lines.append(style("1", "plumometer") + String(("  " + record.description.name + "  " + record.path).prefix(width - 11)))
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
            lines.append(fit("  " + removedPath + " was removed; waiting for it to come back."))
        } else if let latest, !latest.contacts.isEmpty {
            // The rest of a contact line takes 50 columns (id, percent, weight, state, the heaviest mark).
            let barWidth = min(60, max(10, width - 51))
            let largest = latest.contacts.map(\.force).max() ?? 0
            while barScale < 1 && largest > barScale {
                barScale = Self.nextScale(after: barScale)
            }
            for contact in latest.contacts {
                lines.append(contactLine(contact, barWidth: barWidth))
            }
        } else {
            lines.append(fit("  Nothing on the surface. Place objects; only conductive ones (fingers, coins, fruit) register."))
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

    private func contactLine(_ contact: ContactReading, barWidth: Int) -> String {
        let filled = Int((max(0, min(1, contact.force / barScale)) * Double(barWidth)).rounded())
        var bar = String(repeating: "\u{2588}", count: filled) + String(repeating: "\u{2591}", count: barWidth - filled)
        if contact.heaviest { bar = style("33", bar) }
        var line = NumberText.padLeft("#\(contact.id)", 6) + " " + bar + " "
        line += NumberText.padLeft(NumberText.fixed(contact.percent, 1) + "%", 7)
        if let grams = contact.grams { line += NumberText.padLeft(unit.format(grams: grams), 11) }
        line += contact.stable ? "  stable " : "  settling"
        if contact.heaviest { line += "  " + style("1;33", colour ? "heaviest" : "* heaviest") }
        if contact.saturated { line += "  " + style("31", "SATURATED (weight is at least this)") }
        return line
    }
}
