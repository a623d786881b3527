import Foundation
import PlumometerTestSupport
import Testing

/// One rule for choosing a device in a recording, in every command that reads one (`RecordingDeviceChoice`): `-d`
/// is an index, a node, or a part of a name only that device has; without it a recording of several devices is
/// refused; every refusal lists the devices. Before, `replay`/`plot -d Pad` took device 0 of two "Pad" devices while
/// `describe` refused, and `weigh`, `calibrate`, `probe` refused `-d` with `--replay`.
struct RecordingDeviceChoiceTests {
    /// The two-device `libinput record` fixture with both names holding "Pad" (a touchpad and a keyboard).
    static func twoPads() throws -> String {
        let text = try String(
            contentsOfFile: Fixtures.projectFixtures.appendingPathComponent(
                "Recordings/libinput-record-two-devices.yml"
            )
            .path,
            encoding: .utf8
        )
        let path = try CLI.temporaryDirectory().appendingPathComponent("two-pads.yml").path
        try text.replacingOccurrences(of: "'AT Translated Set 2 keyboard'", with: "'Second Pad Keyboard'")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every reader of a recording, with `-d SELECTOR` for `file`.
    static func readers(_ file: String, _ selector: String?) -> [[String]] {
        let device = selector.map { ["-d", $0] } ?? []
        return [
            ["describe", file] + device,
            ["replay", "--fast", file] + device,
            ["plot", file, "-o", file + ".svg"] + device,
            ["weigh", "--replay", file] + device,
            ["probe", "--replay", file, "--static"] + device,
            ["calibrate", "--replay", file, "--point", "0:0", "--point", "100:100"] + device,
        ]
    }

    static let listing =
        #"0: Test Pressure Pad: "quoted" #1 (/dev/input/event7); 1: Second Pad Keyboard (/dev/input/event3)"#

    @Test func aNamePartThatMatchesTwoDevicesIsRefusedByEveryReaderBeforeAnythingIsRead() throws {
        let file = try Self.twoPads()
        for arguments in Self.readers(file, "pad") {
            let result = try CLI.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments) read a device: \(result.stdout)")
            #expect(result.stderr.contains("2 devices match 'pad'"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(Self.listing), "\(arguments): \(result.stderr)")
        }
    }

    @Test func noChoiceInARecordingOfSeveralDevicesIsRefusedByEveryReaderButDescribe() throws {
        let file = try Self.twoPads()
        for arguments in Self.readers(file, nil) where arguments[0] != "describe" {
            let result = try CLI.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments) read a device: \(result.stdout)")
            #expect(result.stderr.contains("holds more than one device, choose one with --device"), "\(arguments)")
            #expect(result.stderr.contains(Self.listing), "\(arguments): \(result.stderr)")
        }
        // describe describes each of them.
        let described = try CLI.run(["describe", file])
        #expect(described.status == 0, "\(described.stderr)")
        #expect(described.stdout.contains("device:      Second Pad Keyboard"))
    }

    @Test func aSelectorThatMatchesNothingListsTheDevices() throws {
        let file = try Self.twoPads()
        for arguments in Self.readers(file, "7") {
            let result = try CLI.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("no device matches '7'"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(Self.listing), "\(arguments): \(result.stderr)")
        }
    }

    /// An index, a node or a part of one name picks that device in every command, `--replay` ones included.
    @Test func anIndexANodeOrAUniqueNamePartPicksTheDeviceEverywhere() throws {
        let file = try Self.twoPads()
        for selector in ["1", "/dev/input/event3", "keyboard"] {
            let described = try CLI.run(["describe", file, "-d", selector])
            #expect(described.status == 0, "\(selector): \(described.stderr)")
            #expect(described.stdout.contains("device:      Second Pad Keyboard"), "\(selector)")
            #expect(!described.stdout.contains("Test Pressure Pad"), "\(selector)")
            // The keyboard has no pressure: each reader says so of it, which shows the choice was taken.
            for arguments in Self.readers(file, selector) where arguments[0] != "describe" && arguments[0] != "probe" {
                let result = try CLI.run(arguments)
                #expect(result.status == 1, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("'Second Pad Keyboard') has no pressure axis"), "\(arguments)")
            }
        }
        let probed = try CLI.run(["probe", "--replay", file, "-d", "0", "--static", "-f", "json"])
        #expect(probed.status == 0, "\(probed.stderr)")
        #expect(probed.stdout.contains("contact-size"), "\(probed.stdout)")
    }

    /// A pipe is read once: the choice is refused where the recording shows the second match, after what came before.
    @Test func onAPipeTheSecondMatchIsRefusedWhereItArrives() throws {
        let file = try Self.twoPads()
        let result = try CLI.run(
            ["replay", "--fast", "-f", "jsonl", "-d", "pad", "-"],
            stdin: Data(contentsOf: URL(fileURLWithPath: file))
        )
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains(#""type":"frame""#))
        #expect(result.stderr.contains("-: 2 devices match 'pad'"), "\(result.stderr)")
    }
}
