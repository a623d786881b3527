import PlumometerCore
import Testing

@testable import PlumometerRecording

/// A small clickpad description in evemu 1.3 form, with comments in the places evemu puts them and more.
let clickpad13 = """
    # EVEMU 1.3
    # Kernel: 6.1.0
    # Input device name: "Test Clickpad"
    N: Test Clickpad
    I: 0018 06CB ce37 0100
    P: 05 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    # a comment between mask lines
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 01 00 00 00 00 00
    B: 01 20 e5 00 00 00 00 00 00
    B: 02 00 00 00 00 00 00 00 00
    B: 03 03 00 00 01 00 80 60 06
    A: 00 0 1224 0 0 12
    A: 01 0 756 0 0 12
    A: 18 0 255 0 0 0
    A: 2f 0 4 0 0 0
    A: 35 0 1224 4 0 12
    A: 36 0 756 4 0 12
    A: 39 0 65535 0 0 0
    A: 3a 0 255 0 0 0
    L: 00 1
    S: 00 0

    """

@Suite("evemu descriptions")
struct EvemuDescriptionTests {
    @Test func readsEveryDescriptionLine() throws {
        let recording = try RecordingReader.read(text: clickpad13, fileName: "pad.evemu")
        #expect(recording.format == .evemu)
        let device = try #require(recording.devices.first)
        #expect(device.formatVersion == "1.3")
        let description = device.description
        #expect(description.path == "pad.evemu")
        #expect(
            description.identity
                == DeviceIdentity(bus: 0x18, vendor: 0x06cb, product: 0xce37, version: 0x0100, name: "Test Clickpad")
        )
        #expect(description.properties == [.pointer, .buttonpad])
        #expect(description.codes[.syn] == nil)  // `B: 00` is the type bitmap
        #expect(
            description.codes[.key]
                == [
                    KeyCode.btnLeft.rawValue, KeyCode.btnToolFinger.rawValue, KeyCode.btnToolQuinttap.rawValue,
                    KeyCode.btnTouch.rawValue, KeyCode.btnToolDoubletap.rawValue, KeyCode.btnToolTripletap.rawValue,
                    KeyCode.btnToolQuadtap.rawValue,
                ]
        )
        #expect(description.codes[.rel] == nil)
        #expect(
            Set(description.axes.keys) == [
                .x, .y, .pressure, .mtSlot, .mtPositionX, .mtPositionY, .mtTrackingID, .mtPressure,
            ]
        )
        #expect(description.axes[.mtPositionX] == AxisInfo(minimum: 0, maximum: 1224, fuzz: 4, flat: 0, resolution: 12))
        #expect(description.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 255))
        #expect(description.slotCount == 5)
        #expect(description.contactProtocol == .multitouchSlots)
        #expect(try allEvents(recording).isEmpty)
    }

    @Test func fiveColumnAxesBeforeFormat12() throws {
        let text = """
            # EVEMU 1.1
            N: old
            I: 0003 0001 0002 0003
            B: 03 00 00 00 01 00 00 00 00
            A: 18 0 1023 2 0
            """
        let description = try #require(RecordingReader.read(text: text, fileName: "old.desc").devices.first).description
        #expect(description.axes[.pressure] == AxisInfo(minimum: 0, maximum: 1023, fuzz: 2, flat: 0, resolution: 0))
        #expect(description.properties.isEmpty)
    }

    @Test func sixColumnsAreAnErrorInFormat11() {
        let text = "# EVEMU 1.1\nN: old\nI: 0003 0001 0002 0003\nB: 03 00 00 00 01 00 00 00 00\nA: 18 0 1023 2 0 7\n"
        expectError(
            "expected 5 numbers after 'A:' (code, min, max, fuzz, flat; evemu format 1.1), found 6",
            line: 5,
            reading: text
        )
    }

    @Test func fiveColumnsAreAnErrorFromFormat12() {
        let text = "# EVEMU 1.2\nN: new\nI: 0003 0001 0002 0003\nB: 03 00 00 00 00 00 00 00 04\nA: 3a 0 255 0 0\n"
        expectError(
            "expected 6 numbers after 'A:' (code, min, max, fuzz, flat, resolution; evemu format 1.2), found 5",
            line: 5,
            reading: text
        )
    }

    @Test func columnCountIsDetectedWithoutAVersionLine() throws {
        let five = "N: a\nI: 0 1 2 3\nB: 03 03 00 00 00 00 00 00 00\nA: 00 0 100 0 0\nA: 01 0 50 0 0\n"
        let six = "N: a\nI: 0 1 2 3\nB: 03 03 00 00 00 00 00 00 00\nA: 00 0 100 0 0 10\nA: 01 0 50 0 0 5\n"
        let a = try #require(RecordingReader.read(text: five, fileName: "5").devices.first).description
        let b = try #require(RecordingReader.read(text: six, fileName: "6").devices.first).description
        #expect(a.axes[.y] == AxisInfo(minimum: 0, maximum: 50))
        #expect(b.axes[.y] == AxisInfo(minimum: 0, maximum: 50, resolution: 5))
        #expect(a.identity.idString == "0000:0001:0002:0003")
        let mixed = "N: a\nI: 0 1 2 3\nB: 03 03 00 00 00 00 00 00 00\nA: 00 0 100 0 0 10\nA: 01 0 50 0 0\n"
        expectError("as in the first 'A:' line (line 4)", line: 5, reading: mixed)
    }

    @Test func crlfLineEndingsReadLikeLF() throws {
        let lf = try RecordingReader.read(text: clickpad13, fileName: "x").devices[0].description
        let crlf = try RecordingReader.read(
            text: clickpad13.replacingOccurrences(of: "\n", with: "\r\n"),
            fileName: "x"
        ).devices[0].description
        #expect(lf == crlf)
        #expect(crlf.name == "Test Clickpad")
    }

    @Test func nameKeepsInnerSpacesAndUnicode() throws {
        let text = "N:   Apple Internal Keyboard / Trackpad ✓\nI: 001c 05ac 0341 0001\n"
        let description = try RecordingReader.readDescription(text: text, fileName: "n")
        #expect(description.name == "Apple Internal Keyboard / Trackpad ✓")
        #expect(description.identity.bus == 0x1c)
    }

    @Test func orderAndConsistencyErrors() {
        expectError(
            "'P:' line after 'B:' lines",
            line: 4,
            reading: "N: a\nI: 0 0 0 0\nB: 00 0b 00 00 00 00 00 00 00\nP: 00 00 00 00 00 00 00 00\n"
        )
        expectError("'I:' line before the 'N:'", line: 1, reading: "I: 0 0 0 0\n")
        expectError("'B:' line before the 'I:'", line: 2, reading: "N: a\nB: 00 0b 00 00 00 00 00 00 00\n")
        expectError("a second 'N:' line", line: 3, reading: "N: a\nI: 0 0 0 0\nN: b\n")
        expectError(
            "declare axis 18 (ABS_PRESSURE) but no 'A:' line",
            line: nil,
            reading: "N: a\nI: 0 0 0 0\nB: 03 00 00 00 01 00 00 00 00\n"
        )
        expectError(
            "a second 'A:' line for axis 00 (the first is on line 4)",
            line: 5,
            reading: "N: a\nI: 0 0 0 0\nB: 03 01 00 00 00 00 00 00 00\nA: 00 0 1 0 0 0\nA: 00 0 1 0 0 0\n"
        )
        expectError(
            "expected 4 hexadecimal numbers after 'I:' (bus vendor product version), found 3",
            line: 2,
            reading: "N: a\nI: 0 0 0\n"
        )
        expectError("'0x03' in the 'I:' line is not a hexadecimal number", line: 2, reading: "N: a\nI: 0x03 0 0 0\n")
        expectError("expected 9 hexadecimal numbers after 'B:'", line: 3, reading: "N: a\nI: 0 0 0 0\nB: 01 00\n")
        expectError(
            "event type 0x20 in the 'B:' line is beyond EV_MAX",
            line: 3,
            reading: "N: a\nI: 0 0 0 0\nB: 20 00 00 00 00 00 00 00 00\n"
        )
        expectError(
            "code 0x40 of EV_ABS is beyond the type's maximum 0x3f",
            line: 4,
            reading: "N: a\nI: 0 0 0 0\nB: 03 00 00 00 00 00 00 00 00\nB: 03 01 00 00 00 00 00 00 00\n"
        )
        expectError(
            "property bit 32 is beyond INPUT_PROP_MAX",
            line: 3,
            reading: "N: a\nI: 0 0 0 0\nP: 00 00 00 00 01 00 00 00\n"
        )
        expectError("expected 2 numbers after 'L:'", line: 3, reading: "N: a\nI: 0 0 0 0\nL: 01\n")
    }
}
