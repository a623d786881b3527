public import Foundation

/// Temporary directories for tests, all under one directory per test process, removed when the process exits:
/// a run leaves nothing behind in /tmp (a suite makes hundreds of emulated devices and recordings).
public enum Scratch {
    /// `$TMPDIR/plumometer-tests-PID`, created on first use, removed at exit.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("plumometer-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("plumometer-tests-\(getpid())")
            try? FileManager.default.removeItem(at: path)
        }
        return url
    }()

    /// A fresh directory for one test's files.
    public static func directory(_ label: String) throws -> URL {
        let url = root.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// What the test environment must have. `scripts/test` (and so CI) sets `PLUMOMETER_REQUIRE_ALL=1`: then a test
/// that needs umockdev, python3's GI bindings, evemu or `script` runs even if the tool seems missing, and fails
/// loudly, instead of being skipped in silence. A developer without them still gets clean skips.
public enum Requirements {
    public static var all: Bool { ProcessInfo.processInfo.environment["PLUMOMETER_REQUIRE_ALL"] == "1" }
}
