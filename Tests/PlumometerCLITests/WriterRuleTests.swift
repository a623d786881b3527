import Foundation
import PlumometerTestSupport
import Testing

/// One rule for every writer (`-o`, `--record`, `--save`): a file is created or replaced only once the input has
/// opened and the first record is ready, atomically; an output is never one of the command's inputs or another of
/// its outputs; `-` is standard output; a wait for a FIFO's reader ends on SIGHUP too.
@Suite(.serialized) struct WriterRuleTests {
    static let recording = CLI.fixture("grams-pad.calibration.evemu")
    static let points = ["--point", "0:0", "--point", "100:100", "--point", "200:200"]

    static func names(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test(.tags(.foundByFaultInjection))
    func aDeviceThatCannotBeOpenedLeavesTheRecordFileAsItWas() throws {
        let directory = try CLI.temporaryDirectory()
        let keep = directory.appendingPathComponent("keep.evemu")
        try Data("# EVEMU 1.3\nkept\n".utf8).write(to: keep)
        let result = try CLI.run(["stream", "-d", "/dev/input/event99", "--record", keep.path, "-f", "jsonl"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(try String(contentsOf: keep, encoding: .utf8) == "# EVEMU 1.3\nkept\n", "emptied before any open")
        #expect(try Self.names(directory) == ["keep.evemu"])
    }

    @Test(.tags(.foundByFaultInjection), arguments: [["-o", "F", "--record", "F"], ["-o", "./F", "--record", "F"]])
    func streamRefusesOneFileForTheReadingsAndTheRecording(_ options: [String]) throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("F")
        try Data("{\"type\":\"frame\"}\n".utf8).write(to: file)
        let result = try ProcessRunner.run(
            try CLI.binary,
            ["stream", "-d", "/dev/input/event99"] + options,
            currentDirectory: directory
        )
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("-o and --record name the same file"), "\(result.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "{\"type\":\"frame\"}\n")
    }

    @Test(.tags(.foundByFaultInjection))
    func calibrateNeverReplacesTheRecordingItReads() throws {
        let directory = try CLI.temporaryDirectory()
        let copy = directory.appendingPathComponent("d.evemu")
        try FileManager.default.copyItem(atPath: Self.recording, toPath: copy.path)
        let alias = directory.appendingPathComponent("alias.evemu")
        #expect(link(copy.path, alias.path) == 0)
        let original = try Data(contentsOf: copy)
        for output in [copy.path, alias.path, directory.path + "/./d.evemu"] {
            let result = try CLI.run(["calibrate", "--replay", copy.path] + Self.points + ["-o", output], timeout: 20)
            #expect(result.status == 2, "\(output): \(result.stderr)")
            #expect(result.stderr.contains("is the file --replay reads"), "\(result.stderr)")
            #expect(try Data(contentsOf: copy) == original, "\(output) replaced the recording")
        }
        #expect(try Self.names(directory) == ["alias.evemu", "d.evemu"])
    }

    /// Standard input redirected from the output: only the open shows it, and the writer refuses it there.
    @Test(.tags(.foundByFaultInjection))
    func aRecordingOnStandardInputIsNotReplacedEither() throws {
        let directory = try CLI.temporaryDirectory()
        // A plot must be named .svg: the recording is, here.
        let svgCopy = directory.appendingPathComponent("d.svg")
        try FileManager.default.copyItem(atPath: Self.recording, toPath: svgCopy.path)
        let original = try Data(contentsOf: svgCopy)
        let plot = try ProcessRunner.run(
            "/bin/sh",
            ["-c", "exec \"$0\" plot - -o \"$1\" < \"$1\"", try CLI.binary, svgCopy.path],
            timeout: 20
        )
        #expect(plot.status == 1, "\(plot.stderr)")
        #expect(plot.stderr.contains("it is the recording this command reads"), "\(plot.stderr)")
        #expect(try Data(contentsOf: svgCopy) == original)
        #expect(try Self.names(directory) == ["d.svg"])
    }

    @Test(.tags(.foundByFaultInjection))
    func aPlotOfARecordingBrokenMidwayKeepsTheGoodSVGAndSaysWhere() throws {
        let directory = try CLI.temporaryDirectory()
        let lines = try String(contentsOfFile: Self.recording, encoding: .utf8).split(separator: "\n")
        let middle = lines.count * 2 / 3
        let broken = directory.appendingPathComponent("broken.evemu")
        let text = (lines[..<middle] + ["E: garbage"] + lines[middle...]).joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: broken)
        let svg = directory.appendingPathComponent("good.svg")
        let good = try CLI.run(["plot", Self.recording, "-o", svg.path], timeout: 30)
        #expect(good.status == 0, "\(good.stderr)")
        let before = try Data(contentsOf: svg)
        let result = try CLI.run(["plot", broken.path, "-o", svg.path], timeout: 30)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("broken.evemu:\(middle + 1):"), "\(result.stderr)")
        #expect(result.stderr.contains("good.svg was left as it was"), "\(result.stderr)")
        #expect(try Data(contentsOf: svg) == before, "a partial plot replaced the good one")
        // To a new file, the readings before the error are plotted (and the status still says it broke).
        let partial = directory.appendingPathComponent("partial.svg")
        let fresh = try CLI.run(["plot", broken.path, "-o", partial.path], timeout: 30)
        #expect(fresh.status == 1, "\(fresh.stderr)")
        #expect(try Data(contentsOf: partial).count > 1000)
        #expect(try Self.names(directory) == ["broken.evemu", "good.svg", "partial.svg"])
    }

