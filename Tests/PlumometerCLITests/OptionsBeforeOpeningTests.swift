import Foundation
import PlumometerTestSupport
import Testing

/// A value an option does not accept is a usage error (status 2) before anything is opened: `stream --duration -1`
/// used to open its output and the device, and write a `device` record, before refusing it.
@Suite struct OptionsBeforeOpeningTests {
    @Test(.tags(.foundByFaultInjection), arguments: ["-1", "0", "nan", "inf"])
    func aBadDurationIsRefusedBeforeTheOutputOrTheDeviceIsOpened(duration: String) throws {
        let output = try CLI.temporaryDirectory().appendingPathComponent("readings.jsonl")
        let result = try CLI.run(
            ["stream", "--duration=\(duration)", "-d", "/dev/input/event-none", "-o", output.path],
            timeout: 20
        )
        #expect(result.status == 2, "\(duration): \(result.stderr)")
        #expect(result.stderr.contains("--duration"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "the output was opened")
    }

    /// Every option's value, not only --duration's: the parser checks them all before the command runs, so no
    /// command can open its output (or a device) before a value it reads later turns out to be unusable.
    @Test(
        .tags(.foundInReview),
        arguments: [["--count", "x"], ["--interval", "soon"], ["--max-contacts", "0"], ["--unit", "stone"]]
    )
    func anyBadValueIsRefusedBeforeTheOutputIsOpened(option: [String]) throws {
        let output = try CLI.temporaryDirectory().appendingPathComponent("readings.jsonl")
        let result = try CLI.run(
            ["stream", "-d", "/dev/input/event-none", "-o", output.path] + option,
            timeout: 20
        )
        #expect(result.status == 2, "\(option): \(result.stderr)")
        #expect(result.stderr.contains("is not a valid value for '\(option[0])'"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "\(option): the output was opened")
    }
}
