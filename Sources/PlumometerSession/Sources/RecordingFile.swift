import PlumometerCore
public import PlumometerRecording

/// Recordings on disk: read, parsed, one device picked, every failure a sentence naming the file (a
/// ``RecordingError`` with `file:line`, or the CLI's own when a description is missing).
public enum RecordingFile {
    /// The devices `selector` names in the recording at `path` (`-`: standard input; every device without a
    /// selector), their events read and skipped (`describe`), read as ``input(_:selector:description:)`` reads for
    /// a replay: a chunk at a time in `session`'s loop, within ``RecordingLimits``, so a FIFO, a pipe, `/dev/zero`
    /// or a file of any size costs a chunk of memory and every wait hears a stop (then the devices read so far).
    public static func devices(
        _ path: String,
        selector: String?,
        description: String? = nil,
        in session: Session
    ) throws -> [StreamedDevice] {
        let input = try input(path, selector: selector, description: description, devicesOnly: true)
        let source = DeviceListSource(input, loop: session.loop)
        try session.run(source)
        return source.devices
    }

    /// The recording at `path` (`-`: standard input) opened to be read as it arrives: a single-file recording, or
    /// bare evemu events with their description given by `description` or found beside a regular file. Nothing
    /// but the head of a regular file is read here (to tell bare events), and opening never blocks (a FIFO with no
    /// writer yet included).
    /// With `devicesOnly`, only ``RecordingInput/pullDevice()`` is wanted (`describe`): events are skipped unparsed
    /// where the format allows, and the choice needs no reading ahead.
    public static func input(
        _ path: String,
        selector: String?,
        description: String? = nil,
        devicesOnly: Bool = false
    ) throws -> RecordingInput {
        let file = try Runtime.current.files.openInput(path)
        var descriptionPath = description
        if descriptionPath == nil, path != "-", let head = file.peek(1 << 16), isBareEvents(head) {
            descriptionPath = try companionDescription(of: path)
        }
        guard let descriptionPath else {
            // A regular file is read ahead for its devices (another descriptor, nothing kept), so a device choice
            // that cannot be made is refused before anything is played; a pipe or a FIFO is read once, and such a
            // choice is refused where the recording shows it, after what came before.
            if devicesOnly { return RecordingInput(file, selector: selector, devicesOnly: true) }
            let scout = path != "-" && file.peek(0) != nil ? try Runtime.current.files.openInput(path) : nil
            return RecordingInput(file, selector: selector, scout: scout)
        }
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
    public static let maximumDescriptionSize = 1 << 20

    /// The bytes of a device description: a regular file of at most ``maximumDescriptionSize`` bytes, else refused
    /// at once (a FIFO would wait, `/dev/zero` would never end).
    public static func readDescription(_ path: String) throws -> [UInt8] {
        do {
            return try Runtime.current.files.readSmall(path, limit: maximumDescriptionSize)
        } catch let error as FileRefusal {
            throw CommandFailure("cannot read the device description: ", cause: error, ".")
        }
    }

    /// Whether the file's first line that is not blank or a comment is an `E:` line: events without a device.
    public static func isBareEvents(_ bytes: [UInt8]) -> Bool {
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
    public static func companionDescription(of path: String) throws -> String {
        var stem = path.hasSuffix(".events") ? String(path.dropLast(".events".count)) : path
        while true {
            let candidate = stem + ".desc"
            if Runtime.current.files.isReadableFile(candidate) {
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

/// The devices of a recording as a source in a session's loop (``RecordingFile/devices(_:selector:description:in:)``):
/// it plays nothing, and watches its input whenever nothing more has arrived.
final class DeviceListSource: FrameSource {
    private let input: RecordingInput
    private let loop: any EventLoop
    private var token: Int?
    private(set) var devices: [StreamedDevice] = []

    init(_ input: RecordingInput, loop: any EventLoop) {
        self.input = input
        self.loop = loop
    }

    func due() throws -> Due {
        while true {
            switch try input.pullDevice() {
            case .device(let device): devices.append(device)
            case .end: return .finished
            case .paused: return .within(0)
            case .waiting:
                // A new watch needs one more turn of the loop to be in its wait (as ``RecordingSource`` does).
                guard token == nil else { return .idle }
                token = loop.watchInput(input.fileDescriptor) { [unowned self] in
                    if let token = self.token { self.loop.unwatch(token) }
                    self.token = nil
                }
                return .within(0)
            }
        }
    }
}
