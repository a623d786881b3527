import Foundation
import PlumometerTestSupport
import Testing

/// `replay` reads its recording as it arrives: `-` is standard input, a FIFO with no writer or a terminal never
/// blocks SIGINT/SIGTERM, a live pipe plays before it is closed, and what is not a recording is refused from its
/// first bytes, without reading the rest. Driven by Tests/Scripts/replay_input.py.
@Suite(.serialized)
struct ReplayInputTests {
    static let recording = CLI.fixture("grams-pad.calibration.evemu")

    /// Runs the driver script and parses the JSON object it prints.
    static func drive(_ arguments: [String]) throws -> [String: Any] {
        let script = Fixtures.script("replay_input.py").path
        var environment: [String: String] = [:]
        environment["XDG_CONFIG_HOME"] = try CLI.temporaryDirectory().path
        environment["PLUMOMETER_WALL_CLOCK"] = "1767225600"
        let result = try ProcessRunner.run(
            "/usr/bin/python3",
            [script] + arguments,
            environment: environment,
            timeout: 60
        )
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "driver said: \(result.stdout) \(result.stderr)")
    }

    /// An input with nothing to read yet (a FIFO nobody writes to, a terminal, a pipe that stays open) does not
    /// hold the process in `open()` or `read()` with the stop signals blocked: the signal ends it at once, status 0.
    @Test(arguments: ["fifo", "tty", "dev-stdin", "pipe"], ["INT", "TERM"])
    func aStopSignalEndsAReplayWaitingForInput(kind: String, signal: String) throws {
        let result = try Self.drive(["stop", try CLI.binary, kind, signal, Self.recording])
        #expect(result["status"] as? Int == 0, "\(kind) \(signal): \(result)")
        let seconds = try #require(result["seconds"] as? Double, "\(kind) \(signal) hung: \(result)")
        // 100 ms when the machine is idle; the bound leaves room for a loaded test machine.
        #expect(seconds < 2, "\(kind) \(signal): took \(seconds) s to stop")
        let stdout = result.string("stdout") ?? ""
        #expect(stdout.isEmpty || stdout.hasSuffix("\n"), "a cut line: \(stdout)")
    }

    /// `evemu-record DEV | plumometer replay -`: frames come out while the pipe is still open, and the whole
    /// session is the one the file gives (the device's name aside).
    @Test(arguments: [["--fast"], ["--speed", "1"]])
    func aLivePipeOnStandardInputPlaysAsItArrives(pacing: [String]) throws {
        let result = try Self.drive(["live", try CLI.binary, Self.recording, "40", "-f", "jsonl"] + pacing)
        #expect(result["status"] as? Int == 0, "\(result)")
        #expect(result["seen_frame_while_open"] as? Bool == true, "nothing was played before the pipe closed")
        let fromFile = try CLI.run(["replay", "--fast", "-f", "jsonl", Self.recording])
        let expected = fromFile.stdout.replacingOccurrences(
            of: "\"device\":\"\(Self.recording)\"",
            with: "\"device\":\"-\""
        )
        #expect(result.string("stdout") == expected)
    }

    /// `replay --fast /dev/zero` is refused from its first byte instead of reading for ever.
    @Test func anEndlessInputThatIsNotARecordingIsRefusedAtOnce() throws {
        let result = try CLI.run(["replay", "--fast", "/dev/zero"], timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains("/dev/zero:1: NUL byte at column 1"), "\(result.stderr)")
    }

    /// A large file that is not a recording (a sparse file of NUL bytes) is refused without being read whole:
    /// memory stays far below its size.
    @Test func aLargeFileThatIsNotARecordingIsNotReadWhole() throws {
        let path = try CLI.temporaryDirectory().appendingPathComponent("sparse").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 256 << 20)
        try handle.close()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.drive(["peak", try CLI.binary, "replay", "--fast", path])
        #expect(result["status"] as? Int == 1)
        #expect(result.string("stderr")?.contains("NUL byte at column 1") == true, "\(result)")
        let peak = try #require(result["peak_kib"] as? Int)
        #expect(peak < 64 * 1024, "peak RSS \(peak) KiB for a 256 MiB file")
    }

    /// Bare evemu events with their description beside them still replay when read as they arrive.
    @Test func bareEventsWithADescriptionReplayLikeTheWholeRecording() throws {
        let directory = try CLI.temporaryDirectory()
        let text = try String(contentsOfFile: Self.recording, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let description = lines.filter { !$0.hasPrefix("E:") }.joined(separator: "\n") + "\n"
        let events = lines.filter { $0.hasPrefix("E:") }.joined(separator: "\n") + "\n"
        let descPath = directory.appendingPathComponent("pad.desc").path
        let eventsPath = directory.appendingPathComponent("pad.tap.events").path
        try description.write(toFile: descPath, atomically: true, encoding: .utf8)
        try events.write(toFile: eventsPath, atomically: true, encoding: .utf8)
        let beside = try CLI.run(["replay", "--fast", "-f", "csv", eventsPath])
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(beside.stderr.contains("describing the device with \(descPath)"))
        let named = try CLI.run(["replay", "--fast", "-f", "csv", "--desc", descPath, "-"], stdin: Data(events.utf8))
        #expect(named.status == 0, "\(named.stderr)")
        // Each names the device by its events: the file, or standard input.
        #expect(named.stdout == beside.stdout.replacingOccurrences(of: eventsPath, with: "-"))
        #expect(beside.stdoutLines.dropFirst().allSatisfy { $0.contains(",\(eventsPath),") })
        #expect(beside.stdoutLines.count > 10)
    }

    /// What the reader accepted but a user should hear (an `A:` line enabling an axis the `B: 03` mask leaves
    /// out) is printed on stderr once, naming the file and line, and the replay goes on.
    @Test func theStreamsWarningsArePrintedOnceWithFileAndLine() throws {
        let text = try String(contentsOfFile: Self.recording, encoding: .utf8)
        let edited = text.replacingOccurrences(
            of: "B: 03 03 00 00 01 00 80 60 06",
            with: "B: 03 03 00 00 01 00 00 60 06"
        )
        #expect(edited != text)
        let path = try CLI.temporaryDirectory().appendingPathComponent("undeclared-slot.evemu").path
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", path])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.hasPrefix("plumometer: \(path):23: warning: 'A:' line for axis 2f") == true)
        #expect(result.stdoutLines.count > 10)
    }
}
