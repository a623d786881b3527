import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `plumometer record` writes evemu 1.3 that our replay, umockdev's evemu loader and evemu accept, and the
/// frames read back are the frames the device produced.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
struct RecordTests {
    /// The contacts of every frame, without times (live times under umockdev are the wall clock).
    static func contactsPerFrame(_ result: ProcessResult) throws -> [String] {
        try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }.map { frame in
            frame.objects("contacts").map { contact in
                ["id", "slot", "x", "y", "pressure", "rank"].map { "\(contact.int($0) ?? -999)" }.joined(separator: "/")
                    + (contact.bool("heaviest") == true ? "*" : "")
            }.joined(separator: " ")
        }
    }

    @Test func recordThenReplayGivesTheSameFrames() throws {
        let description = try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc")
        let node = "/dev/input/event9"
        let device = try EmulatedDevice(description, node: node, udevProperties: [:], label: "record")
        let eventsText = try String(
            contentsOf: Fixtures.projectFixtures.appendingPathComponent("Events/multitouch-contacts.events"),
            encoding: .utf8
        )
        let events = try device.eventsFile(text: eventsText)
        let recording = device.directory.appendingPathComponent("recorded.evemu")

        let record = try device.run(
            try CLI.binary,
            ["record", "--device", node, "-o", recording.path, "--duration", "1.5"],
            events: events
        )
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stdout.isEmpty, "the recording went to the file")
        let text = try String(contentsOf: recording, encoding: .utf8)
        #expect(text.hasPrefix("# EVEMU 1.3\n"))
        #expect(text.contains("N: Apple Inc. Magic Trackpad 2"))
        // Times are relative to the first event.
        let firstEvent = try #require(text.split(separator: "\n").first { $0.hasPrefix("E:") })
        #expect(
            firstEvent.hasPrefix("E: 0.000001 "),
            "the first event at 0.000001, as evemu-record and docs/recordings.md"
        )

        // The same device live, and the recording replayed: the same contacts frame by frame.
        let live = try device.run(
            "timeout",
            ProcessRunner.timeoutArguments(3) + [try CLI.binary, "--device", node, "-f", "jsonl"],
            events: events,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
        )
        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", recording.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        let liveFrames = try Self.contactsPerFrame(live)
        #expect(liveFrames.count >= 4)
        #expect(try Self.contactsPerFrame(replay) == liveFrames)

        // umockdev's own evemu loader replays our file into the device again: the same frames once more.
        let again = try device.eventsFile(text: text, named: "again.evemu")
        let relive = try device.run(
            "timeout",
            ProcessRunner.timeoutArguments(3) + [try CLI.binary, "--device", node, "-f", "jsonl"],
            events: again,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
        )
        #expect(try Self.contactsPerFrame(relive) == liveFrames)
    }

    @Test func contactsDownWhenRecordingStartsAreInTheRecording() throws {
        let description = try EmulatedDevice.fixture("apple-silicon-internal-trackpad.desc")
        var slots = Array(repeating: [AbsoluteAxis: Int32](), count: 16)
        slots[3] = [.mtTrackingID: 42, .mtPositionX: 120, .mtPositionY: -80, .mtPressure: 77]
        let node = "/dev/input/event4"
        let device = try EmulatedDevice(
            description,
            node: node,
            udevProperties: [:],
            slotValues: slots,
            keysDown: [.btnTouch, .btnToolFinger],
            label: "record-initial"
        )
        let eventsText = try String(
            contentsOf: Fixtures.projectFixtures.appendingPathComponent("Events/resting-contact.events"),
            encoding: .utf8
        )
        let events = try device.eventsFile(text: eventsText)
        let recording = device.directory.appendingPathComponent("recorded.evemu")
        let record = try device.run(
            try CLI.binary,
            ["record", "--device", node, "-o", recording.path, "--duration", "1"],
            events: events
        )
        #expect(record.status == 0, "\(record.stderr)")
        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", recording.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        let frames = try CLI.jsonObjects(replay).filter { $0.string("type") == "frame" }
        #expect(frames.first?.objects("contacts").first?.int("id") == 42, "the resting contact opens the recording")
        #expect(frames.first?.objects("contacts").first?.int("pressure") == 77)
        #expect(frames.last?.objects("contacts").first?.int("pressure") == 55)
    }
}
