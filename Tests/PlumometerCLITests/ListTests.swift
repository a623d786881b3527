import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `plumometer list` and automatic device choice on a testbed of mixed devices: the force sensor wins over a
/// contact-size touchpad that comes first, and every rejection says why.
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
struct ListTests {
    struct Member {
        var descFile: String
        var node: String
        var udev: [String: String]
    }

    static let testbed = [
        Member(descFile: "touchpad-no-pressure.desc", node: "/dev/input/event2", udev: ["ID_INPUT_TOUCHPAD": "1"]),
        Member(
            descFile: "touchscreen-contact-size.desc",
            node: "/dev/input/event3",
            udev: ["ID_INPUT_TOUCHSCREEN": "1"]
        ),
        Member(
            descFile: "apple-magic-trackpad-2-usb.desc",
            node: "/dev/input/event5",
            udev: ["ID_INPUT_TOUCHPAD": "1"]
        ),
        Member(
            descFile: "keyboard.desc",
            node: "/dev/input/event6",
            udev: ["ID_INPUT_KEY": "1", "ID_INPUT_KEYBOARD": "1"]
        ),
    ]

    /// Runs `plumometer ARGS` with the whole testbed emulated (each node answering its own ioctls).
    static func run(_ arguments: [String], events: (node: String, file: String)? = nil) throws -> ProcessResult {
        let first = testbed[0]
        var devices = try EmulatedDevice(
            try EmulatedDevice.fixture(first.descFile),
            node: first.node,
            udevProperties: first.udev,
            label: "list"
        )
        for member in testbed.dropFirst() {
            try devices.add(try EmulatedDevice.fixture(member.descFile), node: member.node, udevProperties: member.udev)
        }
        var eventsFile: URL?
        if let events {
            let text = try String(
                contentsOf: Fixtures.projectFixtures.appendingPathComponent("Events/" + events.file),
                encoding: .utf8
            )
            eventsFile = try devices.eventsFile(text: text)
        }
        return try devices.run(
            "timeout",
            ProcessRunner.timeoutArguments(2) + [try CLI.binary] + arguments,
            events: eventsFile,
            into: events?.node,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
        )
    }

    @Test func listClassifiesAndRanksEveryCandidate() throws {
        let result = try Self.run(["list", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let devices = try #require(array as? [[String: Any]])
        let byNode = Dictionary(
            uniqueKeysWithValues: devices.compactMap { device in device.string("node").map { ($0, device) } }
        )
        let trackpad = try #require(byNode["/dev/input/event5"])
        #expect(trackpad.string("sensing") == "force")
        #expect(trackpad.bool("usable") == true)
        #expect(trackpad.int("slots") == 16)
        let touchscreen = try #require(byNode["/dev/input/event3"])
        #expect(touchscreen.string("sensing") == "contact-size")
        #expect(touchscreen.bool("force_sensor") == false)
        let noPressure = try #require(byNode["/dev/input/event2"])
        #expect(noPressure.bool("usable") == false)
        #expect(noPressure.string("reason")?.isEmpty == false)
        #expect(byNode["/dev/input/event6"] == nil, "keyboards are listed only with --all")
        #expect(devices.first?.string("node") == "/dev/input/event5", "the force sensor ranks first")
        #expect(result.stderr.contains("best: /dev/input/event5"))
    }

    @Test func listAllExplainsSkippedDevices() throws {
        let result = try Self.run(["list", "--all"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("/dev/input/event6"))
        #expect(result.stdout.contains("verdict:   skipped"))
        #expect(result.stdout.contains("sensing:   force"))
    }

    @Test func theBestForceSensorIsReadByDefault() throws {
        let result = try Self.run(["-f", "jsonl"], events: ("/dev/input/event5", "multitouch-contacts.events"))
        #expect(result.status == 0, "\(result.stderr)")
        let records = try CLI.jsonObjects(result)
        #expect(records.first?.string("device") == "/dev/input/event5")
        #expect(records.filter { $0.string("type") == "frame" }.count >= 4)
    }

    @Test func aNameSubstringSelectsTheDevice() throws {
        let result = try Self.run(["--device", "magic trackpad", "-f", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try CLI.jsonObjects(result).first?.string("device") == "/dev/input/event5")
        let missing = try Self.run(["--device", "wacom", "-f", "jsonl"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no input device's name contains 'wacom'"))
    }

    @Test("with no input device at all, a name says so, not that it matched nothing")
    func aNameWithNoDevicesAtAll() throws {
        let result = try ProcessRunner.run(
            try #require(Umockdev.runner).path,
            ["--", "timeout"] + ProcessRunner.timeoutArguments(2) + [try CLI.binary, "record", "-d", "pad"],
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 30
        )
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("No input devices at all"), "\(result.stderr)")
        #expect(!result.stderr.contains("name contains"), "\(result.stderr)")
    }
}
