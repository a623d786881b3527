import Foundation
import PlumometerCore
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// The bridge read end to end: the real libevdev under umockdev, through the probe executable.
@Suite(
    .serialized,
    .enabled(if: BridgeHarness.canRun || Requirements.all, "needs umockdev-run and the built bridge probe"),
    .tags(.umockdev)
)
struct UmockdevBridgeTests {
    @Test func describesTheMagicTrackpad2() throws {
        let device = UmockdevDevice(
            description: try BridgeHarness.device("apple-magic-trackpad-2-usb.desc"),
            node: "/dev/input/event5",
            udevProperties: ["ID_INPUT_TOUCHPAD": "1"]
        )
        let output = try BridgeHarness.read(
            device,
            events: BridgeHarness.events("out-of-range.events"),
            arguments: ["--max-frames", "1"]
        )
        #expect(output.result.status == 0, "\(output.result.stderr)")
        let line = try #require(output.deviceLine)
        #expect(line.contains("name=\"Apple Inc. Magic Trackpad 2\""))
        #expect(line.contains("id=0003:05ac:0265:0001"))
        #expect(line.contains("protocol=mt-b slots=16"))
        // umockdev refuses EVIOCSCLOCKID; the bridge goes on with the default clock and says so.
        #expect(line.contains("monotonic=false"))
        #expect(output.lines.contains("axis ABS_MT_PRESSURE min=0 max=253 fuzz=0 flat=0 res=0"))
        #expect(output.lines.contains("axis ABS_X min=-3678 max=3934 fuzz=4 flat=0 res=47"))
        #expect(
            output.lines(startingWith: "property ") == [
                "property 0x00 INPUT_PROP_POINTER", "property 0x02 INPUT_PROP_BUTTONPAD",
            ]
        )
        #expect(output.lines.contains("codes EV_KEY 0x110 0x145 0x148 0x14a 0x14d 0x14e 0x14f"))
        #expect(output.lines.contains("initial none"))
    }

    @Test func seesThePressurePadPropertyAndResolution() throws {
        let device = UmockdevDevice(
            description: try BridgeHarness.device("pressure-pad.desc"),
            node: "/dev/input/event9",
            udevProperties: ["ID_INPUT_TOUCHPAD": "1"]
        )
        let output = try BridgeHarness.read(
            device,
            events: BridgeHarness.events("out-of-range.events"),
            arguments: ["--max-frames", "1"]
        )
        #expect(output.result.status == 0, "\(output.result.stderr)")
        #expect(output.lines.contains("property 0x07 INPUT_PROP_PRESSUREPAD"))
        #expect(output.lines.contains("axis ABS_MT_PRESSURE min=0 max=4095 fuzz=0 flat=0 res=4"))
        #expect(output.deviceLine?.contains("id=0018:06cb:cf00:0100") == true)
    }

    @Test func decodesSeveralContactsLiftsAndRetouches() throws {
        let device = UmockdevDevice(
            description: try BridgeHarness.device("apple-magic-trackpad-2-bluetooth.desc"),
            node: "/dev/input/event3"
        )
        let output = try BridgeHarness.read(
            device,
            events: BridgeHarness.events("multitouch-contacts.events"),
            arguments: ["--max-frames", "6"]
        )
        #expect(output.result.status == 0, "\(output.result.stderr)")
        #expect(output.deviceLine?.contains("id=0005:004c:0265:0001") == true)
        let frames = output.frames
        try #require(frames.count == 6, "\(output.lines)")
        #expect(
            frames[0].contacts == [
                ProbeContact(id: 100, slot: 0, x: 100, y: 200, pressure: 30),
                ProbeContact(id: 101, slot: 1, x: -500, y: 300, pressure: 60),
            ]
        )
        // Unchanged values are omitted by the kernel and kept per slot.
        #expect(frames[1].contacts.map(\.pressure) == [45, 60])
        #expect(frames[1].contacts[1].x == -500)
        // Lift of slot 1.
        #expect(frames[2].contacts.map(\.id) == [100])
        // Re-touch in the same slot with a new tracking id.
        #expect(
            frames[3].contacts == [
                ProbeContact(id: 100, slot: 0, x: 100, y: 200, pressure: 45),
                ProbeContact(id: 102, slot: 1, x: 900, y: 100, pressure: 20),
            ]
        )
        // A tracking id replaced without a lift never comes from the kernel (input-mt ends the old one first);
        // libevdev discards it as a device bug, so the contact stays 102 and only its pressure changes.
        #expect(frames[4].contacts.last == ProbeContact(id: 102, slot: 1, x: 900, y: 100, pressure: 25))
        #expect(frames[5].contacts.isEmpty)
        #expect(frames.allSatisfy { !$0.resync })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(output.lines.contains("end reason=max-frames frames=6"))
    }

    @Test func reportsContactsAlreadyDownAtOpen() throws {
        var slots = Array(repeating: [AbsoluteAxis: Int32](), count: 16)
        slots[3] = [.mtTrackingID: 42, .mtPositionX: 120, .mtPositionY: -80, .mtPressure: 77]
        let device = UmockdevDevice(
            description: try BridgeHarness.device("apple-silicon-internal-trackpad.desc"),
            node: "/dev/input/event4",
            slotValues: slots,
            keysDown: [.btnTouch, .btnToolFinger]
        )
        let output = try BridgeHarness.read(
            device,
            events: BridgeHarness.events("resting-contact.events"),
            arguments: ["--max-frames", "1"]
        )
        #expect(output.result.status == 0, "\(output.result.stderr)")
        let initial = try #require(output.initial, "\(output.lines)")
        #expect(initial.resync)
        #expect(initial.contacts == [ProbeContact(id: 42, slot: 3, x: 120, y: -80, pressure: 77)])
        #expect(output.lines.contains("axis ABS_MT_PRESSURE min=0 max=6000 fuzz=0 flat=0 res=1"))
        // The events change the resting contact's pressure: the same contact, not a new one.
        #expect(
            output.frames == [
                ProbeFrame(
                    time: output.frames.first?.time ?? 0,
                    resync: false,
                    contacts: [
                        ProbeContact(id: 42, slot: 3, x: 120, y: -80, pressure: 55)
                    ]
                )
            ]
        )
    }

    /// A pen resting on the tablet at open: the keys held (`EVIOCGKEY`) are part of the state at open, so the next
    /// frame, which does not repeat `BTN_TOUCH`, continues the same contact instead of lifting it.
    @Test func aPenRestingAtOpenStaysDown() throws {
        let device = UmockdevDevice(
            description: try BridgeHarness.device("pen-tablet.desc"),
            node: "/dev/input/event15",
            udevProperties: ["ID_INPUT_TABLET": "1"],
            axisValues: [.x: 5000, .y: 4000, .pressure: 1500],
            keysDown: [.btnToolPen, .btnTouch]
        )
        let directory = try Umockdev.temporaryDirectory("pen-at-open")
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = directory.appendingPathComponent("pen.events")
        let time = EventTime(microseconds: 10_000)
        try Umockdev.eventsText([.abs(.pressure, 1600, at: time), .syn(.report, at: time)])
            .write(to: events, atomically: true, encoding: .utf8)
        let output = try BridgeHarness.read(device, events: events, arguments: ["--max-frames", "1"])
        #expect(output.result.status == 0, "\(output.result.stderr)")
        let initial = try #require(output.initial, "\(output.lines)")
        #expect(initial.resync)
        #expect(initial.contacts == [ProbeContact(id: 0, x: 5000, y: 4000, pressure: 1500)])
        #expect(output.frames.map(\.contacts) == [[ProbeContact(id: 0, x: 5000, y: 4000, pressure: 1600)]])
    }

    @Test func resynchronisesAfterSynDropped() throws {
        var slots = Array(repeating: [AbsoluteAxis: Int32](), count: 16)
        slots[0] = [.mtTrackingID: 7, .mtPositionX: 10, .mtPositionY: 20, .mtPressure: 40]
        let device = UmockdevDevice(
            description: try BridgeHarness.device("apple-magic-trackpad-2-usb.desc"),
            node: "/dev/input/event6",
            slotValues: slots,
            keysDown: [.btnTouch, .btnToolFinger]
        )
        let output = try BridgeHarness.read(
            device,
            events: BridgeHarness.events("syn-dropped.events"),
            arguments: ["--max-frames", "3"]
        )
        #expect(output.result.status == 0, "\(output.result.stderr)")
        #expect(output.initial?.contacts == [ProbeContact(id: 7, slot: 0, x: 10, y: 20, pressure: 40)])
        let frames = output.frames
        try #require(frames.count == 3, "\(output.lines)")
        #expect(frames[0].contacts.map(\.id) == [7, 8])
        #expect(frames[0].contacts.map(\.pressure) == [90, 70])
        #expect(!frames[0].resync)
        // The true state (EVIOCGMTSLOTS) has no contact 8 and pressure 40: it ends, the value goes back.
        #expect(frames[1].resync)
        #expect(frames[1].contacts == [ProbeContact(id: 7, slot: 0, x: 10, y: 20, pressure: 40)])
        #expect(!frames[2].resync)
        #expect(frames[2].contacts.map(\.pressure) == [41])
        #expect(output.lines.contains("resyncs total=1"))
    }

    @Test func decodesProtocolA() throws {
        let device = UmockdevDevice(
            description: try BridgeHarness.device("protocol-a-touchscreen.desc"),
            node: "/dev/input/event7"
        )
        let output = try BridgeHarness.read(
            device,
            events: BridgeHarness.events("protocol-a.events"),
            arguments: ["--max-frames", "4"]
        )
        #expect(output.result.status == 0, "\(output.result.stderr)")
        #expect(output.deviceLine?.contains("protocol=mt-a slots=-") == true)
        let frames = output.frames
        try #require(frames.count == 4, "\(output.lines)")
        let first = frames[0].contacts
        #expect(first.count == 2)
        let near = try #require(first.first { $0.x == 1000 })
        let far = try #require(first.first { $0.x == 3000 })
        // Listed in the other order, the contacts keep their ids by position.
        #expect(
            frames[1].contacts.first { $0.id == near.id } == ProbeContact(id: near.id, x: 1005, y: 1002, pressure: 55)
        )
        #expect(
            frames[1].contacts.first { $0.id == far.id } == ProbeContact(id: far.id, x: 3010, y: 3005, pressure: 85)
        )
        #expect(frames[2].contacts == [ProbeContact(id: far.id, x: 3020, y: 3010, pressure: 90)])
        #expect(frames[3].contacts.isEmpty)
    }

    @Test func decodesSingleTouch() throws {
        let device = UmockdevDevice(
            description: try BridgeHarness.device("single-touch-touchpad.desc"),
            node: "/dev/input/event8"
        )
        let output = try BridgeHarness.read(
            device,
            events: BridgeHarness.events("single-touch.events"),
            arguments: ["--max-frames", "5"]
        )
        #expect(output.result.status == 0, "\(output.result.stderr)")
        #expect(output.deviceLine?.contains("protocol=single") == true)
        let frames = output.frames
        try #require(frames.count == 5, "\(output.lines)")
        #expect(frames[0].contacts == [ProbeContact(id: 0, x: 100, y: 200, pressure: 30)])
        #expect(frames[1].contacts == [ProbeContact(id: 0, x: 100, y: 200, pressure: 60)])
        #expect(frames[2].contacts.isEmpty)
        #expect(frames[3].contacts == [ProbeContact(id: 1, x: 300, y: 200, pressure: 20)])
        #expect(frames[4].contacts.isEmpty)
    }

    @Test func decodesAPenTipButNotItsHover() throws {
        let device = UmockdevDevice(
            description: try BridgeHarness.device("pen-tablet.desc"),
            node: "/dev/input/event10",
            udevProperties: ["ID_INPUT_TABLET": "1"]
        )
        let output = try BridgeHarness.read(
            device,
            events: BridgeHarness.events("pen.events"),
            arguments: ["--max-frames", "3"]
        )
        #expect(output.result.status == 0, "\(output.result.stderr)")
        let frames = output.frames
        try #require(frames.count == 3, "\(output.lines)")
        #expect(frames[0].contacts == [ProbeContact(id: 0, x: 5000, y: 4000, pressure: 1200)])
        #expect(frames[1].contacts == [ProbeContact(id: 0, x: 5010, y: 4000, pressure: 2400)])
        #expect(frames[2].contacts.isEmpty)
    }

    @Test func passesValuesOutsideTheRangeThroughRaw() throws {
        let device = UmockdevDevice(
            description: try BridgeHarness.device("apple-magic-trackpad-2-usb.desc"),
            node: "/dev/input/event11"
        )
        let output = try BridgeHarness.read(
            device,
            events: BridgeHarness.events("out-of-range.events"),
            arguments: ["--max-frames", "2"]
        )
        let frames = output.frames
        try #require(frames.count == 2, "\(output.lines)")
        #expect(frames[0].contacts == [ProbeContact(id: 1, slot: 0, x: 5000, y: 0, pressure: 300)])
        #expect(frames[1].contacts.isEmpty)
    }

    @Test func stopsCleanlyOnSigint() throws {
        let device = UmockdevDevice(
            description: try BridgeHarness.device("touchscreen-contact-size.desc"),
            node: "/dev/input/event12"
        )
        let emulated = try EmulatedDevice(device, label: "sigint")
        defer { try? FileManager.default.removeItem(at: emulated.directory) }
        // The probe waits in poll() on a silent device; a shell inside the test bed interrupts it after 0.5 s.
        let script = "\"$0\" read \(device.node) & pid=$!; sleep 0.5; kill -INT $pid; wait $pid"
        let result = try emulated.run("/bin/sh", ["-c", script, BridgeHarness.probe], timeout: 20)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(!result.timedOut)
        #expect(result.stdoutLines.contains("end reason=signal-2 frames=0"))
        #expect(result.stdoutLines.contains("initial none"))
    }

    @Test func reportsANonexistentNode() throws {
        let result = try ProcessRunner.run(
            BridgeHarness.probe,
            ["read", "/dev/input/event-plumometer-absent"],
            timeout: 10
        )
        #expect(result.status == 1)
        #expect(result.stdoutLines == ["error code=not-found function=open errno=2"])
        #expect(result.stderr.contains("cannot open /dev/input/event-plumometer-absent: No such file or directory."))
    }

    @Test func reportsANodeThatIsNotEvdev() throws {
        let result = try ProcessRunner.run(BridgeHarness.probe, ["read", "/dev/null"], timeout: 10)
        #expect(result.status == 1)
        #expect(
            result.stdoutLines.first?.hasPrefix("error code=not-an-evdev-device function=libevdev_new_from_fd") == true
        )
    }

    @Test(
        .enabled(
            if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "needs root to drop to nobody"
        )
    )
    func reportsPermissionDenied() throws {
        let directory = try Umockdev.temporaryDirectory("eacces")
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = directory.appendingPathComponent("event0")
        try Data().write(to: node)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: node.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let result = try ProcessRunner.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", BridgeHarness.probe, "read", node.path],
            timeout: 10
        )
        try #require(
            result.status != 127 && !result.stderr.contains("setpriv:"),
            "cannot run as nobody: \(result.stderr)"
        )
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stdoutLines == ["error code=permission-denied function=open errno=13"])
        #expect(result.stderr.contains("Install udev/70-plumometer.rules (see docs/permissions.md) or run as root."))
    }
}
