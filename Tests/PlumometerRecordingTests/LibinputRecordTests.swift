import Foundation
import PlumometerCore
import Testing

@testable import PlumometerRecording

@Suite("libinput record YAML")
struct LibinputRecordTests {
    static func fixture() throws -> String {
        try Paths.text(Paths.recordings.appendingPathComponent("libinput-record-two-devices.yml"))
    }

    @Test func readsTwoDevicesWithTheirEvents() throws {
        let recording = try RecordingReader.read(text: try Self.fixture(), fileName: "two.yml")
        #expect(recording.format == .libinputRecord)
        #expect(recording.devices.count == 2)

        let pad = recording.devices[0]
        #expect(pad.node == "/dev/input/event7")
        #expect(pad.formatVersion == "1")
        #expect(pad.description.path == "two.yml (/dev/input/event7)")
        #expect(
            pad.description.identity
                == DeviceIdentity(
                    bus: 0x18,
                    vendor: 0x06cb,
                    product: 0xce37,
                    version: 0x100,
                    name: "Test Pressure Pad: \"quoted\" #1"
                )
        )
        #expect(pad.description.properties == [.pointer, .buttonpad])
        #expect(pad.description.codes[.syn] == nil)
        #expect(pad.description.codes[.msc] == [5])
        #expect(pad.description.codes[.key]?.count == 7)
        #expect(pad.description.slotCount == 5)
        #expect(pad.description.axes[.x] == AxisInfo(minimum: 0, maximum: 1224, resolution: 12))
        #expect(pad.description.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 255))

        var events = pad.events
        let list = try events.collect()
        #expect(list.count == 13)
        #expect(list[0] == .abs(.mtSlot, 0, at: .zero))
        #expect(list[1] == .abs(.mtTrackingID, 312, at: .zero))
        #expect(list[8] == .abs(.mtPressure, 96, at: EventTime(microseconds: 7012)))
        #expect(list[10] == .abs(.mtTrackingID, -1, at: EventTime(seconds: 1, microseconds: 5)))
        #expect(list.filter(\.isReport).count == 3)

        let keyboard = recording.devices[1]
        #expect(keyboard.description.name == "AT Translated Set 2 keyboard")
        #expect(keyboard.description.identity.idString == "0011:0001:0001:ab41")
        #expect(keyboard.description.axes.isEmpty)
        #expect(keyboard.description.properties.isEmpty)
        var keys = keyboard.events
        let keyEvents = try keys.collect()
        #expect(keyEvents.count == 3)
        #expect(keyEvents[1] == .key(.keyA, 1, at: EventTime(seconds: 2, microseconds: 50_000)))
    }

    @Test func selectsADevice() throws {
        let recording = try RecordingReader.read(text: try Self.fixture(), fileName: "two.yml")
        #expect(try recording.device("1").description.name == "AT Translated Set 2 keyboard")
        #expect(try recording.device("/dev/input/event7").node == "/dev/input/event7")
        #expect(try recording.device("pressure").node == "/dev/input/event7")
        #expect(throws: RecordingError.self) { try recording.device(nil) }
        #expect(throws: RecordingError.self) { try recording.device("mouse") }
    }

    @Test func eventLinesCarryTheirLineNumbers() throws {
        let text = try Self.fixture()
        var source = try RecordingReader.read(text: text, fileName: "two.yml").devices[0].events
        let first = try source.next()
        #expect(first != nil)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(source.line)
        #expect(lines[line - 1].contains("ABS_MT_SLOT"))
    }

    @Test func framesBeforeABadFrameAreDelivered() throws {
        var text = try Self.fixture()
        text = text.replacingOccurrences(of: "[  1,      5,   1, 330,       0]", with: "[  1,      5,   1, 330]")
        var source = try RecordingReader.read(text: text, fileName: "bad.yml").devices[0].events
        var seen = 0
        do {
            while try source.next() != nil { seen += 1 }
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("expected 5 numbers in an evdev event"), "\(error)")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines[(error.line ?? 1) - 1].contains("[  1,      5,   1, 330]"))
        }
        // Events are read line by line, so the one before the bad line in the same frame is delivered too.
        #expect(seen == 11)
    }
}
