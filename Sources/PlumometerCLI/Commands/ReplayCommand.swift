import Foundation
import PlumometerCore
import PlumometerLinux
import PlumometerRecording

/// `plumometer replay FILE`: a recording through exactly the same decoder, tracker and outputs as a live device.
enum ReplayCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let path = arguments.positionals[0]
        let settings = try arguments.readingSettings(command: "replay")
        let pacing = try Pacing(arguments, command: "replay")
        let device = try RecordingFile.device(
            path,
            selector: arguments.value("device"),
            description: arguments.value("desc")
        )
        try ReplaySession.play(device, settings: settings, pacing: pacing, format: arguments.value("format"))
    }
}

/// How fast a recording plays: in real time, X times faster, or as fast as possible.
struct Pacing {
    /// nil: as fast as possible.
    var speed: Double?

    init(speed: Double?) { self.speed = speed }

    init(_ arguments: ParsedArguments, command: String) throws(UsageError) {
        if arguments.has("fast") {
            if arguments.has("speed") {
                throw UsageError(message: "Give either --fast or --speed, not both.", command: command)
            }
            speed = nil
        } else {
            speed = try arguments.speed(command: command) ?? 1
        }
    }
}

/// Plays one recorded device through a ``ReadingPipeline`` inside the poll loop.
enum ReplaySession {
    /// Events handled between two looks at signals and keys when playing as fast as possible.
    static let fastBatch = 4_096

    static func play(_ device: RecordedDevice, settings: ReadingSettings, pacing: Pacing, format: String?) throws {
        let description = device.description
        guard description.pressureAxis != nil else {
            throw CLIError.runtime(
                "\(description.path) ('\(description.name)') has no pressure axis (neither ABS_MT_PRESSURE nor ABS_PRESSURE), so it cannot weigh anything."
            )
        }
        // The loop blocks the signals it reads; it exists before anything else.
        let driver = try Driver()
        driver.stopWhenOutputCloses()
        let (output, live) = OutputChoice.make(format: format, unit: settings.unit)
        defer { live?.restoreTerminal() }
        let calibration = try ProfileStore.calibration(for: description, explicitPath: settings.profilePath)
        var player = RecordingPlayer(device)
        let startTime = player.startTime
        let record = DeviceRecord(
            path: description.path,
            description: description,
            time: startTime,
            classification: DeviceClassifier.classify(description),
            gramsSource: gramsSource(description, calibration?.1)
        )
        let pipeline = ReadingPipeline(record: record, calibration: calibration?.0, settings: settings, output: output)
        try pipeline.start(.atFirstFrame)
        let keyboard = LiveKeys.attach(live, to: driver, pipeline: { pipeline })
        defer { keyboard?.restore() }
        let wallStart = MonotonicClock.now()
        driver.work = {
            if let speed = pacing.speed {
                // The device time that corresponds to now on the wall clock.
                let elapsed = Double(MonotonicClock.now().microseconds - wallStart.microseconds) * speed
                let now = EventTime(microseconds: startTime.microseconds + clampedMicroseconds(elapsed))
                _ = try player.play(until: now, into: pipeline)
                try output.idle(now: MonotonicClock.now())
                if let next = player.next {
                    var due = next.time
                    if let deadline = pipeline.nextDeadline { due = Swift.min(due, deadline) }
                    let wait = clampedMicroseconds(Double(due.microseconds - now.microseconds) / speed)
                    let idle = output.idleDeadline(now: MonotonicClock.now())
                    return .within(Swift.min(wait, idle ?? wait))
                }
            } else {
                _ = try player.play(until: nil, limit: fastBatch, into: pipeline)
                if !player.isFinished { return .within(0) }
            }
            try pipeline.flush()
            try output.idle(now: MonotonicClock.now())
            return .finished
        }
        try driver.run()
        try pipeline.flush()
        try output.finish()
        if let failure = player.failure {
            throw CLIError.runtime(failure.description)
        }
        if driver.stoppedBySignal { Diagnostics.note("stopped") }
    }

    static func gramsSource(_ description: DeviceDescription, _ profilePath: String?) -> DeviceRecord.GramsSource {
        if let profilePath { return .calibration(profilePath) }
        if let range = description.pressureRange, range.resolution > 0 { return .resolution(range.resolution) }
        return .none
    }
}

/// `value` microseconds as an Int64, clamped instead of trapping: user-supplied speeds and recorded times can
/// make any product huge.
func clampedMicroseconds(_ value: Double) -> Int64 {
    guard value.isFinite else { return value > 0 ? Int64.max / 2 : 0 }
    return Int64(Swift.max(Swift.min(value, 4.0e18), -4.0e18))
}

/// Recordings on disk: read, parsed, one device picked, every failure a sentence naming the file.
enum RecordingFile {
    /// The device to replay from `path`: a single-file recording, or a bare evemu events file with its
    /// description given by `description` or found beside it (`NAME.tap.events` → `NAME.tap.desc`, `NAME.desc`).
    static func device(_ path: String, selector: String?, description: String? = nil) throws -> RecordedDevice {
        let bytes = try Files.read(path)
        let descriptionPath = try description ?? (isBareEvents(bytes) ? companionDescription(of: path) : nil)
        let descriptionText = try descriptionPath.map { String(decoding: try Files.read($0), as: UTF8.self) } ?? ""
        do throws(RecordingError) {
            guard let descriptionPath else {
                return try RecordingReader.read(bytes: bytes, fileName: path).device(selector)
            }
            return try RecordingReader.read(
                descriptionText: descriptionText,
                eventsText: String(decoding: bytes, as: UTF8.self),
                fileName: descriptionPath,
                eventsFileName: path
            ).device(selector)
        } catch {
            throw CLIError.runtime(error.description)
        }
    }

    /// Whether the file's first line that is not blank or a comment is an `E:` line: events without a device.
    static func isBareEvents(_ bytes: [UInt8]) -> Bool {
        for line in bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 64) {
            let text = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if text.isEmpty || text.first == UInt8(ascii: "#") || text.first == UInt8(ascii: "\r") { continue }
            return text.starts(with: Array("E:".utf8))
        }
        return false
    }

    /// The `.desc` that goes with a bare events file, as evemu recordings are shared (`X.tap.events` with
    /// `X.desc`), or an error saying to pass `--desc`.
    static func companionDescription(of path: String) throws -> String {
        var stem = path.hasSuffix(".events") ? String(path.dropLast(".events".count)) : path
        while true {
            let candidate = stem + ".desc"
            if FileManager.default.isReadableFile(atPath: candidate) {
                Diagnostics.note("\(path) holds events only; describing the device with \(candidate)")
                return candidate
            }
            let name = stem.split(separator: "/").last ?? ""
            guard let dot = stem.lastIndex(of: "."), name.contains(".") else { break }
            stem = String(stem[..<dot])
        }
        throw CLIError.runtime(
            "\(path) holds events but no device description, and no .desc file was found beside it; "
                + "name the description with --desc FILE."
        )
    }
}
