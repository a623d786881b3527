import Foundation
import PlumometerCore
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// A device that disappears in the middle of a frame and comes back under a new node, with umockdev's testbed
/// driven from Python (Tests/Fixtures/Faults/umockdev_unplug.py) while the real binary reads it.
@Suite(
    .serialized,
    .enabled(
        if: Umockdev.canDriveTestbeds || Requirements.all,
        "umockdev, its GI bindings or python3 are missing"
    ),
    .tags(.foundByFaultInjection, .umockdev)
)
struct DeviceUnplugTests {
    /// Runs Tests/Fixtures/Faults/umockdev_unplug.py against the built binary: its report lines (status, then
    /// plumometer's stdout), plumometer's stderr, and the driver's own result.
    static func drive(
        _ files: UmockdevFiles,
        before: URL,
        after: URL,
        number: Int,
        options: [String] = []
    ) throws -> (report: [String], stderr: String, result: ProcessResult) {
        let result = try ProcessRunner.run(
            Umockdev.wrapper,
            [
                Umockdev.python, EmulatedStreams.fixture("umockdev_unplug.py").path, "--binary", try CLI.binary,
                "--testbed", files.device.path, "--ioctl", files.ioctl.path, "--node", files.node,
                "--before", before.path, "--after", after.path, "--number", String(number),
            ] + options,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 60
        )
        let parts = result.stdout.components(separatedBy: "--- stderr\n")
        let report = parts[0].split(separator: "\n").map(String.init)
        return (report, parts.count > 1 ? parts[1] : "", result)
    }

    @Test func deviceRemovedMidFrameIsReportedAndFollowedToItsNewNode() throws {
        let device = try EmulatedDevice(
            try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc"),
            node: "/dev/input/event7",
            label: "unplug"
        )
        let t = EmulatedStreams.t
        // One complete frame with a contact, then half a frame (a new contact and a pressure) that never ends.
        let before = try device.eventsFile(
            [
                .abs(.mtSlot, 0, at: t(0)), .abs(.mtTrackingID, 40, at: t(0)), .abs(.mtPositionX, 100, at: t(0)),
                .abs(.mtPositionY, 200, at: t(0)), .abs(.mtPressure, 50, at: t(0)), .key(.btnTouch, 1, at: t(0)),
                .syn(.report, at: t(0)),
                .abs(.mtPressure, 70, at: t(50)), .abs(.mtSlot, 1, at: t(50)), .abs(.mtTrackingID, 41, at: t(50)),
                .abs(.mtPressure, 90, at: t(50)),
            ],
            named: "before.evemu"
        )
        let after = try device.eventsFile(
            [
                .abs(.mtSlot, 0, at: t(0)), .abs(.mtTrackingID, 77, at: t(0)), .abs(.mtPositionX, 300, at: t(0)),
                .abs(.mtPositionY, 300, at: t(0)), .abs(.mtPressure, 30, at: t(0)), .key(.btnTouch, 1, at: t(0)),
                .syn(.report, at: t(0)),
            ],
            named: "after.evemu"
        )
        let (report, stderr, result) = try Self.drive(device.files, before: before, after: after, number: 17)
        #expect(
            !report.contains { $0.hasPrefix("timeout:") || $0.hasPrefix("exited early") || $0.hasPrefix("killed") },
            "\(result.stdout)\n\(result.stderr)"
        )
        #expect(report.first == "status=0", "SIGTERM after the replug still exits 0: \(report.first ?? "")")
        let records = EmulatedStreams.records(Array(report.dropFirst()))
        let types = records.compactMap { $0.string("type") }

        // The device, its frame, the removal, the device again under its new node, its frame.
        let removedIndex = try #require(types.firstIndex(of: "removed"), "\(types)")
        #expect(records[removedIndex].string("device") == "/dev/input/event7")
        let devices = records.enumerated().filter { $0.element.string("type") == "device" }
        #expect(devices.map { $0.element.string("device") } == ["/dev/input/event7", "/dev/input/event17"])
        #expect(devices.last.map { $0.offset > removedIndex } == true)

        // Before the removal: only the complete frame's contact; the half frame is never reported.
        let framesBefore = records[..<removedIndex].filter { $0.string("type") == "frame" }
        let contactsBefore = framesBefore.flatMap { $0.objects("contacts") }
        #expect(Set(contactsBefore.compactMap { $0.int("id") }) == [40], "\(framesBefore)")
        #expect(contactsBefore.allSatisfy { $0.int("pressure") == 50 }, "the half frame's pressure never applied")

        // After: frames from the new node only, with the new contact; nothing of the old one survives.
        let framesAfter = records[removedIndex...].filter { $0.string("type") == "frame" }
        #expect(framesAfter.allSatisfy { $0.string("device") == "/dev/input/event17" })
        let idsAfter = Set(framesAfter.flatMap { $0.objects("contacts").compactMap { $0.int("id") } })
        #expect(idsAfter == [77], "\(framesAfter)")

        #expect(stderr.contains("/dev/input/event7 was removed; waiting for it to come back"), "\(stderr)")
    }

    /// `--wait`: a background reader started before its device (a Bluetooth trackpad still off at login) waits
    /// through udev, and reads the device when it first appears.
    @Test func waitReadsADeviceThatAppearsAfterStart() throws {
        let device = try EmulatedDevice(
            try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc"),
            node: "/dev/input/event7",
            label: "wait"
        )
        let t = EmulatedStreams.t
        let after = try device.eventsFile(
            [
                .abs(.mtSlot, 0, at: t(0)), .abs(.mtTrackingID, 5, at: t(0)), .abs(.mtPositionX, 300, at: t(0)),
                .abs(.mtPositionY, 300, at: t(0)), .abs(.mtPressure, 30, at: t(0)), .key(.btnTouch, 1, at: t(0)),
                .syn(.report, at: t(0)),
            ],
            named: "after.evemu"
        )
        let (report, stderr, result) = try Self.drive(
            device.files,
            before: after,
            after: after,
            number: 9,
            options: ["--start-empty"]
        )
        #expect(
            !report.contains { $0.hasPrefix("timeout:") || $0.hasPrefix("exited early") || $0.hasPrefix("killed") },
            "\(result.stdout)\n\(result.stderr)"
        )
        #expect(report.first == "status=0")
        let records = EmulatedStreams.records(Array(report.dropFirst()))
        #expect(records.first?.string("type") == "device")
        #expect(records.first?.string("device") == "/dev/input/event9")
        #expect(records.contains { $0.objects("contacts").first?.int("id") == 5 })
        #expect(stderr.contains("waiting for one to appear"), "\(stderr)")
    }
}
