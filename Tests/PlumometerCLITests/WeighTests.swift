import Foundation
import PlumometerTestSupport
import Testing

/// `plumometer weigh` on recordings: the first reading in which everything down is stable, heaviest first with the
/// total; exactly one JSON frame; exit 1 with the reason at the end of a recording or the timeout; tare, carrier,
/// profile and unit apply.
@Suite struct WeighTests {
    @Test func theDemoWeighsItsThreePlums() throws {
        // The demo's plums come down by hand 1.7 s apart, within the settle time (3 s): all three are weighed, as
        // the README's live view shows them at rest.
        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        let result = try CLI.run(["weigh", "--replay", demo])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == "#419      84.8 g  heaviest\n#417      71.3 g\n#418      57.7 g\ntotal    213.8 g\n",
            "\(result.stdout)"
        )
        let ounces = try CLI.run(["weigh", "--replay", demo, "--unit", "oz"])
        #expect(ounces.stdout == "#419     2.99 oz  heaviest\n#417     2.52 oz\n#418     2.04 oz\ntotal    7.54 oz\n")
    }

    @Test func jsonlIsExactlyOneFrameObject() throws {
        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        let result = try CLI.run(["weigh", "--replay", demo, "-f", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try CLI.jsonObjects(result)
        #expect(records.count == 1)
        let frame = try #require(records.first)
        #expect(frame.string("type") == "frame")
        #expect(frame.int("seq") == 1)
        let contacts = frame.objects("contacts")
        #expect(!contacts.isEmpty)
        #expect(contacts.allSatisfy { $0.bool("stable") == true })
        #expect(frame.number("total_grams") == contacts.compactMap { $0.number("grams") }.reduce(0, +))
    }

    @Test func severalContactsHeaviestFirstWithTheTotal() throws {
        // With --tare the demo's first plum, landing where the recording starts, is zeroed at the value it
        // settles to (not at the pressure 1 of its landing), so it reads 0 within its drift, and weigh waits for a
        // scene with something new: the two plums placed beside it, answered once the settle time ran out. The
        // tared plum reads 0 within its noise (-0.5 g; it was zeroed once it had stopped changing, where a zero taken
        // while its landing still decayed read -1.0 g) and, no load, is neither in the total nor the heaviest.
        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        let result = try CLI.run(["weigh", "--replay", demo, "--tare"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == "#419      84.8 g  heaviest\n#418      57.7 g\n#417      -0.5 g\ntotal    142.5 g\n",
            "\(result.stdout)"
        )
    }

    @Test func theCarrierIsTaredWhereReadingStartsAndFollowed() throws {
        let result = try CLI.run(["weigh", "--replay", CLI.fixture("grams-pad.carrier.evemu"), "--carrier"])
        #expect(result.status == 0, "\(result.stderr)")
        // The spoon's zero is its settled value (150.5 g, as weighed alone below), not its first sample. The
        // loaded spoon comes back at 1.9 s and a 100 g object is put beside it at 3.15 s, within the settle time:
        // both are weighed, at rest just before they are lifted at 4.05 s.
        #expect(
            result.stdout == "#22      270.2 g  heaviest  carrier\n#23      100.5 g\ntotal    370.7 g\n",
            "\(result.stdout)"
        )
        // Without the carrier tare the spoon alone is weighed: at rest, then lifted before the settle time ran out.
        let plain = try CLI.run(["weigh", "--replay", CLI.fixture("grams-pad.carrier.evemu")])
        #expect(plain.stdout == "#21      150.5 g\ntotal    150.5 g\n")
    }

    @Test func percentWhenGramsAreUnknown() throws {
        // A Magic Trackpad declares no resolution: percent of full scale, and no total.
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("rest.evemu").path
        var text = try String(contentsOfFile: CLI.fixture("magic-trackpad-2.two-plums.evemu"), encoding: .utf8)
        // Keep only the first frame: one plum at 100 of 253, then a report 0.6 s later showing it still there
        // unchanged (a recording shows nothing after its last event, so without it nothing would have rested).
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstEnd = try #require(lines.firstIndex { $0.hasPrefix("E:") && $0.hasSuffix("0000 0000 0000") })
        let firstTime = try #require(Double(lines[firstEnd].split(separator: " ")[1]))
        let later = String(format: "%.6f", firstTime + 0.6)
        text = lines[...firstEnd].joined(separator: "\n") + "\nE: \(later) 0000 0000 0000\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["weigh", "--replay", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "#10        39.5%\n")
    }

    @Test func theEndOfARecordingOrTheTimeoutExitsOne() throws {
        // Both plums lift before either rests for half a second.
        let ended = try CLI.run(["weigh", "--replay", CLI.fixture("magic-trackpad-2.two-plums.evemu")])
        #expect(ended.status == 1)
        #expect(ended.stdout.isEmpty)
        #expect(ended.stderr.contains("ended without a stable reading"))
        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        let timeout = try CLI.run(["weigh", "--replay", demo, "--timeout", "0.3", "-f", "jsonl"])
        #expect(timeout.status == 1)
        #expect(timeout.stdout.isEmpty)
        #expect(timeout.stderr.contains("no stable reading on \(demo) within 0.3 s"))
        #expect(timeout.stderr.contains("--timeout SECONDS"))
        let usage = try CLI.run(["weigh", "--replay", demo, "--timeout", "0"])
        #expect(usage.status == 2)
    }

    @Test func aCalibrationProfileApplies() throws {
        let (environment, profile) = try ProfileNoticeTests.demoProfile()
        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        let result = try CLI.run(["weigh", "--replay", demo], environment: environment)
        #expect(result.status == 0)
        #expect(result.stderr.contains("grams from the calibration profile \(profile)"))
        #expect(
            result.stdout == "#419     168.9 g  heaviest\n#417     142.8 g\n#418     115.7 g\ntotal    427.3 g\n",
            "2 g per unit: \(result.stdout)"
        )
    }
}
