import Foundation
import PlumometerTestSupport
import Testing

/// `describe`, and `weigh`, `calibrate` and `probe` with `--replay`, read their recording as it arrives, a chunk at a time, as
/// `replay` and `plot` do: on a 200 MB recording they stay under 64 MB (they read it whole before, and peaked at
/// 270 MB). Driven by Tests/Scripts/replay_input.py (`peak`: wait4's maximum resident set).
@Suite(.serialized, .tags(.slow)) struct ReplayMemoryTests {
    /// grams-pad.one-object.evemu with 200 MB of comment lines between its description and its events.
    static func bigRecording() throws -> URL {
        let text = try String(contentsOfFile: CLI.fixture("grams-pad.one-object.evemu"), encoding: .utf8)
        let cut = try #require(text.range(of: "\nE:"))
        let url = try CLI.temporaryDirectory().appendingPathComponent("big.evemu")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data(text[..<cut.upperBound].dropLast(2).utf8))
        let line = "# " + String(repeating: "x", count: 1021) + "\n"
        let chunk = Data(String(repeating: line, count: 1024).utf8)
        for _ in 0..<200 { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data(text[cut.lowerBound...].dropFirst().utf8))
        try handle.close()
        return url
    }

    static let commands: [[String]] = [
        ["weigh", "--replay"],
        ["probe", "--static", "--replay"],
        // describe read its FILE whole (142 MB for a 100 MB recording) before it read as every reader does.
        ["describe"],
        ["calibrate", "--point", "0:0", "--point", "100:100", "--point", "200:200", "--replay"],
    ]

    @Test(.tags(.foundByFaultInjection), arguments: commands)
    func aReplayOfA200MBRecordingStaysUnder64MB(arguments: [String]) throws {
        let file = try Self.bigRecording()
        defer { try? FileManager.default.removeItem(at: file) }
        let script = Fixtures.script("replay_input.py").path
        var full = arguments + [file.path]
        if arguments[0] == "calibrate" {
            full += ["-o", file.deletingLastPathComponent().appendingPathComponent("p.json").path]
        }
        let result = try ProcessRunner.run(
            "/usr/bin/python3",
            [script, "peak", try CLI.binary] + full,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 300
        )
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let report = try #require(object, "\(result.stdout) \(result.stderr)")
        #expect(report["status"] as? Int == 0, "\(arguments): \(report)")
        let peak = try #require(report["peak_kib"] as? Int)
        #expect(peak < 64 * 1024, "\(arguments[0]): peak RSS \(peak) KiB for a 200 MB recording")
    }
}
