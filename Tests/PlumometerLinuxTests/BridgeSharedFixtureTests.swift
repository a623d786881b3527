import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// Public recordings of real devices (../shared/fixtures) read through the bridge under umockdev, and checked
/// against the same events decoded in-process: the live path (real libevdev) and the replay path must agree.
@Suite(
    .serialized,
    .enabled(if: Fixtures.sharedFixtures != nil, "../shared/fixtures is absent"),
    .enabled(if: BridgeHarness.canRun || Requirements.all, "needs umockdev-run and the built bridge probe"),
    .tags(.umockdev)
)
struct BridgeSharedFixtureTests {
    static let clickpad = "synaptics-clickpad-xit/SynPS2-Synaptics-TouchPad-Clickpad"

    /// What the in-process decoder makes of `events` on a device that starts with every slot empty and every
    /// value 0 (what the emulated ioctls answer at open).
    static func decode(_ events: [RawEvent], on description: DeviceDescription, limit: Int) -> [ProbeFrame] {
        var decoder = ContactDecoder(device: description)
        let slotAxes = description.axes.keys.filter { $0.isMultitouch && $0 != .mtSlot }
        var empty: [AbsoluteAxis: Int32] = [:]
        for axis in slotAxes { empty[axis] = axis == .mtTrackingID ? -1 : 0 }
        var single: [AbsoluteAxis: Int32] = [:]
        for axis in description.axes.keys where !axis.isMultitouch { single[axis] = 0 }
        _ = decoder.seed(
            with: DeviceState(
                slots: Array(repeating: empty, count: description.slotCount ?? 0),
                currentSlot: 0,
                axes: single,
                time: .zero
            )
        )
        var frames: [ProbeFrame] = []
        for event in events {
            guard let frame = decoder.consume(event) else { continue }
            frames.append(
                ProbeFrame(
                    time: 0,
                    resync: frame.resync,
                    contacts: frame.contacts.map {
                        ProbeContact(id: $0.id, slot: $0.slot, x: $0.x, y: $0.y, pressure: $0.pressure)
                    }
                )
            )
            if frames.count == limit { break }
        }
        return frames
    }

    /// Runs the probe on `device` replaying `eventsText`, and compares its frames (up to `limit`) with the
    /// in-process decoder's.
    static func crossCheck(
        _ device: UmockdevDevice,
        files: UmockdevFiles? = nil,
        eventsText: String,
        events: [RawEvent],
        limit: Int
    ) throws -> [ProbeFrame] {
        let expected = decode(events, on: device.description, limit: limit)
        try #require(!expected.isEmpty, "the recording has no frames")
        let emulated =
            try files.map { try EmulatedDevice(files: $0, label: "shared") }
            ?? EmulatedDevice(device, label: "shared")
        defer { try? FileManager.default.removeItem(at: emulated.directory) }
        let eventsURL = try emulated.eventsFile(text: eventsText, named: "events.events")
        // Through a FIFO in whole events, as fast as the probe reads: the frames do not depend on the timing, and a
        // recording's bursts through umockdev's own replay (a pty) could arrive torn on a loaded machine.
        let result = try emulated.runFed(
            BridgeHarness.probe,
            ["read", device.node, "--max-frames", String(expected.count)],
            events: eventsURL,
            timed: false,
            hold: 10
        )
        let output = ProbeOutput(result: result, lines: result.stdoutLines)
        #expect(result.status == 0, "\(result.stderr)")
        let frames = output.frames
        #expect(frames.count == expected.count)
        for (index, (live, replayed)) in zip(frames, expected).enumerated() {
            #expect(live.contacts == replayed.contacts, "frame \(index)")
        }
        return frames
    }

    @Test func synapticsClickpadTwoFingersThroughItsDescription() throws {
        let descURL = try #require(Fixtures.shared(Self.clickpad + ".desc"))
        let eventsURL = try #require(Fixtures.shared(Self.clickpad + ".two-finger-down.events"))
        let descText = try String(contentsOf: descURL, encoding: .utf8)
        let eventsText = try String(contentsOf: eventsURL, encoding: .utf8)
        var recording = try RecordingReader.read(
            descriptionText: descText,
            eventsText: eventsText,
            fileName: descURL.lastPathComponent
        )
        let description = recording.devices[0].description
        let events = try recording.devices[0].events.collect()
        let device = UmockdevDevice(
            description: description,
            node: "/dev/input/event2",
            udevProperties: ["ID_INPUT_TOUCHPAD": "1"]
        )
        let frames = try Self.crossCheck(device, eventsText: eventsText, events: events, limit: 8)
        #expect(frames[0].contacts.map(\.id) == [4117, 4118])
        #expect(frames[0].contacts.map(\.x) == [2689, 3756])
        #expect(frames[0].contacts[1].pressure == 56)
    }

