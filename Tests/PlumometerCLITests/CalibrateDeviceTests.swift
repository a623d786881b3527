import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// The guided calibration reading a live (emulated) device: the carrier, then each reference weight, captured
/// when stable, fitted and saved; then the profile is applied when the device is streamed.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
struct CalibrateDeviceTests {
    @Test func guidedOnADeviceThenAppliedWhenStreaming() throws {
        // The device part of the composed calibration recording, as an emulated device with its events.
        let recordingText = try String(contentsOfFile: CLI.fixture("grams-pad.calibration.evemu"), encoding: .utf8)
        let description = try RecordingReader.readDescription(text: recordingText, fileName: "pad.evemu")
        let node = "/dev/input/event3"
        let device = try EmulatedDevice(
            description,
            node: node,
            udevProperties: ["ID_INPUT_TOUCHPAD": "1"],
            label: "calibrate"
        )
        let events = try device.eventsFile(text: recordingText)
        let config = try CLI.temporaryDirectory()

        let calibrate = try device.run(
            try CLI.binary,
            ["calibrate", "--device", node, "--reference", "270g", "--reference", "270 g", "--format", "json"],
            events: events,
            environment: ["XDG_CONFIG_HOME": config.path],
            timeout: 40
        )
        #expect(calibrate.status == 0, "\(calibrate.stderr)")
        #expect(calibrate.stderr.contains("Step 1/3: place the carrier"))
        let summary = try #require(try CLI.jsonObjects(calibrate).first)
        #expect(summary.objects("points").map { $0.number("grams") } == [0, 270, 540])
        #expect(abs((summary.number("slope") ?? 0) - 1) < 0.01)
        let profile = try #require(summary.string("profile"))
        #expect(FileManager.default.fileExists(atPath: profile))

        let stream = try device.run(
            "timeout",
            ProcessRunner.timeoutArguments(2) + [try CLI.binary, "--device", node, "-f", "jsonl"],
            events: events,
            environment: ["XDG_CONFIG_HOME": config.path],
            timeout: 40
        )
        #expect(stream.status == 0, "\(stream.stderr)")
        let records = try CLI.jsonObjects(stream)
        #expect(records.first?.string("grams_from") == "calibration")
        #expect(records.first?.string("profile") == profile)
        // The carrier at ~150 units weighs ~150 g on this 1 unit-per-gram pad: the fit measured it, and the profile
        // (the pad's line, through 0) reads it at its own weight, as anything placed directly on the pad.
        #expect(abs((summary.number("carrier_grams") ?? 0) - 150) < 3)
        #expect(summary.number("intercept") == 0)
        let first = try #require((records.first { $0.string("type") == "frame" }?.objects("contacts") ?? []).first)
        #expect(abs((first.number("grams") ?? 0) - 150) < 3)
    }
}
