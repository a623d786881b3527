import Foundation
import PlumometerCore
import PlumometerTestSupport
import Testing

@testable import PlumometerRecording

/// One recording as a stream yields it: each device with its events, in order.
struct StreamedRecording: Equatable {
    var devices: [DeviceDescription] = []
    var events: [[RawEvent]] = []
    var lines: [[Int]] = []
}

/// Feeds `bytes` to a stream in pieces of `chunk` bytes, draining it after each, and collects what it yields.
func stream(
    _ bytes: [UInt8],
    fileName: String = "stream",
    chunk: Int,
    maxBuffered: inout Int
) throws(RecordingError) -> StreamedRecording {
    var stream = RecordingStream(fileName: fileName)
    var result = StreamedRecording()
    func take(_ stream: inout RecordingStream) throws(RecordingError) {
        while let item = try stream.next() {
            switch item {
            case .device(let device):
                #expect(device.index == result.devices.count)
                result.devices.append(device.description)
                result.events.append([])
                result.lines.append([])
            case .event(let event, let line):
                result.events[result.events.count - 1].append(event)
                result.lines[result.lines.count - 1].append(line)
            }
        }
    }
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + chunk)
        stream.feed(bytes[offset..<end])
        maxBuffered = max(maxBuffered, stream.bufferedByteCount)
        offset = end
        try take(&stream)
    }
    stream.finish()
    try take(&stream)
    #expect(stream.isAtEnd)
    return result
}

/// The same recording read whole by ``RecordingReader``.
func whole(_ bytes: [UInt8], fileName: String = "stream") throws(RecordingError) -> StreamedRecording {
    let recording = try RecordingReader.read(bytes: bytes, fileName: fileName)
    var result = StreamedRecording()
    for device in recording.devices {
        var source = device.events
        var events: [RawEvent] = []
        var lines: [Int] = []
        while let event = try source.next() {
            events.append(event)
            lines.append(source.line ?? 0)
        }
        result.devices.append(device.description)
        result.events.append(events)
        result.lines.append(lines)
    }
    return result
}

/// A synthetic evemu recording of `frames` frames, written on the fly (never held whole).
struct SyntheticEvemu {
    static let description = Array(
        EvemuWriter.description(
            of: try! RecordingReader.readDescription(
                text: clickpad13,
                fileName: "p"
            )
        ).utf8
    )

    /// The bytes of frame `index`: a pressure change and a report.
    static func frame(_ index: Int) -> [UInt8] {
        let time = EventTime(microseconds: Int64(index) * 8000)
        let pressure = EvemuWriter.eventLine(.abs(.mtPressure, Int32(index % 200), at: time), since: .zero)
        let report = EvemuWriter.eventLine(.syn(.report, at: time), since: .zero)
        return Array((pressure + "\n" + report + "\n").utf8)
    }
}

