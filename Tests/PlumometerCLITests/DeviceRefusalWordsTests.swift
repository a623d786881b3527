import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import Testing

/// Every command hands its device to its consumer through one preparation (`Session.open`): a device without a
/// pressure axis is refused in one sentence whatever the command, and a `--carrier` that cannot be tared where
/// reading starts is refused in one sentence too (replay reads on without it, weigh exits 1: docs/quantities.md).
/// In-process, on the test kit's runtime.
@Suite
struct DeviceRefusalWordsTests {
    static let path = "/recordings/quiet.evemu"

    /// A recording of `device` with `events`, at ``path``.
    static func files(_ device: DeviceDescription, _ events: [RawEvent]) -> [String: [UInt8]] {
        [path: Array(EvemuWriter.recording(of: device, events: events).utf8)]
    }

    @Test func aDeviceWithoutAPressureAxisIsRefusedInOneSentenceByEveryCommand() {
        let events = EventScript(startingAt: EventTime(microseconds: 1_000_000))
            .touch(slot: 0, id: 1, x: 10, y: 10).report().events
        let files = Self.files(DeviceCatalogue.touchpadWithoutPressure, events)
        let sentence =
            "plumometer: \(Self.path) ('\(DeviceCatalogue.touchpadWithoutPressure.name)') has no pressure axis "
            + "(neither ABS_MT_PRESSURE nor ABS_PRESSURE), so it cannot weigh anything.\n"
        let refusing = [
            ["replay", "--fast", "-f", "jsonl", Self.path],
            ["plot", Self.path, "-o", "-"],
            ["weigh", "--replay", Self.path],
            ["calibrate", "--replay", Self.path, "--point", "0:0", "--point", "10:10", "--no-save"],
            ["calibrate", "--replay", Self.path, "--reference", "10", "--no-save"],
        ]
        for arguments in refusing {
            let (status, console) = InProcessCommandTests.runInProcess(arguments, files: files)
            #expect(status == 1, "\(arguments): \(console.errors)")
            #expect(console.written.isEmpty, "\(arguments)")
            #expect(console.errors.hasSuffix(sentence), "\(arguments): \(console.errors)")
            #expect(console.errors.components(separatedBy: "has no pressure axis").count == 2, "once: \(arguments)")
        }
        // Probe and describe read no weights: they are handed the device.
        for arguments in [["probe", "--replay", Self.path, "--static"], ["describe", Self.path]] {
            let (status, console) = InProcessCommandTests.runInProcess(arguments, files: files)
            #expect(status == 0, "\(arguments): \(console.errors)")
            #expect(!console.errors.contains("has no pressure axis"), "\(arguments)")
        }
    }

    @Test func aCarrierThatCannotBeTaredIsRefusedInOneSentenceByReplayAndWeigh() {
        // Two contacts down where the recording starts: which one is the carrier is not known.
        let events = EventScript(startingAt: EventTime(microseconds: 1_000_000))
            .touch(slot: 0, id: 1, x: -3000, y: 2000, pressure: 120)
            .touch(slot: 1, id: 2, x: 3000, y: 2000, pressure: 80).report(after: .milliseconds(2_000))
            .move(slot: 0, pressure: 120).report()
            .events
        let files = Self.files(DeviceCatalogue.appleSiliconTrackpad, events)
        let refusal = "--carrier on \(Self.path): " + TareError.severalDown(count: 2).description
        let (replayed, replay) = InProcessCommandTests.runInProcess(
            ["replay", "--fast", "-f", "jsonl", "--carrier", Self.path],
            files: files
        )
        #expect(replayed == 0, "\(replay.errors)")
        #expect(replay.errors.contains("plumometer: \(refusal) Reading on without a carrier.\n"), "\(replay.errors)")
        #expect(replay.lines.count > 2, "it read on: \(replay.written)")
        let (weighed, weigh) = InProcessCommandTests.runInProcess(
            ["weigh", "--replay", Self.path, "--carrier"],
            files: files
        )
        #expect(weighed == 1, "\(weigh.errors)")
        #expect(weigh.written.isEmpty)
        #expect(weigh.errors.hasSuffix("plumometer: \(refusal)\n"), "\(weigh.errors)")
    }
}
