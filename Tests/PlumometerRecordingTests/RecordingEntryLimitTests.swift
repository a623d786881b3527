import Foundation
import PlumometerCore
import PlumometerRecording
import Testing

/// The limits docs/reliability.md names, applied where they were not: an evemu device name (`N:`) is a scalar (64
/// KiB), and a `- evdev:` entry read line by line is an entry of `events` (1 MiB); and an entry written over many
/// lines is read in time linear in its size (a copy of the entry per line made 1 MB take 9 s).
struct RecordingEntryLimitTests {
    /// The events of `text` read as they arrive, in chunks of 64 KiB; the error that ended it, if any.
    static func streamError(_ text: String, fileName: String) -> RecordingError? {
        RecordingLimitTests.streamError(text, fileName: fileName, chunkSize: 65_536)
    }

    static let yamlHead = """
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
          events:

        """

    @Test(.tags(.foundByFaultInjection))
    func anEvemuNameLongerThanTheScalarLimitIsRefused() {
        let text = "N: " + String(repeating: "x", count: 900 << 10) + "\nI: 0003 0001 0002 0001\n"
        expectError("a value longer than 64 KiB (the limit)", line: 1, reading: text)
        let streamed = Self.streamError(text, fileName: "test.evemu")
        #expect(streamed?.line == 1 && streamed?.message.contains("64 KiB") == true, "\(String(describing: streamed))")
        // At the limit, the name is read.
        let atLimit =
            "N: " + String(repeating: "x", count: RecordingLimits.maximumScalarLength) + "\nI: 0003 0001 0002 0001\n"
        #expect(Self.streamError(atLimit, fileName: "test.evemu") == nil)
    }

    @Test(.tags(.foundByFaultInjection))
    func aBlockEvdevEntryLongerThanTheEntryLimitIsRefused() {
        let event = "    - [0, 0, 3, 0, 5]\n"
        let count = (3_200_000 / event.utf8.count)
        let text = Self.yamlHead + "  - evdev:\n" + String(repeating: event, count: count) + "    - [0, 0, 0, 0, 0]\n"
        let streamed = Self.streamError(text, fileName: "limits.yml")
        #expect(streamed?.line == 13, "\(String(describing: streamed))")
        #expect(
            streamed?.message.contains("an entry of 'events' longer than 1 MiB") == true,
            "\(String(describing: streamed))"
        )
        expectError("an entry of 'events' longer than 1 MiB", line: 13, reading: text, fileName: "limits.yml")
        // Under it, every event is read.
        let under = Self.yamlHead + "  - evdev:\n" + String(repeating: event, count: 40_000) + "    - [0, 0, 0, 0, 0]\n"
        #expect(Self.streamError(under, fileName: "limits.yml") == nil)
    }

    /// About 1 MB of one entry in multi-line flow style, in both places an entry is gathered (an inline `evdev` list
    /// and one `- [...]` event spread over lines): read well within a second (release) or a few (debug, loaded).
    @Test(.tags(.foundByFaultInjection))
    func aMultiLineFlowEntryIsReadInLinearTime() {
        let inline =
            Self.yamlHead + "  - evdev: [\n" + String(repeating: "      [0, 0, 3, 0, 5],\n", count: 40_000)
            + "      [0, 0, 0, 0, 0]]\n"
        let spread =
            Self.yamlHead + "  - evdev:\n    - [0,\n" + String(repeating: "       \n", count: 120_000)
            + "       0, 3, 0, 5]\n"
            + "    - [0, 0, 0, 0, 0]\n"
        for text in [inline, spread] {
            #expect(text.utf8.count > 900_000)
            let start = ContinuousClock.now
            let error = Self.streamError(text, fileName: "flow.yml")
            let elapsed = ContinuousClock.now - start
            #expect(error == nil, "\(String(describing: error))")
            // Quadratic, this took 9 to 11 s on the machine where it was found.
            #expect(elapsed < .seconds(4), "\(elapsed)")
        }
    }
}
