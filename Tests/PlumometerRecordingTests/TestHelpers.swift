import Foundation
import PlumometerCore
import Testing

@testable import PlumometerRecording

/// Paths of the package and of the fixtures the tests use in place.
enum Paths {
    /// The package root: this file is `<root>/Tests/PlumometerRecordingTests/TestHelpers.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `<package>/../shared/fixtures`, or nil when it is absent (tests using it are then skipped).
    ///
    /// A git worktree of the package sits one level deeper (`<repo>/wt/<branch>`), so `../../shared/fixtures`
    /// is tried second.
    static let sharedFixtures: URL? = {
        let parent = packageRoot.deletingLastPathComponent()
        for candidate in [parent, parent.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("shared/fixtures")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return url
            }
        }
        return nil
    }()

    /// The project's own recordings: `Tests/Fixtures/Recordings`.
    static let recordings = packageRoot.appendingPathComponent("Tests/Fixtures/Recordings")

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
