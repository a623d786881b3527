import PlumometerCore
import PlumometerSession
import PlumometerTestKit
import Testing

/// SIGHUP in the session's loop, in-process: a wait for an input (a recording on a FIFO, a pipe, a terminal) ends as
/// on a stop signal, since nobody is left to write the rest; with no input waited for, the loop's `onHangup` runs.
@Suite
struct HangUpTests {
    /// A FIFO nobody writes to.
    final class NeverArrives: ByteInput {
        var name: String { "fifo" }
        var fileDescriptor: Int32 { 43 }
        var isTerminal: Bool { false }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> ByteRead { .wouldBlock }
        func peek(_ count: Int) -> [UInt8]? { nil }
    }

    @Test func aHangUpEndsTheWaitForARecording() throws {
        let loop = EmbeddedEventLoop(clocks: ManualClocks())
        var hangUps = 0
        var called = false
        loop.onHangup = { called = true }
        // Unowned: the loop holds this handler.
        loop.onWait = { [unowned loop] timeout in
            guard timeout == nil else { return }
            hangUps += 1
            loop.signalHangup()
        }
        let session = try Runtime.with(.embedded(loop: loop)) {
            let session = try Session()
            let input = RecordingInput(NeverArrives(), selector: nil)
            try session.run(session.openReadings(.recording(input, pacing: Pacing(speed: nil))))
            return session
        }
        #expect(session.stoppedBySignal, "ended as a stop signal ends it")
        #expect(hangUps == 1 && !called, "at the first hang-up, without the live stream's reopen")
    }

    @Test func withoutAnInputWaitAHangUpIsTheLoopsHandler() throws {
        let loop = EmbeddedEventLoop(clocks: ManualClocks())
        var called = 0
        loop.onHangup = { [unowned loop] in
            called += 1
            loop.finish()
        }
        loop.onWait = { [unowned loop] _ in loop.signalHangup() }
        try loop.run { .idle }
        #expect(called == 1)
        #expect(!loop.stoppedBySignal)
    }
}
