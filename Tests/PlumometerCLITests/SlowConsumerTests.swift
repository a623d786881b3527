import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// A consumer that stops reading stdout must not make the reader stall or lose the device's state:
/// the latest state wins, skipped frames are counted on stderr, and nothing but complete lines appear.
@Suite(
    .serialized,
    .enabled(if: Umockdev.isAvailable, "umockdev is not installed"),
    .tags(.foundByFaultInjection, .umockdev)
)
struct SlowConsumerTests {
    @Test func aStalledPipeGetsTheLatestStateWhenItCatchesUp() throws {
        let node = "/dev/input/event12"
        let device = try EmulatedDevice(
            try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc"),
            node: node,
            udevProperties: [:],
            label: "slow-consumer"
        )
        let directory = device.directory
        // 3,000 frames at once: one contact whose pressure keeps changing, then a second contact at 77, then the
        // first lifts. Far more than a pipe holds. They go in through a FIFO in whole events (see
        // Tests/Scripts/fifo_device.py: umockdev's own replay can split a burst into partial events).
        let time = EventTime(seconds: 1, microseconds: 0)
        var events: [RawEvent] = [.abs(.mtSlot, 0, at: time), .abs(.mtTrackingID, 500, at: time)]
        for index in 0..<3_000 {
            events.append(.abs(.mtPressure, Int32(1 + index % 250), at: time))
            events.append(.abs(.mtPositionX, Int32(index % 1_000), at: time))
            events.append(.syn(.report, at: time))
        }
        events += [
            .abs(.mtSlot, 1, at: time), .abs(.mtTrackingID, 501, at: time), .abs(.mtPressure, 77, at: time),
            .syn(.report, at: time), .abs(.mtSlot, 0, at: time), .abs(.mtTrackingID, -1, at: time),
            .syn(.report, at: time),
        ]
        let fed = device.fedCommand(events: try device.eventsFile(events), timed: false, hold: 4)
        let command = (fed + [try CLI.binary, "--device", node, "-f", "jsonl"])
            .map { "'\($0)'" }.joined(separator: " ")
        // The consumer reads nothing for 2.5 s, then everything.
        let script =
            "\(command) 2>'\(directory.path)/stderr' | { sleep 2.5; cat; }; echo \"status=${PIPESTATUS[0]}\" >&2"
        let result = try ProcessRunner.run("/bin/bash", ["-c", script], timeout: 40)
        let stderr = try String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)
        #expect(result.stderr.contains("status=0"), "\(result.stderr) \(stderr)")
        #expect(stderr.contains("standard output is slow:"), "\(stderr)")
        let records = try CLI.jsonObjects(result)
        #expect(records.first?.string("type") == "device")
        let frames = records.filter { $0.string("type") == "frame" }
        #expect(frames.count < 3_002, "frames were skipped while the pipe was full")
        let last = try #require(frames.last)
        #expect(last.objects("contacts").map { $0.int("id") } == [501], "the latest state: only the second contact")
        #expect(last.objects("contacts").first?.int("pressure") == 77)
        let sequences = frames.compactMap { $0.int("seq") }
        #expect(sequences == sequences.sorted(), "order is kept")
    }
}
