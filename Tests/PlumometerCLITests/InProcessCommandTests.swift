import Foundation
import PlumometerCLI
import PlumometerSession
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// Whole commands run in-process on the test kit's runtime (an embedded loop, a capturing console, files in
/// memory) write exactly the bytes the built binary writes on the real one: the seams carry everything a command
/// does, and a command's behaviour can be tested in milliseconds. Each binds its runtime to its own task.
@Suite
struct InProcessCommandTests {
    /// Runs `arguments` in-process with `files` (the binary's fixed wall clock, no saved profiles).
    static func runInProcess(_ arguments: [String], files: [String: [UInt8]] = [:]) -> (Int32, CapturingConsole) {
        let console = CapturingConsole()
        let memory = MemoryFiles(
            files,
            environment: [
                "PLUMOMETER_WALL_CLOCK": "1767225600", "SOURCE_DATE_EPOCH": "1767225600",
                "XDG_CONFIG_HOME": "/nonexistent-config",
            ]
        )
        let status = Runtime.with(.embedded(console: console, files: memory)) {
            CommandLineTool.run(arguments: arguments)
        }
        return (status, console)
    }

    static let demoOptions: [[String]] = [
        ["-f", "jsonl"], ["-f", "csv"], ["-f", "text"], ["-f", "jsonl", "--tare"],
        ["-f", "jsonl", "--interval", "100"],
        ["-f", "csv", "--smooth"], ["-f", "text", "--unit", "oz", "--summary"], ["-f", "jsonl", "--max-contacts", "1"],
    ]

    @Test(arguments: demoOptions)
    func theDemoInProcessWritesTheBinarysBytes(options: [String]) throws {
        let (status, console) = Self.runInProcess(["demo", "--fast"] + options)
        let binary = try CLI.run(["demo", "--fast"] + options)
        #expect(status == binary.status)
        #expect(console.written == binary.stdout)
        #expect(console.errors == binary.stderr)
    }

    /// weigh, probe and plot of a recording: each is a source, a consumer and one run; in-process as in the binary.
    @Test(arguments: [
        ["weigh", "--replay", "{rec}"],
        ["weigh", "--replay", "{rec}", "-f", "jsonl", "--objects", "1"],
        ["probe", "--replay", "{rec}"],
        ["plot", "{rec}", "-o", "-"],
        ["calibrate", "--replay", "{rec}", "--reference", "100", "--reference", "200", "--no-save"],
        ["replay", "--fast", "-f", "csv", "--summary", "{rec}"],
    ])
    func aRecordingCommandInProcessWritesTheBinarysBytes(arguments: [String]) throws {
        let path = CLI.fixture("grams-pad.calibration.evemu")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let filled = arguments.map { $0 == "{rec}" ? path : $0 }
        let (status, console) = Self.runInProcess(filled, files: [path: bytes])
        let binary = try CLI.run(filled, environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        #expect(status == binary.status, "\(console.errors)")
        #expect(console.written == binary.stdout)
        #expect(console.errors == binary.stderr)
    }
}
