import Foundation
import PlumometerCore
import PlumometerTestSupport
import Testing

@testable import PlumometerRecording

/// The fixtures the recording tests use in place (found from the one package root, ``Fixtures``).
enum Paths {
    /// `<package>/../shared/fixtures` (or `PLUMOMETER_SHARED_FIXTURES`), or nil when it is absent (tests using it
    /// are then skipped): the one lookup every test target shares.
    static let sharedFixtures: URL? = Fixtures.sharedFixtures

    /// The project's own recordings: `Tests/Fixtures/Recordings`.
    static let recordings = Fixtures.projectFixtures.appendingPathComponent("Recordings")

    static func text(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }
}

/// Reads `text` and expects a `RecordingError` at `line` whose message contains `fragment`.
func expectError(
    _ fragment: String,
    line: Int?,
    reading text: String,
    fileName: String = "test.evemu",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        var recording = try RecordingReader.read(text: text, fileName: fileName)
        for index in recording.devices.indices {
            _ = try recording.devices[index].events.collect()
        }
        Issue.record(
            "expected an error containing '\(fragment)', but the text was read",
            sourceLocation: sourceLocation
        )
    } catch {
        #expect(error.file == fileName, sourceLocation: sourceLocation)
        #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
    }
}

/// Every event of the only device of `recording`.
func allEvents(_ recording: Recording) throws -> [RawEvent] {
    var source = try #require(recording.devices.first).events
    return try source.collect()
}
