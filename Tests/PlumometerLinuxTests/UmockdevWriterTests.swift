import Foundation
import PlumometerCore
import PlumometerTestSupport
import Testing

/// The umockdev files the test support writes, checked against the kernel's formats and umockdev's own example.
struct UmockdevWriterTests {
    @Test func sysfsBitmapsUseTheKernelsFormat() {
        // input_print_bitmap: unsigned long words, most significant first, leading empty words dropped.
        #expect(UmockdevDevice.sysfsBitmap([], maximum: 0x2ff) == "0")
        #expect(UmockdevDevice.sysfsBitmap([0, 1, 3], maximum: 0x1f) == "b")
        // The umockdev Synaptics record: KEY=e520 10000 0 0 0 0 and ABS=660800011000003.
        let keys: Set<UInt16> = [0x110, 0x145, 0x148, 0x14a, 0x14d, 0x14e, 0x14f]
        #expect(UmockdevDevice.sysfsBitmap(keys, maximum: 0x2ff) == "e520 10000 0 0 0 0")
        let axes: Set<UInt16> = [0x00, 0x01, 0x18, 0x1c, 0x2f, 0x35, 0x36, 0x39, 0x3a]
        #expect(UmockdevDevice.sysfsBitmap(axes, maximum: 0x3f) == "660800011000003")
    }