@Suite("recording streams")
struct RecordingStreamTests {
    /// Every recording we have reads the same through the stream, fed in any piece size, as read whole.
    @Test(arguments: [1, 7, 64, 4096, 1 << 20])
    func streamMatchesTheWholeReader(chunk: Int) throws {
        var files = try FileManager.default.contentsOfDirectory(
            at: Fixtures.projectFixtures.appendingPathComponent("CLI"),
            includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "evemu" }
        files.append(Paths.recordings.appendingPathComponent("libinput-record-two-devices.yml"))
        if let shared = Paths.sharedFixtures, chunk != 1 {
            let all = FileManager.default.enumerator(at: shared, includingPropertiesForKeys: nil)?.allObjects ?? []
            files += all.compactMap { $0 as? URL }.filter { $0.pathExtension == "evemu" }
        }
        #expect(files.count >= 5)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            var buffered = 0
            let streamed = try stream(bytes, fileName: file.lastPathComponent, chunk: chunk, maxBuffered: &buffered)
            let read = try whole(bytes, fileName: file.lastPathComponent)
            #expect(streamed == read, "\(file.lastPathComponent)")
            #expect(!streamed.devices.isEmpty)
        }
    }

    /// Events come out as their lines arrive: the stream is not finished, the last line is even incomplete.
    @Test func eventsComeOutBeforeTheInputEnds() throws {
        var stream = RecordingStream(fileName: "-")
        stream.feed(SyntheticEvemu.description)
        #expect(try stream.next() == nil, "the description may still continue")
        let first = SyntheticEvemu.frame(0)
        stream.feed(first)
        guard case .device(let device) = try stream.next() else {
            Issue.record("no device once an event line arrived")
            return
        }
        #expect(device.description.name == "Test Clickpad")
        guard case .event(let pressure, let line) = try stream.next() else {
            Issue.record("no event")
            return
        }
        #expect(pressure == .abs(.mtPressure, 0, at: .zero))
        #expect(line > 20)
        guard case .event(let report, _) = try stream.next() else {
            Issue.record("no report")
            return
        }
        #expect(report.type == .syn)
        // Half a line is held back until its newline arrives.
        let second = SyntheticEvemu.frame(1)
        stream.feed(second.prefix(10))
        #expect(try stream.next() == nil)
        stream.feed(second.dropFirst(10))
        guard case .event(let next, _) = try stream.next() else {
            Issue.record("no event after the rest of the line")
            return
        }
        #expect(next.value == 1)
        #expect(!stream.isAtEnd)
    }

    /// The same for `libinput record`: each `- [...]` line is an event as soon as it arrives.
    @Test func libinputRecordEventsComeOutLineByLine() throws {
        let text = try String(
            contentsOf: Paths.recordings.appendingPathComponent("libinput-record-two-devices.yml"),
            encoding: .utf8
        )
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var stream = RecordingStream(fileName: "-")
        var devices = 0
        var events = 0
        for (index, line) in lines.enumerated() {
            stream.feed(Array((line + "\n").utf8))
            while let item = try stream.next() {
                switch item {
                case .device: devices += 1
                case .event(_, let number):
                    #expect(number == index + 1, "an event yielded at line \(index + 1) comes from line \(number)")
                    events += 1
                }
            }
            if index == 57 { #expect(devices == 1 && events == 1, "\(devices) devices, \(events) events") }
        }
        stream.finish()
        while try stream.next() != nil {}
        #expect(devices == 2)
        #expect(events > 10)
    }

    /// How much a memory test streams: far more than any buffer, little enough for a debug build on a busy
    /// machine (`PLUMOMETER_STREAM_MB` makes it larger: 200 shows the bound on a file of 200 MB).
    static let streamedBytes = (Int(ProcessInfo.processInfo.environment["PLUMOMETER_STREAM_MB"] ?? "") ?? 32) << 20

    /// Feeds `chunk` again and again after `head` until `streamedBytes` have gone through, draining the stream
    /// after each piece: the input is made on the fly and never held.
    static func pump(head: [UInt8], chunk: [UInt8], fileName: String) throws -> (events: Int, maxBuffered: Int) {
        var stream = RecordingStream(fileName: fileName)
        stream.feed(head)
        var events = 0
        var maxBuffered = 0
        var fed = head.count
        while fed < streamedBytes {
            stream.feed(chunk)
            fed += chunk.count
            maxBuffered = max(maxBuffered, stream.bufferedByteCount)
            while let item = try stream.next() {
                if case .event = item { events += 1 }
            }
        }
        stream.finish()
        while try stream.next() != nil { events += 1 }
        #expect(stream.isAtEnd)
        #expect(stream.bufferedByteCount == 0)
        return (events, maxBuffered)
    }

    /// A long evemu stream goes through while the stream never holds more than a chunk and a line.
    @Test func memoryIsBoundedByTheLongestLine() throws {
        var chunk: [UInt8] = []
        var frames = 0
        while chunk.count < 65_536 {
            chunk += SyntheticEvemu.frame(frames)
            frames += 1
        }
        let (events, maxBuffered) = try Self.pump(head: SyntheticEvemu.description, chunk: chunk, fileName: "big")
        let chunks = (Self.streamedBytes - SyntheticEvemu.description.count + chunk.count - 1) / chunk.count
        #expect(events == chunks * frames * 2)
        #expect(maxBuffered < chunk.count + 4096, "held \(maxBuffered) bytes")
    }

    /// The same bound for `libinput record`: the description is kept, each event entry only while it is read.
    @Test func libinputRecordMemoryIsBounded() throws {
        let text = try String(
            contentsOf: Paths.recordings.appendingPathComponent("libinput-record-two-devices.yml"),
            encoding: .utf8
        )
        let firstDevice = text.components(separatedBy: "\n- node: /dev/input/event3")[0]
        let head =
            Array(
                firstDevice.components(separatedBy: "  events:\n")[0].replacingOccurrences(
                    of: "ndevices: 2",
                    with: "ndevices: 1"
                ).utf8
            ) + Array("  events:\n".utf8)
        var chunk = ""
        var frames = 0
        while chunk.utf8.count < 65_536 {
            let (sec, usec) = (frames * 8000 / 1_000_000, frames * 8000 % 1_000_000)
            chunk += "  - evdev:\n    - [\(sec), \(usec), 3, 58, \(frames % 200)] # EV_ABS / ABS_MT_PRESSURE\n"
            chunk += "    - [\(sec), \(usec), 0, 0, 0] # ------------ SYN_REPORT (0) ----------\n"
            frames += 1
        }
        let bytes = Array(chunk.utf8)
        let (events, maxBuffered) = try Self.pump(head: head, chunk: bytes, fileName: "big.yml")
        let chunks = (Self.streamedBytes - head.count + bytes.count - 1) / bytes.count
        #expect(events == chunks * frames * 2)
        #expect(maxBuffered < head.count + bytes.count + 4096, "held \(maxBuffered) bytes")
    }

    /// `/dev/zero` and a file without newlines are refused from their first bytes, not read to the end.
    @Test func junkIsRefusedAtOnce() throws {
        var zeros = RecordingStream(fileName: "/dev/zero")
        zeros.feed([UInt8](repeating: 0, count: 65_536))
        #expect(
            throws: RecordingError(file: "/dev/zero", line: 1, message: "NUL byte at column 1: this is not a text file")
        ) {
            try zeros.next()
        }
        #expect(try zeros.next() == nil)
        #expect(zeros.isAtEnd)

        var endless = RecordingStream(fileName: "line")
        var thrown: RecordingError?
        var fed = 0
        while thrown == nil, fed < 4 << 20 {
            endless.feed([UInt8](repeating: UInt8(ascii: "Z"), count: 65_536))
            fed += 65_536
            #expect(endless.bufferedByteCount <= (1 << 20) + 65_536)
            do { _ = try endless.next() } catch { thrown = error }
        }
        #expect(thrown?.line == 1)
        #expect(
            thrown?.message.contains("a line longer than 1 MiB without a line break") == true,
            "\(String(describing: thrown))"
        )
        #expect(fed <= (1 << 20) + 65_536)
    }

    /// Events before a bad line are all yielded; the error comes after them and ends the stream.
    @Test func errorsComeAfterTheEventsBeforeThem() throws {
        var stream = RecordingStream(fileName: "bad.evemu")
        stream.feed(SyntheticEvemu.description + SyntheticEvemu.frame(0) + Array("E: 0.1 0003 0099 1\n".utf8))
        stream.finish()
        var events = 0
        do {
            while let item = try stream.next() {
                if case .event = item { events += 1 }
            }
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("does not declare EV_ABS code"), "\(error)")
        }
        #expect(events == 2)
        #expect(try stream.next() == nil)
    }

    /// A bare events file with its description given separately.
    @Test func bareEventsStream() throws {
        let description = try RecordingReader.readDescription(text: clickpad13, fileName: "pad.desc")
        var stream = RecordingStream(eventsFileName: "pad.events", description: description)
        stream.feed(SyntheticEvemu.frame(0) + SyntheticEvemu.frame(1))
        guard case .device(let device) = try stream.next() else {
            Issue.record("no device")
            return
        }
        #expect(device.description == description)
        var events = 0
        while case .event = try stream.next() { events += 1 }
        #expect(events == 4)
        stream.feed(Array("N: a description\n".utf8))
        #expect(throws: RecordingError.self) { try stream.next() }
    }
}

