import Foundation
import PlumometerTestSupport
import Testing

/// `--carrier` on the reading commands: the one contact down where reading starts is tared as a carrier, and its
/// zero follows it when it is lifted, loaded and put back; the total of grams is in every frame.
@Suite struct CarrierReadingTests {
    let recording = CLI.fixture("grams-pad.carrier.evemu")

    @Test func theCarrierPutBackReadsItsLoad() throws {
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", "--carrier", recording])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        let first = try #require((frames.first?.objects("contacts") ?? []).first)
        #expect(first.number("grams") == 0, "the spoon reads zero once tared")
        // The spoon put back 1 mm from where it lifted, with 270 g in it, resting at ~420.
        let loaded = try #require(
            frames.last { $0.objects("contacts").count == 1 && $0.objects("contacts")[0].int("id") == 22 }
        )
        let grams = try #require(loaded.objects("contacts").first?.number("grams"))
        #expect(abs(grams - 270) < 2, "\(grams)")
        // The object put down elsewhere is not the carrier: it reads its own weight.
        let last = try #require(frames.last { $0.objects("contacts").count == 2 })
        let other = try #require(last.objects("contacts").first { $0.int("id") == 23 })
        #expect(abs((other.number("grams") ?? 0) - 100) < 2)
        let total = try #require(last.number("total_grams"))
        #expect(abs(total - last.objects("contacts").compactMap { $0.number("grams") }.reduce(0, +)) < 0.011)
    }

    @Test func textShowsTheCarrierAndTheTotal() throws {
        let result = try CLI.run(["replay", "--fast", "-f", "text", "--carrier", recording])
        #expect(result.status == 0)
        #expect(result.stdout.contains("[carrier]"))
        #expect(result.stdoutLines.dropFirst().allSatisfy { $0.contains("total") || $0.contains("(no contacts)") })
    }

    @Test func withoutGramsThereIsNoTotal() throws {
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", CLI.fixture("magic-trackpad-2.two-plums.evemu")])
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        #expect(!frames.isEmpty)
        #expect(frames.allSatisfy { $0["total_grams"] == nil })
    }
}
