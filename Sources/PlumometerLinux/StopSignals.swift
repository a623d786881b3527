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
