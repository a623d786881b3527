import Foundation
import PlumometerTestSupport
import Testing

/// The outputs of every recording we have (the demo, the CLI fixtures, ../shared/fixtures) in every format, byte
/// for byte as stored in `Tests/Fixtures/Golden/outputs.tsv`: a refactoring changes no byte. A change that means
/// to alter an output runs `scripts/golden-outputs.py --update` and says why in its commit.
struct GoldenOutputTests {
    @Test func everyRecordingGivesTheStoredOutputs() throws {
        let root = try #require(Fixtures.packageRoot, "the package root")
        let script = root.appendingPathComponent("scripts/golden-outputs.py").path
        var environment: [String: String] = [:]
        if let shared = Fixtures.sharedFixtures { environment["PLUMOMETER_SHARED_FIXTURES"] = shared.path }
        let result = try ProcessRunner.run(
            "/usr/bin/env",
            ["python3", script, "--check", "--binary", try CLI.binary],
            environment: environment,
            timeout: 300
        )
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" compared, 0 differ"), "\(result.stdout)")
    }
}
