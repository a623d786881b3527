/// The loop a session runs in: it waits for watched descriptors, signals and timeouts, and calls the session's work
/// before every wait, and hears what the process is told: stop signals, a hang-up, a resized terminal, job control.
/// The bridge's `Driver` is the real one (poll with a signalfd); the test kit's `EmbeddedEventLoop` runs the same work
/// in-process, with readiness and signals made by the test.
///
/// Handlers and work run on the loop's thread, one at a time. An error thrown by a handler or by the work stops the
/// run and is rethrown by ``run(_:)``; the first one wins.
public protocol EventLoop: AnyObject {
    /// Calls `handler` whenever `descriptor` is ready to read (or hung up), until ``unwatch(_:)``.
    /// - Returns: the token that ends the watch.
    @discardableResult
    func watch(_ descriptor: Int32, _ handler: @escaping () throws -> Void) -> Int
    /// Watches an input a command waits for (a recording on a FIFO, a pipe, a terminal) as ``watch(_:_:)`` does; a
    /// hang-up (SIGHUP: the terminal closed) then ends the run as a stop signal does, and one that came before ends
    /// it at once, so no input wait outlives its terminal. A live device is watched with ``watch(_:_:)``: SIGHUP
    /// reopens it (`stream`).
    /// - Returns: the token that ends the watch.
    @discardableResult
    func watchInput(_ descriptor: Int32, _ handler: @escaping () throws -> Void) -> Int
    /// Ends a watch; unknown tokens are ignored.
    func unwatch(_ token: Int)
    /// Ends the run normally, after the handler or work that asked.
    func finish()
    /// Ends the run as soon as the reader of standard output goes away (`plumometer ... | head -1`), not only at the
    /// next write, which for a device at rest may never come: for the commands whose output is a stream.
    func stopWhenOutputCloses()
    /// Runs until `work` says ``Due/finished``, ``finish()``, a stop signal (SIGINT, SIGTERM) or an error, calling
    /// `work` before every wait; it says how long the loop may sleep.
    func run(_ work: @escaping () throws -> Due) throws
    /// Whether a stop signal ended the last run (a stop like a normal end: exit status 0).
    var stoppedBySignal: Bool { get }
    /// Called when the terminal is resized (SIGWINCH): the live view redraws to the new size.
    var onResize: () -> Void { get set }
    /// Called on a hang-up (SIGHUP) while no input is waited for (``watchInput(_:_:)``): `stream` reopens its device,
    /// a live view holding the end of a recording ends. An error thrown stops the run.
    var onHangup: () throws -> Void { get set }
    /// Called once when the work says the run is over: the work to go on with instead (the live view holding the
    /// last frame of a recording until a key), or nil to end the run.
    var atEnd: () -> (() throws -> Due)? { get set }
    /// Takes job control from now on: on a stop (SIGTSTP: Ctrl-Z, `kill -TSTP`) `suspend` gives the terminal back,
    /// the process stops and, once continued (`fg`), `resume` takes the terminal again; a continue alone (after a
    /// stop from elsewhere) calls `resume`. Without it a stop keeps its default action.
    /// - Throws: when the loop cannot take the two signals.
    func handleJobControl(suspend: @escaping () -> Void, resume: @escaping () throws -> Void) throws
}

/// When a session's timed work is next needed: within so many microseconds of now (nil: only once something
/// happens, a device event, a key, a signal), or never again, because the run is over.
public enum Due: Equatable, Sendable {
    case within(Int64?)
    case finished

    /// Nothing is due until something happens.
    public static let idle = Due.within(nil)

    /// The sooner of two: finished wins, then the shorter wait.
    public func sooner(_ other: Due) -> Due {
        switch (self, other) {
        case (.finished, _), (_, .finished): .finished
        case (.within(let a?), .within(let b?)): .within(Swift.min(a, b))
        case (.within(let a?), .within(nil)): .within(a)
        case (.within(nil), .within(let b)): .within(b)
        }
    }
}