    @Test(.tags(.foundByFaultInjection))
    func calibrateToADashWritesTheProfileOnStandardOutput() throws {
        let directory = try CLI.temporaryDirectory()
        let result = try ProcessRunner.run(
            try CLI.binary,
            ["calibrate", "--replay", Self.recording] + Self.points + ["-o", "-"],
            environment: ["XDG_CONFIG_HOME": directory.path],
            timeout: 20,
            currentDirectory: directory
        )
        #expect(result.status == 0, "\(result.stderr)")
        let profile = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(profile?["device"] != nil, "stdout is not the profile: \(result.stdout)")
        #expect(result.stderr.contains("R²"), "the summary goes to stderr: \(result.stderr)")
        let written = try Self.names(directory)
        #expect(written.isEmpty, "a file was written: \(written)")
        // And what it wrote is a profile replay reads.
        let saved = directory.appendingPathComponent("p.json")
        try Data(result.stdout.utf8).write(to: saved)
        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", "--profile", saved.path, Self.recording])
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    /// A full disk (a tmpfs of 16 KiB): the old recording stays whole, and no temporary file is left.
    @Test(.tags(.foundByFaultInjection))
    func aSaveThatDoesNotFitLeavesTheOldFile() throws {
        let directory = try CLI.temporaryDirectory().appendingPathComponent("small")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let mount = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", directory.path])
        try #require(mount.status == 0, "a tmpfs cannot be mounted here (needs root): \(mount.stderr)")
        defer { _ = try? ProcessRunner.run("/bin/umount", [directory.path]) }
        let file = directory.appendingPathComponent("demo.evemu")
        try Data("# EVEMU 1.3\ngood\n".utf8).write(to: file)
        let result = try CLI.run(["demo", "--save", file.path], timeout: 20)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "# EVEMU 1.3\ngood\n")
        #expect(try Self.names(directory) == ["demo.evemu"])
    }

    /// The terminal closed (SIGHUP) while `plot -o FIFO` or `demo --save FIFO` waited for a reader: they end.
    @Test(
        .tags(.foundByFaultInjection),
        arguments: [["plot", recording, "-o", "{fifo}"], ["demo", "--save", "{fifo}"]]
    )
    func aHangupEndsTheWaitForTheReaderOfAFIFO(_ arguments: [String]) throws {
        let result = try SignalOnEveryWaitTests.stop(arguments, signal: "HUP")
        SignalOnEveryWaitTests.expectStopped(result, arguments.joined(separator: " ") + " (SIGHUP)")
        #expect(result["fifo"] as? String == "fifo", "the FIFO was replaced: \(result)")
    }

    /// A character device is written as it is (`/dev/null`), but never an input device node: that would inject events.
    @Test(.tags(.foundByFaultInjection))
    func anInputDeviceNodeIsNeverWritten() throws {
        let directory = try CLI.temporaryDirectory()
        let node = directory.appendingPathComponent("event5").path
        // evdev's numbers (major 13, minor 69: 0xd45 in glibc's dev_t), made here: no real device is at stake.
        #expect(mknod(node, S_IFCHR | 0o600, 0xd45) == 0, "mknod needs root")
        let result = try CLI.run(["demo", "--save", node], timeout: 20)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("it is an input device"), "\(result.stderr)")
        let null = try CLI.run(["demo", "--save", "/dev/null"], timeout: 20)
        #expect(null.status == 0, "\(null.stderr)")
    }

    @Test func rotationOptionsNeedAFile() throws {
        let noFile = try CLI.run(["stream", "-d", "/dev/input/event99", "--max-size", "1M"])
        #expect(noFile.status == 2 && noFile.stderr.contains("give -o FILE"), "\(noFile.stderr)")
        let keepAlone = try CLI.run(["stream", "-d", "/dev/input/event99", "-o", "x.jsonl", "--keep", "2"])
        #expect(keepAlone.status == 2 && keepAlone.stderr.contains("give --max-size too"), "\(keepAlone.stderr)")
        for size in ["0", "1K", "12Q", "-5M", "99999999999G"] {
            let bad = try CLI.run(["stream", "-d", "/dev/input/event99", "-o", "x.jsonl", "--max-size", size])
            #expect(bad.status == 2, "\(size): \(bad.stderr)")
        }
    }
}
