import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// Replay timing: stability is ticked and stamped at the tracker's own deadlines, so a replay is the same at any pace.
@Suite struct ReplayTimingTests {
    let gramsPad = CLI.fixture("grams-pad.one-object.evemu")

    /// Stability is ticked at the tracker's own deadlines whatever the pace, so replays are byte-for-byte equal.
    @Test(.tags(.foundInReview)) func aReplayIsTheSameAtAnySpeed() throws {
        let fast = try CLI.run(["demo", "--fast", "-f", "jsonl", "-q"])
        let sped = try CLI.run(["demo", "--speed", "40", "-f", "jsonl", "-q"])
        #expect(fast.status == 0 && sped.status == 0)
        #expect(fast.stdout == sped.stdout)
        #expect(fast.stdoutLines.count > 100)
    }

    @Test(.tags(.foundInReview)) func stabilityIsStampedAtItsDeadline() throws {
        // The object settles at 420 at 100.43 s (within 2 g after that): stable exactly 0.5 s later, at 100.93 s,
        // between two events (100.85 s and 101.06 s).
        let frames = try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", gramsPad]))
            .filter { $0.string("type") == "frame" }
        let firstStable = try #require(frames.first { $0.objects("contacts").first?.bool("stable") == true })
        #expect(firstStable.number("time") == 100.93)
    }
}
