import Foundation
import PlumometerTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files plumometer writes survive: never written through a planted symlink, `-` is stdout, an appended log
/// keeps every record on its own line, a full disk leaves no half line, and `stream -o` logs with an end.
@Suite(.serialized)
struct OutputFileTests {
    @Test func aSymlinkPlantedAtTheSavePathIsRefusedAndItsTargetKept() throws {
        let directory = try CLI.temporaryDirectory()
        let target = directory.appendingPathComponent("precious").path
        let link = directory.appendingPathComponent("demo.evemu").path
        try "keep me\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try CLI.run(["demo", "--save", link])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write \(link): it is a symbolic link"), "\(result.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
    }

    @Test func demoSaveDashWritesTheRecordingToStandardOutput() throws {
        let path = try CLI.temporaryDirectory().appendingPathComponent("demo.evemu").path
        let saved = try CLI.run(["demo", "--save", path])
        #expect(saved.status == 0, "\(saved.stderr)")
        let piped = try CLI.run(["demo", "--save", "-"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try piped.stdout == String(contentsOfFile: path, encoding: .utf8))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    /// `>> log` after a run that was cut mid-line: this run starts on a new line, so its records are whole lines.
    @Test func appendingToAFileWithoutAFinalNewlineStartsANewLine() throws {
        let log = try CLI.temporaryDirectory().appendingPathComponent("log.jsonl").path
        try "{\"type\":\"frame\",\"ti".write(toFile: log, atomically: true, encoding: .utf8)
        let script = "'\(try CLI.binary)' demo --fast -f jsonl --interval 1000 >> '\(log)'"
        let result = try ProcessRunner.run("/bin/bash", ["-c", script], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "{\"type\":\"frame\",\"ti", "the cut line stays alone")
        #expect(lines.dropFirst().first?.hasPrefix("{\"type\":\"device\"") == true)
        for line in lines.dropFirst() {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not whole: \(line)")
        }
    }

    /// A full disk (a 64 KiB tmpfs): the write error is reported and the file ends with a complete line.
    @Test(.enabled(if: getuid() == 0, "mounting a tiny tmpfs needs root"))
    func aFullDiskLeavesNoHalfLine() throws {
        let mount = try CLI.temporaryDirectory().appendingPathComponent("tiny")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let mounted = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount.path])
        try #require(mounted.status == 0, "cannot mount a tmpfs here: \(mounted.stderr)")
        defer { _ = try? ProcessRunner.run("/bin/umount", [mount.path]) }
        let output = mount.appendingPathComponent("out.jsonl").path
        let script = "'\(try CLI.binary)' demo --fast -f jsonl > '\(output)'"
        let result = try ProcessRunner.run("/bin/bash", ["-c", script], timeout: 60)
        #expect(result.status == 1)
        #expect(result.stderr.contains("No space left on device"), "\(result.stderr)")
        let data = try #require(FileManager.default.contents(atPath: output))
        #expect(data.count > 30_000, "it wrote until the disk was full")
        #expect(data.last == UInt8(ascii: "\n"), "the last line is cut")
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not whole: \(line.suffix(60))")
        }
    }
}

/// `stream -o FILE` appends (run after run), and `--count` and `--duration` end the run by themselves.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"))
struct StreamOutputFileTests {
    @Test func streamAppendsToItsOutputFileAndStopsAfterCount() throws {
        let log = try CLI.temporaryDirectory().appendingPathComponent("plums.jsonl").path
        for _ in 0..<2 {
            let result = try StreamTests.stream(
                device: "apple-magic-trackpad-2-usb.desc",
                events: "multitouch-contacts.events",
                seconds: 20,
                arguments: ["-f", "jsonl", "-o", log, "--count", "2"]
            )
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty, "readings go to the file")
        }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let types = lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"] as? String
        }
        #expect(types == ["device", "frame", "frame", "device", "frame", "frame"])
    }

    @Test func streamStopsAfterDuration() throws {
        let began = Date()
        let result = try StreamTests.stream(
            device: "apple-magic-trackpad-2-usb.desc",
            events: nil,
            seconds: 20,
            arguments: ["-f", "jsonl", "--duration", "0.5"]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(began) < 15, "it ran until the SIGTERM at 20 s")
        #expect(try CLI.jsonObjects(result).first?.string("type") == "device")
    }

    @Test func streamRefusesASymlinkAsItsOutput() throws {
        let directory = try CLI.temporaryDirectory()
        let target = directory.appendingPathComponent("target").path
        let link = directory.appendingPathComponent("log").path
        try "mine\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try StreamTests.stream(
            device: "apple-magic-trackpad-2-usb.desc",
            events: nil,
            seconds: 10,
            arguments: ["-f", "jsonl", "-o", link]
        )
        #expect(result.status == 1)
        #expect(result.stderr.contains("it is a symbolic link"), "\(result.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "mine\n")
    }
}

/// `record -o`: never through a planted symlink; `-o -` is standard output.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"))
struct RecordOutputFileTests {
    static func record(_ output: String) throws -> ProcessResult {
        let node = "/dev/input/event9"
        let device = try EmulatedDevice(
            try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc"),
            node: node,
            udevProperties: [:],
            label: "record-output"
        )
        return try device.run(try CLI.binary, ["record", "--device", node, "-o", output, "--duration", "0.3"])
    }

    @Test func recordRefusesASymlinkPlantedAtItsOutput() throws {
        let directory = try CLI.temporaryDirectory()
        let target = directory.appendingPathComponent("victim").path
        let link = directory.appendingPathComponent("plums.evemu").path
        try "not yours\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try Self.record(link)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write \(link): it is a symbolic link"), "\(result.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "not yours\n")
    }

    @Test func recordToDashWritesToStandardOutput() throws {
        let result = try Self.record("-")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("# EVEMU 1.3\n"))
    }
}
