import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestSupport
import Testing

/// Live streams from emulated devices for the CLI tests: a device under umockdev, its events fed through a FIFO in
/// whole events (or an umockdev script for timing a FIFO cannot give), and checks on the JSON Lines it produced.
enum EmulatedStreams {
    static func fixture(_ name: String) -> URL {
        Fixtures.projectFixtures.appendingPathComponent("Faults/" + name)
    }

    /// An umockdev script (`r DELAY DATA` lines, see umockdev's script-format.txt) that delivers each chunk of
    /// events `delay` milliseconds after the previous one, as the `struct input_event`s of a 64-bit machine.
    ///
    /// Unlike evemu events, whose delays follow their time stamps, a script can hold back events that share one:
    /// the rest of a frame, say, arriving well after the reader has seen the frame's `SYN_DROPPED`.
    static func script(_ chunks: [(delay: Int, events: [RawEvent])]) -> Data {
        var text: [UInt8] = []
        for chunk in chunks {
            text += Array("r \(chunk.delay) ".utf8)
            for event in chunk.events {
                var bytes: [UInt8] = []
                let seconds = event.time.microseconds / 1_000_000
                let micros = event.time.microseconds % 1_000_000
                withUnsafeBytes(of: seconds.littleEndian) { bytes += $0 }
                withUnsafeBytes(of: micros.littleEndian) { bytes += $0 }
                withUnsafeBytes(of: event.type.rawValue.littleEndian) { bytes += $0 }
                withUnsafeBytes(of: event.code.littleEndian) { bytes += $0 }
                withUnsafeBytes(of: event.value.littleEndian) { bytes += $0 }
                // Bytes below 32 are written as '^' and the byte plus 64; '^' itself as "^`".
                for byte in bytes {
                    if byte < 32 {
                        text += [UInt8(ascii: "^"), byte + 64]
                    } else if byte == UInt8(ascii: "^") {
                        text += Array("^`".utf8)
                    } else {
                        text.append(byte)
                    }
                }
            }
            text.append(UInt8(ascii: "\n"))
        }
        return Data(text)
    }

    /// Every line parsed as a JSON object; records a failure for each line that is not a complete one.
    static func records(_ lines: [String]) -> [[String: Any]] {
        lines.compactMap { line in
            guard let data = line.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data),
                let record = object as? [String: Any]
            else {
                Issue.record("not a complete JSON line: \(line)")
                return nil
            }
            return record
        }
    }

    static func t(_ ms: Int64) -> EventTime { EventTime(microseconds: ms * 1000) }
}

extension EmulatedStreams {
    /// Runs `plumometer --device NODE -f jsonl` under umockdev-run with `events` replayed into the emulated device,
    /// and stops it with a real SIGTERM after `seconds`.
    ///
    /// With a `script` (see ``script(_:)``) the device delivers that instead of `events`; then `until`, a sed
    /// pattern, ends the run on the first line that matches it instead (`seconds` is only the limit).
    static func stream(
        device file: String = "apple-magic-trackpad-2-usb.desc",
        events: [RawEvent],
        script: Data? = nil,
        slotValues: [[AbsoluteAxis: Int32]] = [],
        keysDown: Set<KeyCode> = [],
        seconds: Double = 1.2,
        until pattern: String? = nil
    ) throws -> ProcessResult {
        let device = try EmulatedDevice(
            try EmulatedDevice.fixture(file),
            slotValues: slotValues,
            keysDown: keysDown,
            label: "fault"
        )
        // ProcessRunner starts it with no signal blocked, as a shell would, so SIGTERM acts as a user's `kill`.
        let command =
            ["timeout"] + ProcessRunner.timeoutArguments(seconds) + [try CLI.binary]
            + ["--device", device.node, "-f", "jsonl"]
        let environment = ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
        guard let script else {
            // Events go in through a FIFO at their time stamps, in whole events as from the kernel (umockdev's own
            // replay backs the node with a pty, which tears bursts when the reader falls behind on a loaded machine).
            return try device.runFed(
                "timeout",
                Array(command.dropFirst()),
                events: try device.eventsFile(events),
                hold: seconds + 10,
                environment: environment
            )
        }
        let scriptURL = device.directory.appendingPathComponent("events.script")
        try script.write(to: scriptURL)
        // With a pattern the run ends on the line that matches it, not at a time: its reader (sed) quits after that
        // line, and the stream stops once its piped stdout's reader has gone, however slow the machine.
        let ended = pattern.map { ["sh", "-c", "\"$@\" | sed '/\($0)/q'", $0] + command } ?? command
        return try device.run(
            ended[0],
            Array(ended.dropFirst()),
            scripts: [(device.node, scriptURL)],
            environment: environment
        )
    }

    /// The frame records of a run, in order, as (resync, contact ids).
    static func frames(_ result: ProcessResult) -> [(resync: Bool, ids: [Int], records: [[String: Any]])] {
        records(result.stdoutLines).filter { $0.string("type") == "frame" }.map { frame in
            let contacts = frame.objects("contacts")
            return (frame.bool("resync") == true, contacts.compactMap { $0.int("id") }, contacts)
        }
    }
}

/// The name these helpers had before the tests were filed by behaviour (`FaultTestSupport.swift`), kept so that tests
/// written against it in parallel branches still build; new code says ``EmulatedStreams``.
typealias Faults = EmulatedStreams
