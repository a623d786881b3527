import Foundation
import PlumometerCore
import Testing

@testable import PlumometerRecording

/// Every file in Tests/Fixtures/Recordings/malformed gives one precise error: no crash, no hang, no guess.
@Suite("malformed recordings")
struct MalformedInputTests {
    /// File -> (line, a fragment of the message).
    static let expectations: [String: (Int?, String)] = [
        "truncated-description.evemu": (
            11, "expected 6 numbers after 'A:' (code, min, max, fuzz, flat, resolution; evemu format 1.3), found 3"
        ),
        "truncated-event.evemu": (14, "expected 4 fields after 'E:' (sec.usec type code value), found 1"),
        "binary-junk.evemu": (1, "binary data (byte 0x7f at column 1): this is not a text file"),
        "nul-bytes.evemu": (1, "NUL byte at column 7"),
        "int32-overflow.evemu": (11, "the maximum of axis 39 (4294967296) does not fit in a 32-bit signed integer"),
        "int32-overflow-event.evemu": (12, "event value 2147483648 does not fit in a 32-bit signed integer"),
        "negative-slot.evemu": (12, "slot -1 is outside the device's slots 0...4 (ABS_MT_SLOT)"),
        "slot-beyond-range.evemu": (12, "slot 5 is outside the device's slots 0...4"),
        "undeclared-axis.evemu": (13, "the description does not declare EV_ABS code ABS_MT_PRESSURE (0x3a)"),
        "event-before-description.evemu": (2, "'E:' line before the device description"),
        "empty.evemu": (nil, "the file is empty"),
        "only-comments.evemu": (nil, "no device description"),
        "five-columns-in-1.3.evemu": (
            10, "expected 6 numbers after 'A:' (code, min, max, fuzz, flat, resolution; evemu format 1.3), found 5"
        ),
        "usec-seven-digits.evemu": (12, "has 7 digits after the dot"),
        "huge-time.evemu": (12, "is too large"),
        "yaml-bad-indentation.yml": (7, "bad indentation: 4 spaces where a key at 2 was expected"),
        "yaml-missing-name.yml": (5, "missing key 'name' in 'evdev'"),
        "yaml-missing-devices.yml": (1, "missing key 'devices' in the top level"),
        "yaml-wrong-type-id.yml": (7, "'id' ([bustype, vendor, product, version]) must be a list, found a scalar"),
        "yaml-wrong-type-absinfo.yml": (12, "must be an integer, found 'zero'"),
        "yaml-short-event.yml": (18, "expected 5 numbers in an evdev event ([sec, usec, type, code, value]), found 4"),
        "yaml-tab-indentation.yml": (14, "tab in the indentation"),
        "yaml-unclosed-list.yml": (14, "unclosed '[' before line 15"),
        "yaml-version-2.yml": (1, "libinput record file format version 2 is not supported"),
        "yaml-duplicate-key.yml": (15, "duplicate key 'properties' (first on line 14)"),
        "yaml-events-not-a-list.yml": (16, "'events' must be a list of '- evdev:' frames"),
        "yaml-undeclared-axis.yml": (17, "does not declare EV_ABS code ABS_MT_PRESSURE (0x3a)"),
    ]

    static let directory = Paths.recordings.appendingPathComponent("malformed")

