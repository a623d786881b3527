public import PlumometerCore
public import PlumometerOutput

/// Where readings go: a line format on a file descriptor, or the live view.
public protocol ReadingOutput: AnyObject {
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
public final class LineOutput: ReadingOutput {
    private let formatter: any LineFormatter
    private let sink: any LineSink
    private var devicePath = ""
    /// The current device's position axes, for the millimetres of each contact.
    private var scale: PositionAxes?
    private var headerWritten = false
    private let wallTimestamps: Bool
    /// With `--timestamps wall`: what turns the current device's kernel time into Unix time, measured at its open.
    private var wallOffset: Int64 = 0

    public init(formatter: any LineFormatter, sink: any LineSink, wallTimestamps: Bool = false) {
        self.formatter = formatter
        self.sink = sink
        self.wallTimestamps = wallTimestamps
    }

    /// `time` on the clock the lines use.
    private func stamped(_ time: EventTime) -> EventTime {
        wallOffset == 0 ? time : EventTime(microseconds: time.microseconds &+ wallOffset)
    }

    private func writeHeaderOnce() throws {
        guard !headerWritten else { return }
        headerWritten = true
        if let header = formatter.header() { try sink.write(header, droppable: false) }
    }

    public func device(_ record: DeviceRecord) throws {
        try writeHeaderOnce()
        devicePath = record.path
        scale = PositionAxes(record.description)
        var record = record
        if wallTimestamps, let wall = record.wallTime {
            // One offset per open, so frame times keep the kernel's spacing (a wall clock stepped by NTP does not).
            wallOffset = wall.microseconds - record.time.microseconds
            record.time = wall
        }
        if let line = formatter.device(record) { try sink.write(line, droppable: false) }
    }

    public func frame(_ reading: Reading, sequence: Int) throws {
        try writeHeaderOnce()
        var reading = reading
        reading.time = stamped(reading.time)
        if let line = formatter.frame(reading, sequence: sequence, device: devicePath, positions: scale) {
            try sink.write(line, droppable: true)
        }
    }

    public func removed(path: String, time: EventTime) throws {
        if let line = formatter.removed(path: path, time: stamped(time)) { try sink.write(line, droppable: false) }
    }

    public func status(_ message: String) { Diagnostics.note(message) }
    public func idle(now: EventTime) throws {}
    public func idleDeadline(now: EventTime) -> Int64? { nil }
    public func finish() throws {
        try writeHeaderOnce()
        try sink.finish(timeout: 2)
    }
}
