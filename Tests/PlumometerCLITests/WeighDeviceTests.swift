import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestSupport
import Testing

/// `plumometer weigh` on a live (emulated) device, fed whole events through a FIFO: the settled weight of what
/// rests, then exit 0; nothing resting within the timeout (wall clock) exits 1.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"))
struct WeighDeviceTests {
    /// Runs `weigh ARGS` on an emulated pad (the one-object recording's device) fed `events`.
    static func weigh(
        events: String,
        _ arguments: [String],
        environment: [String: String] = [:]
    ) throws
        -> ProcessResult
    {
        let recordingText = try String(contentsOfFile: CLI.fixture("grams-pad.one-object.evemu"), encoding: .utf8)
        let description = try RecordingReader.readDescription(text: recordingText, fileName: "pad.evemu")
        let node = "/dev/input/event5"
        let device = try EmulatedDevice(
            description,
            node: node,
            udevProperties: ["ID_INPUT_TOUCHPAD": "1"],
            label: "weigh"
        )
        var environment = environment
        if environment["XDG_CONFIG_HOME"] == nil { environment["XDG_CONFIG_HOME"] = try CLI.temporaryDirectory().path }
        return try device.runFed(
            try CLI.binary,
            ["weigh", "--device", node] + arguments,
            events: try device.eventsFile(text: events),
            timed: false,
            hold: 8,
            environment: environment,
            timeout: 40
        )
    }

    @Test func anObjectAtRestIsWeighedAndWeighExits() throws {
        let recording = try String(contentsOfFile: CLI.fixture("grams-pad.one-object.evemu"), encoding: .utf8)
        let events = Umockdev.eventsOnly(recording)
        let text = try Self.weigh(events: events, [])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(text.stdout)")
        #expect(lines.first?.hasPrefix("#3 ") == true)
        let grams = try #require(lines.first.flatMap { Double($0.split(separator: " ")[1]) })
        #expect(abs(grams - 420) < 1.5, "\(text.stdout)")
        #expect(lines.last?.hasPrefix("total") == true)

        let json = try Self.weigh(events: events, ["-f", "jsonl"])
        #expect(json.status == 0, "\(json.stderr)")
        let records = try CLI.jsonObjects(json)
        #expect(records.count == 1)
        #expect(records.first?.string("type") == "frame")
        #expect(records.first?.objects("contacts").first?.bool("stable") == true)
    }

    @Test func nothingAtRestWithinTheTimeoutExitsOne() throws {
        let result = try Self.weigh(events: "E: 1.000000 0000 0000 0000\n", ["--timeout", "1"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("within 1 s (nothing is down)"))
    }

    @Test func aCarrierNeedsOneContactDownAtTheStart() throws {
        let result = try Self.weigh(events: "E: 1.000000 0000 0000 0000\n", ["--carrier", "--timeout", "5"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--carrier on /dev/input/event5: Nothing is on the pad to tare as a carrier"))
    }
}
