import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// A "pressure" axis of two levels (0..1) is a touch flag: `list` and `probe --static` call the device `bogus` and
/// say why, on a recording and on an emulated device, and reading it warns that its readings cannot be trusted.
@Suite struct TouchFlagAxisTests {
    /// The ELAN touchscreen of the catalogue with `ABS_MT_PRESSURE` 0..1.
    static var touchFlagScreen: DeviceDescription {
        var device = DeviceCatalogue.contactSizeTouchscreen
        device.axes[.mtPressure] = AxisInfo(minimum: 0, maximum: 1)
        return device
    }

    @Test func probeStaticOnARecordingSaysBogusWithTheReason() throws {
        let events = EventScript(startingAt: EventTime(microseconds: 1))
            .touch(slot: 0, id: 1, x: 100, y: 100, pressure: 1).report(after: .milliseconds(10))
            .lift(slot: 0).report()
            .events
        let file = try CLI.temporaryDirectory().appendingPathComponent("touch-flag.evemu")
        try EvemuWriter.recording(of: Self.touchFlagScreen, events: events)
            .write(to: file, atomically: true, encoding: .utf8)
        let probe = try CLI.run(["probe", "--static", "--replay", file.path, "-f", "json"])
        #expect(probe.status == 0, "\(probe.stderr)")
        let report = try #require(try CLI.jsonObjects(probe).first)
        #expect(report.string("verdict") == "bogus")
        let reasons = (report["reasons"] as? [String]) ?? []
        #expect(reasons.contains { $0.contains("ABS_MT_PRESSURE declares 0..1, two levels") }, "\(report)")
        #expect(reasons.contains { $0.contains("touch flag") })
        #expect(report.objects("findings").compactMap { $0.string("code") }.contains("two-level-range"))
        // Replaying it still works, with the warning that nothing it reads can be trusted.
        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", file.path])
        #expect(replay.status == 0)
        #expect(replay.stderr.contains("touch flag"), "\(replay.stderr)")
        #expect(replay.stderr.contains("cannot be trusted"))
    }

    @Test(.enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
    func listOnAnEmulatedDeviceSaysBogusWithTheReason() throws {
        let node = "/dev/input/event4"
        let device = try EmulatedDevice(
            Self.touchFlagScreen,
            node: node,
            udevProperties: ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"],
            label: "touch-flag"
        )
        func run(_ arguments: [String]) throws -> ProcessResult {
            try device.run(
                "timeout",
                ProcessRunner.timeoutArguments(5) + [try CLI.binary] + arguments,
                environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
            )
        }
        let list = try run(["list", "--format", "json"])
        #expect(list.status == 0, "\(list.stderr)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let screen = try #require(devices.first { $0.string("node") == node }, "\(list.stdout)")
        #expect(screen.string("sensing") == "bogus", "\(screen)")
        #expect(screen.objects("findings").compactMap { $0.string("code") }.contains("two-level-range"))
        let text = try run(["list"])
        #expect(text.stdout.contains("two-level-range"), "\(text.stdout)")
        #expect(text.stdout.contains("touch flag"))
        let probe = try run(["probe", "-d", node, "--static", "-f", "json"])
        let report = try #require(try CLI.jsonObjects(probe).first, "\(probe.stderr)")
        #expect(report.string("verdict") == "bogus")
    }
}