/// An `events` entry read whole (written inline) still delivers the events before its bad one, in both readers.
@Test func eventsBeforeABadEventOfAWholeEntryAreDelivered() throws {
    let text = """
        version: 1
        devices:
        - evdev:
            name: pad
            id: [1, 2, 3, 4]
            codes:
              3: [58]
            absinfo:
              58: [0, 255, 0, 0, 0]
          events:
          - evdev: [[0, 1, 3, 58, 10], [0, 1, 0, 0, 0], [0, 2, 3, 58]]
          - evdev:
            - [0, 3, 3, 58, 12]

        """
    var source = try RecordingReader.read(text: text, fileName: "w.yml").devices[0].events
    #expect(try source.next()?.value == 10)
    #expect(try source.next()?.type == .syn)
    #expect(throws: RecordingError.self) { try source.next() }
    #expect(try source.next() == nil)

    var stream = RecordingStream(fileName: "w.yml")
    stream.feed(Array(text.utf8))
    stream.finish()
    var events = 0
    var thrown: RecordingError?
    do {
        while let item = try stream.next() {
            if case .event = item { events += 1 }
        }
    } catch {
        thrown = error
    }
    #expect(events == 2)
    #expect(thrown?.line == 11)
    #expect(thrown?.message.contains("expected 5 numbers") == true, "\(String(describing: thrown))")
    #expect(stream.isAtEnd)
}
