import Foundation
import PlumometerCore
import PlumometerTestSupport
import Testing

@testable import PlumometerRecording

@Suite("evemu writer")
struct EvemuWriterTests {
    @Test func eventLinesUseEvemuFormat() {
        let start = EventTime(seconds: 100, microseconds: 0)
        let at = EventTime(seconds: 101, microseconds: 2_345)
        #expect(EvemuWriter.eventLine(.abs(.mtTrackingID, -1, at: at), since: start) == "E: 1.002345 0003 0039 -001")
        #expect(EvemuWriter.eventLine(.abs(.mtPressure, 5, at: at), since: start) == "E: 1.002345 0003 003a 0005")
        #expect(
            EvemuWriter.eventLine(.abs(.mtPositionX, 12345, at: start), since: start) == "E: 0.000000 0003 0035 12345"
        )
        #expect(EvemuWriter.eventLine(.key(.btnTouch, 1, at: at), since: start) == "E: 1.002345 0001 014a 0001")
        #expect(EvemuWriter.eventLine(.syn(.report, at: at), since: start) == "E: 1.002345 0000 0000 0000")
        #expect(EvemuWriter.eventLine(.abs(.mtPositionX, -1234, at: at), since: start) == "E: 1.002345 0003 0035 -1234")
        #expect(EvemuWriter.eventLine(.abs(.x, Int32.min, at: at), since: start) == "E: 1.002345 0003 0000 -2147483648")
    }

    @Test func descriptionRoundTripIsIdentity() throws {
        let original = try RecordingReader.readDescription(text: clickpad13, fileName: "pad")
        let written = EvemuWriter.description(of: original)
        #expect(written.hasPrefix("# EVEMU 1.3\n"))
        #expect(written.contains("\nN: Test Clickpad\nI: 0018 06cb ce37 0100\nP: 05 00 00 00 00 00 00 00\nB: 00 0b 00"))
        #expect(written.contains("\nA: 35 0 1224 4 0 12\n"))
        #expect(written.split(separator: "\n").filter { $0.hasPrefix("B: 01 ") }.count == 12)
        let back = try RecordingReader.readDescription(text: written, fileName: "pad")
        #expect(back == original)
    }

    @Test func unusualTypesAndPropertiesRoundTrip() throws {
        // A literal: the test is about these unusual fields (a type beyond EV_FF, KEY_MAX, a name with a newline).
        let description = DeviceDescription(
            path: "x",
            identity: DeviceIdentity(bus: 0x1c, vendor: 0x05ac, product: 0x0341, version: 1, name: "Odd\nName"),
            properties: [.pointer, .buttonpad, .pressurepad],
            codes: [.key: [KeyCode.btnTouch.rawValue, 0x2ff], .ff: [0x4f], EventType(rawValue: 0x16): [0], .msc: [5]],
            axes: [.mtPressure: AxisInfo(minimum: -5, maximum: 6000, fuzz: 3, flat: 1, resolution: 1)]
        )
        let back = try RecordingReader.readDescription(text: EvemuWriter.description(of: description), fileName: "x")
        var expected = description
        expected.identity.name = "Odd Name"
        #expect(back == expected)
    }

    @Test func recordingRoundTripKeepsEveryEvent() throws {
        let description = try RecordingReader.readDescription(text: clickpad13, fileName: "pad")
        let base = EventTime(seconds: 5000, microseconds: 999_999)
        let events: [RawEvent] = [
            .abs(.mtSlot, 0, at: base), .abs(.mtTrackingID, 7, at: base), .abs(.mtPressure, 30, at: base),
            .key(.btnTouch, 1, at: base), .syn(.report, at: base),
            .abs(.mtPressure, 31, at: base.adding(seconds: 0.0125)), .syn(.report, at: base.adding(seconds: 0.0125)),
            .abs(.mtTrackingID, -1, at: base.adding(seconds: 2)), .key(.btnTouch, 0, at: base.adding(seconds: 2)),
            .syn(.report, at: base.adding(seconds: 2)),
        ]
        let text = EvemuWriter.recording(of: description, events: events)
        #expect(text.contains("\nE: 0.000001 0003 002f 0000\n"))
        let recording = try RecordingReader.read(text: text, fileName: "pad")
        #expect(recording.devices[0].description == description)
        let back = try allEvents(recording)
        let shift = base.microseconds - 1
        #expect(
            back
                == events.map {
                    RawEvent(
                        time: EventTime(microseconds: $0.time.microseconds - shift),
                        type: $0.type,
                        code: $0.code,
                        value: $0.value
                    )
                }
        )
    }

    @Test(
        .enabled(if: Paths.sharedFixtures != nil, "../shared/fixtures is absent"),
        arguments: [
            "logitech-t650/Logitech Rechargeable Touchpad T650.desc",
            "synaptics-t440-topbuttonpad/SynPS2-Synaptics-TouchPad-T440.desc",
            "nexus4-touchscreen/n4.desc",
            "synaptics-clickpad-xit/SynPS2-Synaptics-TouchPad-Clickpad.desc",
            "elan-redrix-haptic-pressurepad/ELAN2703-04F3-323B.DERIVED.desc",
            "wacom-isdv4-dell-canvas-pen/dell_canvas_pen.evemu",
            "apple-bcm5974/bcm5974.three-finger-click.events",
        ]
    )
    func realDescriptionsReadBackEqual(path: String) throws {
        let url = try #require(Paths.sharedFixtures).appendingPathComponent(path)
        let original = try RecordingReader.readDescription(text: try Paths.text(url), fileName: "f")
        let back = try RecordingReader.readDescription(text: EvemuWriter.description(of: original), fileName: "f")
        #expect(back == original)
    }

    /// evemu's own parser (libevemu through python3 ctypes) reads what we write, and `evemu-play` replays the
    /// events (into /dev/null: no uinput needed) without a complaint.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/bin/evemu-play") || Requirements.all,
            "evemu-tools not installed"
        )
    )
    func evemuAcceptsWhatWeWrite() throws {
        let description = try RecordingReader.readDescription(text: clickpad13, fileName: "pad")
        let t = EventTime(seconds: 1, microseconds: 0)
        let events: [RawEvent] = [
            .abs(.mtTrackingID, 3, at: t), .abs(.mtPressure, 9, at: t), .syn(.report, at: t),
            .abs(.mtTrackingID, -1, at: t.adding(seconds: 0.01)), .syn(.report, at: t.adding(seconds: 0.01)),
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("evemu-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rec.evemu")
        try EvemuWriter.recording(of: description, events: events).write(to: file, atomically: true, encoding: .utf8)

        let script = """
            import ctypes, sys
            evemu = ctypes.CDLL("libevemu.so.3"); libc = ctypes.CDLL("libc.so.6")
            evemu.evemu_new.restype = ctypes.c_void_p; evemu.evemu_get_name.restype = ctypes.c_char_p
            libc.fopen.restype = ctypes.c_void_p
            p, i = ctypes.c_void_p, ctypes.c_int
            signatures = {"evemu_read": [p, p], "evemu_get_name": [p], "evemu_get_id_bustype": [p],
                          "evemu_get_id_vendor": [p], "evemu_get_abs_maximum": [p, i],
                          "evemu_get_abs_resolution": [p, i], "evemu_has_prop": [p, i], "evemu_has_event": [p, i, i]}
            for name, arguments in signatures.items():
                getattr(evemu, name).argtypes = arguments
            dev = evemu.evemu_new(None); fp = libc.fopen(sys.argv[1].encode(), b"r")
            rc = evemu.evemu_read(dev, fp)
            print(rc, evemu.evemu_get_name(dev).decode(),
                  hex(evemu.evemu_get_id_bustype(dev)), hex(evemu.evemu_get_id_vendor(dev)),
                  evemu.evemu_get_abs_maximum(dev, 0x35), evemu.evemu_get_abs_resolution(dev, 0x35),
                  evemu.evemu_has_prop(dev, 2), evemu.evemu_has_event(dev, 1, 0x14a), evemu.evemu_has_event(dev, 2, 0))
            """
        let (parsed, parseErrors) = try run("/usr/bin/python3", ["-c", script, file.path], stdin: nil)
        #expect(parseErrors.isEmpty, "\(parseErrors)")
        #expect(parsed == "1 Test Clickpad 0x18 0x6cb 1224 12 1 1 0\n")

        let (_, playErrors) = try run("/usr/bin/evemu-play", ["/dev/null"], stdin: file)
        #expect(playErrors.isEmpty, "\(playErrors)")
        let broken = directory.appendingPathComponent("broken.evemu")
        try "E: 0.x 0000 0000\n".write(to: broken, atomically: true, encoding: .utf8)
        let (_, brokenErrors) = try run("/usr/bin/evemu-play", ["/dev/null"], stdin: broken)
        #expect(brokenErrors.contains("Invalid event format"))  // the check above can fail
    }

    private func run(_ tool: String, _ arguments: [String], stdin: URL?) throws -> (String, String) {
        let input = try stdin.map { try Data(contentsOf: $0) }
        let result = try ProcessRunner.run(tool, arguments, stdin: input, timeout: 60)
        return (result.stdout, result.stderr)
    }
}
