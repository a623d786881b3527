import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestSupport
import Testing

/// `plumometer probe` on a live (emulated) device, guided: the force recording's gestures go in through a FIFO
/// (Tests/Scripts/fifo_device.py) while the probe runs, and the verdict is the recording's. Also libevdev's own
/// log lines under umockdev, which must come through plumometer's messages.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"))
struct ProbeDeviceTests {
    /// Runs `plumometer ARGS` against `description` at `node`, fed `eventsText` (`E:` lines) through a FIFO.
    static func run(
        _ arguments: [String],
        description: DeviceDescription,
        node: String,
        eventsText: String,
        hold: Double = 3
    ) throws -> (result: ProcessResult, stderr: String) {
        let device = try EmulatedDevice(
            description,
            node: node,
            udevProperties: ["ID_INPUT_TOUCHPAD": "1"],
            label: "probe-device"
        )
        let directory = device.directory
        let events = try device.eventsFile(text: eventsText)
        let command = device.fedCommand(events: events, timed: false, hold: hold) + [try CLI.binary] + arguments
        let script =
            command.map { "'\($0)'" }.joined(separator: " ") + " 2>'\(directory.path)/stderr'; echo \"status=$?\" >&2"
        let result = try ProcessRunner.run(
            "/bin/bash",
            ["-c", script],
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 60
        )
        let stderr = try String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)
        return (result, stderr)
    }

    @Test func theGuidedProbeOnALiveDeviceFindsForce() throws {
        let path = Fixtures.projectFixtures.appendingPathComponent("Probe/probe-force.evemu").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let description = try RecordingReader.readDescription(text: text, fileName: "probe-force.evemu")
        let node = "/dev/input/event9"
        let (result, stderr) = try Self.run(
            ["probe", "-d", node, "-f", "json"],
            description: description,
            node: node,
            eventsText: Umockdev.eventsOnly(text)
        )
        #expect(result.stderr.contains("status=0"), "\(result.stderr) \(stderr)")
        #expect(stderr.contains("Step 1/4: Rest one finger lightly"), "\(stderr)")
        #expect(stderr.contains("Step 4/4: Lift the finger."), "\(stderr)")
        let report = try #require(try CLI.jsonObjects(result).first)
        #expect(report.string("verdict") == "force", "\(stderr)")
        #expect(report.bool("guided") == true)
        #expect((report["device"] as? [String: Any])?.string("path") == node)
        #expect((report["device"] as? [String: Any])?.string("id") == "0018:06cb:7e7e:0100")
    }

    @Test func libevdevsOwnLogComesThroughPlumometer() throws {
        // A two-slot pad sent ABS_MT_SLOT 5: libevdev reports the invalid slot index through its log function.
        let path = Fixtures.projectFixtures.appendingPathComponent("Probe/probe-force.evemu").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var description = try RecordingReader.readDescription(text: text, fileName: "probe-force.evemu")
        description.axes[.mtSlot] = AxisInfo(minimum: 0, maximum: 1)
        let node = "/dev/input/event10"
        let time = EventTime(microseconds: 1_000_000)
        var events: [RawEvent] = []
        for index in 0..<30 {
            let at = EventTime(microseconds: time.microseconds + Int64(index) * 10_000)
            events += [.abs(.mtSlot, 5, at: at), .abs(.mtPressure, Int32(10 + index), at: at), .syn(.report, at: at)]
        }
        let (result, stderr) = try Self.run(
            ["-d", node, "-f", "jsonl"],
            description: description,
            node: node,
            eventsText: Umockdev.eventsText(events),
            hold: 1
        )
        #expect(result.stderr.contains("status=0"), "\(result.stderr) \(stderr)")
        let libevdevLines = stderr.split(separator: "\n").filter { $0.contains("libevdev") }
        #expect(!libevdevLines.isEmpty, "\(stderr)")
        // Every one of them is plumometer's, prefixed; and at most ten a second (30 bugs, one burst).
        #expect(libevdevLines.allSatisfy { $0.hasPrefix("plumometer: libevdev: ") }, "\(stderr)")
        #expect(libevdevLines.count <= 11, "\(stderr)")
    }
}
