import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `plumometer demo`: the bundled recording with no hardware, and `--save`.
@Suite struct DemoCommandTests {
    @Test(.tags(.foundInReview)) func demoSaveWritesARecordingThatReplaysTheSame() throws {
        let file = try CLI.temporaryDirectory().appendingPathComponent("demo.evemu")
        let save = try CLI.run(["demo", "--save", file.path])
        #expect(save.status == 0)
        #expect(save.stdout.isEmpty)
        let replay = try CLI.run(["replay", "--fast", "-f", "jsonl", "-q", file.path])
        let demo = try CLI.run(["demo", "--fast", "-f", "jsonl", "-q"])
        let strip = { (text: String) in text.replacingOccurrences(of: file.path, with: "demo-weighing.evemu") }
        #expect(strip(replay.stdout) == demo.stdout)
    }

    @Test func demoRunsWithoutHardware() throws {
        let result = try CLI.run(["demo", "--fast", "-f", "jsonl"])
        #expect(result.status == 0)
        let records = try CLI.jsonObjects(result)
        #expect(records.first?.string("type") == "device")
        #expect(records.first?.bool("force_sensor") == true)
        let frames = records.filter { $0.string("type") == "frame" }
        #expect(frames.count > 50)
        let ids = Set(frames.flatMap { $0.objects("contacts").compactMap { $0.int("id") } })
        #expect(ids.count >= 4, "several objects are placed, one lifted, one added")
        #expect(frames.contains { $0.objects("contacts").count >= 3 })
        #expect(frames.contains { frame in frame.objects("contacts").contains { $0.bool("stable") == true } })
    }
}