    @Test func ioctlAnswersMatchUmockdevsSynapticsRecord() throws {
        // A literal: the expected answers below are umockdev's own record of exactly this device.
        let description = DeviceDescription(
            path: "synaptics",
            identity: DeviceIdentity(
                bus: 0x11,
                vendor: 2,
                product: 7,
                version: 0x1b1,
                name: "SynPS/2 Synaptics TouchPad"
            ),
            properties: [.pointer, .buttonpad],
            codes: [.key: [0x110, 0x145, 0x148, 0x14a, 0x14d, 0x14e, 0x14f]],
            axes: [
                .x: AxisInfo(minimum: 1472, maximum: 5768, resolution: 65),
                .mtSlot: AxisInfo(minimum: 0, maximum: 1),
                .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535),
            ]
        )
        let device = UmockdevDevice(description: description, node: "/dev/input/event12")
        let lines = device.ioctlText().split(separator: "\n").map(String.init)
        #expect(lines.first == "@DEV /dev/input/event12")
        #expect(lines.contains("EVIOCGID 0 110002000700B101"))
        #expect(lines.contains("EVIOCGPROP(0) 8 0500000000000000"))
        #expect(lines.contains("EVIOCGBIT(0) 8 0B00000000000000"))
        #expect(lines.contains("EVIOCGABS 0 00000000C005000088160000000000000000000041000000"))
        #expect(lines.contains("EVIOCGVERSION 0 01000100"))
        let name = try #require(lines.first { $0.hasPrefix("EVIOCGNAME(0) ") })
        #expect(name.hasPrefix("EVIOCGNAME(0) 27 53796E50532F322053796E61707469637320546F75636850616400"))
        #expect(name.count == "EVIOCGNAME(0) 27 ".count + 255 * 2)
        // EVIOCGMTSLOTS padded to 4 + 256 * 4 bytes, empty slots with tracking id -1.
        let slots = try #require(lines.first { $0.hasPrefix("EVIOCGMTSLOTS(0) 0 39000000") })
        #expect(slots.count == "EVIOCGMTSLOTS(0) 0 ".count + (4 + 256 * 4) * 2)
        #expect(slots.hasSuffix("FFFFFFFF"))
    }

    @Test func umockdevRecordCarriesTheNodeAndUdevProperties() {
        // A literal: the test checks these fields' encodings (PRODUCT=, PROP=, the bitmaps) one by one.
        let description = DeviceDescription(
            path: "x",
            identity: DeviceIdentity(bus: 0x18, vendor: 0x6cb, product: 0xcf00, version: 0x100, name: "Pad"),
            properties: [.pointer, .buttonpad, .pressurepad],
            codes: [.key: [0x110, 0x14a]],
            axes: [.mtSlot: AxisInfo(minimum: 0, maximum: 4), .mtPressure: AxisInfo(minimum: 0, maximum: 4095)]
        )
        let text = UmockdevDevice(
            description: description,
            node: "/dev/input/event9",
            udevProperties: ["ID_INPUT_TOUCHPAD": "1"]
        ).umockdevText()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("N: input/event9"))
        #expect(lines.contains("E: DEVNAME=/dev/input/event9"))
        #expect(lines.contains("E: MAJOR=13"))
        #expect(lines.contains("E: MINOR=73"))
        #expect(lines.contains("E: ID_INPUT_TOUCHPAD=1"))
        #expect(lines.contains("E: NAME=\"Pad\""))
        #expect(lines.contains("E: PRODUCT=18/6cb/cf00/100"))
        #expect(lines.contains("E: PROP=85"))
        #expect(lines.contains("E: EV=b"))
        #expect(lines.contains("E: KEY=400 10000 0 0 0 0"))
        #expect(lines.contains("E: ABS=400800000000000"))
        #expect(lines.contains("A: capabilities/abs=400800000000000"))
    }

    @Test func eventsTextIsWhatUmockdevReplays() {
        let events = [
            RawEvent.abs(.mtTrackingID, -1, at: EventTime(microseconds: 1_050_000)),
            RawEvent.syn(.report, at: EventTime(microseconds: 1_050_007)),
        ]
        #expect(Umockdev.eventsText(events) == "E: 1.050000 0003 0039 -1\nE: 1.050007 0000 0000 0\n")
        #expect(
            Umockdev.eventsOnly("# EVEMU 1.3\nN: x\nE: 0.1 0000 0000 0\n\nA: 00 0 1 0 0 0\n") == "E: 0.1 0000 0000 0\n"
        )
    }

    /// The one emulated-device set-up every umockdev test uses: each device's files in the test's directory, and a
    /// command line that loads them all, with the events into every device or only the one named.
    @Test(.enabled(if: Umockdev.runner != nil, "umockdev is not installed"))
    func emulatedDevicesLoadEveryDeviceAndSendEventsWhereAsked() throws {
        var devices = try EmulatedDevice(
            try EmulatedDevice.fixture("pressure-pad.desc"),
            node: "/dev/input/event9",
            label: "emulated"
        )
        defer { try? FileManager.default.removeItem(at: devices.directory) }
        let other = try devices.add(try EmulatedDevice.fixture("keyboard.desc"), node: "/dev/input/event4")
        #expect(devices.devices.map(\.node) == ["/dev/input/event9", "/dev/input/event4"])
        #expect(devices.devices.map(\.device).allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
        #expect(try String(contentsOf: other.ioctl, encoding: .utf8).hasPrefix("@DEV /dev/input/event4\n"))
        let first = devices.files
        let events = try devices.eventsFile([.syn(.report, at: EventTime(microseconds: 5))])
        #expect(try String(contentsOf: events, encoding: .utf8) == "E: 0.000005 0000 0000 0\n")

        let runner = try #require(Umockdev.runner).path
        let load: [String] = ["-d", first.device.path, "-i", "/dev/input/event9=\(first.ioctl.path)"]
        let loadOther: [String] = ["-d", other.device.path, "-i", "/dev/input/event4=\(other.ioctl.path)"]
        let eventsInto: [String] = ["-e", "/dev/input/event9=\(events.path)"]
        let eventsIntoOther: [String] = ["-e", "/dev/input/event4=\(events.path)", "--"]
        // Joined a part at a time: one long `+` chain is more than Swift 6.0's type checker takes.
        var everywhere = [runner] + load
        everywhere += eventsInto
        everywhere += loadOther
        everywhere += eventsIntoOther
        #expect(try devices.umockdevCommand(events: events) == everywhere)
        var intoOther = [runner] + load
        intoOther += loadOther
        intoOther += eventsIntoOther
        #expect(try devices.umockdevCommand(events: events, into: "/dev/input/event4") == intoOther)
        let onlyOther = [runner] + loadOther + ["--"]
        #expect(try devices.only("/dev/input/event4").umockdevCommand() == onlyOther)
        let fed = devices.fedCommand(events: events, timed: false, hold: 2)
        #expect(fed.prefix(2) == [Umockdev.python, Fixtures.script("fifo_device.py").path])
        #expect(fed.contains("--umockdev") && fed.contains(first.device.path) && fed.last == "--")
        #expect(!fed.contains("--timed") && !fed.contains(other.device.path))
    }
}
