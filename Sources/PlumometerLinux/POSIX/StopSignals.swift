import CPOSIX
import Glibc

/// The signals the CLI's loop handles, so it needs no C constants of its own.
public enum StopSignal {
    public static let interrupt = SIGINT
    public static let terminate = SIGTERM
    public static let hangup = SIGHUP
    /// The terminal changed size: the live view redraws to fit.
    public static let windowChange = SIGWINCH
    /// Ctrl-Z (the terminal sends it) or `kill -TSTP`: the live view gives the terminal back, then stops.
    public static let suspend = SIGTSTP
    /// `fg` or `bg` after a stop: the live view takes the terminal again and redraws it whole.
    public static let resume = SIGCONT
}

/// Blocks SIGINT, SIGTERM, SIGHUP and SIGWINCH for the calling thread (and the threads it starts later), so that a signal
/// arriving before the poll loop's signalfd exists stays pending instead of killing the process mid-start-up;
/// the loop then reads it like any other. The corresponding C function is `pthread_sigmask(3)`.
public func blockStopSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
}

/// Blocks or unblocks SIGTSTP and SIGCONT for the calling thread (and the threads it starts later).
///
/// Blocked before helper threads start, so a stop always reaches the thread of the poll loop, which either reads
/// them (a live view must give the terminal back before it stops) or unblocks them again so a stop is the default
/// one. The corresponding C function is `pthread_sigmask(3)`.
public func blockJobControlSignals(_ blocked: Bool) {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in [SIGTSTP, SIGCONT] { sigaddset(&set, signal) }
    pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &set, nil)
}

/// Stops the whole process until a SIGCONT, as a Ctrl-Z does, and returns once it has been continued.
///
/// SIGSTOP, not SIGTSTP: the live view reads SIGTSTP from its signalfd, and SIGSTOP cannot be blocked or ignored,
/// so the stop happens whatever the signal mask. The corresponding C function is `kill(2)`.
public func suspendSelf() {
    _ = kill(getpid(), SIGSTOP)
}

/// The stop requests (SIGINT, SIGTERM) as a descriptor any wait can include, made once at start-up.
///
/// The stop signals are blocked from `main` on (so the poll loop's signalfd reads them); a wait outside the loop
/// (opening a FIFO nobody reads yet, writing to a stalled reader) polls this descriptor beside its own, so a stop
/// ends it within a poll's wake-up. The signal is only looked at, never read: it stays pending, and a poll loop
/// made afterwards still hears it. The corresponding C functions are `signalfd(2)` and `poll(2)`.
public enum StopRequests {
    nonisolated(unsafe) private static var shared: Int32 = -1

    /// The signalfd, or nil before ``watch()`` (or when it could not be made: then waits hear no stop).
    public static var descriptor: Int32? { shared >= 0 ? shared : nil }

    /// Makes the signalfd. Call once, first thing, on the main thread, after ``blockStopSignals()``.
    public static func watch() {
        guard shared < 0 else { return }
        var set = sigset_t()
        sigemptyset(&set)
        // Not SIGHUP: it asks `stream` to reopen its device, never to stop.
        for signal in [SIGINT, SIGTERM] { sigaddset(&set, signal) }
        if case .success(let fd) = retryingOnInterrupt({ signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }) {
            shared = fd
        }
    }

    /// Whether a stop signal is pending, waiting up to `milliseconds` (0: a look) for one.
    public static func arrived(within milliseconds: Int32 = 0) -> Bool {
        guard let descriptor else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard case .success(let ready) = retryingOnInterrupt({ poll(&entry, 1, milliseconds) }) else { return false }
        return ready == 1
    }
}

/// Opens `/dev/null` on each of the standard descriptors 0, 1 and 2 that is closed, so that no descriptor made later
/// (the signalfd, a device, a file) takes the number of a standard stream: with stdin closed, the signalfd became
/// descriptor 0 and `replay -` read it as its recording; with stdout closed, a file became descriptor 1.
///
/// Call it first thing, before any other descriptor is made.
/// - Returns: which of them were closed (index 0 for stdin, 1 for stdout, 2 for stderr).
/// The corresponding C functions are `fcntl(2)` (`F_GETFD`) and `open(2)`.
public func reopenClosedStandardStreams() -> [Bool] {
    var closed = [false, false, false]
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
        closed[Int(fd)] = true
        // open returns the lowest free number: this one, since those below it are open by now.
        let opened = Glibc.open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
        if opened >= 0, opened != fd {
            _ = dup2(opened, fd)
            closeDescriptor(opened)
        }
    }
    return closed
}

/// The standard streams that were closed when the process started (``reopenClosedStandardStreams()``).
public enum StandardStreams {
    nonisolated(unsafe) public static var closedAtStart = [false, false, false]

    /// Whether stdin was closed at start (now `/dev/null`).
    public static var inputWasClosed: Bool { closedAtStart[0] }
    /// Whether stdout was closed at start (now `/dev/null`).
    public static var outputWasClosed: Bool { closedAtStart[1] }
}
