public import PlumometerCore
public import PlumometerOutput
import PlumometerPictures

/// `--summary`: passes every reading on to the output it wraps and keeps a ``SessionSummarizer`` of them; when the
/// session ends, writes one summary after the output's last line (docs/output-format.md, "The summary record").
///
/// Where it goes follows the format: a `summary` record in JSON Lines, a table in text, and the table on stderr for
/// CSV (stdout stays one table that any CSV reader takes whole) and for the live view once the screen is left. Frames a slow
/// consumer never saw (the latest-state writer's drops, read once it has finished) are counted as skipped.
public final class SummaryOutput: ReadingOutput {
    /// Where and how the summary is written.
    public enum Destination {
        case jsonLines
        case text
        case csv
        case standardError
    }

    private let inner: any ReadingOutput
    private let destination: Destination
    private let unit: WeightUnit
    private let skippedByWriter: () -> Int
    private var summarizer = SessionSummarizer()
    private var devicePath = ""
    private var lastSequence = 0

    /// Wraps `inner`.
    /// - Parameters:
    ///   - inner: the output readings go to.
    ///   - destination: where the summary goes at the end.
    ///   - unit: the unit of the table's weights.
    ///   - skippedByWriter: how many lines the latest-state writer dropped (0 for a replay, which loses nothing).
    public init(
        wrapping inner: any ReadingOutput,
        destination: Destination,
        unit: WeightUnit,
        skippedByWriter: @escaping () -> Int
    ) {
        self.inner = inner
        self.destination = destination
        self.unit = unit
        self.skippedByWriter = skippedByWriter
    }

    public func device(_ record: DeviceRecord) throws {
        devicePath = record.path
        // A new device (stream after a replug) numbers its readings from 1 again.
        lastSequence = 0
        try inner.device(record)
    }

    public func frame(_ reading: Reading, sequence: Int) throws {
        if sequence > lastSequence + 1 { summarizer.noteSkipped(readings: sequence - lastSequence - 1) }
        lastSequence = sequence
        summarizer.consume(reading)
        try inner.frame(reading, sequence: sequence)
    }

    public func removed(path: String, time: EventTime) throws { try inner.removed(path: path, time: time) }
    public func status(_ message: String) { inner.status(message) }
    public func idle(now: EventTime) throws { try inner.idle(now: now) }
    public func idleDeadline(now: EventTime) -> Int64? { inner.idleDeadline(now: now) }

    public func finish() throws {
        try inner.finish()
        try write(summary())
    }

    /// The session so far, with the writer's drops taken out of the frames the consumer saw.
    public func summary() -> SessionSummary {
        var summarizer = self.summarizer
        let dropped = skippedByWriter()
        summarizer.noteSkipped(readings: dropped)
        var summary = summarizer.summary(endingAt: nil)
        summary.frames = Swift.max(0, summary.frames - dropped)
        return summary
    }

    private func write(_ summary: SessionSummary) throws {
        let mass = unit
        switch destination {
        case .jsonLines:
            try StandardOutput.write(JSONLinesFormatter().summary(summary, device: devicePath))
        case .text:
            try StandardOutput.write(SummaryTable.lines(summary, unit: mass).map { $0 + "\n" }.joined())
        case .csv:
            // Not into the table: '#' lines with commas in them made pandas read every column as text.
            Diagnostics.writeError("summary " + devicePath.forTerminal + "\n" + Self.table(summary, unit: mass))
        case .standardError:
            Diagnostics.writeError(Self.table(summary, unit: mass))
        }
    }

    /// The summary as the table for people, its lines ended.
    public static func table(_ summary: SessionSummary, unit: WeightUnit) -> String {
        SummaryTable.lines(summary, unit: unit).map { $0 + "\n" }.joined()
    }

    /// Writes the table on stderr unless `--quiet`: `weigh`'s summary, which its answer on stdout never includes.
    public static func writeTable(_ summary: SessionSummary, unit: WeightUnit) {
        guard !Diagnostics.quiet else { return }
        Diagnostics.writeError(table(summary, unit: unit))
    }
}
