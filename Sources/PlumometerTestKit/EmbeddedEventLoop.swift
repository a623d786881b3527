public import PlumometerCore
public import PlumometerSeams

/// The session's ``EventLoop`` run in-process, with no descriptors, signals or real time: what `poll` would report is
/// the test's to say. The way swift-nio ships `NIOEmbedded`: sources, consumers and sessions run exactly as in the
/// poll loop, turn by turn, in milliseconds.
///
/// Each turn calls the session's work; when it asks to wait, ``onWait`` sees the timeout it asked for (nil: until
/// something happens) and may make descriptors ready (``makeReady(_:)``; a ``TypedKeyboard``'s keys and an
/// ``ScriptedDevice``'s events do it themselves), send a signal (``signalStop()``, ``signalHangup()``,
/// ``signalResize()``, ``signalSuspend(whileStopped:)``, ``signalContinue()``) or finish. Signals are handled
/// first, then the ready descriptors, as the bridge's `Driver` reads its signalfd among them. With nothing made
/// ready, a timed wait moves the ``clocks`` on by the timeout, as the time `poll` would sleep; an untimed wait with
/// nothing ready would sleep for ever, which here is an error (``Hang``), not a hang.
///
/// As the real loop: a hang-up ends a run that waits for an input (``watchInput(_:_:)``) and calls ``onHangup``
/// otherwise; job control reaches the handlers given to ``handleJobControl(suspend:resume:)`` only (without them a
/// stop keeps its default action, which in-process is nothing); ``atEnd`` may hold a finished run. What it leaves
/// out: readiness is given once per ``makeReady(_:)`` (`poll` reports a descriptor until it is drained), and a stop
/// takes no time. Every session of a runtime made with `Runtime.embedded` shares this loop (a test runs one session
/// at a time and inspects it afterwards).
public final class EmbeddedEventLoop: EventLoop {
    /// A wait that nothing could end: the real loop would sleep for ever.
    public struct Hang: Error, CustomStringConvertible {
        /// The turn it happened on.
        public var turn: Int
        public var description: String { "the loop would wait for ever on turn \(turn): nothing is ready, no timeout" }
    }

    /// More turns than ``maximumTurns``: the work never stops asking for another turn.
    public struct Spin: Error, CustomStringConvertible {
        public var turns: Int
        public var description: String { "the loop turned \(turns) times without ending" }
    }

    /// A signal sent by the test, handled at the next dispatch.
    private enum Signal {
        case hangup, resize, continued
        case suspend(whileStopped: () -> Void)
    }

    private var watches: [Int: (descriptor: Int32, handler: () throws -> Void)] = [:]
    private var inputWatches: Set<Int> = []
    private var nextToken = 1
    private var ready: Set<Int32> = []
    private var signals: [Signal] = []
    private var hungUp = false
    private var finishing = false
    public var onResize: () -> Void = {}
    public var onHangup: () throws -> Void = {}
    public var atEnd: () -> (() throws -> Due)? = { nil }
    private var onSuspend: (() -> Void)?
    private var onResume: (() throws -> Void)?
    /// Whether job control was taken (``handleJobControl(suspend:resume:)``).
    public var handlesJobControl: Bool { onSuspend != nil }
    /// The clocks a timed wait moves on (nil: time stands still).
    public let clocks: ManualClocks?
    /// Called at every wait with the timeout the work asked for, in microseconds (nil: none).
    public var onWait: (Int64?) -> Void = { _ in }
    /// The timeouts of every wait so far, in order.
    public private(set) var waits: [Int64?] = []
    /// Turns of the last run.
    public private(set) var turns = 0
    /// The turns a run may take before it is a ``Spin``.
    public var maximumTurns = 100_000
    /// Whether a session asked to stop once the reader of standard output goes away.
    public private(set) var stopsWhenOutputCloses = false
    public private(set) var stoppedBySignal = false

    /// A loop whose timed waits move `clocks` on.
    public init(clocks: ManualClocks? = nil) {
        self.clocks = clocks
    }

    @discardableResult
    public func watch(_ descriptor: Int32, _ handler: @escaping () throws -> Void) -> Int {
        let token = nextToken
        nextToken += 1
        watches[token] = (descriptor, handler)
        return token
    }

