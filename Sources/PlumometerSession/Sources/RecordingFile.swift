import PlumometerCore
public import PlumometerRecording

/// Recordings on disk: read, parsed, one device picked, every failure a sentence naming the file (a
/// ``RecordingError`` with `file:line`, or the CLI's own when a description is missing).
public enum RecordingFile {
    /// The recording at `path` read whole, with every device it describes (`describe`: descriptions, not a replay): a single-file recording, or a bare evemu events file
    /// with its description given by `description` or found beside it.
    public static func recording(_ path: String, description: String? = nil) throws -> Recording {
        let bytes = try Runtime.current.files.read(path)
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
    public static func input(_ path: String, selector: String?, description: String? = nil) throws -> RecordingInput {
        let file = try Runtime.current.files.openInput(path)
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
    public static let maximumDescriptionSize = 1 << 20

    /// The bytes of a device description: a regular file of at most ``maximumDescriptionSize`` bytes, else refused
    /// at once (a FIFO would wait, `/dev/zero` would never end).
    public static func readDescription(_ path: String) throws -> [UInt8] {
        do {
            return try Runtime.current.files.readSmall(path, limit: maximumDescriptionSize)
        } catch let error as FileRefusal {
            throw CLIError.runtime("cannot read the device description: \(error.description).")
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
