import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `weigh` for several objects placed one by one: by default it answers once no new object arrived for the settle
/// time (3 s), so all of them are weighed; `--objects N` answers as soon as N rest; a recording that ends with
/// fewer exits 1 and says so. On recordings and on a live (emulated) device.
@Suite struct WeighObjectsTests {
    /// Three plums placed one by one a second apart (80 g at 0 s, 60 g at 1 s, 100 g at 2 s), each resting at
    /// ±1 unit, 100 frames a second until `end` seconds, on a pad at 1 unit a gram.
    static func threePlums(end: Double = 6) -> [RawEvent] {
        let plums: [(slot: Int32, id: Int32, x: Int32, grams: Int32, from: Int)] = [
            (0, 60, 1000, 80, 0), (1, 61, 3500, 60, 100), (2, 62, 6000, 100, 200),
        ]
        var script = EventScript(startingAt: EventTime(microseconds: 1))
        for step in 0...Int(end * 100) {
            for plum in plums where step >= plum.from {
                let pressure = plum.grams - 1 + 2 * Int32((step + Int(plum.slot)) % 2)
                script =
                    step == plum.from
                    ? script.touch(slot: plum.slot, id: plum.id, x: plum.x, y: 2000, pressure: pressure)
                    : script.move(slot: plum.slot, pressure: pressure)
            }
            script = script.report(after: .milliseconds(10))
        }
        return script.events
    }

    static func recording(_ events: [RawEvent]) throws -> String {
        let text = EvemuWriter.recording(of: DeviceCatalogue.appleSiliconTrackpad, events: events)
        let path = try CLI.temporaryDirectory().appendingPathComponent("three-plums.evemu").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The ids and rounded grams of a `weigh -f jsonl` answer, and its time.
    static func answer(_ result: ProcessResult) throws -> (ids: [Int], grams: [Int], time: Double) {
        let frame = try #require(try CLI.jsonObjects(result).first, "\(result.stderr)")
        let contacts = frame.objects("contacts").sorted { ($0.int("id") ?? 0) < ($1.int("id") ?? 0) }
        return (
            contacts.compactMap { $0.int("id") },
            contacts.compactMap { $0.number("grams").map { Int($0.rounded()) } },
            try #require(frame.number("time"))
        )
    }

    @Test func byDefaultAllThreePlumsPlacedOneByOneAreWeighed() throws {
        let file = try Self.recording(Self.threePlums())
        let result = try CLI.run(["weigh", "--replay", file, "-f", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try Self.answer(result)
        #expect(answer.ids == [60, 61, 62], "not only the first plum: \(answer)")
        #expect(answer.grams == [80, 60, 100])
        // The last plum arrived at 2.0 s: the answer comes 3 s later (it has rested since 2.5 s), before the
        // recording's end at 6 s.
        #expect(abs(answer.time - 5.000001) < 1e-9, "\(answer)")
        let text = try CLI.run(["weigh", "--replay", file, "-q"])
        #expect(text.stdout.hasSuffix("total    240.0 g\n"), "\(text.stdout)")
    }

    @Test func objectsTwoAnswersAsSoonAsTwoRest() throws {
        let file = try Self.recording(Self.threePlums())
        let result = try CLI.run(["weigh", "--replay", file, "-f", "jsonl", "--objects", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try Self.answer(result)
        #expect(answer.ids == [60, 61])
        // The second plum landed at 1.0 s and rests from 1.5 s: no settle time with --objects.
        #expect(abs(answer.time - 1.500001) < 1e-9, "\(answer)")
    }

    @Test func objectsFourOnARecordingThatEndsWithThreeExitsOne() throws {
        let file = try Self.recording(Self.threePlums())
        let result = try CLI.run(["weigh", "--replay", file, "--objects", "4"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains("ended with 3 objects at rest, not the 4 that --objects asks for"),
            "\(result.stderr)"
        )
        let usage = try CLI.run(["weigh", "--replay", file, "--objects", "0"])
        #expect(usage.status == 2)
    }

    @Test func theEndOfARecordingEndsTheSettleTime() throws {
        // The recording ends 0.8 s after the third plum landed: it rests (0.5 s) but the settle time (3 s) has
        // not run out; nothing can arrive after the end, so the three are the answer, as at the last event.
        let file = try Self.recording(Self.threePlums(end: 2.8))
        let result = try CLI.run(["weigh", "--replay", file, "-f", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try Self.answer(result)
        #expect(answer.ids == [60, 61, 62])
        #expect(abs(answer.time - 2.800001) < 1e-9, "\(answer)")
    }

    @Test(.enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev, .slow))
    func aLiveDeviceWaitsForThePlumsPlacedOneByOne() throws {
        // The plums go quiet once the third is down (a resting object sends nothing): the settle time runs out on
        // the poll loop's clock, 3 s after the third arrived.
        let events = Self.threePlums(end: 2.1)
        let result = try WeighDeviceTests.weigh(events: Umockdev.eventsText(events), ["-f", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try Self.answer(result)
        #expect(answer.ids == [60, 61, 62], "\(answer)")
        #expect(answer.grams == [80, 60, 100])
        let two = try WeighDeviceTests.weigh(events: Umockdev.eventsText(events), ["-f", "jsonl", "--objects", "2"])
        #expect(two.status == 0, "\(two.stderr)")
        #expect(try Self.answer(two).ids == [60, 61])
    }
}
