import Glibc
import PlumometerLinux
import Testing

/// Signals added to a running loop's signalfd (the live view's SIGTSTP and SIGCONT): read like those it was made
/// with, and the thread's signal mask as it was once the loop is gone.
@Suite(.serialized)
struct PollLoopAddedSignalTests {
    /// Whether `signal` is blocked for the calling thread.
    static func isBlocked(_ signal: Int32) -> Bool {
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        return sigismember(&current, signal) == 1
    }

    @Test func anAddedSignalIsReadFromTheSignalfd() throws {
        let loop = try PollLoop(signals: [SIGUSR1])
        try loop.add(signals: [SIGUSR2])
        #expect(Self.isBlocked(SIGUSR2))
        var signals: [Int32] = []
        loop.onSignal = { [unowned loop] signal in
            signals.append(signal)
            if signals.count == 2 { loop.stop() }
        }
        #expect(raise(SIGUSR2) == 0)
        #expect(raise(SIGUSR1) == 0)
        loop.run()
        #expect(Set(signals) == [SIGUSR1, SIGUSR2])
    }

    @Test func theMaskComesBackWhenTheLoopIsGone() throws {
        let before = Self.isBlocked(SIGURG)
        do {
            let loop = try PollLoop(signals: [SIGUSR1])
            try loop.add(signals: [SIGURG])
            #expect(Self.isBlocked(SIGURG))
        }
        #expect(Self.isBlocked(SIGURG) == before)
    }
}
