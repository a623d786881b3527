import Foundation
import PlumometerTestSupport
import Testing

/// Recordings as people have them: bare `.events` files named by themselves, a UTF-8 byte order mark, files of
/// another kind (hid-recorder, plain text) with a message of their own, and event codes named in messages.
@Suite struct RecordingFormsTests {
    static let twoPlums = CLI.fixture("magic-trackpad-2.two-plums.evemu")

    static func scratch(_ files: [String: Data]) throws -> URL {
        let directory = try CLI.temporaryDirectory()
        for (name, data) in files { try data.write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    static var description: Data {
        get throws {
            try Data(
                contentsOf: Fixtures.projectFixtures.appendingPathComponent("Devices/apple-magic-trackpad-2-usb.desc")
            )
        }
    }
    static var events: Data {
        get throws {
            try Data(contentsOf: Fixtures.projectFixtures.appendingPathComponent("Events/multitouch-contacts.events"))
        }
    }

    @Test func aBareEventsFileIsNamedByItselfNotByItsDescription() throws {
        let directory = try Self.scratch(["n4.desc": try Self.description, "n4.events": try Self.events])
        let events = directory.appendingPathComponent("n4.events").path
        let file = try CLI.run(["replay", "--fast", "-f", "jsonl", events])
        #expect(file.status == 0, "\(file.stderr)")
        let records = try CLI.jsonObjects(file)
        #expect(records.allSatisfy { $0.string("device") == events }, "\(records.first ?? [:])")
        let piped = try CLI.run(
            ["replay", "--fast", "-f", "jsonl", "--desc", directory.appendingPathComponent("n4.desc").path, "-"],
            stdin: try Self.events
        )
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try CLI.jsonObjects(piped).first?.string("device") == "-")
        let described = try CLI.run(["describe", "-f", "json", events])
        #expect((try CLI.jsonObjects(described).first?["device"] as? [String: Any])?.string("path") == events)
    }

    @Test func aByteOrderMarkAtTheStartIsAccepted() throws {
        let bom = Data([0xef, 0xbb, 0xbf])
        let plain = try Data(contentsOf: URL(fileURLWithPath: Self.twoPlums))
        let directory = try Self.scratch([
            "bom.evemu": bom + plain, "b.desc": bom + (try Self.description), "b.events": bom + (try Self.events),
        ])
        let expected = try CLI.run(["replay", "--fast", "-f", "csv", Self.twoPlums]).stdoutLines.dropFirst(2)
        let file = try CLI.run(["replay", "--fast", "-f", "csv", directory.appendingPathComponent("bom.evemu").path])
        #expect(file.status == 0, "\(file.stderr)")
        let piped = try CLI.run(["replay", "--fast", "-f", "csv", "-"], stdin: bom + plain)
        #expect(piped.status == 0, "\(piped.stderr)")
        // Frames alike (the device column names the file).
        let frames = { (lines: ArraySlice<String>) in lines.map { $0.split(separator: ",").dropFirst(3).joined() } }
        #expect(frames(file.stdoutLines.dropFirst(2)) == frames(expected))
        #expect(frames(piped.stdoutLines.dropFirst(2)) == frames(expected))
        let bare = try CLI.run(["replay", "--fast", "-f", "jsonl", directory.appendingPathComponent("b.events").path])
        #expect(bare.status == 0, "\(bare.stderr)")
        let yaml = try CLI.run(
            ["replay", "--fast", "-f", "jsonl", "-d", "0", "-"],
            stdin: bom
                + (try Data(
                    contentsOf: Fixtures.projectFixtures.appendingPathComponent(
                        "Recordings/libinput-record-two-devices.yml"
                    )
                ))
        )
        #expect(yaml.status == 0, "\(yaml.stderr)")
    }

    @Test func aHidRecorderFileSaysWhatItIsAndWhatToDo() throws {
        let hid = """
            # ELAN Touchscreen
            # 0x05, 0x0d, // Usage Page (Digitizers)
            R: 3 05 0d 09
            N: ELAN Touchscreen
            I: 18 04f3 2a1c
            E: 0.000000 4 01 02 03 04

            """
        let directory = try Self.scratch(["touch.hid": Data(hid.utf8)])
        let path = directory.appendingPathComponent("touch.hid").path
        for arguments in [["replay", path], ["replay", "-"], ["probe", "--replay", path], ["describe", path]] {
            let result = try CLI.run(arguments, stdin: Data(hid.utf8))
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains(":3: this is a hid-recorder file"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("hid-replay"), "\(result.stderr)")
        }
    }

    @Test func plainTextSaysItIsNoRecording() throws {
        let text = "\n# notes\nweighed three plums today, see below\n"
        let directory = try Self.scratch(["notes.txt": Data(text.utf8)])
        for input in [directory.appendingPathComponent("notes.txt").path, "-"] {
            let result = try CLI.run(["replay", input], stdin: Data(text.utf8))
            #expect(result.status == 1)
            #expect(
                result.stderr.contains(":3: 'weighed three plums today, see below' is neither an evemu line"),
                "\(result.stderr)"
            )
            #expect(result.stderr.contains("this is plain text, not a recording"), "\(result.stderr)")
        }
    }

    @Test func eventCodesAreNamedInMessages() throws {
        // A key the description does not declare: BTN_STYLUS (0x14b) on a Magic Trackpad 2.
        let source = try String(contentsOfFile: Self.twoPlums, encoding: .utf8)
        let text = source + "E: 9.000000 0001 014b 0001\n"
        let directory = try Self.scratch(["undeclared.evemu": Data(text.utf8)])
        let result = try CLI.run(["replay", "--fast", directory.appendingPathComponent("undeclared.evemu").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not declare EV_KEY code BTN_STYLUS (0x14b)"), "\(result.stderr)")
    }
}
