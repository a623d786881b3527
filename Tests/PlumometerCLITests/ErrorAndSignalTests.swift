import Foundation
import PlumometerTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Bad input, closed pipes and signals: a clear sentence and the right status, complete lines, no hang.
@Suite struct ErrorAndSignalTests {
    @Test func missingRecordingNamesTheFile() throws {
        let result = try CLI.run(["replay", "/nonexistent/plums.evemu"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("plumometer: cannot read /nonexistent/plums.evemu: No such file or directory."))
    }

    @Test func malformedRecordingKeepsTheFramesBeforeTheBadLine() throws {
        let directory = try CLI.temporaryDirectory()
        let source = try String(contentsOfFile: CLI.fixture("magic-trackpad-2.two-plums.evemu"), encoding: .utf8)
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Break the first event of the fourth frame.
        let eventLines = lines.indices.filter { lines[$0].hasPrefix("E:") }
        let reports = eventLines.filter { lines[$0].hasSuffix("0000 0000 0000") }
        let bad = reports[2] + 1
        lines[bad] = "E: 1.030000 0003 zz 0001"
        let file = directory.appendingPathComponent("broken.evemu")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)

        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(file.path):\(bad + 1):"), "\(result.stderr)")
        let records = try CLI.jsonObjects(result)
        #expect(records.filter { $0.string("type") == "frame" }.count == 3, "the three complete frames are kept")
        #expect(result.stdout.hasSuffix("\n"))
    }

    @Test func notARecordingAtAll() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("junk.bin")
        try Data([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0xff, 0xfe, 10, 0]).write(to: file)
        let result = try CLI.run(["replay", "--fast", file.path], timeout: 20)
        #expect(result.status == 1)
        #expect(!result.timedOut)
        #expect(result.stderr.contains(file.path))
        #expect(result.stdout.isEmpty)
    }

    @Test func nonexistentDeviceNamesTheNode() throws {
        let result = try CLI.run(["--device", "/dev/input/event99", "-f", "jsonl"], timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains("/dev/input/event99"))
        #expect(result.stdout.isEmpty)
    }

    @Test func closedStdoutEndsQuietlyWithSuccess() throws {
        let binary = try CLI.binary
        let script = "'\(binary)' demo --fast -f jsonl | head -n 1; echo \"status=${PIPESTATUS[0]}\" >&2"
        let result = try ProcessRunner.run("/bin/bash", ["-c", script], timeout: 60)
        #expect(result.stdoutLines.count == 1)
        #expect(result.stderr.contains("status=0"), "\(result.stderr)")
        #expect(!result.stderr.contains("Broken pipe"))
        #expect(!result.stderr.contains("cannot write"))
    }

    /// SIGINT and SIGTERM finish the current line and exit 0.
    @Test(arguments: [SIGINT, SIGTERM])
    func signalStopsCleanlyWithCompleteLines(signal: Int32) throws {
        let process = Process()
        // Started as a shell would: no signal blocked (the test runner blocks most, and children inherit that).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", ProcessRunner.cleanSignals, try CLI.binary, "demo", "-f", "jsonl", "--speed", "2"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        // Let it write a few frames in real time, then interrupt it mid-stream.
        Thread.sleep(forTimeInterval: 1.5)
        kill(process.processIdentifier, signal)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n")
        #expect(lines.count > 2, "it was streaming before the signal")
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "incomplete line: \(line)")
        }
    }

    @Test func demoRunsWithoutHardware() throws {
        let result = try CLI.run(["demo", "--fast", "-f", "jsonl"])
        #expect(result.status == 0)
        let records = try CLI.jsonObjects(result)
        #expect(records.first?.string("type") == "device")
        #expect(records.first?.bool("force_sensor") == true)
        let frames = records.filter { $0.string("type") == "frame" }
        #expect(frames.count > 50)
        let ids = Set(frames.flatMap { $0.objects("contacts").compactMap { $0.int("id") } })
        #expect(ids.count >= 4, "several objects are placed, one lifted, one added")
        #expect(frames.contains { $0.objects("contacts").count >= 3 })
        #expect(frames.contains { frame in frame.objects("contacts").contains { $0.bool("stable") == true } })
    }
}
