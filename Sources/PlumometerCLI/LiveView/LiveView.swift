import PlumometerCore
import PlumometerOutput
import PlumometerPictures
import PlumometerSession

/// The live view on a terminal: keeps what to show, asks ``LiveViewRenderer`` for the screen and writes it,
/// redrawn in place at most 30 times a second.
///
/// Two views: the map (``PadMap``: the pad to scale, a circle per contact), the default when the device declares
/// its position ranges, and the bars (one per contact, with a position column when positions are known); `m`
/// switches, `--view` chooses at start.
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
    /// The terminal was given back for a stop (``suspend()``) and not yet taken again.
    private var suspended = false
    private let colour: Bool
    private let unit: WeightUnit
    /// `--view`, or nil for the map when the device has positions.
    private let requestedView: LiveViewMode?
    /// The view shown now.
    private(set) var view: LiveViewMode = .bars
    /// The device's surface, from its position ranges (nil: the bars are the only view), taken once per device.
    private var geometry: PadGeometry?
    /// Unicode cells (a UTF-8 locale and a terminal other than `dumb`) or ASCII.
    private let charset: PadMapCharset
    /// The minimum time between two redraws: 30 per second at most.
    static let redrawInterval: Int64 = 33_333

    init(
        sink: any LineSink,
        colour: Bool,
        unit: WeightUnit,
        view: LiveViewMode? = nil,
        terminalSize: @escaping () -> (columns: Int, rows: Int)
    ) {
        self.sink = sink
        self.renderer = LiveViewRenderer(unit: unit, colour: colour)
        self.terminalSize = terminalSize
        self.colour = colour
        self.unit = unit
        self.requestedView = view
        self.charset = Self.charset(
            ["TERM", "LC_ALL", "LC_CTYPE", "LANG"].reduce(into: [:]) { $0[$1] = Runtime.current.files.environment($1) }
        )
    }

    /// Unicode when the locale is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`) and `TERM` is not `dumb`.
    static func charset(_ environment: [String: String]) -> PadMapCharset {
        if environment["TERM"] == "dumb" { return .ascii }
        let locale =
            [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let lower = locale.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8") ? .unicode : .ascii
    }

    /// Switches between the map and the bars (`m`); a device without positions has only the bars.
    func toggleView() {
        guard geometry != nil else { return }
        view = view == .map ? .bars : .map
        dirty = true
    }

    func device(_ record: DeviceRecord) throws {
        geometry = PadGeometry(device: record.description)
        view = geometry == nil ? .bars : (requestedView ?? .map)
        if let geometry {
            renderer.position = { contact in geometry.positionText(x: contact.x, y: contact.y) }
        } else {
            renderer.position = nil
        }
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
        if suspended {
            started = false
            return
        }
        try draw(now: MonotonicClock.now())
        try sink.write(LiveViewRenderer.leaveScreen, droppable: false)
        started = false
    }

    /// Restores the terminal without throwing (error paths).
    func restoreTerminal() {
        guard started else { return }
        if !suspended { try? sink.write(LiveViewRenderer.leaveScreen, droppable: false) }
        started = false
        suspended = false
    }

    /// The recording has ended: its last frame stays, and the status line says so (`end of recording, q to quit`).
    func holdLastFrame() {
        content.ended = true
        dirty = true
    }

    /// Gives the terminal back before the process stops (Ctrl-Z): the main screen and the cursor, as ``finish()``
    /// leaves them. Never throws: the stop comes whatever happens here.
    func suspend() {
        guard started, !suspended else { return }
        suspended = true
        try? sink.write(LiveViewRenderer.leaveScreen, droppable: false)
    }

    /// Takes the terminal again after a stop and redraws it whole: the alternate screen when ``suspend()`` left it,
    /// else (stopped from elsewhere, with the shell's messages written over the view) the screen cleared.
    func resume() throws {
        guard started else { return }
        try sink.write(suspended ? LiveViewRenderer.enterScreen : LiveViewRenderer.clearScreen, droppable: false)
        suspended = false
        try draw(now: MonotonicClock.now())
    }

    /// Writes the screen for the terminal's current size.
    private func draw(now: EventTime) throws {
        lastDraw = now
        dirty = false
        let size = terminalSize()
        var body: ((Int, Int) -> [String]?)?
        if let record = content.record, let geometry {
            // The key hint is shown whenever there are two views; the map is drawn only when it is the view.
            let reading = content.reading ?? Reading(time: record.time, contacts: [])
            // The map's circles are scaled like the bars: the force the renderer's auto-range reaches with this
            // reading (drawing the screen grows it the same way, so this only does it first).
            renderer.growScale(for: reading.contacts)
            let (charset, colour, forceScale, unit) = (charset, colour, renderer.scale, unit)
            let showMap = view == .map
            body = { columns, rows in
                guard showMap else { return nil }
                return PadMap(
                    geometry: geometry,
                    columns: columns,
                    rows: rows,
                    charset: charset,
                    colour: colour,
                    unit: unit,
                    forceScale: forceScale
                ).renderWhole(reading)
            }
        }
        try sink.write(
            renderer.screen(content, columns: size.columns, rows: size.rows, body: body),
            droppable: false
        )
    }
}
