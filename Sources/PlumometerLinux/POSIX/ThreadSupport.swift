import Glibc

/// A mutex with one condition variable on `CLOCK_MONOTONIC`, Foundation-free (`NSCondition` loads all of
/// Foundation: ~4 ms of start-up and ~8 MB of memory for one lock). The corresponding C types are
/// `pthread_mutex_t` and `pthread_cond_t`.
///
/// `@unchecked Sendable`: the pthread objects are the synchronisation; they live at fixed addresses (allocated
/// once, never moved), as pthreads requires.
public final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Creates the lock and its condition. The corresponding C functions are `pthread_mutex_init` and
    /// `pthread_cond_init` with `pthread_condattr_setclock(CLOCK_MONOTONIC)`.
    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        var status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        status = pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        precondition(status == 0, "pthread_cond_init failed: \(status)")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock. The corresponding C function is `pthread_mutex_lock`.
    public func lock() {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed: \(status)")
    }

    /// Releases the lock. The corresponding C function is `pthread_mutex_unlock`.
    public func unlock() {
        let status = pthread_mutex_unlock(mutex)
        precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
    }

    /// Waits (the lock held) until signalled; may wake spuriously, so callers loop on their predicate.
    /// The corresponding C function is `pthread_cond_wait`.
    public func wait() {
        let status = pthread_cond_wait(condition, mutex)
        precondition(status == 0, "pthread_cond_wait failed: \(status)")
    }

    /// Waits (the lock held) until signalled or `CLOCK_MONOTONIC` reaches `deadline` microseconds (from
    /// ``Clock/monotonicMicroseconds()``: the runtime's clock may be a test's).
    /// The corresponding C function is `pthread_cond_timedwait`.
    /// - Returns: false once the deadline has passed.
    public func wait(untilMonotonicMicroseconds deadline: Int64) -> Bool {
        var time = timespec(tv_sec: Int(deadline / 1_000_000), tv_nsec: Int(deadline % 1_000_000) * 1_000)
        let status = pthread_cond_timedwait(condition, mutex, &time)
        return status != ETIMEDOUT
    }

    /// Wakes one waiter. The corresponding C function is `pthread_cond_signal`.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter. The corresponding C function is `pthread_cond_broadcast`.
    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// Threads without Foundation's `Thread`. The corresponding C functions are `pthread_create` and
/// `pthread_detach` (`pthread_setname_np` is a GNU extension Swift's Glibc module does not import).
public enum BackgroundThread {
    /// Starts `body` on a new detached thread.
    public static func start(_ body: @escaping @Sendable () -> Void) {
        pthread_detach(startThread(body))
    }

    /// Raises the calling thread's nice value by `steps` (at most to 19), so that it yields a core to the process's
    /// other threads, the one that reads the device first. Linux keeps a nice value per thread, and raising one needs
    /// no privilege; a failure leaves the thread as it was. The corresponding C functions are `getpriority` and
    /// `setpriority` (`PRIO_PROCESS` and 0: the calling thread, on Linux).
    public static func yieldToOthers(steps: Int32 = 10) {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)
        guard errno == 0 else { return }
        _ = setpriority(which, 0, Swift.min(19, current + steps))
    }
}

/// A thread that is waited for: ``join()`` returns once `body` has returned and the thread is gone (a detached one
/// may still be running its last instructions after it said it was done, and outlive what it used). The
/// corresponding C functions are `pthread_create` and `pthread_join`.
public final class JoinableThread: @unchecked Sendable {
    private let thread: pthread_t
    private var joined = false

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () -> Void) { thread = startThread(body) }

    /// Waits until the thread has ended; once (later calls return at once). Call it from one thread only.
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }
}

/// Starts `body` on a new thread (joinable until detached). The corresponding C function is `pthread_create`.
private func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
        &thread,
        nil,
        { argument in
            let body = Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        },
        box
    )
    precondition(status == 0, "pthread_create failed: \(status)")
    return thread
}

/// The closure handed across `pthread_create`.
private final class ThreadBody: @unchecked Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
