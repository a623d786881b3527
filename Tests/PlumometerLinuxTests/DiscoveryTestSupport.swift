import Foundation

/// Locates the package, the built probe and the helper tools for the discovery tests.
enum DiscoveryPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The probe next to the test bundle (`swift test` builds every executable product).
    static var probe: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            packageRoot.appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("plumometer-discovery-probe") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static let wrapper = "/usr/bin/umockdev-wrapper"
    static let python = "/usr/bin/python3"

    static var umockdevAvailable: Bool {
        probe != nil && FileManager.default.isExecutableFile(atPath: wrapper)
            && FileManager.default.isExecutableFile(atPath: python)
    }
}

/// The result of running a program.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs `executable` with `arguments`, killing it after `timeout` seconds so a test never hangs.
func runProgram(_ executable: String, _ arguments: [String], timeout: TimeInterval = 60) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    // Read concurrently so a chatty child cannot block on a full pipe.
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter()
    DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
        process.terminate()
        usleep(200_000)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    process.waitUntilExit()
    _ = group.wait(timeout: .now() + 5)
    return RunResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}
