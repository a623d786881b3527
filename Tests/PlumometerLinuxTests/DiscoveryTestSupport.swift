import Foundation
import PlumometerTestSupport

/// Locates the built probe and the helper tools for the discovery tests (files of the package: ``Fixtures``).
enum DiscoveryPaths {
    /// The probe next to the test bundle (`swift test` builds every executable product).
    static var probe: URL? { BuiltProducts.url(named: "plumometer-discovery-probe") }

    static var umockdevAvailable: Bool {
        probe != nil && FileManager.default.isExecutableFile(atPath: Umockdev.wrapper)
            && FileManager.default.isExecutableFile(atPath: Umockdev.python)
    }
}

/// The result of running a program.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs `executable` with `arguments` through the shared ``ProcessRunner`` (timeouts, no signal blocked).
func runProgram(_ executable: String, _ arguments: [String], timeout: TimeInterval = 60) throws -> RunResult {
    let result = try ProcessRunner.run(executable, arguments, timeout: timeout)
    return RunResult(status: result.status ?? 128 + (result.signal ?? 0), stdout: result.stdout, stderr: result.stderr)
}
