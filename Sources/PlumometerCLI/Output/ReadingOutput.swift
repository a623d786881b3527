import PlumometerCore
import PlumometerOutput

/// Where readings go: a line format on a file descriptor, or the live view.
protocol ReadingOutput: AnyObject {
    func device(_ record: DeviceRecord) throws
    func frame(_ reading: Reading, sequence: Int) throws
    func removed(path: String, time: EventTime) throws
    /// A short status for people (the live view shows it; line formats leave it to stderr).
    func status(_ message: String)
    /// Called when nothing else happens; the live view redraws here if a redraw is due.
    func idle(now: EventTime) throws
    /// Microseconds until `idle` should be called again, or nil when nothing is pending.
    func idleDeadline(now: EventTime) -> Int64?
    func finish() throws
}

/// A line format written to a sink, one write per record so every line is complete when it leaves.
final class LineOutput: ReadingOutput {
    private let formatter: any LineFormatter
    private let sink: any LineSink
    private var devicePath = ""
    private var headerWritten = false

    init(formatter: any LineFormatter, sink: any LineSink) {
        self.formatter = formatter
        self.sink = sink
    }

    private func writeHeaderOnce() throws {
        guard !headerWritten else { return }
        headerWritten = true
        if let header = formatter.header() { try sink.write(header, droppable: false) }
    }

    func device(_ record: DeviceRecord) throws {
        try writeHeaderOnce()
        devicePath = record.path
        if let line = formatter.device(record) { try sink.write(line, droppable: false) }
    }

    func frame(_ reading: Reading, sequence: Int) throws {
        try writeHeaderOnce()
        if let line = formatter.frame(reading, sequence: sequence, device: devicePath) {
            try sink.write(line, droppable: true)
        }
    }

    func removed(path: String, time: EventTime) throws {
        if let line = formatter.removed(path: path, time: time) { try sink.write(line, droppable: false) }
    }

    func status(_ message: String) { Diagnostics.note(message) }
    func idle(now: EventTime) throws {}
    func idleDeadline(now: EventTime) -> Int64? { nil }
    func finish() throws {
        try writeHeaderOnce()
        try sink.finish(timeout: 2)
    }
}
