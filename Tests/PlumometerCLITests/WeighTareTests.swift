import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import Testing

/// `weigh --tare` and `--carrier` on recordings: the zero is each object's settled value, not one raw sample, so a
/// tared object reads 0.0 within its noise and the total is what was added.
@Suite struct WeighTareTests {
    /// An Apple Silicon trackpad (1 unit a gram): 500 g resting at ±1 unit (its first sample 499) from the start,
    /// 100 g at ±1 unit placed beside it at 1 s, both resting until `end` seconds, 100 frames a second.
    static func noisyScene(end: Double = 2.5) -> String {
        let noise: [Int32] = [-1, 1, 0, 1, -1, 0]
        var script = EventScript(startingAt: EventTime(microseconds: 10_000_000))
            .touch(slot: 0, id: 40, x: -2000, y: 3000, pressure: 500 + noise[0]).report(after: .milliseconds(10))
        for step in 1...Int(end * 100) {
            script = script.move(slot: 0, pressure: 500 + noise[step % 6])
            if step == 100 {
                script = script.touch(slot: 1, id: 41, x: 2000, y: 3000, pressure: 100 - noise[(step + 2) % 6])
            } else if step > 100 {
                script = script.move(slot: 1, pressure: 100 - noise[(step + 2) % 6])
            }
            script = script.report(after: .milliseconds(10))
        }
        return EvemuWriter.recording(of: DeviceCatalogue.appleSiliconTrackpad, events: script.events)
    }

    static func write(_ text: String, named name: String) throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aTaredObjectReadsZeroWithinItsNoiseAndTheTotalIsWhatWasAdded() throws {
        let file = try Self.write(Self.noisyScene(), named: "tare-500-then-100.evemu")
        let result = try CLI.run(["weigh", "--replay", file, "--tare", "-f", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let frame = try #require(try CLI.jsonObjects(result).first)
        let contacts = frame.objects("contacts")
        let tared = try #require(contacts.first { $0.int("id") == 40 })
        let added = try #require(contacts.first { $0.int("id") == 41 })
        // One raw sample (499) as the zero read the tared object as 1.0 g and the total as 101 g.
        #expect(abs(try #require(tared.number("grams"))) < 0.2, "the tared 500 g reads 0.0: \(tared)")
        #expect(abs(try #require(added.number("grams")) - 100) < 0.2)
        #expect(abs(try #require(frame.number("total_grams")) - 100) < 0.2, "the total is the 100 g added")
        // The text answer says the same in its own rounding.
        let text = try CLI.run(["weigh", "--replay", file, "--tare"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("#40        0.0 g"), "\(text.stdout)")
        #expect(text.stdout.contains("total    100.0 g"), "\(text.stdout)")
    }

    @Test func replayTaresAtTheSettledValueToo() throws {
        // `replay --tare` (the reading commands' --tare) zeroes the same way: its last frame is the settled scene.
        let file = try Self.write(Self.noisyScene(), named: "tare-500-then-100.evemu")
        let result = try CLI.run(["replay", "--fast", "--tare", "-f", "jsonl", file])
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(try CLI.jsonObjects(result).last { $0.string("type") == "frame" })
        let tared = try #require(last.objects("contacts").first { $0.int("id") == 40 })
        #expect(tared.bool("stable") == true)
        #expect(abs(try #require(tared.number("grams"))) < 0.2, "\(tared)")
        #expect(abs(try #require(last.number("total_grams")) - 100) < 0.2)
    }
}
