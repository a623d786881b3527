public import PlumometerSeams

/// The session's real ``EventLoop``: a run of a command's work inside the bridge's poll loop. The loop blocks in
/// `poll()` on the device, the udev monitor and the keyboard, takes SIGINT/SIGTERM/SIGHUP through a signalfd, and
/// calls `work` before every wait to do what is due and say, as a ``Due``, how long it may sleep or that the run is
/// over.
///
/// With a live view it also takes the job-control signals (``handleJobControl(suspend:resume:)``): SIGTSTP gives
/// the terminal back before the process stops, SIGCONT takes it again. Without one they keep their default action.
public final class Driver: EventLoop {
    public let loop: PollLoop
    private var failure: (any Error)?
    /// Set when SIGINT or SIGTERM stopped the run (exit status 0, as for a normal end).
    public private(set) var stoppedBySignal = false
    /// Called on SIGWINCH (the live view redraws to the new size).
    public var onResize: () -> Void = {}
    /// Called on SIGHUP (reopen the device) when no input is waited for (``watchInput(_:_:)``).
    public var onHangup: () throws -> Void = {}
    /// The watches of inputs waited for: a SIGHUP stops the run while one is there.
    private var inputWatches: Set<Int> = []
    /// Whether a SIGHUP arrived: an input wait begun afterwards ends the run at once.
    private var hungUp = false
    /// Does what is due and says when it is next needed, or that the run is over.
    public var work: () throws -> Due = { .idle }
    /// Called once when `work` says the run is over: the work to go on with instead (the live view holding the last
    /// frame of a recording until a key), or nil to end the run.
    public var atEnd: () -> (() throws -> Due)? = { nil }
    /// Whether SIGTSTP and SIGCONT are read from the signalfd (a live view is shown).
    private var handlesJobControl = false
    private var onSuspend: () -> Void = {}
    private var onResume: () throws -> Void = {}

    public init() throws {
        loop = try PollLoop(
            signals: [StopSignal.interrupt, StopSignal.terminate, StopSignal.hangup, StopSignal.windowChange]
        )
        // Threads started from now on (the stdout writer) never take a stop: it is this thread's, which reads it
        // for a live view or unblocks it again in `run` for the default stop.
        blockJobControlSignals(true)
        // A write that waits for a stalled stdout hears SIGINT/SIGTERM through StopRequests, never through this
        // loop's signalfd: that one also carries SIGWINCH, SIGHUP and (with a live view) job control, and a window
        // resized or a device reopened while `| less` is paused must not end the stream.
        loop.onSignal = { [unowned self] signal in
            if signal == StopSignal.hangup {
                self.hungUp = true
                // The terminal closed: nobody will type the rest of a recording, and a FIFO's writer that went
                // with it may never come back. A wait for input ends as on SIGINT; anything else goes on.
                if !self.inputWatches.isEmpty {
                    self.stoppedBySignal = true
                    self.loop.stop()
                } else {
                    self.attempt { try self.onHangup() }
                }
            } else if signal == StopSignal.windowChange {
                self.onResize()
            } else if signal == StopSignal.suspend {
                self.onSuspend()
                let stopped = MonotonicClock.now()
                suspendSelf()
                MonotonicClock.addStopped(MonotonicClock.now().microseconds - stopped.microseconds)
                // Continued (`fg`): take the terminal again now; the SIGCONT waiting in the signalfd redraws once more.
                self.attempt(self.onResume)
            } else if signal == StopSignal.resume {
                self.attempt(self.onResume)
            } else {
                self.stoppedBySignal = true
                self.loop.stop()
            }
        }
    }

    /// Watches `fd`; errors thrown by `handler` stop the run and are rethrown by ``run()``.
    @discardableResult
    public func watch(_ fd: Int32, _ handler: @escaping () throws -> Void) -> Int {
        loop.watch(fd) { [unowned self] in self.attempt(handler) }
    }

    @discardableResult
    public func watchInput(_ fd: Int32, _ handler: @escaping () throws -> Void) -> Int {
        if hungUp {
            stoppedBySignal = true
            loop.stop()
        }
        let token = watch(fd, handler)
        inputWatches.insert(token)
        return token
    }

    public func unwatch(_ token: Int) {
        inputWatches.remove(token)
        loop.unwatch(token)
    }

    /// Ends the run as soon as the reader of standard output goes away (`plumometer | head -1`), not only at the
    /// next write, which for a device at rest may never come. Only pipes and sockets are watched: a file or a
    /// terminal is always "ready", and watching it would spin.
    public func stopWhenOutputCloses() {
        let output = FileDescriptorWriter.standardOutput()
        guard output.isPipe else { return }
        loop.watchHangUp(output.fileDescriptor) { [unowned self] in
            self.attempt { if output.readerHasGone { throw OutputError.closed(output.name, function: "poll") } }
        }
    }

    /// Ends the run normally.
    public func finish() { loop.stop() }

    /// Takes SIGTSTP and SIGCONT from now on: on SIGTSTP (Ctrl-Z, `kill -TSTP`) `suspend` gives the terminal back,
    /// the process stops (SIGSTOP) and, once continued, `resume` takes the terminal again; on a SIGCONT alone (after
    /// a stop by SIGSTOP from elsewhere) `resume` redraws.
    public func handleJobControl(suspend: @escaping () -> Void, resume: @escaping () throws -> Void) throws {
        guard !handlesJobControl else { return }
        try loop.add(signals: [StopSignal.suspend, StopSignal.resume])
        handlesJobControl = true
        onSuspend = suspend
        onResume = resume
    }

    /// Runs `work` until it says the run is over, ``finish()``, a signal or an error.
    public func run(_ work: @escaping () throws -> Due) throws {
        self.work = work
        try run()
    }

    /// Runs ``work`` until it says the run is over, ``finish()``, a signal or an error.
    public func run() throws {
        // Nothing to give back before a stop (yet): Ctrl-Z stops the process as it would any other.
        if !handlesJobControl { blockJobControlSignals(false) }
        loop.run { [unowned self] in
            do {
                switch try self.work() {
                case .within(let microseconds):
                    return pollTimeout(microseconds: microseconds)
                case .finished:
                    if let next = self.atEnd() {
                        self.atEnd = { nil }
                        self.work = next
                        return 0
                    }
                    self.loop.stop()
                    return 0
                }
            } catch {
                self.fail(error)
                return 0
            }
        }
        // The work holds what it runs (a session, its source, which holds this loop): let go of it, so the loop and
        // its signalfd end with the session.
        work = { .idle }
        atEnd = { nil }
        if let failure { throw failure }
    }

    private func attempt(_ body: () throws -> Void) {
        do { try body() } catch { fail(error) }
    }

    private func fail(_ error: any Error) {
        if failure == nil { failure = error }
        loop.stop()
    }
}

/// Milliseconds for poll() from microseconds, rounded up so a deadline is never missed by a millisecond.
func pollTimeout(microseconds: Int64?) -> Int32 {
    guard let microseconds else { return -1 }
    if microseconds <= 0 { return 0 }
    return Int32(min(Int64(Int32.max), (microseconds + 999) / 1_000))
}