    @Test func umockdevsOwnSynapticsRecordWithTheClickpadEvents() throws {
        let record = try #require(Fixtures.shared("umockdev-synaptics-touchpad/synaptics-touchpad.umockdev"))
        let ioctl = try #require(Fixtures.shared("umockdev-synaptics-touchpad/synaptics-touchpad.ioctl"))
        let eventsURL = try #require(Fixtures.shared(Self.clickpad + ".two-finger-down.events"))
        let descURL = try #require(Fixtures.shared(Self.clickpad + ".desc"))
        let eventsText = try String(contentsOf: eventsURL, encoding: .utf8)
        var recording = try RecordingReader.read(
            descriptionText: String(contentsOf: descURL, encoding: .utf8),
            eventsText: eventsText,
            fileName: descURL.lastPathComponent
        )
        // The record's node is /dev/input/event12 but its ioctl dump says @DEV /dev/input/event5: align them.
        let directory = try Umockdev.temporaryDirectory("synaptics")
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = "/dev/input/event12"
        let alignedIoctl = directory.appendingPathComponent("synaptics.ioctl")
        let ioctlText = try String(contentsOf: ioctl, encoding: .utf8)
            .split(separator: "\n").map { $0.hasPrefix("@DEV ") ? "@DEV \(node)" : String($0) }.joined(separator: "\n")
        try ioctlText.write(to: alignedIoctl, atomically: true, encoding: .utf8)
        let files = UmockdevFiles(device: record, ioctl: alignedIoctl, node: node)
        // The decoder is given the description the bridge will see (read from the ioctl dump, ranges included).
        var description = recording.devices[0].description
        description.axes[.x] = AxisInfo(minimum: 1472, maximum: 5768, resolution: 65)
        let device = UmockdevDevice(description: description, node: node)
        let events = try recording.devices[0].events.collect()
        let frames = try Self.crossCheck(device, files: files, eventsText: eventsText, events: events, limit: 8)
        #expect(frames[0].contacts.map(\.id) == [4117, 4118])
    }

    @Test func appleBcm5974ProtocolA() throws {
        let url = try #require(Fixtures.shared("apple-bcm5974/bcm5974.three-finger-click.events"))
        let text = try String(contentsOf: url, encoding: .utf8)
        var recording = try RecordingReader.read(text: text, fileName: url.lastPathComponent)
        let description = recording.devices[0].description
        #expect(description.contactProtocol == .multitouchAnonymous)
        let events = try recording.devices[0].events.collect()
        let device = UmockdevDevice(description: description, node: "/dev/input/event13")
        let frames = try Self.crossCheck(device, eventsText: text, events: events, limit: 1000)
        #expect(frames.map(\.contacts.count).max() == 3)
        // bcm5974 has no ABS_MT_PRESSURE: its legacy ABS_PRESSURE goes to the oldest contact only.
        #expect(frames.allSatisfy { $0.contacts.filter { $0.pressure != nil }.count <= 1 })
    }

    @Test func wacomPenStrokes() throws {
        let url = try #require(Fixtures.shared("wacom-isdv4-dell-canvas-pen/dell_canvas_pen.evemu"))
        let text = try String(contentsOf: url, encoding: .utf8)
        var recording = try RecordingReader.read(text: text, fileName: url.lastPathComponent)
        let description = recording.devices[0].description
        #expect(description.contactProtocol == .singleTouch)
        let events = try recording.devices[0].events.collect()
        let device = UmockdevDevice(
            description: description,
            node: "/dev/input/event14",
            udevProperties: ["ID_INPUT_TABLET": "1"]
        )
        let frames = try Self.crossCheck(device, eventsText: text, events: events, limit: 30)
        #expect(frames.contains { ($0.contacts.first?.pressure ?? 0) > 0 })
    }
}
