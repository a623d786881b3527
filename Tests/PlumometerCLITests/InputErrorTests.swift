import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// Input that cannot be read (a missing file, not a recording, no such device, no pressure): a clear sentence
/// naming it, exit 1, nothing on stdout, no hang.
@Suite struct InputErrorTests {
    @Test func missingRecordingNamesTheFile() throws {
        let result = try CLI.run(["replay", "/nonexistent/plums.evemu"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("plumometer: cannot read /nonexistent/plums.evemu: No such file or directory."))
    }

    @Test func notARecordingAtAll() throws {
        let directory = try CLI.temporaryDirectory()
        let file = directory.appendingPathComponent("junk.bin")
        try Data([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0xff, 0xfe, 10, 0]).write(to: file)
        let result = try CLI.run(["replay", "--fast", file.path], timeout: 20)
        #expect(result.status == 1)
        #expect(!result.timedOut)
        #expect(result.stderr.contains(file.path))
        #expect(result.stdout.isEmpty)
    }

    @Test func nonexistentDeviceNamesTheNode() throws {
        let result = try CLI.run(["--device", "/dev/input/event99", "-f", "jsonl"], timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains("/dev/input/event99"))
        #expect(result.stdout.isEmpty)
    }
}

/// Found in review: a recording of a device that cannot weigh.
extension InputErrorTests {
    @Test(.tags(.foundInReview)) func aRecordedDeviceWithoutPressureIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        let events = directory.appendingPathComponent("quiet.events")
        try "E: 0.000000 0000 0000 0000\n".write(to: events, atomically: true, encoding: .utf8)
        let description = Fixtures.projectFixtures.appendingPathComponent("Devices/touchpad-no-pressure.desc").path
        let result = try CLI.run(["replay", "--fast", "--desc", description, events.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no pressure axis"))
    }
}
