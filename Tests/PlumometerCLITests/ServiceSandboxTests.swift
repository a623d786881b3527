import Foundation
import PlumometerTestSupport
import Testing

/// The systemd user units run plumometer in a sandbox that still lets it read input devices and udev:
/// `systemd-analyze security` scores them 4.0 or below (they were 9.8 UNSAFE) and `systemd-analyze verify` accepts
/// them. What each directive allows is in docs/reliability.md.
@Suite struct ServiceSandboxTests {
    static let analyze = "/usr/bin/systemd-analyze"
    static let units = ["plumometer.service", "plumometer@.service", "plumometer-serve.service"]

    static func unit(_ name: String) throws -> String {
        try #require(Fixtures.packageRoot).appendingPathComponent("udev/" + name).path
    }

    static var available: Bool { Requirements.all || FileManager.default.isExecutableFile(atPath: analyze) }

    @Test(.tags(.foundInReview), .enabled(if: available, "systemd-analyze is missing"), arguments: units)
    func theUnitScoresFourOrBelow(name: String) throws {
        let result = try ProcessRunner.run(
            Self.analyze,
            ["security", "--offline=yes", try Self.unit(name)],
            timeout: 30
        )
        let line = try #require(
            result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") },
            "\(result.stdout) \(result.stderr)"
        )
        // "→ Overall exposure level for plumometer.service: 1.3 OK 🙂"
        let score = try #require(
            line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) },
            "\(line)"
        )
        #expect(score <= 4.0, "\(name): \(line)")
        for directive in ["DeviceAllow=char-input r", "DevicePolicy=closed", "NoNewPrivileges=yes"] {
            #expect(try String(contentsOfFile: try Self.unit(name), encoding: .utf8).contains(directive), "\(name)")
        }
    }

    @Test(.enabled(if: available, "systemd-analyze is missing"), arguments: units)
    func theUnitVerifiesCleanly(name: String) throws {
        let runtime = try Scratch.directory("xdg-runtime")
        let result = try ProcessRunner.run(
            Self.analyze,
            ["verify", "--user", try Self.unit(name)],
            environment: ["XDG_RUNTIME_DIR": runtime.path],
            timeout: 30
        )
        #expect(result.status == 0, "\(name): \(result.stdout) \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(name): \(result.stderr)")
    }
}
