/// Somewhere lines go. `droppable` lines are frames: a newer frame makes an unwritten older one worthless.
public protocol LineSink: AnyObject {
    func write(_ text: String, droppable: Bool) throws
    /// Writes what is still queued (waiting at most `timeout` seconds for a stuck reader) and reports.
    func finish(timeout: Double) throws
}

/// A ``LineSink`` that writes from a thread of its own, so a stalled reader never stalls the loop: when the reader
/// falls behind, older frames give way to the latest state (the bridge's `LatestStateWriter`).
public protocol LatestStateSink: LineSink {
    /// Frames replaced before they could be written.
    var skipped: Int { get }
}

/// A ``TextSink`` taking lines as they come: none is dropped, nothing is queued (a console, a file).
public final class TextLineSink: LineSink {
    private let sink: any TextSink

    public init(_ sink: any TextSink) { self.sink = sink }

    public func write(_ text: String, droppable: Bool) throws { try sink.write(text) }
    public func finish(timeout: Double) throws {}
}

/// When `stream -o FILE` starts a new file: at `maximumSize` bytes the file becomes `FILE.1`, and at most `keep` such
/// older files are kept (`FILE.1` the newest), so the log never holds more than about `(keep + 1) * maximumSize`.
public struct Rotation: Sendable, Equatable {
    public var maximumSize: Int64
    public var keep: Int

    public init(maximumSize: Int64, keep: Int) {
        self.maximumSize = maximumSize
        self.keep = keep
    }
}
