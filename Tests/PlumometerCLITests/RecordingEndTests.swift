import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// The end of a recording is the end of the evidence: nothing becomes stable after its last event (weigh, replay),
/// so `weigh --replay` of pressure that never rests exits 1; a heaviest hold pending at the end resolves as the live
/// device resolves it, so a replay and a live stream of the same events end on the same frame.
@Suite struct RecordingEndTests {
    /// An Apple Silicon trackpad (1 unit a gram), 100 frames a second from `start` (0.000001 s, where a recording
    /// made by EvemuWriter starts too): plum #50 (80 g ±1) from the start, #51 (60 g ±1) from 0.5 s, and #52
    /// (100 g) from 1.5 s; the recording ends 40 ms after #52 landed, before its lead has been kept for the
    /// heaviest mark's 0.1 s hold.
    static func threePlums() -> [RawEvent] {
        var script = EventScript(startingAt: EventTime(microseconds: 1))
            .touch(slot: 0, id: 50, x: -2000, y: 2000, pressure: 80).report(after: .milliseconds(10))
        for step in 1...154 {
            script = script.move(slot: 0, pressure: 80 + Int32(step % 2))
            if step == 50 { script = script.touch(slot: 1, id: 51, x: 0, y: 4000, pressure: 60) }
            if step > 50 { script = script.move(slot: 1, pressure: 60 + Int32(step % 2)) }
            if step == 150 { script = script.touch(slot: 2, id: 52, x: 2000, y: 2000, pressure: 100) }
            if step > 150 { script = script.move(slot: 2, pressure: 100) }
            script = script.report(after: .milliseconds(10))
        }
        return script.events
    }

    static func write(_ events: [RawEvent], named name: String) throws -> String {
        let text = EvemuWriter.recording(of: DeviceCatalogue.appleSiliconTrackpad, events: events)
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func frames(_ result: ProcessResult) throws -> [[String: Any]] {
        try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
    }

    @Test func weighOfPressureThatNeverRestsExitsOneAndSaysSo() throws {
        // 300 g pressed harder and harder (5 g every 10 ms) until the recording ends: it never rests.
        var script = EventScript(startingAt: EventTime(microseconds: 1))
            .touch(slot: 0, id: 7, x: 0, y: 2000, pressure: 300).report(after: .milliseconds(10))
        for step in 1...100 {
            script = script.move(slot: 0, pressure: 300 + 5 * Int32(step)).report(after: .milliseconds(10))
        }
        let file = try Self.write(script.events, named: "pressing.evemu")
        let result = try CLI.run(["weigh", "--replay", file])
        #expect(result.status == 1, "the last value is no weighing: \(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("ended without a stable reading (1 contact is down, not all of them still)"))
        #expect(result.stderr.contains("before its last event"), "\(result.stderr)")
    }

    @Test func anObjectShownResting0_3SecondsIsNotWeighed() throws {
        // Resting at 420 g, but the recording shows only 0.3 s of it: less than the half second stability needs.
        var script = EventScript(startingAt: EventTime(microseconds: 1))
        for step in 0...30 {
            script =
                (step == 0
                ? script.touch(slot: 0, id: 3, x: 0, y: 2000, pressure: 420)
                : script.move(slot: 0, pressure: 420 + Int32(step % 2)))
                .report(after: .milliseconds(10))
        }
        let short = try CLI.run(["weigh", "--replay", try Self.write(script.events, named: "short.evemu")])
        #expect(short.status == 1, "\(short.stdout)")
        #expect(short.stderr.contains("ended without a stable reading"))
        // One more report 0.3 s later (the device still there, the object unchanged) is the evidence it lacked.
        let evidence = script.at(EventTime(microseconds: 600_001)).report().events
        let long = try CLI.run(["weigh", "--replay", try Self.write(evidence, named: "long.evemu")])
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stdout == "#3       420.5 g\ntotal    420.5 g\n")
    }

    @Test func replayEndsWithAPendingHeaviestHoldResolved() throws {
        let file = try Self.write(Self.threePlums(), named: "three-plums.evemu")
        let frames = try Self.frames(try CLI.run(["replay", "--fast", "-f", "jsonl", file]))
        let last = try #require(frames.last)
        let contacts = last.objects("contacts")
        let heaviest = try #require(contacts.first { $0.bool("heaviest") == true }, "\(last)")
        // The mark moves to #52, rank 1, at the end of its 0.1 s hold (it landed at 1.500001 s), as live.
        #expect(heaviest.int("id") == 52)
        #expect(heaviest.int("rank") == 1 && heaviest.number("ratio") == 1)
        #expect(last.number("time") == 1.600001)
        // ... and nothing became stable after the last event (1.54 s): #52 landed 40 ms before it.
        #expect(heaviest.bool("stable") == false)
        #expect(contacts.filter { $0.int("id") != 52 }.allSatisfy { $0.bool("stable") == true })
        // The frame before it is the last event's, with #50 still marked.
        let before = try #require(frames.dropLast().last)
        #expect(before.number("time") == 1.540001)
        #expect(before.objects("contacts").first { $0.bool("heaviest") == true }?.int("id") == 50)
        // Paced or piped in, the recording ends on the same frame.
        let paced = try Self.frames(try CLI.run(["replay", "--speed", "10", "-f", "jsonl", file]))
        let piped = try Self.frames(
            try CLI.run(
                ["replay", "--fast", "-f", "jsonl", "-"],
                stdin: try Data(contentsOf: URL(fileURLWithPath: file))
            )
        )
        for other in [paced, piped] {
            #expect(other.count == frames.count)
            #expect((other.last?["contacts"] as? NSArray) == (last["contacts"] as? NSArray))
            #expect(other.last?.number("time") == 1.600001)
        }
    }

    @Test(.enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev, .slow))
    func theLiveStreamShowsTheSameFrameWhenTheHoldEnds() throws {
        // The same events from an emulated device: live, the mark moves by a tick at 1.6 s, the frame the replay
        // ends on (then, live, #52 comes to rest at 2.0 s, which the recording does not show).
        let events = Self.threePlums()
        let live = try EmulatedStreams.stream(
            device: "apple-silicon-internal-trackpad.desc",
            events: events,
            seconds: 3.5
        )
        let liveFrames = try Self.frames(live)
        let moved = try #require(
            liveFrames.first { frame in
                frame.objects("contacts").contains { $0.int("id") == 52 && $0.bool("heaviest") == true }
            },
            "\(live.stdout) \(live.stderr)"
        )
        let file = try Self.write(events, named: "three-plums.evemu")
        let replayed = try #require(try Self.frames(try CLI.run(["replay", "--fast", "-f", "jsonl", file])).last)
        #expect(moved.number("time") == replayed.number("time"))
        #expect((moved["contacts"] as? NSArray) == (replayed["contacts"] as? NSArray))
    }
}
