import CPOSIX
import Glibc
import Synchronization

/// The reader loop: blocks in `poll(2)` on the watched descriptors plus a `signalfd`, so nothing spins at idle
/// and no code runs inside a signal handler.
///
/// The signals it is given are blocked for the calling thread (create the loop before starting other threads so
/// they inherit the mask) and read from the signalfd instead; ``onSignal`` runs on the loop's thread. Modelled on
/// the reader loop of `libinput record`.
public final class PollLoop {
    private struct Watch {
        var fd: Int32
        /// `POLLIN`, or 0 to hear only of hang-ups and errors (which `poll` always reports).
        var events: Int16
        var onReadable: () -> Void
    }

    private let signalDescriptor: Int32
    private let wakeDescriptor: Int32
    /// The signals the signalfd reports.
    private var mask = sigset_t()
    private var previousMask = sigset_t()
    private var watches: [Int: Watch] = [:]
    private var nextToken = 0
    private let stopped = Atomic<Bool>(false)

    /// Called on the loop's thread with the signal number of each blocked signal that arrived.
    public var onSignal: (Int32) -> Void = { _ in }
    /// Called when `poll` returned because the timeout given by `run(timeout:)` elapsed.
    public var onTimeout: () -> Void = {}

    /// Blocks `signals` and opens a signalfd for them.
    ///
    /// - Parameter signals: typically `SIGINT`, `SIGTERM`, `SIGHUP`.
    /// - Throws: ``DeviceError`` (path `signalfd` or `eventfd`) when a descriptor cannot be created.
    public init(signals: [Int32]) throws(DeviceError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        var previous = sigset_t()
        let status = pthread_sigmask(SIG_BLOCK, &mask, &previous)
        guard status == 0 else {
            throw DeviceError(code: .other, path: "signalfd", function: "pthread_sigmask", errno: status)
        }
        let signalResult = retryingOnInterrupt { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
        guard case .success(let signalDescriptor) = signalResult else {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            throw DeviceError(code: .other, path: "signalfd", function: "signalfd", errno: Self.errno(signalResult))
        }
        let wakeResult = retryingOnInterrupt { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        guard case .success(let wakeDescriptor) = wakeResult else {
            closeDescriptor(signalDescriptor)
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            throw DeviceError(code: .other, path: "eventfd", function: "eventfd", errno: Self.errno(wakeResult))
        }
        self.signalDescriptor = signalDescriptor
        self.wakeDescriptor = wakeDescriptor
        self.mask = mask
        self.previousMask = previous
    }

    /// Reads `signals` too from now on: the signalfd reports them, then they are blocked for the calling thread.
    ///
    /// For signals that only some runs handle (the live view's SIGTSTP and SIGCONT): until this is called they keep
    /// their default action. The mask given at ``init(signals:)`` comes back when the loop is deinitialised.
    /// - Throws: ``DeviceError`` (path `signalfd`) when the signalfd cannot take them; nothing is changed then.
    public func add(signals: [Int32]) throws(DeviceError) {
        var wider = mask
        for signal in signals { sigaddset(&wider, signal) }
        // The signalfd first: a signal blocked before it is reported would wait unseen.
        let result = retryingOnInterrupt { signalfd(signalDescriptor, &wider, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
        guard case .success = result else {
            throw DeviceError(code: .other, path: "signalfd", function: "signalfd", errno: Self.errno(result))
        }
        let status = pthread_sigmask(SIG_BLOCK, &wider, nil)
        guard status == 0 else {
            _ = signalfd(signalDescriptor, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
            throw DeviceError(code: .other, path: "signalfd", function: "pthread_sigmask", errno: status)
        }
        mask = wider
    }

    deinit {
        closeDescriptor(signalDescriptor)
        closeDescriptor(wakeDescriptor)
        // Signals that arrived after the last run stay pending and are delivered now, with their usual effect.
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// Calls `onReadable` on the loop's thread whenever `fd` is readable, hung up or in error.
    ///
    /// The handler must drain the descriptor (read until `EAGAIN`); `poll` is level-triggered.
    /// - Returns: a token for ``unwatch(_:)``.
    @discardableResult
    public func watch(_ fd: Int32, onReadable: @escaping () -> Void) -> Int {
        nextToken += 1
        watches[nextToken] = Watch(fd: fd, events: Int16(POLLIN), onReadable: onReadable)
        return nextToken
    }

    /// Calls `onHangUp` when `fd` reports a hang-up or an error, and never merely because it is readable: for the
    /// write end of stdout, whose reader may go away while nothing is written (a socket peer that sends data would
    /// otherwise keep `poll` returning at once).
    /// - Returns: a token for ``unwatch(_:)``.
    @discardableResult
    public func watchHangUp(_ fd: Int32, onHangUp: @escaping () -> Void) -> Int {
        nextToken += 1
        watches[nextToken] = Watch(fd: fd, events: 0, onReadable: onHangUp)
        return nextToken
    }

    /// The signalfd the loop reads its signals from, for a blocking wait elsewhere (a full stdout) that must
    /// still notice a stop request. Readable while a signal is pending; reading it is the loop's job.
    public var signalFileDescriptor: Int32 { signalDescriptor }

    /// Stops watching the descriptor registered under `token`. Safe inside a handler.
    public func unwatch(_ token: Int) {
        watches[token] = nil
    }

    /// Runs until ``stop()``.
    ///
    /// - Parameter timeout: called before each wait: milliseconds until the caller's next deadline, or -1 to
    ///   wait only for descriptors and signals.
    public func run(timeout: () -> Int32 = { -1 }) {
        stopped.store(false, ordering: .sequentiallyConsistent)
        drainWakeups()
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let tokens = watches.keys.sorted()
            var entries = [
                pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            entries += tokens.map { pollfd(fd: watches[$0]!.fd, events: watches[$0]!.events, revents: 0) }
            let waitMilliseconds = timeout()
            let result = retryingOnInterrupt { poll(&entries, nfds_t(entries.count), waitMilliseconds) }
            guard case .success(let ready) = result else {
                // Only EFAULT/EINVAL/ENOMEM: a bug in how we call poll, or an exhausted system.
                preconditionFailure("poll failed: \(String(cString: strerror(Self.errno(result))))")
            }
            if ready == 0 {
                onTimeout()
                continue
            }
            if entries[0].revents != 0 { readSignals() }
            if entries[1].revents != 0 { drainWakeups() }
            for (index, token) in tokens.enumerated() where entries[index + 2].revents != 0 {
                if stopped.load(ordering: .sequentiallyConsistent) { break }
                // A previous handler may have unwatched this descriptor.
                watches[token]?.onReadable()
            }
        }
    }

    /// Makes ``run(timeout:)`` return after the current handler. Callable from any thread.
    public func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        var one: UInt64 = 1
        _ = retryingOnInterrupt { Glibc.write(wakeDescriptor, &one, MemoryLayout<UInt64>.size) }
    }

    private func readSignals() {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while case .success(let count) = retryingOnInterrupt({ Glibc.read(signalDescriptor, &info, size) }),
            count == size
        {
            onSignal(Int32(info.ssi_signo))
        }
    }

    private func drainWakeups() {
        var value: UInt64 = 0
        while case .success(let count) = retryingOnInterrupt({
            Glibc.read(wakeDescriptor, &value, MemoryLayout<UInt64>.size)
        }), count > 0 {}
    }

    private static func errno<T>(_ result: Result<T, Errno>) -> Int32 {
        if case .failure(let error) = result { return error.rawValue }
        return 0
    }
}
