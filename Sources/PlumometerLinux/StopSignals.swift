import Glibc

/// The signals the CLI's loop handles, so it needs no C constants of its own.
public enum StopSignal {
    public static let interrupt = SIGINT
    public static let terminate = SIGTERM
    public static let hangup = SIGHUP
    /// The terminal changed size: the live view redraws to fit.
    public static let windowChange = SIGWINCH
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
