import Foundation
import PlumometerTestSupport
import Testing

/// Every public recording of a real device in `../shared/fixtures` replays through the whole tool.
@Suite(.enabled(if: Fixtures.sharedFixtures != nil, "../shared/fixtures is absent"))
struct SharedFixtureReplayTests {
    /// Recordings with events: single-file evemu recordings and bare `.events` files (with a `.desc` beside them,
    /// or a description at their head).
    static var recordings: [String] {
        guard let root = Fixtures.sharedFixtures,
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { ["evemu", "events"].contains($0.pathExtension) }
            .map(\.path)
            .sorted()
    }

    @Test func thereAreRecordingsToReplay() {
        #expect(Self.recordings.count >= 10)
    }

    @Test(arguments: recordings)
    func replaysWithoutError(path: String) throws {
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", path])
        #expect(result.status == 0, "\(path): \(result.stderr)")
        let records = try CLI.jsonObjects(result)
        #expect(records.first?.string("type") == "device")
        // A recording that starts with a finger already down and only lifts it (the xit "-up" ones) has no
        // contact the decoder can know of: evemu keeps no initial state. Such files may produce no frame.
        let frames = records.filter { $0.string("type") == "frame" }
        if !path.hasSuffix("-up.events") { #expect(!frames.isEmpty, "\(path) produced no frame") }
        for frame in frames {
            let contacts = frame.objects("contacts")
            #expect(contacts.filter { $0.bool("heaviest") == true }.count <= 1)
            #expect(contacts.allSatisfy { (0...1).contains($0.number("force") ?? -1) }, "force within 0...1")
            #expect(Set(contacts.compactMap { $0.int("id") }).count == contacts.count, "ids are unique")
        }
    }
}
