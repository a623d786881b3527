import PlumometerCore
import PlumometerOutput
import Testing

/// What JSON carries, CSV and text carry too: the device (re)opened, resyncs, and the calendar time of the open;
/// names are shown with every control character escaped.
@Suite struct DeviceRowAndWallTimeTests {
    static func opened(
        _ description: DeviceDescription = OutputTestValues.forcePad,
        path: String? = nil
    )
        -> DeviceRecord
    {
        var record = OutputTestValues.record(description, path: path)
        record.wallTime = EventTime(microseconds: 1_767_225_600_123_999)
        return record
    }

    @Test func iso8601IsUTCWithMillisecondsTruncated() {
        #expect(NumberText.iso8601(EventTime(microseconds: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(NumberText.iso8601(EventTime(microseconds: 1_767_225_600_123_999)) == "2026-01-01T00:00:00.123Z")
        // A leap day, the last millisecond of a day, a century that is not a leap year.
        #expect(NumberText.iso8601(EventTime(microseconds: 1_709_164_800_000_000)) == "2024-02-29T00:00:00.000Z")
        #expect(NumberText.iso8601(EventTime(microseconds: 951_868_799_999_999)) == "2000-02-29T23:59:59.999Z")
        #expect(NumberText.iso8601(EventTime(microseconds: 4_107_542_400_000_000)) == "2100-03-01T00:00:00.000Z")
        #expect(NumberText.iso8601(EventTime(microseconds: -1_000)) == "1969-12-31T23:59:59.999Z")
    }

    @Test func theJSONDeviceRecordCarriesWallTime() throws {
        let line = try #require(JSONLinesFormatter().device(Self.opened()))
        #expect(
            line.hasPrefix(
                "{\"type\":\"device\",\"time\":1350451575.023449,\"wall_time\":\"2026-01-01T00:00:00.123Z\","
            )
        )
        let without = try #require(JSONLinesFormatter().device(OutputTestValues.record()))
        #expect(!without.contains("wall_time"))
    }

    @Test func csvHasADeviceRowAndARemovedRowInItsColumns() throws {
        let format = CSVFormatter()
        let device = try #require(format.device(Self.opened(path: "/dev/input/event7")))
        #expect(
            device == "1350451575.023449,,/dev/input/event7" + String(repeating: ",", count: 16)
                + "device,\(OutputTestValues.forcePad.name),,,\n"
        )
        #expect(device.split(separator: ",", omittingEmptySubsequences: false).count == 23)
        let removed = try #require(format.removed(path: "/dev/input/event7", time: EventTime(microseconds: 13_000_000)))
        #expect(removed == "13.000000,,/dev/input/event7" + String(repeating: ",", count: 16) + "removed,,,,\n")
        var named = OutputTestValues.forcePad
        named.identity.name = "Pad, \"v2\""
        #expect(try #require(format.device(Self.opened(named))).hasSuffix(",device,\"Pad, \"\"v2\"\"\",,,\n"))
    }

    @Test func csvMarksResyncFrames() throws {
        let row = try #require(CSVFormatter().frame(OutputTestValues.emptyResync, sequence: 1, device: "d"))
        #expect(row.hasSuffix(",true,frame,,,,\n"))
        let normal = try #require(CSVFormatter().frame(OutputTestValues.twoContacts, sequence: 1, device: "d"))
        #expect(normal.split(separator: "\n").allSatisfy { $0.hasSuffix(",false,frame,,,,") })
    }

    @Test func theTextDeviceCommentSaysWhenAndEscapesNewlines() throws {
        var description = OutputTestValues.forcePad
        description.identity.name = "Two\nLines\tPad"
        let line = try #require(TextFormatter().device(Self.opened(description, path: "/tmp/a\nb.evemu")))
        #expect(line.hasPrefix("# /tmp/a\\x0ab.evemu: Two\\x0aLines\\x09Pad ["), "\(line)")
        #expect(line.hasSuffix(", opened 2026-01-01T00:00:00.123Z\n"))
        #expect(line.dropLast().allSatisfy { $0 != "\n" }, "one line")
        #expect(
            TextFormatter().removed(path: "/dev/x\ny", time: EventTime(microseconds: 1))
                == "0.000001  /dev/x\\x0ay removed\n"
        )
    }

    @Test func namesForOneLineEscapeTabAndNewlineToo() {
        #expect("tab\tand\nnewline\u{1B}".forTerminalName == "tab\\x09and\\x0anewline\\x1b")
        #expect("plain ü 🍑".forTerminalName == "plain ü 🍑")
    }
}
