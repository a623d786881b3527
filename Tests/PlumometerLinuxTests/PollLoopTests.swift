import Glibc
import PlumometerLinux
import Testing

/// The reader loop: wakes for readable descriptors, hang-ups and signals; blocks (no spinning) otherwise.
@Suite(.serialized)
struct PollLoopTests {
    @Test func callsTheHandlerForReadableDataAndStops() throws {
        let loop = try PollLoop(signals: [SIGHUP])
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var received: [UInt8] = []
        loop.watch(fds[0]) { [unowned loop] in
            var byte: UInt8 = 0
            if read(fds[0], &byte, 1) == 1 { received.append(byte) }
            if received.count == 2 { loop.stop() }
        }
        var payload: [UInt8] = [7, 9]
        #expect(write(fds[1], &payload, 2) == 2)
        loop.run()
        #expect(received == [7, 9])
    }

    @Test func readsBlockedSignalsFromTheSignalfd() throws {
        let loop = try PollLoop(signals: [SIGUSR1])
        var signals: [Int32] = []
        loop.onSignal = { [unowned loop] signal in
            signals.append(signal)
            loop.stop()
        }
        // The signal is blocked, so raising it only makes it pending; the loop reads it from the signalfd.
        #expect(raise(SIGUSR1) == 0)
        loop.run()
        #expect(signals == [SIGUSR1])
    }

    @Test func wakesOnAHangUp() throws {
        let loop = try PollLoop(signals: [SIGHUP])
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var calls = 0
        let token = loop.watch(fds[0]) { [unowned loop] in
            calls += 1
            loop.stop()
        }
        close(fds[1])
        loop.run()
        loop.unwatch(token)
        #expect(calls == 1)
    }

    @Test func blocksUntilTheTimeoutWithoutSpinning() throws {
        let loop = try PollLoop(signals: [SIGHUP])
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        var handlerCalls = 0
        loop.watch(fds[0]) { handlerCalls += 1 }
        var timeoutCalls = 0
        var timeouts = 0
        loop.onTimeout = { [unowned loop] in
            timeouts += 1
            if timeouts == 2 { loop.stop() }
        }
        // RUSAGE_THREAD (1): other tests run in parallel.
        let thisThread: Int32 = 1
        var usageBefore = rusage()
        getrusage(thisThread, &usageBefore)
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        loop.run {
            timeoutCalls += 1
            return 150
        }
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &end)
        let elapsed = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        // Two waits of 150 ms: the loop asked for the timeout twice and nothing woke it in between.
        #expect(timeoutCalls == 2)
        #expect(handlerCalls == 0)
        #expect(elapsed >= 0.29)
        var usageAfter = rusage()
        getrusage(thisThread, &usageAfter)
        let cpu =
            Double(usageAfter.ru_utime.tv_sec - usageBefore.ru_utime.tv_sec)
            + Double(usageAfter.ru_utime.tv_usec - usageBefore.ru_utime.tv_usec) / 1e6
        #expect(cpu < 0.1, "the loop spent \(cpu) s of user CPU in 0.3 s of waiting")
    }

    @Test func stopFromAnotherThreadWakesTheLoop() throws {
        let loop = try PollLoop(signals: [SIGHUP])
        let box = LoopBox(loop)
        var thread = pthread_t()
        let started = pthread_create(
            &thread,
            nil,
            { argument in
                usleep(100_000)
                Unmanaged<LoopBox>.fromOpaque(argument!).takeRetainedValue().loop.stop()
                return nil
            },
            Unmanaged.passRetained(box).toOpaque()
        )
        #expect(started == 0)
        loop.run()
        pthread_join(thread, nil)
    }
}

private final class LoopBox: @unchecked Sendable {
    let loop: PollLoop
    init(_ loop: PollLoop) { self.loop = loop }
}
