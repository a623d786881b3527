import Foundation
import Glibc
import PlumometerCore
import PlumometerRecording

/// `plumometer replay FILE`: a recording through exactly the same decoder, tracker and outputs as a live device.
enum ReplayCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let path = arguments.positionals[0]
        let settings = try arguments.readingSettings(command: "replay")
        let pacing = try Pacing(arguments, command: "replay")
        let device = try RecordingFile.device(path, selector: arguments.value("device"), description: arguments.value("desc"))
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
            speed = try arguments.number("speed", command: command) ?? 1
        }
    }
}

/// Plays one recorded device through a ``ReadingPipeline`` inside the poll loop.
enum ReplaySession {
    /// Events handled between two looks at signals and keys when playing as fast as possible.
    static let fastBatch = 4_096

    static func play(_ device: RecordedDevice, settings: ReadingSettings, pacing: Pacing, format: String?) throws {
        var events = device.events
        let description = device.description
        let (output, live) = OutputChoice.make(format: format, unit: settings.unit)
        defer { live?.restoreTerminal() }
        let calibration = try ProfileStore.calibration(for: description, explicitPath: settings.profilePath)
        var decoder = ContactDecoder(device: description)
        let driver = try Driver()
        driver.stopWhenOutputCloses()
        var first: RawEvent?
        do throws(RecordingError) {
            first = try events.next()
        } catch {
            throw CLIError.runtime(error.description)
        }
        let startTime = first?.time ?? .zero
        let record = DeviceRecord(
            path: description.path,
            description: description,
            time: startTime,
            classification: DeviceClassifier.classify(description),
            gramsSource: gramsSource(description, calibration?.1)
        )
        let pipeline = ReadingPipeline(
            record: record, calibration: calibration?.0, settings: settings, output: output
        )
        try pipeline.start()
        let keyboard = live != nil ? RawKeyboard(fd: STDIN_FILENO) : nil
        defer { keyboard?.restore() }
        if let keyboard {
            driver.watch(keyboard.fileDescriptor) {
                for key in keyboard.readKeys() {
                    switch key {
                    case UInt8(ascii: "t"): pipeline.tare()
                    case UInt8(ascii: "c"): pipeline.clearTare()
                    case UInt8(ascii: "q"): driver.finish()
                    default: break
                    }
                }
            }
        }
        let wallStart = MonotonicClock.now()
        var next = first
        var lastTick = startTime
        var parseError: RecordingError?
        /// The device time that corresponds to now on the wall clock (real-time and sped-up replay).
        func deviceNow() -> EventTime {
            let elapsed = Double(MonotonicClock.now().microseconds - wallStart.microseconds) * (pacing.speed ?? 1)
            return EventTime(microseconds: startTime.microseconds + Int64(elapsed))
        }
        func feed(_ event: RawEvent) throws {
            if event.time.microseconds - lastTick.microseconds >= 10_000 {
                lastTick = event.time
                try pipeline.tick(now: event.time)
            }
            if let frame = decoder.consume(event) {
                try pipeline.consume(frame)
            }
        }
        func advance() -> RawEvent? {
            do throws(RecordingError) {
                return try events.next()
            } catch {
                parseError = error
                return nil
            }
        }
        driver.work = {
            if let speed = pacing.speed {
                let now = deviceNow()
                while let event = next {
                    let due = startTime.microseconds + Int64(Double(event.time.microseconds - startTime.microseconds))
                    if due > now.microseconds {
                        try output.idle(now: MonotonicClock.now())
                        if pipeline.wantsTicks { try pipeline.tick(now: now) }
                        let wait = Int64(Double(due - now.microseconds) / speed)
                        let idle = output.idleDeadline(now: MonotonicClock.now())
                        return pollTimeout(microseconds: min(wait, idle ?? wait, pipeline.wantsTicks ? 50_000 : wait))
                    }
                    try feed(event)
                    next = advance()
                }
            } else {
                var handled = 0
                while let event = next, handled < fastBatch {
                    try feed(event)
                    next = advance()
                    handled += 1
                }
                if next != nil { return 0 }
            }
            try pipeline.flush()
            try output.idle(now: MonotonicClock.now())
            driver.finish()
            return 0
        }
        try driver.run()
        try pipeline.flush()
        try output.finish()
        if let parseError {
            throw CLIError.runtime(parseError.description)
        }
        if driver.stoppedBySignal { Diagnostics.note("stopped") }
    }

    static func gramsSource(_ description: DeviceDescription, _ profilePath: String?) -> DeviceRecord.GramsSource {
        if let profilePath { return .calibration(profilePath) }
        if let range = description.pressureRange, range.resolution > 0 { return .resolution(range.resolution) }
        return .none
    }
}

/// Recordings on disk: read, parsed, one device picked, every failure a sentence naming the file.
enum RecordingFile {
    /// The device to replay from `path`: a single-file recording, or a bare evemu events file with its
    /// description given by `description` or found beside it (`NAME.tap.events` → `NAME.tap.desc`, `NAME.desc`).
    static func device(_ path: String, selector: String?, description: String? = nil) throws -> RecordedDevice {
        let bytes = try FileText.read(path)
        let descriptionPath = try description ?? (isBareEvents(bytes) ? companionDescription(of: path) : nil)
        let descriptionText = try descriptionPath.map { String(decoding: try FileText.read($0), as: UTF8.self) } ?? ""
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

/// Reading and writing whole files with errors that name them.
enum FileText {
    static func read(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CLIError.runtime("cannot read \(path): \(reason). Check the file name.")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                throw CLIError.runtime("cannot read \(path): \(reason).")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}

extension FileText {
    /// Writes `text` to `path`, replacing it.
    static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CLIError.runtime("cannot write \(path): \(reason). Choose another file.")
        }
        defer { close(fd) }
        try OutputSink(fileDescriptor: fd).write(text)
    }
}
