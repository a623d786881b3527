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
        // Every one produces frames, also those that start with a finger already down (the xit "-up" ones).
        let frames = records.filter { $0.string("type") == "frame" }
        #expect(!frames.isEmpty, "\(path) produced no frame")
        for frame in frames {
            let contacts = frame.objects("contacts")
            #expect(contacts.filter { $0.bool("heaviest") == true }.count <= 1)
            #expect(contacts.allSatisfy { (0...1).contains($0.number("force") ?? -1) }, "force within 0...1")
            #expect(Set(contacts.compactMap { $0.int("id") }).count == contacts.count, "ids are unique")
        }
    }
}