    @discardableResult
    public func watchInput(_ descriptor: Int32, _ handler: @escaping () throws -> Void) -> Int {
        if hungUp { signalStop() }
        let token = watch(descriptor, handler)
        inputWatches.insert(token)
        return token
    }

    public func unwatch(_ token: Int) {
        watches[token] = nil
        inputWatches.remove(token)
    }

    public func handleJobControl(suspend: @escaping () -> Void, resume: @escaping () throws -> Void) throws {
        guard onSuspend == nil else { return }
        onSuspend = suspend
        onResume = resume
    }

    public func finish() { finishing = true }

    public func stopWhenOutputCloses() { stopsWhenOutputCloses = true }

    /// The descriptors watched now.
    public var watchedDescriptors: [Int32] { watches.values.map(\.descriptor).sorted() }

    /// Makes `descriptor` ready for the next dispatch (as `poll` would report it readable).
    public func makeReady(_ descriptor: Int32) { ready.insert(descriptor) }

    /// A SIGINT or SIGTERM: the run ends after this turn, stopped by a signal.
    public func signalStop() {
        stoppedBySignal = true
        finishing = true
    }

    /// A SIGHUP (the terminal closed), handled at the next dispatch: it ends a wait for an input as a stop does,
    /// else calls ``onHangup``.
    public func signalHangup() { signals.append(.hangup) }

    /// A SIGWINCH (the terminal resized), handled at the next dispatch: ``onResize``.
    public func signalResize() { signals.append(.resize) }

    /// A SIGTSTP (Ctrl-Z) and then `fg`, handled at the next dispatch: with job control taken, its `suspend`, then
    /// `whileStopped` (what the test sees while the process would be stopped), then its `resume`.
    public func signalSuspend(whileStopped: @escaping () -> Void = {}) {
        signals.append(.suspend(whileStopped: whileStopped))
    }

    /// A SIGCONT alone (after a stop from elsewhere), handled at the next dispatch: with job control taken, `resume`.
    public func signalContinue() { signals.append(.continued) }

    public func run(_ work: @escaping () throws -> Due) throws {
        var work = work
        finishing = false
        stoppedBySignal = false
        turns = 0
        // The work holds what it runs: let go of what the run set, as the real loop does.
        defer { atEnd = { nil } }
        while !finishing {
            let due = try work()
            if finishing { return }
            guard case .within(let timeout) = due else {
                guard let next = atEnd() else { return }
                atEnd = { nil }
                work = next
                continue
            }
            turns += 1
            if turns > maximumTurns { throw Spin(turns: turns) }
            waits.append(timeout)
            onWait(timeout)
            if finishing { return }
            if ready.isEmpty && signals.isEmpty {
                guard let timeout else { throw Hang(turn: turns) }
                clocks?.advance(by: timeout)
                continue
            }
            let sent = signals
            signals = []
            for signal in sent {
                try handle(signal)
                if finishing { return }
            }
            let dispatched = ready
            ready = []
            for token in watches.keys.sorted() {
                guard let watch = watches[token], dispatched.contains(watch.descriptor) else { continue }
                try watch.handler()
                if finishing { return }
            }
        }
    }

    private func handle(_ signal: Signal) throws {
        switch signal {
        case .hangup:
            hungUp = true
            if inputWatches.isEmpty { try onHangup() } else { signalStop() }
        case .resize:
            onResize()
        case .suspend(let whileStopped):
            guard let onSuspend, let onResume else { return }
            onSuspend()
            whileStopped()
            try onResume()
        case .continued:
            try onResume?()
        }
    }
}

/// Clocks a test sets: monotonic time is ``now``, real time is ``now`` plus ``realtimeOffset``.
public final class ManualClocks: Clocks {
    /// The monotonic clock's now.
    public var now: EventTime
    /// What `CLOCK_REALTIME` is ahead of `CLOCK_MONOTONIC`.
    public var realtimeOffset: Int64

    public init(now: EventTime = EventTime(microseconds: 1_000_000), realtimeOffset: Int64 = 1_767_225_600_000_000) {
        self.now = now
        self.realtimeOffset = realtimeOffset
    }

    public func monotonic() -> EventTime { now }
    public func realtime() -> EventTime { EventTime(microseconds: now.microseconds + realtimeOffset) }

    /// Moves time on by `microseconds` (never back).
    public func advance(by microseconds: Int64) {
        now = EventTime(microseconds: now.microseconds + Swift.max(0, microseconds))
    }
}
