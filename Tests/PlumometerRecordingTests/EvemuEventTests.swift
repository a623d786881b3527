import PlumometerCore
import Testing

@testable import PlumometerRecording

@Suite("evemu events")
struct EvemuEventTests {
    static let header = """
        # EVEMU 1.3
        N: Events
        I: 0003 0001 0002 0003
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 03 00 00 00 00 00 80 00 06
        A: 2f 0 2 0 0 0
        A: 39 0 65535 0 0 0
        A: 3a 0 255 0 0 0

        """

    @Test func readsWhatEvemuWritesAndAccepts() throws {
        let text =
            Self.header + """
                E: 0.000001 0003 002f 0000\t# EV_ABS / ABS_MT_SLOT 0
                E: 0.000001 0003 0039 0042
                E: 0.000001 0003 003A 0100
                E: 0.000001 0001 014a 0001
                E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
                # a comment between events

                E: 12.5 3 3a 99
                E: 12.010000 0000 0000 0
                E: 13.999999 0003 0039 -001
                E: 13.999999 0003 003a +7
                E: 13.999999 0000 0000 0000
                """
        let events = try allEvents(RecordingReader.read(text: text, fileName: "e.evemu"))
        #expect(events.count == 10)
        #expect(events[0] == .abs(.mtSlot, 0, at: EventTime(microseconds: 1)))
        #expect(events[1] == .abs(.mtTrackingID, 42, at: EventTime(microseconds: 1)))
        #expect(events[2] == .abs(.mtPressure, 100, at: EventTime(microseconds: 1)))
        #expect(events[3] == .key(.btnTouch, 1, at: EventTime(microseconds: 1)))
        #expect(events[4].isReport)
        // evemu reads the digits after the dot as a count of microseconds: "12.5" is 12 s + 5 us.
        #expect(events[5] == .abs(.mtPressure, 99, at: EventTime(seconds: 12, microseconds: 5)))
        #expect(events[6].time == EventTime(seconds: 12, microseconds: 10_000))
        #expect(events[7] == .abs(.mtTrackingID, -1, at: EventTime(seconds: 13, microseconds: 999_999)))
        #expect(events[8].value == 7)
    }

    @Test func eventsAreIncrementalAndStopAtTheFirstBadLine() throws {
        let text =
            Self.header + """
                E: 0.000001 0003 003a 0010
                E: 0.000001 0000 0000 0000
                E: 0.010000 0003 003a 0011
                E: 0.010000 0000 0000 0000
                E: 0.020000 0003 003a 99999999999
                E: 0.020000 0000 0000 0000
                """
        var source = try RecordingReader.read(text: text, fileName: "bad.evemu").devices[0].events
        var seen: [RawEvent] = []
        do {
            while let event = try source.next() { seen.append(event) }
            Issue.record("the overflow was not reported")
        } catch {
            #expect(
                error.description == "bad.evemu:19: event value 99999999999 does not fit in a 32-bit signed integer"
            )
        }
        #expect(seen.count == 4)
        #expect(source.line == 18)
        #expect(try source.next() == nil)
    }

    @Test func copiesAreIndependentCursors() throws {
        let text = Self.header + "E: 0.000001 0003 003a 0010\nE: 0.000001 0000 0000 0000\n"
        let recording = try RecordingReader.read(text: text, fileName: "c")
        var first = recording.devices[0].events
        _ = try first.next()
        var second = recording.devices[0].events
        #expect(try second.collect().count == 2)
        #expect(try first.collect().count == 1)
    }

    @Test func eventLineErrors() {
        let h = Self.header
        let first = h.split(separator: "\n", omittingEmptySubsequences: false).count
        expectError("has 7 digits after the dot", line: first, reading: h + "E: 1.1234567 0003 003a 1\n")
        expectError("event time '1' is not sec.usec", line: first, reading: h + "E: 1 0003 003a 1\n")
        expectError("event time '-1.5' is not sec.usec", line: first, reading: h + "E: -1.5 0003 003a 1\n")
        expectError(
            "event type '0x03' is not 1 to 4 hexadecimal digits",
            line: first,
            reading: h + "E: 1.0 0x03 003a 1\n"
        )
        expectError(
            "event code '1003a' is not 1 to 4 hexadecimal digits",
            line: first,
            reading: h + "E: 1.0 3 1003a 1\n"
        )
        expectError("event value '1.5' is not a decimal number", line: first, reading: h + "E: 1.0 3 3a 1.5\n")
        expectError(
            "expected 4 fields after 'E:' (sec.usec type code value), found 3",
            line: first,
            reading: h + "E: 1.0 3 3a\n"
        )
        expectError("unexpected text 'junk' after the event value", line: first, reading: h + "E: 1.0 3 3a 1 junk\n")
        expectError("does not declare EV_ABS code ABS_X (0x00)", line: first, reading: h + "E: 1.0 3 0 1\n")
        expectError("does not declare EV_KEY code BTN_LEFT (0x110)", line: first, reading: h + "E: 1.0 1 110 1\n")
        expectError("slot -1 is outside the device's slots 0...2", line: first, reading: h + "E: 1.0 3 2f -1\n")
        expectError("slot 3 is outside the device's slots 0...2", line: first, reading: h + "E: 1.0 3 2f 3\n")
        expectError("event type 0x20 is beyond EV_MAX", line: first, reading: h + "E: 1.0 20 0 1\n")
        expectError(
            "description line 'A: 00 0 1 0 ...' among the events",
            line: first + 1,
            reading: h + "E: 1.0 0 0 0\nA: 00 0 1 0 0 0\n"
        )
        expectError("unexpected line 'X: 1'", line: first, reading: h + "X: 1\n")
        expectError(
            "event time '99999999999999.0' is too large",
            line: first,
            reading: h + "E: 99999999999999.0 0 0 0\n"
        )
    }

    @Test func pairsRejectEventsInTheDescriptionAndDescriptionLinesInTheEvents() {
        #expect(throws: RecordingError.self) {
            try RecordingReader.read(descriptionText: Self.header + "E: 1.0 0 0 0\n", eventsText: "", fileName: "d")
        }
        do {
            var recording = try RecordingReader.read(
                descriptionText: Self.header,
                eventsText: "# events\nE: 1.0 0 0 0\nN: again\n",
                fileName: "x.desc",
                eventsFileName: "x.events"
            )
            _ = try recording.devices[0].events.collect()
            Issue.record("no error")
        } catch {
            #expect(error.file == "x.events")
            #expect(error.line == 3)
        }
    }
}
