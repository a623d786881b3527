import Foundation
import PlumometerCore
import Testing

@testable import PlumometerRecording

/// Files that are not recordings are named for what they are, from their first bytes, with what to do.
@Suite("recognising what is not a recording")
struct SniffingTests {
    /// The error the whole reader and the stream (fed the first `prefix` bytes only) give for `bytes`.
    static func errors(_ bytes: [UInt8], fileName: String, prefix: Int = 64) -> (RecordingError?, RecordingError?) {
        var whole: RecordingError?
        do { _ = try RecordingReader.read(bytes: bytes, fileName: fileName) } catch { whole = error }
        var stream = RecordingStream(fileName: fileName)
        stream.feed(bytes.prefix(prefix))
        if bytes.count <= prefix { stream.finish() }
        var streamed: RecordingError?
        do { while try stream.next() != nil {} } catch { streamed = error }
        return (whole, streamed)
    }

    @Test func compressedFilesSayHowToDecompress() throws {
        let cases: [([UInt8], String, String)] = [
            ([0x1f, 0x8b, 0x08, 0x00, 0x12, 0x34, 0x56, 0x78], "gzip", "zcat rec.evemu.gz | plumometer replay -"),
            ([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04], "xz", "xzcat rec.evemu.gz | plumometer replay -"),
            ([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x00], "zstd", "zstdcat rec.evemu.gz | plumometer replay -"),
            (Array("BZh91AY&SY".utf8), "bzip2", "bzcat rec.evemu.gz | plumometer replay -"),
        ]
        for (magic, name, command) in cases {
            let bytes = magic + [UInt8](repeating: 0x41, count: 100)
            let (whole, streamed) = Self.errors(bytes, fileName: "rec.evemu.gz", prefix: magic.count)
            #expect(whole == streamed)
            #expect(whole?.file == "rec.evemu.gz")
            #expect(whole?.message.contains("\(name)-compressed file") == true, "\(String(describing: whole))")
            #expect(whole?.message.contains(command) == true, "\(String(describing: whole))")
        }
        // One byte of a magic number is not enough to decide.
        var stream = RecordingStream(fileName: "x")
        stream.feed([0xfd])
        #expect(try stream.next() == nil)
    }

    @Test func umockdevDescriptionsSayHowToReplayThem() throws {
        let text = """
            P: /devices/platform/i8042/serio1/input/input12/event12
            N: input/event12
            E: DEVNAME=/dev/input/event12
            E: ID_INPUT_TOUCHPAD=1
            A: capabilities/abs=260800011000003

            """
        let (whole, streamed) = Self.errors(Array(text.utf8), fileName: "pad.umockdev", prefix: 200)
        #expect(whole == streamed)
        let message = try #require(whole).message
        #expect(message.contains("this is a umockdev device description"), "\(message)")
        #expect(
            message.contains(
                "umockdev-run -d pad.umockdev -i /dev/input/event12=DEVICE.ioctl -e /dev/input/event12=EVENTS.evemu "
                    + "-- plumometer stream -d /dev/input/event12"
            ),
            "\(message)"
        )
        #expect(whole?.line == 1)
    }

    @Test(.enabled(if: Paths.sharedFixtures != nil)) func realUmockdevFile() throws {
        let url = try #require(Paths.sharedFixtures).appendingPathComponent(
            "umockdev-synaptics-touchpad/synaptics-touchpad.umockdev"
        )
        let (whole, _) = Self.errors([UInt8](try Data(contentsOf: url)), fileName: "t.umockdev")
        #expect(whole?.message.contains("umockdev device description") == true, "\(String(describing: whole))")
    }

    @Test func binaryDataAndEmptyFiles() {
        let elf: [UInt8] = [0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00] + Array("\nN: x\n".utf8)
        let (binary, streamedBinary) = Self.errors(elf, fileName: "a.out", prefix: 8)
        #expect(binary == streamedBinary)
        #expect(
            binary?.description == "a.out:1: binary data (byte 0x7f at column 1): this is not a text file; "
                + "plumometer replays evemu recordings and libinput record YAML files"
        )
        let (nul, _) = Self.errors(Array("N: pad\0".utf8), fileName: "n")
        #expect(nul?.message == "NUL byte at column 7: this is not a text file")
        let (empty, streamedEmpty) = Self.errors([], fileName: "empty.evemu")
        #expect(empty == streamedEmpty)
        #expect(empty?.line == nil)
        #expect(empty?.message.hasPrefix("the file is empty") == true)
        // Tabs and CRLF line ends are text.
        let (crlf, _) = Self.errors(Array("N:\tpad\r\nI: 0 0 0 0\r\n".utf8), fileName: "crlf")
        #expect(crlf == nil)
    }
}

