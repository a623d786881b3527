import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `record` in libinput record's YAML (one device, or several as `libinput record --multiple`), its refusals, and
/// names that cannot inject lines or keys: every file written replays to the frames the device produced.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
struct RecordFormatTests {
    static let eventsText: String = {
        let url = Fixtures.projectFixtures.appendingPathComponent("Events/multitouch-contacts.events")
        return Umockdev.eventsOnly((try? String(contentsOf: url, encoding: .utf8)) ?? "")
    }()

    /// The live frames of `device` fed `events`, as `RecordTests.contactsPerFrame` compares them.
    static func liveFrames(_ device: EmulatedDevice, events: URL) throws -> [String] {
        let live = try device.run(
            "timeout",
            ProcessRunner.timeoutArguments(6) + [try CLI.binary, "-d", device.node, "-f", "jsonl"],
            events: events,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
        )
        #expect(live.status == 0 && !live.timedOut, "status \(String(describing: live.status)): \(live.stderr)")
        return try RecordTests.contactsPerFrame(live)
    }

    @Test func aYAMLFileIsLibinputRecordAndReplaysToTheSameFrames() throws {
        let description = try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc")
        let node = "/dev/input/event9"
        let device = try EmulatedDevice(description, node: node, udevProperties: [:], label: "record-yaml")
        let events = try device.eventsFile(text: Self.eventsText)
        let recording = device.directory.appendingPathComponent("recorded.yml")
        let record = try device.run(
            try CLI.binary,
            ["record", "-d", node, "-o", recording.path, "--duration", "1.5"],
            events: events
        )
        #expect(record.status == 0, "\(record.stderr)")
        let text = try String(contentsOf: recording, encoding: .utf8)
        #expect(text.hasPrefix("# libinput record\n"), "\(text.prefix(200))")
        #expect(text.contains("\nversion: 1\nndevices: 1\ndevices:\n- node: \"/dev/input/event9\"\n"))
        #expect(text.contains("    name: \"Apple Inc. Magic Trackpad 2\"\n"))
        // The first event at 0, as libinput record writes it.
        #expect(text.contains("  events:\n  - evdev:\n    - [  0,      0,"), "\(text)")

        let liveFrames = try Self.liveFrames(device, events: events)
        #expect(liveFrames.count >= 4)
        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", recording.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(try RecordTests.contactsPerFrame(replay) == liveFrames)

        // What libinput's own replay tool checks before it plays a file (libinput-replay's check_file and create).
        let check = try ProcessRunner.run(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sys, yaml
                y = yaml.safe_load(open(sys.argv[1]))
                assert y['version'] == 1 and y['ndevices'] == len(y['devices']), y
                for d in y['devices']:
                    e = d['evdev']
                    assert isinstance(e['name'], str) and len(e['id']) == 4
                    assert all(len(v) == 5 for v in e['absinfo'].values())
                    assert isinstance(e['properties'], list) and isinstance(d['udev']['properties'], list)
                    for frame in d['events']:
                        assert all(len(ev) == 5 for ev in frame['evdev'])
                        assert frame['evdev'][-1][2:4] == [0, 0], frame
                print(len(y['devices']), y['devices'][0]['evdev']['name'])
                """,
                recording.path,
            ],
            timeout: 30
        )
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "1 Apple Inc. Magic Trackpad 2\n", "\(check.stdout) \(check.stderr)")
    }

    @Test func twoDevicesGoIntoOneFileAndEachReplaysToItsOwnFrames() throws {
        let pad = try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc")
        let other = try EmulatedDevice.fixture("apple-silicon-internal-trackpad.desc")
        let (nodeA, nodeB) = ("/dev/input/event9", "/dev/input/event11")
        var devices = try EmulatedDevice(pad, node: nodeA, udevProperties: [:], label: "record-multiple")
        try devices.add(other, node: nodeB, udevProperties: [:])
        let events = try devices.eventsFile(text: Self.eventsText)
        let recording = devices.directory.appendingPathComponent("both.yaml")
        let record = try devices.run(
            try CLI.binary,
            ["record", "-d", nodeA, "-d", nodeB, "-o", recording.path, "--duration", "1.5"],
            events: events
        )
        #expect(record.status == 0, "\(record.stderr)")
        let text = try String(contentsOf: recording, encoding: .utf8)
        #expect(text.contains("ndevices: 2\n"))
        let liveA = try Self.liveFrames(devices.only(nodeA), events: events)
        let liveB = try Self.liveFrames(devices.only(nodeB), events: events)
        #expect(liveA.count >= 4 && liveB.count >= 4)
        for (selector, live) in [("0", liveA), (nodeB, liveB)] {
            let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", "-d", selector, recording.path])
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(try RecordTests.contactsPerFrame(replay) == live, "device \(selector)")
        }
        let unchosen = try CLI.run(["replay", "--fast", "-f", "jsonl", recording.path])
        #expect(unchosen.status == 1 && unchosen.stderr.contains("choose one with --device"), "\(unchosen.stderr)")
    }

    @Test func aCraftedNameCannotAddLinesKeysOrDevices() throws {
        var description = try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc")
        let evil = "Pad\"\nversion: 2\n- node: /x\nE: 0.1 0003 0039 0005\n\\ #\u{1B}[2J\u{2028}end"
        description.identity.name = evil
        let node = "/dev/input/event9"
        let device = try EmulatedDevice(description, node: node, udevProperties: [:], label: "record-names")
        let files = device.files
        // The kernel's name reaches libevdev through EVIOCGNAME; umockdev's own record stays one line a property.
        // (UmockdevDevice writes a name's backslashes and line feeds there as umockdev's escapes.)
        let escaped = evil.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        let record = try String(contentsOf: files.device, encoding: .utf8)
            .replacingOccurrences(of: escaped, with: "Pad")
        try record.write(to: files.device, atomically: true, encoding: .utf8)
        let events = try device.eventsFile(text: Self.eventsText)
        let live = try Self.liveFrames(device, events: events)
        #expect(live.count >= 4)
        for name in ["crafted.yml", "crafted.evemu"] {
            let recording = device.directory.appendingPathComponent(name)
            let result = try device.run(
                try CLI.binary,
                ["record", "-d", node, "-o", recording.path, "--duration", "1.5"],
                events: events
            )
            #expect(result.status == 0, "\(result.stderr)")
            let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", recording.path])
            #expect(replay.status == 0, "\(name): \(replay.stderr)")
            let records = try CLI.jsonObjects(replay)
            #expect(records.filter { $0.string("type") == "device" }.count == 1, "\(name)")
            let read = records.first?.string("name")
            if name.hasSuffix(".yml") {
                #expect(read == evil, "YAML keeps the name exactly: \(read ?? "nil")")
            } else {
                // evemu has no escapes: every control character became a space, on the one N: line.
                #expect(read == "Pad\" version: 2 - node: /x E: 0.1 0003 0039 0005 \\ # [2J end", "\(read ?? "nil")")
            }
            #expect(try RecordTests.contactsPerFrame(replay) == live, "\(name)")
        }
    }

    @Test(arguments: ["kept.evemu", "kept.yml"])
    func streamRecordKeepsTheEventsOfWhatItStreams(_ name: String) throws {
        let description = try EmulatedDevice.fixture("apple-silicon-internal-trackpad.desc")
        let node = "/dev/input/event4"
        var slots = Array(repeating: [AbsoluteAxis: Int32](), count: 16)
        slots[3] = [.mtTrackingID: 42, .mtPositionX: 120, .mtPositionY: -80, .mtPressure: 77]
        let device = try EmulatedDevice(
            description,
            node: node,
            udevProperties: [:],
            slotValues: slots,
            keysDown: [.btnTouch, .btnToolFinger],
            label: "stream-record"
        )
        let events = try device.eventsFile(text: Self.eventsText)
        let recording = device.directory.appendingPathComponent(name)
        let stream = try device.run(
            "timeout",
            ProcessRunner.timeoutArguments(3) + [
                try CLI.binary, "-d", node, "-f", "jsonl", "--record",
                recording.path,
            ],
            events: events,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
        )
        #expect(stream.status == 0, "\(stream.stderr)")
        let streamed = try RecordTests.contactsPerFrame(stream)
        #expect(streamed.count >= 4)
        #expect(streamed.first?.hasPrefix("42/3/120/-80/77/") == true, "the contact resting at open: \(streamed)")
        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", recording.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        let replayed = try RecordTests.contactsPerFrame(replay)
        // The stream goes on ticking after the last event (a contact becomes stable while nothing moves), which no
        // event records: beyond the replay's frames, only such ticks, the same contacts again.
        #expect(replayed == Array(streamed.prefix(replayed.count)), "\(replayed) vs \(streamed)")
        #expect(streamed.dropFirst(replayed.count).allSatisfy { $0 == replayed.last }, "\(streamed)")
    }

    @Test func severalDevicesToEvemuOrStdoutAreRefusedWithTheReason() throws {
        let evemu = try CLI.run(["record", "-d", "/dev/input/event1", "-d", "/dev/input/event2", "-o", "x.evemu"])
        #expect(evemu.status == 2)
        #expect(evemu.stderr.contains("An evemu file holds one device"), "\(evemu.stderr)")
        let stdout = try CLI.run(["record", "-d", "/dev/input/event1", "-d", "/dev/input/event2", "-f", "libinput"])
        #expect(stdout.status == 2)
        #expect(stdout.stderr.contains("give -o FILE.yml, not stdout"), "\(stdout.stderr)")
    }
}
