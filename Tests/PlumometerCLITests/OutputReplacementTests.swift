import Foundation
import PlumometerTestSupport
import Testing

/// Outputs that replace a file (`calibrate -o`, `plot -o`, `demo --save`) keep what was there unless the new file is
/// complete: written to a new temporary file beside it and renamed over it only after success; a FIFO or a device
/// node at the target is refused (calibrate) and never replaced, and a write that fails (a full disk) or a
/// recording that breaks before anything is plotted leaves the old file as it was.
@Suite(.serialized) struct OutputReplacementTests {
    static let recording = CLI.fixture("grams-pad.calibration.evemu")
    static let points = ["--point", "0:0", "--point", "100:100", "--point", "200:200"]

    @Test(.tags(.foundByFaultInjection))
    func calibrateRefusesAFIFOAndLeavesIt() throws {
        let directory = try CLI.temporaryDirectory()
        let fifo = directory.appendingPathComponent("profile.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try CLI.run(["calibrate", "--replay", Self.recording] + Self.points + ["-o", fifo], timeout: 20)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("it is a FIFO, and plumometer replaces only regular files"), "\(result.stderr)")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["profile.json"], "a temporary file was left: \(left)")
    }

    @Test(.tags(.foundByFaultInjection))
    func calibrateRefusesADeviceNode() throws {
        let directory = try CLI.temporaryDirectory()
        let node = directory.appendingPathComponent("full").path
        // /dev/full's numbers (major 1, minor 7: 0x107 in glibc's dev_t), made here: the real one must never be at
        // stake in a test.
        #expect(mknod(node, S_IFCHR | 0o600, 0x107) == 0, "mknod needs root")
        let result = try CLI.run(["calibrate", "--replay", Self.recording] + Self.points + ["-o", node], timeout: 20)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("it is a character device"), "\(result.stderr)")
        var status = stat()
        #expect(lstat(node, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "the device node was replaced")
    }

    /// A recording that breaks right after its description: nothing to plot, and the good SVG stays.
    @Test(.tags(.foundByFaultInjection))
    func aPlotOfARecordingBrokenAfterItsDescriptionKeepsTheOldSVG() throws {
        let directory = try CLI.temporaryDirectory()
        let text = try String(contentsOfFile: Self.recording, encoding: .utf8)
        let description = String(text[..<(text.range(of: "\nE:")?.lowerBound ?? text.endIndex)])
        let broken = directory.appendingPathComponent("broken.evemu")
        try Data((description + "\nE: 0.1 nonsense\n").utf8).write(to: broken)
        let svg = directory.appendingPathComponent("good.svg")
        let good = Data("<svg>good</svg>\n".utf8)
        try good.write(to: svg)
        let result = try CLI.run(["plot", broken.path, "-o", svg.path], timeout: 20)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("broken.evemu:"), "\(result.stderr)")
        #expect(try Data(contentsOf: svg) == good)
    }

    /// A full disk: a tmpfs of 64 KiB holding the old SVG, too small for the new one.
    @Test(.tags(.foundByFaultInjection))
    func aPlotThatDoesNotFitKeepsTheOldSVG() throws {
        let directory = try CLI.temporaryDirectory().appendingPathComponent("small")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let mount = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory.path])
        try #require(mount.status == 0, "a tmpfs cannot be mounted here (needs root): \(mount.stderr)")
        defer { _ = try? ProcessRunner.run("/bin/umount", [directory.path]) }
        let svg = directory.appendingPathComponent("plot.svg")
        let good = Data(repeating: UInt8(ascii: "x"), count: 56 << 10)
        try good.write(to: svg)
        let result = try CLI.run(["plot", Self.recording, "-o", svg.path], timeout: 30)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        #expect(try Data(contentsOf: svg) == good, "the old SVG was emptied or cut")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["plot.svg"], "a temporary file was left: \(left)")
    }

    /// `demo --save FIFO` writes into the FIFO (its reader gets the recording); the FIFO stays one.
    @Test func demoSaveWritesIntoAFIFO() throws {
        let directory = try CLI.temporaryDirectory()
        let fifo = directory.appendingPathComponent("demo.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try ProcessRunner.run(
            "/bin/sh",
            ["-c", "'\(try CLI.binary)' demo --save '\(fifo)' & cat '\(fifo)'"],
            timeout: 20
        )
        #expect(reader.stdout.hasPrefix("# EVEMU"), "\(reader.stderr)")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }
}