    @Test(arguments: expectations.keys.sorted())
    func givesAPreciseError(file: String) throws {
        let (line, fragment) = try #require(Self.expectations[file])
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(file)))
        do {
            var recording = try RecordingReader.read(bytes: bytes, fileName: file)
            for index in recording.devices.indices { _ = try recording.devices[index].events.collect() }
            Issue.record("\(file) was read without an error")
        } catch {
            #expect(error.file == file)
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
            #expect(error.description.hasPrefix(line.map { "\(file):\($0): " } ?? "\(file): "))
        }
    }

    /// The stream, fed a line at a time, stops at the same line with the same message as the whole reader.
    @Test(arguments: expectations.keys.sorted())
    func theStreamGivesTheSameError(file: String) throws {
        let (line, fragment) = try #require(Self.expectations[file])
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(file)))
        var stream = RecordingStream(fileName: file)
        var thrown: RecordingError?
        do {
            for piece in bytes.isEmpty
                ? [] : bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            {
                stream.feed(piece + [UInt8(ascii: "\n")])
                while try stream.next() != nil {}
            }
            stream.finish()
            while try stream.next() != nil {}
        } catch {
            thrown = error
        }
        #expect(thrown?.line == line, "\(String(describing: thrown))")
        #expect(thrown?.message.contains(fragment) == true, "\(String(describing: thrown))")
    }

    @Test func everyCorpusFileHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
        let untested = Set(files).subtracting(Self.expectations.keys).subtracting(["crlf.evemu"])
        #expect(untested.isEmpty, "no expectation for \(untested.sorted())")
    }

    @Test func crlfFileReadsLikeItsLFTwin() throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent("crlf.evemu"))
        let crlf = try RecordingReader.read(bytes: [UInt8](data), fileName: "f")
        let lf = try RecordingReader.read(
            text: String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"),
            fileName: "f"
        )
        #expect(crlf.devices[0].description == lf.devices[0].description)
        #expect(try allEvents(crlf) == allEvents(lf))
        #expect(try allEvents(crlf).count == 2)
        var buffered = 0
        for chunk in [1, 2, 3, 5] {
            let streamed = try stream([UInt8](data), fileName: "f", chunk: chunk, maxBuffered: &buffered)
            #expect(try streamed == whole([UInt8](data), fileName: "f"))
        }
    }

    /// Events of a consumer before the bad line are all delivered; the error comes after them.
    @Test func eventsBeforeTheBadLineAreDelivered() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent("undeclared-axis.evemu")))
        var source = try RecordingReader.read(bytes: bytes, fileName: "u").devices[0].events
        #expect(try source.next() == .abs(.mtTrackingID, 1, at: EventTime(microseconds: 1)))
        #expect(throws: RecordingError.self) { try source.next() }
        #expect(try source.next() == nil)
    }

    /// Parsing time grows linearly: a 4x larger input takes well under 16x (quadratic) the time, and
    /// a single 4 MB line of junk is rejected at once.
    @Test func parsingIsLinear() throws {
        func recording(frames: Int) -> String {
            var text = EvemuWriter.description(
                of: try! RecordingReader.readDescription(text: clickpad13, fileName: "p")
            )
            text.reserveCapacity(frames * 60)
            for frame in 0..<frames {
                let t = EventTime(microseconds: Int64(frame) * 8000)
                text += EvemuWriter.eventLine(.abs(.mtPressure, Int32(frame % 200), at: t), since: .zero) + "\n"
                text += EvemuWriter.eventLine(.syn(.report, at: t), since: .zero) + "\n"
            }
            return text
        }
        func seconds(_ text: String) throws -> Double {
            let clock = ContinuousClock()
            var count = 0
            let elapsed = try clock.measure {
                var source = try RecordingReader.read(text: text, fileName: "big").devices[0].events
                while try source.next() != nil { count += 1 }
            }
            #expect(count > 0)
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        let small = try seconds(recording(frames: 25_000))
        let large = try seconds(recording(frames: 100_000))
        #expect(large < max(small, 0.01) * 10, "25k frames: \(small) s, 100k frames: \(large) s")

        let junk = String(repeating: "Z", count: 4_000_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = try? RecordingReader.read(text: junk, fileName: "junk") }
        // Generous bounds: they catch a quadratic blow-up (hours on these sizes), not a busy machine.
        #expect(elapsed < .seconds(20))
        let yamlJunk = "version: 1\ndevices: [" + String(repeating: "1, ", count: 500_000)
        let yamlElapsed = clock.measure { _ = try? RecordingReader.read(text: yamlJunk, fileName: "junk.yml") }
        #expect(yamlElapsed < .seconds(20))
        // A long multi-line flow list (an ignored `hid:` report descriptor) is gathered in linear time: 64,000
        // items, within RecordingLimits.maximumListLength (a real descriptor has at most 4096 bytes).
        let hidLines = String(repeating: "    0x05, 0x01, 0x09, 0x02,\n", count: 16_000)
        let yamlHid =
            "version: 1\ndevices:\n- evdev:\n    name: x\n    id: [1, 2, 3, 4]\n    codes:\n      1: [330]\n"
            + "  hid: [\n" + hidLines + "    0x00\n  ]\n"
        var hidDevice: RecordedDevice?
        let hidElapsed = try clock.measure {
            hidDevice = try RecordingReader.read(text: yamlHid, fileName: "hid.yml").devices.first
        }
        #expect(hidDevice?.description.name == "x")
        #expect(hidElapsed < .seconds(20), "\(hidElapsed)")
        print("parse timing: 25k frames \(small) s, 100k frames \(large) s, 16k-line hid list \(hidElapsed)")
    }
}
