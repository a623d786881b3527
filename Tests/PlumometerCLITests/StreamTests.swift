import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `plumometer stream` on emulated devices: real libevdev under umockdev, the built binary, a real SIGTERM.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
struct StreamTests {
    /// Runs `plumometer ARGS` against `deviceFile` (+ `eventsFile`) under umockdev for `seconds`, then SIGTERM.
    static func stream(
        device deviceFile: String,
        events eventsFile: String?,
        slotValues: [[AbsoluteAxis: Int32]] = [],
        keysDown: Set<KeyCode> = [],
        node: String = "/dev/input/event7",
        seconds: Double = 1.5,
        arguments: [String] = ["-f", "jsonl"],
        shell: String? = nil
    ) throws -> ProcessResult {
        let device = try EmulatedDevice(
            try EmulatedDevice.fixture(deviceFile),
            node: node,
            slotValues: slotValues,
            keysDown: keysDown,
            label: "stream"
        )
        var events: URL?
        if let eventsFile {
            let text = try String(
                contentsOf: Fixtures.projectFixtures.appendingPathComponent("Events/" + eventsFile),
                encoding: .utf8
            )
            events = try device.eventsFile(text: text)
        }
        // `timeout` (``ProcessRunner/timeoutArguments(_:signal:)``) delivers a real SIGTERM and passes on plumometer's
        // own exit status; a `shell` script gets the command line as "$@" instead, to send other signals.
        let command = [try CLI.binary, "--device", node] + arguments
        let program =
            shell.map { ["/bin/bash", "-c", $0, "bash"] }
            ?? ["timeout"] + ProcessRunner.timeoutArguments(seconds)
        return try device.run(
            program[0],
            Array(program.dropFirst()) + command,
            events: events,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
        )
    }

    @Test func contactsFromALiveDeviceAndACleanStopOnSIGTERM() throws {
        let result = try Self.stream(device: "apple-magic-trackpad-2-usb.desc", events: "multitouch-contacts.events")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n"))
        let records = try CLI.jsonObjects(result)
        let device = try #require(records.first)
        #expect(device.string("type") == "device")
        #expect(device.string("device") == "/dev/input/event7")
        #expect(device.bool("force_sensor") == true)
        #expect(device.int("slots") == 16)
        let frames = records.filter { $0.string("type") == "frame" }
        let first = try #require(frames.first?.objects("contacts"))
        #expect(first.map { $0.int("id") } == [100, 101])
        #expect(first.first { $0.int("id") == 101 }?.bool("heaviest") == true, "60 outweighs 30")
        let ids = Set(frames.flatMap { $0.objects("contacts").compactMap { $0.int("id") } })
        #expect(ids.isSuperset(of: [100, 101, 102]), "a re-touch in the same slot is a new contact")
        #expect(frames.last?.objects("contacts").isEmpty == true, "everything lifted")
        #expect(frames.map { $0.int("seq") ?? 0 } == Array(1...frames.count))
    }

    @Test func anObjectAlreadyRestingWhenOpenedIsReported() throws {
        var slots = Array(repeating: [AbsoluteAxis: Int32](), count: 16)
        slots[3] = [.mtTrackingID: 5, .mtPositionX: 100, .mtPositionY: 200, .mtPressure: 40]
        let result = try Self.stream(
            device: "apple-silicon-internal-trackpad.desc",
            events: "resting-contact.events",
            slotValues: slots,
            keysDown: [.btnTouch, .btnToolFinger]
        )
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
        let opening = try #require(frames.first)
        #expect(opening.bool("resync") == true, "the state found at open")
        #expect(opening.objects("contacts").first?.int("id") == 5)
        #expect(opening.objects("contacts").first?.number("grams") == 40, "resolution 1: grams")
        #expect(frames.dropFirst().first?.objects("contacts").first?.int("pressure") == 55)
    }

    @Test func aKeyboardIsRefusedWithAReason() throws {
        let result = try Self.stream(device: "keyboard.desc", events: nil, seconds: 5)
        #expect(result.status == 1)
        // Refused from its capability bits before any open (it used to be opened and refused for its axes).
        #expect(result.stderr.contains("is a keyboard ("), "\(result.stderr)")
        #expect(result.stderr.contains("never opens keyboards"))
        #expect(result.stdout.isEmpty)
    }

    @Test func textFormatOnALiveDevice() throws {
        let result = try Self.stream(
            device: "apple-magic-trackpad-2-usb.desc",
            events: "multitouch-contacts.events",
            arguments: ["-f", "text"]
        )
        #expect(result.status == 0)
        #expect(result.stdoutLines.first?.hasPrefix("# /dev/input/event7: ") == true)
        #expect(result.stdout.contains("*heaviest*"))
    }

    @Test func sighupReopensTheDevice() throws {
        let script = "\"$@\" & pid=$!; sleep 1; kill -HUP $pid; sleep 1; kill -TERM $pid; wait $pid"
        let result = try Self.stream(device: "apple-silicon-internal-trackpad.desc", events: nil, shell: script)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try CLI.jsonObjects(result)
        #expect(records.filter { $0.string("type") == "device" }.count == 2, "a fresh device record after SIGHUP")
        #expect(result.stderr.contains("SIGHUP: reopening /dev/input/event7"))
    }

    /// Regression: the stdout writer thread was started before the signals were blocked, so a SIGTERM that the
    /// kernel handed to that thread killed the process (status 143) instead of stopping it cleanly.
    @Test(arguments: [["-f", "jsonl"], ["-f", "csv", "--grab"], ["-f", "text"]])
    func aSilentDeviceStopsCleanlyOnSIGTERM(arguments: [String]) throws {
        for _ in 0..<3 {
            let result = try Self.stream(
                device: "apple-silicon-internal-trackpad.desc",
                events: nil,
                seconds: 1.0,
                arguments: arguments
            )
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.signal == nil)
        }
    }

    /// `--tare` zeroes what rests on the device when it is opened; on an empty pad that is nothing, so the first
    /// object placed afterwards is weighed, not zeroed.
    @Test(.tags(.foundInReview)) func tareTakesItsZeroAtOpen() throws {
        var slots = Array(repeating: [AbsoluteAxis: Int32](), count: 16)
        slots[3] = [.mtTrackingID: 5, .mtPositionX: 100, .mtPositionY: 200, .mtPressure: 40]
        let resting = try Self.stream(
            device: "apple-silicon-internal-trackpad.desc",
            events: "resting-contact.events",
            slotValues: slots,
            keysDown: [.btnTouch, .btnToolFinger],
            arguments: ["-f", "jsonl", "--tare"]
        )
        let restingFrames = try CLI.jsonObjects(resting).filter { $0.string("type") == "frame" }
        #expect(restingFrames.first?.objects("contacts").first?.number("grams") == 0, "the resting 40 g is the zero")
        #expect(restingFrames.dropFirst().first?.objects("contacts").first?.number("grams") == 15, "55 - 40")

        let empty = try Self.stream(
            device: "apple-magic-trackpad-2-usb.desc",
            events: "multitouch-contacts.events",
            arguments: ["-f", "jsonl", "--tare"]
        )
        let first = try #require(try CLI.jsonObjects(empty).first { $0.string("type") == "frame" })
        #expect(
            first.objects("contacts").first { $0.int("id") == 100 }?.number("force") == 0.1186,
            "30 of 253, not zeroed"
        )
    }
}
