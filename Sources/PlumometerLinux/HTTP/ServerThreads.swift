import CMicroHTTPD
import Glibc

// The threads of ``HTTPServer`` besides the session's loop: the one that runs libmicrohttpd, and the one that resumes
// the event streams' connections; and the eventfds they wake each other with.

/// A thread of the server's, from its start (10 steps nicer than the reading thread) until ``end()``, which waits
/// until it is gone: no thread of the server's outlives its stop. `ending` is the server's lock's.
class ServerWorker: @unchecked Sendable {
    let lock: ConditionLock
    /// The server's eventfd that wakes the ``ServerThread``.
    let wake: Int32
    /// Whether ``end()`` was asked.
    var ending = false
    private var thread: JoinableThread?

    init(lock: ConditionLock, wake: Int32) {
        self.lock = lock
        self.wake = wake
    }

    /// Starts the thread; the loop's thread only, as ``end()``.
    func start() {
        thread = JoinableThread {
            BackgroundThread.yieldToOthers()
            self.work()
        }
    }

    /// The thread's work, until it sees `ending`.
    func work() {}

    /// Asks the thread to end (waking it, whether it waits on the lock or on the eventfd) and waits until it has.
    func end() {
        lock.lock()
        ending = true
        lock.broadcast()
        lock.unlock()
        notify(wake)
        thread?.join()
        thread = nil
    }
}

/// The thread that runs libmicrohttpd: waits for its epoll descriptor (or its next timeout, or the server's eventfd)
/// and calls `MHD_run`, in which every callback of the server runs.
final class ServerThread: ServerWorker, @unchecked Sendable {
    private let daemon: OpaquePointer

    init(daemon: OpaquePointer, lock: ConditionLock, wake: Int32) {
        self.daemon = daemon
        super.init(lock: lock, wake: wake)
    }

    override func work() {
        var ready = [
            pollfd(fd: plumometer_mhd_epoll_fd(daemon), events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            lock.lock()
            let stop = ending
            lock.unlock()
            if stop { return }
            // libmicrohttpd's next timeout (a slow header, an idle connection), at most a second away.
            let timeout = plumometer_mhd_timeout_ms(daemon)
            _ = poll(&ready, 2, Int32(timeout < 0 ? 1_000 : Swift.min(timeout, 1_000)))
            if ready[1].revents != 0 { drain(wake) }
            _ = MHD_run(daemon)
        }
    }
}

/// The thread that resumes the event streams' connections the loop marked (``HTTPServer``), in the order marked,
/// then wakes the ``ServerThread`` to take them up. Its list is the server's lock's; ``end()`` resumes what is still
/// marked first (before libmicrohttpd stops, nothing may stay suspended).
final class Resumer: ServerWorker, @unchecked Sendable {
    private var marked: [OpaquePointer] = []

    /// Marks a suspended connection for resuming; the lock held.
    func add(_ connection: OpaquePointer) {
        if marked.isEmpty { lock.broadcast() }
        marked.append(connection)
    }

    override func work() {
        lock.lock()
        defer { lock.unlock() }
        while true {
            while marked.isEmpty && !ending { lock.wait() }
            if marked.isEmpty { return }
            let connections = marked
            marked.removeAll(keepingCapacity: true)
            lock.unlock()
            for connection in connections { MHD_resume_connection(connection) }
            notify(wake)
            lock.lock()
        }
    }
}

/// Counts one on an eventfd (what wakes its reader).
func notify(_ eventfd: Int32) {
    var one: UInt64 = 1
    _ = write(eventfd, &one, MemoryLayout<UInt64>.size)
}

/// Takes what was counted on an eventfd.
func drain(_ eventfd: Int32) {
    var count: UInt64 = 0
    _ = read(eventfd, &count, MemoryLayout<UInt64>.size)
}
