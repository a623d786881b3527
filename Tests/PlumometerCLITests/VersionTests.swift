import Foundation
import PlumometerTestSupport
import Testing

/// The version is kept in one place, CHANGELOG.md's first `## VERSION - DATE` heading; the build writes it, and the
/// commit when the checkout is not that release's tag, into the binary (scripts/lib/build-version.sh, run before
/// every build by Plugins/BuildVersion).
@Suite("Version: CHANGELOG.md and the commit", .serialized)
struct VersionTests {
    static var root: URL {
        get throws { try #require(Fixtures.packageRoot, "the package root") }
    }

    /// The first release heading of CHANGELOG.md.
    static func changelogVersion() throws -> String {
        let text = try String(contentsOf: try root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = try #require(text.split(separator: "\n").first { $0.hasPrefix("## ") && $0.contains(" - ") })
        return String(heading.dropFirst(3).split(separator: " ")[0])
    }

    @Test func theBinaryPrintsTheChangelogsVersion() throws {
        let line = try CLI.run(["--version"]).stdout
        let version = try Self.changelogVersion()
        #expect(
            line.hasPrefix("plumometer \(version)\n") || line.hasPrefix("plumometer \(version) (commit "),
            "\(line)"
        )
        if let commit = line.range(of: " (commit ") {
            let hash = line[commit.upperBound...].prefix(12)
            #expect(hash.count == 12 && hash.allSatisfy(\.isHexDigit), "\(line)")
        }
    }

    /// Runs build-version.sh on `checkout`, writing `file`; returns its status, stderr and what it wrote.
    static func generate(_ checkout: URL, _ file: URL) throws -> (ProcessResult, String) {
        let script = try root.appendingPathComponent("scripts/lib/build-version.sh").path
        let result = try ProcessRunner.run("/bin/sh", [script, checkout.path, file.path], timeout: 30)
        return (result, (try? String(contentsOf: file, encoding: .utf8)) ?? "")
    }

    static func git(_ checkout: URL, _ arguments: [String]) throws {
        let result = try ProcessRunner.run(
            "/usr/bin/git",
            ["-C", checkout.path, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
                + arguments,
            timeout: 30
        )
        try #require(result.status == 0, "git \(arguments): \(result.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git") || Requirements.all))
    func aTaggedReleaseHasNoCommitAnythingElseNamesIt() throws {
        let checkout = try CLI.temporaryDirectory().appendingPathComponent("release")
        let file = checkout.appendingPathComponent("out/BuildVersion.swift")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        let changelog = checkout.appendingPathComponent("CHANGELOG.md")
        try "# Changelog\n\n## 2.3.4 - 2027-01-02\n\n- a change\n\n## 2.3.3 - 2026-12-30\n".write(
            to: changelog,
            atomically: true,
            encoding: .utf8
        )
        // Not a git checkout (a source tarball): the version alone.
        var (result, text) = try Self.generate(checkout, file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(text.contains("static let version = \"2.3.4\""))
        #expect(text.contains("static let commit: String? = nil"))

        try Self.git(checkout, ["init", "-q"])
        try Self.git(checkout, ["add", "CHANGELOG.md"])
        try Self.git(checkout, ["commit", "-qm", "release"])
        try Self.git(checkout, ["tag", "v2.3.4"])
        (result, text) = try Self.generate(checkout, file)
        #expect(text.contains("static let commit: String? = nil"), "the release's own tag: \(text)")
        // Written only when its text changes: an unchanged version recompiles nothing.
        let written = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 1.1)
        (result, text) = try Self.generate(checkout, file)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == written)

        try "# Changelog\n\n## 2.3.4 - 2027-01-02\n\n- a change, and another\n".write(
            to: changelog,
            atomically: true,
            encoding: .utf8
        )
        (result, text) = try Self.generate(checkout, file)
        #expect(text.range(of: #"commit: String\? = "[0-9a-f]{12}, modified""#, options: .regularExpression) != nil)
        try Self.git(checkout, ["commit", "-qam", "after the release"])
        (result, text) = try Self.generate(checkout, file)
        #expect(text.range(of: #"commit: String\? = "[0-9a-f]{12}""#, options: .regularExpression) != nil)
    }

    @Test func aChangelogWithoutAVersionIsAnError() throws {
        let checkout = try CLI.temporaryDirectory().appendingPathComponent("no-version")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        try "# Changelog\n\nNothing yet.\n".write(
            to: checkout.appendingPathComponent("CHANGELOG.md"),
            atomically: true,
            encoding: .utf8
        )
        let (result, _) = try Self.generate(checkout, checkout.appendingPathComponent("BuildVersion.swift"))
        #expect(result.status == 1)
        #expect(result.stderr.contains("CHANGELOG.md:1: error: no '## VERSION - DATE' heading"))
    }
}
