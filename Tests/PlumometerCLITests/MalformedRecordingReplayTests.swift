import Foundation
import PlumometerCore
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// Malformed and hostile recordings through `plumometer replay`, end to end: exit 1 with `file:line`, the complete
/// frames before the damage kept, and no hang or runaway memory on recordings built to be expensive.
@Suite struct MalformedRecordingReplayTests {
    static let description: String = {
        let url = Fixtures.projectFixtures.appendingPathComponent("Devices/apple-magic-trackpad-2-usb.desc")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// Three complete frames of one contact pressing harder (pressures 10, 20, 30).
    static let goodEvents = Umockdev.eventsText(
        (0..<3).flatMap { frame -> [RawEvent] in
            let time = EventTime(microseconds: Int64(frame) * 10_000)
            let start: [RawEvent] =
                frame == 0 ? [.abs(.mtSlot, 0, at: time), .abs(.mtTrackingID, 5, at: time)] : []
            return start + [.abs(.mtPressure, Int32(10 * (frame + 1)), at: time), .syn(.report, at: time)]
        }
    )

    static func write(_ text: String, _ name: String) throws -> URL {
        let url = try CLI.temporaryDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    static func replay(_ file: URL, timeout: TimeInterval = 30) throws -> ProcessResult {
        try CLI.run(["replay", "--fast", "-f", "jsonl", file.path], timeout: timeout)
    }

    /// The recording's text up to and including the good frames, and the line number the next line will have.
    static var goodText: (text: String, nextLine: Int) {
        let text = description + goodEvents
        return (text, text.split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    /// Damage after three good frames: each must stop the replay at its line, keeping the three frames.
    @Test(
        .tags(.foundByFaultInjection),
        arguments: [
            ("truncated", "E: 0.040000 0003"),
            ("nul", "E: 0.040000 0003 003a \u{0}12"),
            ("undeclared", "E: 0.040000 0003 0019 5"),
            ("slot", "E: 0.040000 0003 002f 99"),
            ("huge", "E: 0.040000 0003 003a 99999999999999999999"),
            ("binary", "\u{7f}ELF\u{1}\u{2}\u{ff}"),
        ]
    )
    func damageAfterGoodFramesStopsAtItsLine(name: String, line: String) throws {
        let (text, number) = Self.goodText
        // More good events after the damage: none of them may be replayed.
        let file = try Self.write(text + line + "\n" + Self.goodEvents, name + ".evemu")
        let result = try Self.replay(file)
        #expect(!result.timedOut)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(file.path):\(number):"), "\(name): \(result.stderr)")
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        #expect(frames.count == 3, "\(name): the three complete frames are kept")
        #expect(frames.last?.objects("contacts").first?.int("pressure") == 30)
        #expect(result.stdout.hasSuffix("\n"))
    }

    /// A frame cut off at the end of the file (no SYN_REPORT) is not a frame: exit 0, three frames, no fourth.
    @Test(.tags(.foundByFaultInjection)) func recordingEndingMidFrameKeepsOnlyCompleteFrames() throws {
        let (text, _) = Self.goodText
        let file = try Self.write(text + "E: 0.040000 0003 003a 99\n", "cut.evemu")
        let result = try Self.replay(file)
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        #expect(frames.count == 3)
        #expect(!frames.contains { $0.objects("contacts").contains { $0.int("pressure") == 99 } })
    }

    /// A `libinput record` file broken in its second frame: exit 1 at that line, the first frame kept.
    @Test(.tags(.foundByFaultInjection)) func brokenYAMLEventStopsAtItsLine() throws {
        let url = Fixtures.projectFixtures.appendingPathComponent("Recordings/libinput-record-two-devices.yml")
        var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.contains("7012,   3,  58,") })
        lines[index] = "    - [  0,   7012,   3,  58 ] # four numbers"
        let file = try Self.write(lines.joined(separator: "\n"), "broken.yml")
        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", "--device", "/dev/input/event7", file.path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(file.path):\(index + 1):"), "\(result.stderr)")
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        #expect(frames.count == 1)
        #expect(frames.first?.objects("contacts").first?.int("pressure") == 40)
    }

