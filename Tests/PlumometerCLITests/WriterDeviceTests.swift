import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// The writers of live devices under umockdev: `stream --record` on a full disk says what the file holds, `record` of
/// several devices replaces its file only whole at the end (a kill before leaves the old one), and the service's
/// command line (udev/plumometer.service) rotates its log at the size limit.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
struct WriterDeviceTests {
    static let eventsText: String = RecordFormatTests.eventsText

    /// A Magic Trackpad 2 at `node` (and another at `other`), and the multitouch events to feed it.
    static func device(_ label: String, node: String, other: String? = nil) throws -> (EmulatedDevice, URL) {
        let description = try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc")
        var device = try EmulatedDevice(description, node: node, udevProperties: [:], label: label)
        if let other { try device.add(description, node: other, udevProperties: [:]) }
        return (device, try device.eventsFile(text: Self.eventsText))
    }

    /// A full disk: a tmpfs of one page, filled before the run.
    @Test(.tags(.foundByFaultInjection))
    func streamRecordOnAFullDiskNeverClaimsEventsItCouldNotWrite() throws {
        let (device, events) = try Self.device("record-full", node: "/dev/input/event9")
        let small = device.directory.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        let mount = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=4k", "tmpfs", small.path])
        try #require(mount.status == 0, "a tmpfs cannot be mounted here (needs root): \(mount.stderr)")
        defer { _ = try? ProcessRunner.run("/bin/umount", [small.path]) }
        try Data(repeating: 0x20, count: 4096).write(to: small.appendingPathComponent("filler"))
        let recording = small.appendingPathComponent("kept.evemu")
        let stream = try device.run(
            "timeout",
            ProcessRunner.timeoutArguments(3) + [
                try CLI.binary, "-d", device.node, "-f", "jsonl", "--record",
                recording.path,
            ],
            events: events,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
        )
        #expect(stream.status == 1, "\(stream.stderr)")
        #expect(stream.stderr.contains("No space left on device"), "\(stream.stderr)")
        #expect(!stream.stderr.contains("holds"), "claims events it could not write: \(stream.stderr)")
        #expect(stream.stderr.contains("was not written"), "\(stream.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: small.path)
        #expect(left == ["filler"], "\(left)")
    }

    /// Killed before its end, a recording of two devices leaves the file that was there, whole, and no spool.
    @Test(.tags(.foundByFaultInjection))
    func severalDevicesReplaceTheFileOnlyWholeAtTheEnd() throws {
        let (devices, events) = try Self.device("record-whole", node: "/dev/input/event9", other: "/dev/input/event11")
        let output = try CLI.temporaryDirectory()
        let recording = output.appendingPathComponent("both.yml")
        try Data("old\n".utf8).write(to: recording)
        let arguments = ["record", "-d", devices.devices[0].node, "-d", devices.devices[1].node, "-o", recording.path]
        let killed = try devices.run("timeout", ["-s", "KILL", "1.5", try CLI.binary] + arguments, events: events)
        #expect(killed.status != 0)
        #expect(try String(contentsOf: recording, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["both.yml"])
        let whole = try devices.run(try CLI.binary, arguments + ["--duration", "1.5"], events: events)
        #expect(whole.status == 0, "\(whole.stderr)")
        let text = try String(contentsOf: recording, encoding: .utf8)
        #expect(text.contains("ndevices: 2\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["both.yml"])
        for selector in ["0", "1"] {
            let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", "-d", selector, recording.path])
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(try RecordTests.contactsPerFrame(replay).count >= 4)
        }
    }

    /// The service's own command line, as udev/plumometer.service runs it (the shell, `eval` of the options, its
    /// state directory), with a small limit: the log is rotated between whole lines and the old one kept.
    @Test func theServiceRotatesItsLogAtTheLimit() throws {
        let (device, events) = try Self.device("service-rotate", node: "/dev/input/event9")
        let unit = try String(
            contentsOf: try #require(Fixtures.packageRoot).appendingPathComponent("udev/plumometer.service"),
            encoding: .utf8
        )
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        // `/bin/sh -c '…'`: the script between the quotes, with systemd's `$$` as the shell's `$`.
        let script = String(line.drop { $0 != "'" }.dropFirst().dropLast())
            .replacingOccurrences(of: "$$", with: "$")
            .replacingOccurrences(of: "/usr/local/bin/plumometer", with: try CLI.binary)
        #expect(script.contains("--max-size \"$PLUMOMETER_MAX_SIZE\" --keep \"$PLUMOMETER_KEEP\""), "\(script)")
        let state = try CLI.temporaryDirectory()
        let log = state.appendingPathComponent("readings.jsonl")
        // An earlier run's lines, just under the limit.
        let old = String(repeating: "{\"type\":\"old\"}\n", count: 4000 / 15)
        try Data(old.utf8).write(to: log)
        let result = try device.run(
            "timeout",
            ProcessRunner.timeoutArguments(3) + ["/bin/sh", "-c", script],
            events: events,
            environment: [
                "STATE_DIRECTORY": state.path, "PLUMOMETER_MAX_SIZE": "4K", "PLUMOMETER_KEEP": "1",
                "PLUMOMETER_OPTIONS": "--device \"\(device.node)\"",
                "XDG_CONFIG_HOME": try CLI.temporaryDirectory().path,
            ],
            timeout: 30
        )
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: state.path).sorted()
        #expect(names == ["readings.jsonl", "readings.jsonl.1"], "\(names)")
        let rotated = try String(contentsOf: state.appendingPathComponent("readings.jsonl.1"), encoding: .utf8)
        #expect(rotated.hasPrefix(old), "the old lines went first")
        let current = try String(contentsOf: log, encoding: .utf8)
        for text in [rotated, current] {
            #expect(text.isEmpty || text.hasSuffix("\n"))
            for line in text.split(separator: "\n") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "a cut line: \(line)")
            }
        }
        #expect((rotated + current).contains("\"type\":\"frame\""))
    }
}
