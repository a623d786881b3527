import PlumometerCore
import PlumometerOutput

/// The live view on a terminal: keeps what to show, asks ``LiveViewRenderer`` for the screen and writes it,
/// redrawn in place at most 30 times a second.
///
/// This class owns the I/O and the timing (the sink, the terminal's size, when to redraw); what the screen says is
/// the renderer's, tested by golden screens in PlumometerOutputTests.
final class LiveView: ReadingOutput {
    /// Where screens go: standard output itself, not a queue, since each redraw replaces the last.
    private let sink: any LineSink
    private let terminalSize: () -> (columns: Int, rows: Int)
    private var renderer: LiveViewRenderer
    private var content = LiveViewContent()
    private var dirty = false
    private var lastDraw: EventTime?
    private var started = false
    /// The minimum time between two redraws: 30 per second at most.
    static let redrawInterval: Int64 = 33_333

    init(
        sink: any LineSink,
        colour: Bool,
        unit: WeightUnit,
        terminalSize: @escaping () -> (columns: Int, rows: Int)
    ) {
        self.sink = sink
        self.renderer = LiveViewRenderer(unit: unit, colour: colour)
        self.terminalSize = terminalSize
    }

    func device(_ record: DeviceRecord) throws {
        content.record = record
        content.removedPath = nil
        content.reading = nil
        if !started {
            started = true
            try sink.write(LiveViewRenderer.enterScreen, droppable: false)
        }
        try draw(now: MonotonicClock.now())
    }

    func frame(_ reading: Reading, sequence: Int) throws {
        content.reading = reading
        content.sequence = sequence
        dirty = true
        try idle(now: MonotonicClock.now())
    }

    func removed(path: String, time: EventTime) throws {
        content.removedPath = path
        content.reading = nil
        try draw(now: MonotonicClock.now())
    }

    /// The terminal changed size: redraw at the next chance, to the new width and height.
    func resized() {
        dirty = true
    }

    func status(_ message: String) {
        content.status = message
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
        try sink.write(LiveViewRenderer.leaveScreen, droppable: false)
        started = false
    }

    /// Restores the terminal without throwing (error paths).
    func restoreTerminal() {
        guard started else { return }
        try? sink.write(LiveViewRenderer.leaveScreen, droppable: false)
        started = false
    }

    /// Writes the screen for the terminal's current size.
    private func draw(now: EventTime) throws {
        lastDraw = now
        dirty = false
        let size = terminalSize()
        try sink.write(renderer.screen(content, columns: size.columns, rows: size.rows), droppable: false)
    }
}