/// evemu's `A:` lines for axes that the `B: 03` mask leaves out.
@Suite("evemu axis lines")
struct EvemuAxisLineTests {
    /// A keyboard cover whose HID axes spill into the multitouch range: the mask declares ABS_MISC and the
    /// reserved 0x2e only, the `A:` lines describe multitouch axes too, and the events use them.
    static let keyboardCover = """
        # EVEMU 1.3
        N: Microsoft Surface Type Cover Keyboard
        I: 0003 045e 096f 0111
        P: 00 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 03 00 00 00 00 00 01 00 00
        B: 03 00 00 00 00 00 00 00 00
        A: 28 0 255 0 0 0
        A: 2f 0 9 0 0 0
        A: 35 0 2560 0 0 0
        A: 36 0 1600 0 0 0
        A: 39 0 65535 0 0 0
        E: 0.000000 0003 002f 0001
        E: 0.000000 0003 0039 0007
        E: 0.000000 0003 0035 1200
        E: 0.000000 0000 0000 0000

        """

    @Test func axesNamedOnlyByAnAxisLineAreEnabledWithOneWarning() throws {
        var recording = try RecordingReader.read(text: Self.keyboardCover, fileName: "cover.evemu")
        #expect(recording.warnings.count == 1)
        let warning = try #require(recording.warnings.first)
        #expect(warning.line == 15)
        #expect(
            warning.description.hasPrefix(
                "cover.evemu:15: warning: 'A:' line for axis 2f (ABS_MT_SLOT), which the 'B: 03' lines do not "
                    + "declare: the axis is enabled from its 'A:' line"
            ),
            "\(warning)"
        )
        #expect(warning.description.contains("35 (ABS_MT_POSITION_X, line 16)"))
        let description = recording.devices[0].description
        #expect(description.axes[.mtSlot] == AxisInfo(minimum: 0, maximum: 9))
        #expect(description.supports(.abs, code: AbsoluteAxis.mtPositionX.rawValue))
        #expect(description.supports(.abs, code: 0x28))
        #expect(try recording.devices[0].events.collect().count == 4)

        var stream = RecordingStream(fileName: "cover.evemu")
        stream.feed(Array(Self.keyboardCover.utf8))
        stream.finish()
        var events = 0
        while let item = try stream.next() {
            if case .event = item { events += 1 }
        }
        #expect(events == 4)
        #expect(stream.warnings == recording.warnings)
        #expect(recording.devices[0].warnings == recording.warnings, "the device carries its description's warnings")
    }

    /// What evemu refuses stays refused: a malformed `A:` line, an axis beyond ABS_MAX, a second line for an axis.
    @Test func whatEvemuRefusesIsStillRefused() {
        let head = "N: a\nI: 0 0 0 0\nB: 03 00 00 00 00 00 00 00 00\n"
        expectError("expected 5 or 6 numbers after 'A:'", line: 4, reading: head + "A: 35 0 100\n")
        expectError("axis 0x40 in the 'A:' line is beyond ABS_MAX", line: 4, reading: head + "A: 40 0 1 0 0 0\n")
        expectError(
            "a second 'A:' line for axis 35 (the first is on line 4)",
            line: 5,
            reading: head + "A: 35 0 1 0 0 0\nA: 35 0 1 0 0 0\n"
        )
        // Declared by the mask but without a range: evemu would invent 0...1; we say so.
        expectError(
            "declare axis 18 (ABS_PRESSURE) but no 'A:' line",
            line: nil,
            reading: "N: a\nI: 0 0 0 0\nB: 03 00 00 00 01 00 00 00 00\n"
        )
    }
}
