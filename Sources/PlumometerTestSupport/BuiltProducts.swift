public import Foundation

/// Finds the executables SwiftPM built next to the running test bundle (`.build/<configuration>/`).
public enum BuiltProducts {
    /// The build products directory: the directory of the running test executable.
    public static var directory: URL {
        // On Linux the test bundle is an executable in the products directory; /proc/self/exe names it exactly.
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // On Darwin-style layouts the executable sits inside `X.xctest/Contents/MacOS/`.
        while url.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
            url = url.deletingLastPathComponent()
        }
        return url
    }

    /// The built executable `name` (for example `plumometer` or `plumometer-bridge-probe`), or nil if it was not
    /// built.
    public static func url(named name: String) -> URL? {
        let url = directory.appendingPathComponent(name)
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }
}

/// Where the package and its test fixtures live: the one lookup of the package root every test target shares.
public enum Fixtures {
    /// The package root: the directory holding `Package.swift`, found upward from the build products directory,
    /// else from this source file's own location (`<root>/Sources/PlumometerTestSupport/`).
    public static let packageRoot: URL? = {
        var url = BuiltProducts.directory
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url = url.deletingLastPathComponent()
        }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return FileManager.default.fileExists(atPath: source.appendingPathComponent("Package.swift").path)
            ? source : nil
    }()

    /// `relativePath` inside the package (for example `udev/70-plumometer.rules` or `Tests/Scripts/x.py`); relative
    /// to the current directory when the package root cannot be found, so a test then fails naming the file.
    public static func path(_ relativePath: String) -> URL {
        (packageRoot ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .appendingPathComponent(relativePath)
    }

    /// A helper script in `Tests/Scripts` (for example `fifo_device.py`).
    public static func script(_ name: String) -> URL { path("Tests/Scripts/" + name) }

    /// The public device recordings in `<package>/../shared/fixtures`, or nil when that directory is absent.
    ///
    /// `PLUMOMETER_SHARED_FIXTURES` overrides the location, for a checkout (such as a git worktree) that does
    /// not sit next to `shared/`.
    public static var sharedFixtures: URL? {
        let url: URL
        if let override = ProcessInfo.processInfo.environment["PLUMOMETER_SHARED_FIXTURES"], !override.isEmpty {
            url = URL(fileURLWithPath: override).standardizedFileURL
        } else {
            guard let root = packageRoot else { return nil }
            url = root.appendingPathComponent("../shared/fixtures").standardizedFileURL
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return nil }
        return url
    }

    /// The project's own fixtures, `Tests/Fixtures`.
    public static var projectFixtures: URL { path("Tests/Fixtures") }

    /// A file under ``sharedFixtures``, or nil when it (or the directory) is absent.
    public static func shared(_ relativePath: String) -> URL? {
        guard let url = sharedFixtures?.appendingPathComponent(relativePath),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return url
    }
}
