import Foundation
import PlumometerCore
import PlumometerTestKit
import PlumometerTestSupport
import Testing

@testable import PlumometerRecording

/// Names the kernel allows that a recording must still carry: an empty one (evemu-record writes `N: ` for it), and
/// one with U+FFFE or U+FFFF, which no YAML stream may hold unescaped (YAML 1.1 and 1.2, "printable characters").
@Suite("recorded device names")
struct RecordedNameTests {
    static let start = EventTime(microseconds: 1_000_000)
    static let events = EventScript(startingAt: EventTime(microseconds: 1_000_000))
        .touch(slot: 0, id: 7, x: 100, y: 200, pressure: 90).report(after: .milliseconds(10))
        .events

    @Test(.tags(.foundByFaultInjection))
    func anEmptyNameIsWrittenAsEvemuRecordWritesItAndReadBack() throws {
        var description = DeviceCatalogue.magicTrackpad2
        description.identity.name = ""
        let text = EvemuWriter.recording(of: description, events: Self.events)
        #expect(text.contains("\nN: \nI: "), "\(text.prefix(400))")
        let recording = try RecordingReader.read(text: text, fileName: "nameless.evemu")
        #expect(recording.devices.first?.description.name == "")
        var device = try #require(recording.devices.first)
        #expect(try device.events.collect().count == Self.events.count)
    }

    static let oddNames = ["Pad\u{FFFE}", "\u{FFFF}Pad", "Pad \u{FFFE}\u{FFFF}"]

    /// The YAML text of a one-device `libinput record` recording of a device named `name`.
    static func yaml(named name: String) -> String {
        var description = DeviceCatalogue.magicTrackpad2
        description.identity.name = name
        return LibinputRecordWriter.header(deviceCount: 1)
            + LibinputRecordWriter.device(description, node: "/dev/input/event4")
            + LibinputRecordWriter.frame(Self.events, since: Self.start)
    }

    @Test(.tags(.foundByFaultInjection), arguments: oddNames)
    func aNameWithANonCharacterIsEscapedInYAML(_ name: String) throws {
        let text = Self.yaml(named: name)
        #expect(!text.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFFFF })
        #expect(text.lowercased().contains("\\ufffe") || text.lowercased().contains("\\uffff"))
        let recording = try RecordingReader.read(text: text, fileName: "odd.yml")
        #expect(recording.devices.first?.description.name == name)
    }

    /// PyYAML, which `libinput replay` and `libinput analyze` load recordings with, reads the same name.
    @Test(
        .tags(.foundByFaultInjection),
        .enabled(if: pyYAML || Requirements.all, "needs PyYAML (apt-get install python3-yaml)"),
        arguments: oddNames
    )
    func pyYAMLReadsTheEscapedName(_ name: String) throws {
        let directory = try Scratch.directory("names")
        let file = directory.appendingPathComponent("odd.yml")
        try Data(Self.yaml(named: name).utf8).write(to: file)
        let python = try ProcessRunner.run(
            "/usr/bin/python3",
            [
                "-c",
                "import sys, yaml; d = yaml.safe_load(open(sys.argv[1], encoding='utf-8'))['devices'][0]; "
                    + "print(ascii(d['evdev']['name']))",
                file.path,
            ],
            timeout: 30
        )
        #expect(python.status == 0, "\(python.stderr)")
        let expected = name.unicodeScalars.map { $0.isASCII ? String($0) : "\\u" + String($0.value, radix: 16) }
        #expect(python.stdout == "'" + expected.joined() + "'\n", "\(python.stdout) \(python.stderr)")
    }
}

/// Whether /usr/bin/python3 can import PyYAML (python3-yaml, which scripts/install-deps.sh --test installs).
private let pyYAML: Bool = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return false }
    return (try? ProcessRunner.run("/usr/bin/python3", ["-c", "import yaml"], timeout: 30))?.status == 0
}()
