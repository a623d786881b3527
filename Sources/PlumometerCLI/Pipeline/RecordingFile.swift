import PlumometerCore
import PlumometerLinux
import PlumometerRecording

/// Recordings on disk: read, parsed, one device picked, every failure a sentence naming the file (a
/// ``RecordingError`` with `file:line`, or the CLI's own when a description is missing).
enum RecordingFile {
    /// The device to replay from `path`: a single-file recording, or a bare evemu events file with its
    /// description given by `description` or found beside it (`NAME.tap.events` → `NAME.tap.desc`, `NAME.desc`).
    static func device(_ path: String, selector: String?, description: String? = nil) throws -> RecordedDevice {
        try recording(path, description: description).device(selector)
    }

    /// The recording at `path` with every device it describes: a single-file recording, or a bare evemu events file
    /// with its description given by `description` or found beside it.
    static func recording(_ path: String, description: String? = nil) throws -> Recording {
        let bytes = try Files.read(path)
        let descriptionPath = try description ?? (isBareEvents(bytes) ? companionDescription(of: path) : nil)
        let descriptionText = try descriptionPath.map { String(decoding: try readDescription($0), as: UTF8.self) } ?? ""
        // A RecordingError (file:line: what is wrong) reaches the entry point whole.
        guard let descriptionPath else {
            return try RecordingReader.read(bytes: bytes, fileName: path)
        }
        var recording = try RecordingReader.read(
            descriptionText: descriptionText,
            eventsText: String(decoding: bytes, as: UTF8.self),
            fileName: descriptionPath,
            eventsFileName: path
        )
        // The events are the session: the device is named by their file (nine sessions of one .desc are nine
        // names), as a single-file recording is by its own.
        for index in recording.devices.indices { recording.devices[index].description.path = path }
        return recording
    }

    /// The recording at `path` (`-`: standard input) opened to be read as it arrives: a single-file recording, or
    /// bare evemu events with their description given by `description` or found beside a regular file. Nothing
    /// but the head of a regular file is read here (to tell bare events), and opening never blocks (a FIFO with no
    /// writer yet included).
    static func input(_ path: String, selector: String?, description: String? = nil) throws -> RecordingInput {
        let file = try InputFile(path: path)
        var descriptionPath = description
        if descriptionPath == nil, path != "-", let head = file.peek(1 << 16), isBareEvents(head) {
            descriptionPath = try companionDescription(of: path)
        }
        guard let descriptionPath else { return RecordingInput(file, selector: selector) }
        let recording = try RecordingReader.read(
            descriptionText: String(decoding: try readDescription(descriptionPath), as: UTF8.self),
            eventsText: "",
            fileName: descriptionPath,
            eventsFileName: path
        )
        for warning in recording.warnings { Diagnostics.note(warning.description) }
        // Named by the events' file, not the .desc: see ``recording(_:description:)``.
        var described = recording.devices[0].description
        described.path = path
        return RecordingInput(file, selector: selector, description: described)
    }

    /// The largest device description read (`--desc`, or a `.desc` beside the events): real ones are a few KiB.
    static let maximumDescriptionSize = 1 << 20

    /// The bytes of a device description: a regular file of at most ``maximumDescriptionSize`` bytes, else refused
    /// at once (a FIFO would wait, `/dev/zero` would never end).
    static func readDescription(_ path: String) throws -> [UInt8] {
        do {
            return try Files.readSmall(path, limit: maximumDescriptionSize)
        } catch let error as SmallFileError {
            throw CLIError.runtime("cannot read the device description: \(error.description).")
        }
    }

    /// Whether the file's first line that is not blank or a comment is an `E:` line: events without a device.
    static func isBareEvents(_ bytes: [UInt8]) -> Bool {
        // A UTF-8 byte order mark first is no part of the first line.
        let bytes = bytes.starts(with: [0xef, 0xbb, 0xbf]) ? Array(bytes.dropFirst(3)) : bytes
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
            if FileSystem.isReadableFile(candidate) {
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

/// A recording's device for the commands that read it into a consumer of their own (`weigh`, `calibrate`, `probe`
/// with `--replay`): the file is read as it arrives (``RecordingInput``: a chunk at a time, so memory does not grow
/// with the file; `-`, a FIFO or a pipe as well as a file), in a ``Driver``'s poll loop, so SIGINT and SIGTERM end
/// any wait (for a writer, for the device, for the next event) at once.
///
/// Made in two steps, as those commands need: ``init(path:description:)`` waits for the device and its first event (the
/// consumer is built from the description and the start time), then ``play(into:)`` plays the events into
/// the consumer as fast as they arrive.
final class ArrivingDevice {
    /// The device, as its recording describes it.
    let device: StreamedDevice
    /// Its first event, or nil when it has none.
    let first: RawEvent?
    private let input: RecordingInput
    /// Whether a stop signal ended the reading.
    private(set) var stoppedBySignal = false

    var description: DeviceDescription { device.description }
    var node: String? { device.node }
    /// The time of the first event (zero when there is none).
    var startTime: EventTime { first?.time ?? .zero }

    /// What ``play(into:)`` saw.
    struct Played {
        /// The latest event time played.
        var lastTime: EventTime
        /// The error that ended the recording early, if any: everything before it has been played.
        var failure: (any Error)?
        /// Whether the consumer asked to stop.
        var consumerStopped: Bool
    }

    /// Opens the recording at `path` (`-`: standard input) and reads it until its device and first event.
    /// - Throws: ``OutputError/interrupted(_:)`` when a stop signal comes first; `RecordingError`, ``OutputError``
    ///   or ``CLIError`` when it cannot be read or describes no device.
    init(path: String, description: String? = nil) throws {
        let input = try RecordingFile.input(path, selector: nil, description: description)
        let driver = try Driver()
        var device: StreamedDevice?
        var first: RawEvent?
        var watching = false
        driver.work = { [unowned driver] in
            while true {
                switch try input.pull() {
                case .device(let found): device = found
                case .event(let event, _):
                    first = event
                    return .finished
                case .end:
                    return .finished
                case .waiting:
                    guard !watching else { return .idle }
                    watching = true
                    var token = 0
                    token = driver.watch(input.fileDescriptor) { [unowned driver] in
                        driver.unwatch(token)
                        watching = false
                    }
                    // One more turn, so the poll includes the descriptor just watched.
                    return .within(0)
                }
            }
        }
        try driver.run()
        guard let device, !driver.stoppedBySignal else { throw OutputError.interrupted(path) }
        self.device = device
        self.first = first
        self.input = input
    }

    /// Plays the events into `consumer` as fast as they arrive, ticking its deadlines between them, until the
    /// recording ends, the consumer stops or a stop signal. Nothing is ticked past the last event: the end of a
    /// recording is the end of the evidence (``RecordingPlayer/play(until:limit:into:)``).
    func play(into consumer: any FrameConsumer) throws -> Played {
        let driver = try Driver()
        let source = RecordingSource(
            RecordingPlayer(device, first: first, from: input),
            pacing: Pacing(speed: nil),
            into: consumer
        )
        var token: Int?
        driver.work = { [unowned driver] in
            let due = try source.due()
            guard due != .finished, source.isWaiting else { return due }
            guard token == nil else { return due }
            token = driver.watch(self.input.fileDescriptor) { [unowned driver] in
                if let watched = token { driver.unwatch(watched) }
                token = nil
            }
            return .within(0)
        }
        try driver.run()
        stoppedBySignal = driver.stoppedBySignal
        let stopped = source.consumerStopped
        return Played(lastTime: source.lastTime, failure: source.failure, consumerStopped: stopped)
    }
}