    /// ABS_MT_SLOT declared over the whole Int32 range: the decoder used to allocate 2^32 slots and abort.
    @Test(.tags(.foundByFuzzing)) func slotRangeOfTheWholeInt32IsReplayed() throws {
        let description = Self.description.replacingOccurrences(
            of: "A: 2f 0 15 0 0 0",
            with: "A: 2f -2147483648 2147483647 0 0 0"
        )
        try #require(description != Self.description, "the fixture's slot line changed")
        let events = Umockdev.eventsText([
            .abs(.mtSlot, .min, at: .zero), .abs(.mtTrackingID, 3, at: .zero), .abs(.mtPressure, 50, at: .zero),
            .abs(.mtSlot, .max, at: .zero), .abs(.mtTrackingID, 4, at: .zero), .syn(.report, at: .zero),
        ])
        let result = try Self.replay(try Self.write(description + events, "slots.evemu"))
        #expect(result.signal == nil, "\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        #expect(frames.first?.objects("contacts").compactMap { $0.int("id") } == [3], "slots past 1024 are ignored")
    }

    /// 30,000 anonymous contacts in each of two protocol A frames took minutes (quadratic matching); now seconds.
    @Test(.tags(.foundByFuzzing, .slow)) func protocolARecordingWithThousandsOfContactsPerFrameFinishes() throws {
        let url = Fixtures.projectFixtures.appendingPathComponent("Devices/protocol-a-touchscreen.desc")
        var text = try String(contentsOf: url, encoding: .utf8)
        for frame in 0..<2 {
            for contact in 0..<30_000 {
                text += "E: 0.0\(frame)0000 0003 0035 \((contact * 7 + frame) % 4096)\nE: 0.0\(frame)0000 0000 0002 0\n"
            }
            text += "E: 0.0\(frame)0000 0000 0000 0\n"
        }
        let start = ContinuousClock.now
        let result = try Self.replay(try Self.write(text, "crowd.evemu"), timeout: 60)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        #expect(frames.last?.objects("contacts").count == 256, "a protocol A frame lists at most 256 contacts")
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    /// Hundreds of thousands of comment lines and no description: an error, quickly.
    @Test(.tags(.foundByFaultInjection)) func endlessCommentsAreRejectedQuickly() throws {
        let text = String(repeating: "# nothing to see here\n", count: 200_000)
        let result = try Self.replay(try Self.write(text, "comments.evemu"), timeout: 30)
        #expect(!result.timedOut)
        #expect(result.status == 1)
        #expect(result.stderr.contains("comments.evemu"))
        #expect(result.stdout.isEmpty)
    }

    @Test func malformedRecordingKeepsTheFramesBeforeTheBadLine() throws {
        let directory = try CLI.temporaryDirectory()
        let source = try String(contentsOfFile: CLI.fixture("magic-trackpad-2.two-plums.evemu"), encoding: .utf8)
        var lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Break the first event of the fourth frame.
        let eventLines = lines.indices.filter { lines[$0].hasPrefix("E:") }
        let reports = eventLines.filter { lines[$0].hasSuffix("0000 0000 0000") }
        let bad = reports[2] + 1
        lines[bad] = "E: 1.030000 0003 zz 0001"
        let file = directory.appendingPathComponent("broken.evemu")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)

        let result = try CLI.run(["replay", "--fast", "-f", "jsonl", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(file.path):\(bad + 1):"), "\(result.stderr)")
        let records = try CLI.jsonObjects(result)
        #expect(records.filter { $0.string("type") == "frame" }.count == 3, "the three complete frames are kept")
        #expect(result.stdout.hasSuffix("\n"))
    }
}
