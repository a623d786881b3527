import Foundation
import PlumometerTestSupport
import Testing

/// What a source says on stderr when a device cannot be read as it declares itself: events for slots beyond what
/// the decoder keeps are counted once, never dropped silently; a bogus pressure axis gets a warning when reading
/// starts. Both for recordings (live devices are covered by the probe and bridge tests).
struct SourceWarningTests {
    /// The one-object fixture changed by `transform`, in a scratch file.
    static func variant(_ transform: (String) -> String) throws -> String {
        let text = try String(contentsOfFile: CLI.fixture("grams-pad.one-object.evemu"), encoding: .utf8)
        let path = try CLI.temporaryDirectory().appendingPathComponent("variant.evemu").path
        try transform(text).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func eventsForASlotBeyondWhatTheDecoderKeepsAreCountedOnce() throws {
        // The pad now declares slots 0..2000, more than the decoder keeps: a contact in slot 1500 cannot be read.
        // (A slot outside the declared range is a malformed recording, refused with its line, as before.)
        let path = try Self.variant { text in
            text.replacingOccurrences(of: "A: 2f 0 15 0 0 0", with: "A: 2f 0 2000 0 0 0")
                + "E: 200.000000 0003 002f 1500\nE: 200.000000 0003 0039 0009\nE: 200.000000 0003 003a 0100\n"
                + "E: 200.000000 0000 0000 0000\nE: 200.010000 0003 003a 0120\nE: 200.010000 0000 0000 0000\n"
        }
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", path])
        #expect(result.status == 0, "\(result.stderr)")
        let notes = result.stderr.components(separatedBy: "\n").filter { $0.contains("slots beyond the") }
        #expect(notes.count == 1, "\(result.stderr)")
        #expect(notes.first?.contains("3 events for slots beyond the 1024 decoded were dropped") == true, "\(notes)")
    }

    @Test func aRecordingThatStaysInItsSlotsSaysNothingOfThem() throws {
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", CLI.fixture("grams-pad.one-object.evemu")])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("slots beyond"))
    }

    @Test func anInvertedPressureRangeIsWarnedAbout() throws {
        let path = try Self.variant { $0.replacingOccurrences(of: "A: 3a 0 6000 0 0 1", with: "A: 3a 6000 0 0 0 1") }
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", path])
        #expect(result.stderr.contains("warning:") && result.stderr.contains("cannot be trusted"), "\(result.stderr)")
        let device = try #require(try CLI.jsonObjects(result).first)
        #expect(device.string("sensing") == "bogus")
    }
}
