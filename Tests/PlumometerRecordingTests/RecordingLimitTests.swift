import PlumometerCore
import PlumometerTestKit
import Testing

@testable import PlumometerRecording

/// Each bound of ``RecordingLimits`` refuses an input just past it, at its line, with a message naming the limit,
/// through the whole-text reader and the streaming one; an input at the bound is still read.
@Suite struct RecordingLimitTests {
    /// A `libinput record` head with one device, up to its `events:` key; `extra` is added to the device.
    static func head(extra: String = "") -> String {
        """
        version: 1
        devices:
        - node: /dev/input/event3
          evdev:
            name: "Pad"
            id: [3, 1, 2, 1]
            codes:
              0: [0]
              3: [0]
            absinfo:
              0: [0, 100, 0, 0, 0]
        \(extra)
          events:
          - evdev:
            - [0, 0, 3, 0, 5]
            - [0, 0, 0, 0, 0]

        """
    }

    /// Reads `text` as it arrives, in chunks of `chunkSize` bytes, and returns the error that ended it, if any.
    static func streamError(_ text: String, fileName: String = "limits.yml", chunkSize: Int = 4096) -> RecordingError? {
        var stream = RecordingStream(fileName: fileName)
        let bytes = Array(text.utf8)
        do {
            var offset = 0
            while offset < bytes.count {
                stream.feed(bytes[offset..<min(offset + chunkSize, bytes.count)])
                offset += chunkSize
                while try stream.next() != nil {}
            }
            stream.finish()
            while try stream.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    static func expectLimit(
        _ fragment: String,
        line: Int,
        text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectError(fragment, line: line, reading: text, fileName: "limits.yml", sourceLocation: sourceLocation)
        let streamed = streamError(text)
        #expect(streamed?.line == line, "\(String(describing: streamed))", sourceLocation: sourceLocation)
        #expect(
            streamed?.message.contains(fragment) == true,
            "\(String(describing: streamed))",
            sourceLocation: sourceLocation
        )
    }

    @Test(.tags(.foundByFaultInjection))
    func flowNestingDeeperThanTheLimitIsRefusedAtItsLine() {
        // 40,000 levels crashed the reader (a stack overflow) before the limit.
        for depth in [RecordingLimits.maximumNesting, 40_000] {
            let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            Self.expectLimit("nested more than 32 levels deep", line: 12, text: Self.head(extra: "  hid: \(deep)"))
        }
    }

    @Test(.tags(.foundByFaultInjection))
    func nestingInsideAnEventEntryIsRefusedAtItsLine() {
        let deep = String(repeating: "[", count: 40_000) + String(repeating: "]", count: 40_000)
        let text = Self.head() + "  - evdev:\n    - \(deep)\n"
        Self.expectLimit("nested more than 32 levels deep", line: 18, text: text)
        let whole = Self.head() + "  - libinput: \(deep)\n"
        Self.expectLimit("nested more than 32 levels deep", line: 17, text: whole)
    }

    @Test(.tags(.foundByFaultInjection))
    func blockNestingDeeperThanTheLimitIsRefusedAtItsLine() {
        // One key a line, each one space deeper than the last.
        let lines = (0..<5_000).map { String(repeating: " ", count: $0 + 4) + "k\($0):" }
        let text = Self.head(extra: "  quirks:\n" + lines.joined(separator: "\n"))
        // The document, devices and the device are 3 levels, the mapping holding k0 the 4th: k29's is the 33rd.
        Self.expectLimit("nested more than 32 levels deep", line: 13 + 29, text: text)
    }

    @Test func nestingWithinTheLimitIsRead() throws {
        let depth = RecordingLimits.maximumNesting - 4
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var recording = try RecordingReader.read(text: Self.head(extra: "  hid: \(deep)"), fileName: "ok.yml")
        #expect(try recording.devices[0].events.collect().count == 2)
        #expect(Self.streamError(Self.head(extra: "  hid: \(deep)")) == nil)
    }

    @Test(.tags(.foundByFaultInjection))
    func aScalarLongerThanTheLimitIsRefused() {
        let long = String(repeating: "x", count: RecordingLimits.maximumScalarLength + 1)
        Self.expectLimit("a value longer than 64 KiB", line: 12, text: Self.head(extra: "  hid: [\(long)]"))
        Self.expectLimit("a value longer than 64 KiB", line: 12, text: Self.head(extra: "  hid: \"\(long)\""))
        Self.expectLimit("a value longer than 64 KiB", line: 12, text: Self.head(extra: "  hid: \(long)"))
    }

    @Test(.tags(.foundByFaultInjection))
    func aListLongerThanTheLimitIsRefused() {
        let items = Array(repeating: "1", count: RecordingLimits.maximumListLength + 1).joined(separator: ",")
        Self.expectLimit("more than 65536 items", line: 12, text: Self.head(extra: "  hid: [\(items)]"))
        let lines = (0...RecordingLimits.maximumListLength).map { "    - \($0)" }.joined(separator: "\n")
        Self.expectLimit(
            "more than 65536 items",
            line: 13 + RecordingLimits.maximumListLength,
            text: Self.head(extra: "  udev:\n" + lines)
        )
    }

    @Test(.tags(.foundByFaultInjection))
    func moreDevicesThanTheLimitAreRefused() {
        let device = """
            - evdev:
                name: "Pad"
                id: [3, 1, 2, 1]
                codes:
                  0: [0]

            """
        let text = "version: 1\ndevices:\n" + String(repeating: device, count: RecordingLimits.maximumDeviceCount + 1)
        Self.expectLimit("more than 128 devices", line: 3 + 5 * RecordingLimits.maximumDeviceCount, text: text)
    }

    @Test(.tags(.foundByFaultInjection))
    func aLineLongerThanTheLimitIsRefused() {
        let long = String(repeating: "1,", count: RecordingLimits.maximumLineLength / 2 + 1)
        Self.expectLimit("a line longer than 1 MiB", line: 12, text: Self.head(extra: "  hid: [\(long)]"))
    }
}
