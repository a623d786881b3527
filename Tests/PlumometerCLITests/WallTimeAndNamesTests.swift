import Foundation
import PlumometerTestSupport
import Testing

/// Readings can be placed in calendar time (`wall_time`, `--timestamps wall`), CSV and text carry the device rows
/// and resyncs JSON carries, and a newline in a device name never reaches a person's screen raw.
@Suite(.serialized)
struct WallTimeAndNamesTests {
    static let recording = CLI.fixture("grams-pad.calibration.evemu")

    @Test func theDeviceRecordCarriesTheWallTimeOfTheOpen() throws {
        let before = Date()
        // The real clock: no fixed PLUMOMETER_WALL_CLOCK.
        let result = try CLI.run(
            ["replay", "--fast", "-f", "jsonl", Self.recording],
            environment: ["PLUMOMETER_WALL_CLOCK": ""]
        )
        #expect(result.status == 0, "\(result.stderr)")
        let device = try #require(try CLI.jsonObjects(result).first)
        let text = try #require(device.string("wall_time"))
        #expect(text.count == 24 && text.hasSuffix("Z"), "ISO 8601, UTC, milliseconds: \(text)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let wall = try #require(formatter.date(from: text))
        #expect(wall.timeIntervalSince(before) > -1 && Date().timeIntervalSince(wall) > -1, "\(text) is not now")
    }

    @Test func wallTimestampsAreTheKernelTimesPlusOneOffset() throws {
        let monotonic = try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", Self.recording]))
        let wall = try CLI.jsonObjects(
            try CLI.run(["replay", "--fast", "-f", "jsonl", "--timestamps", "wall", Self.recording])
        )
        #expect(monotonic.count == wall.count && monotonic.count > 10)
        // PLUMOMETER_WALL_CLOCK (set by the tests) is the moment of the open: the device record's time.
        #expect(wall.first?.number("time") == 1_767_225_600)
        #expect(wall.first?.string("wall_time") == "2026-01-01T00:00:00.000Z")
        let offset = try #require(wall.first?.number("time")) - (try #require(monotonic.first?.number("time")))
        for (kernel, calendar) in zip(monotonic, wall) {
            let difference = try #require(calendar.number("time")) - (try #require(kernel.number("time")))
            #expect(abs(difference - offset) < 1e-5, "the kernel's spacing is kept")
        }
    }

    @Test func csvAndTextCarryTheDeviceAndTheResync() throws {
        let csv = try CLI.run(["replay", "--fast", "-f", "csv", Self.recording])
        let rows = csv.stdoutLines.map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        // resync, type and name, then the millimetres and the total added after them.
        #expect(rows.first?.suffix(6) == ["resync", "type", "name", "x_mm", "y_mm", "total_grams"])
        #expect(rows.dropFirst().first?.suffix(5) == ["device", "Apple Internal Keyboard / Trackpad", "", "", ""])
        #expect(
            rows.dropFirst(2).allSatisfy {
                $0[$0.count - 5] == "frame" && ["true", "false"].contains($0[$0.count - 6])
            }
        )
        let text = try CLI.run(["replay", "--fast", "-f", "text", Self.recording])
        #expect(text.stdoutLines.first?.hasSuffix(", opened 2026-01-01T00:00:00.000Z") == true, "\(text.stdout)")
    }

    /// A device name holding a newline and a tab (a libinput record file says so in a YAML escape) is shown as
    /// `\x0a` and `\x09` in the text header and in messages on stderr.
    @Test func aNewlineInADeviceNameIsEscapedWherePeopleReadIt() throws {
        let source = Fixtures.projectFixtures.appendingPathComponent("Recordings/libinput-record-two-devices.yml")
        let original = try String(contentsOf: source, encoding: .utf8)
        let text = original.replacingOccurrences(
            of: #"name: "Test Pressure Pad: \"quoted\" #1""#,
            with: #"name: "Two\nLines\tPad""#
        )
        #expect(text != original)
        let path = try CLI.temporaryDirectory().appendingPathComponent("named.yml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let header = try CLI.run(["replay", "--fast", "-f", "text", "-d", "0", path])
        #expect(header.status == 0, "\(header.stderr)")
        #expect(header.stdoutLines.first?.contains(": Two\\x0aLines\\x09Pad [") == true, "\(header.stdout)")
        let refused = try CLI.run(["replay", "--fast", "-f", "text", "-d", "9", path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("0: Two\\x0aLines\\x09Pad (/dev/input/event7)"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "one message, one line: \(refused.stderr)")
    }
}
