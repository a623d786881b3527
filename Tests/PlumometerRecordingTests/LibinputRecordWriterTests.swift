import PlumometerCore
import PlumometerTestKit
import Testing

@testable import PlumometerRecording

/// `LibinputRecordWriter`: what it writes reads back through ``RecordingReader`` as the same devices and events,
/// and a name cannot break out of its scalar.
@Suite("libinput record writer")
struct LibinputRecordWriterTests {
    static func file(_ devices: [(DeviceDescription, [RawEvent])], start: EventTime) -> String {
        var text = LibinputRecordWriter.header(deviceCount: devices.count)
        for (index, (description, events)) in devices.enumerated() {
            text += LibinputRecordWriter.device(description, node: "/dev/input/event\(index + 4)")
            text += events.isEmpty ? LibinputRecordWriter.noEvents : LibinputRecordWriter.frame(events, since: start)
        }
        return text
    }

    @Test(arguments: [
        DeviceCatalogue.magicTrackpad2, DeviceCatalogue.appleSiliconTrackpad, DeviceCatalogue.penTablet,
        DeviceCatalogue.pressurePad, DeviceCatalogue.protocolATouchscreen,
    ])
    func descriptionsAndEventsRoundTrip(_ description: DeviceDescription) throws {
        let start = EventTime(microseconds: 5_000_000)
        // The script's events are a slotted device's; the others round-trip their description and no events.
        let slotted = description.contactProtocol == .multitouchSlots
        let script = EventScript(startingAt: EventTime(microseconds: 5_000_000))
            .touch(slot: 0, id: 7, x: 100, y: 200, pressure: 90).report(after: .milliseconds(10))
            .move(slot: 0, pressure: 95).report(after: .milliseconds(10))
            .events
        let events = slotted ? script : []
        let text = Self.file([(description, events), (DeviceCatalogue.keyboard, [])], start: start)
        let recording = try RecordingReader.read(text: text, fileName: "w.yml")
        #expect(recording.format == .libinputRecord)
        #expect(recording.devices.count == 2)
        var back = recording.devices[0].description
        back.path = description.path
        #expect(back == description)
        #expect(recording.devices[0].node == "/dev/input/event4")
        var source = recording.devices[0].events
        #expect(slotted || events.isEmpty)
        var read: [RawEvent] = []
        while let event = try source.next() { read.append(event) }
        #expect(read.map(\.type) == events.map(\.type) && read.map(\.code) == events.map(\.code))
        #expect(read.map(\.value) == events.map(\.value))
        #expect(read.map(\.time.microseconds) == events.map { $0.time.microseconds - start.microseconds })
        var none = recording.devices[1].events
        #expect(try none.next() == nil)
    }

    @Test func eventLinesHaveLibinputsColumnsAndNames() {
        let start = EventTime(microseconds: 1_000_000)
        let text = LibinputRecordWriter.frame(
            [
                .abs(.mtPressure, 40, at: EventTime(microseconds: 1_007_012)),
                .syn(.report, at: EventTime(microseconds: 1_007_012)),
            ],
            since: start
        )
        #expect(
            text == "  - evdev:\n    - [  0,   7012,   3,  58,      40] # EV_ABS / ABS_MT_PRESSURE 40\n"
                + "    - [  0,   7012,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms\n"
        )
    }

    @Test(arguments: [
        "Pad\"\nversion: 2\n- node: /x\n  evdev:", "back\\slash # not a comment", "\u{1B}[2J\t\r\u{7F}\u{85}\u{2028}",
        "ünï©ødé ✓", "",
    ])
    func anyNameReadsBackExactlyAsOneDevice(_ name: String) throws {
        var description = DeviceCatalogue.magicTrackpad2
        description.identity.name = name
        let text = Self.file([(description, [])], start: .zero)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("    name: ") }.count == 1)
        let recording = try RecordingReader.read(text: text, fileName: "w.yml")
        #expect(recording.devices.count == 1)
        #expect(recording.devices[0].description.name == name)
    }
}
