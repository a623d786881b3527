public import PlumometerCore

/// Reads recordings from text already in memory; callers do the file I/O.
///
/// The description is parsed completely before anything is returned (a replay needs the axis ranges up
/// front); the events are parsed lazily by each device's ``EventSource``.
public enum RecordingReader {
    /// Reads an evemu recording (description, optionally followed by events) or a `libinput record` YAML file;
    /// the format is detected from the content, not the name.
    ///
    /// - Parameters:
    ///   - text: The whole file.
    ///   - fileName: The name used in errors and as each device's `path`.
    /// - Returns: The recording, with lazily parsed events.
    /// - Throws: `RecordingError` for a malformed description (events throw later, from `next()`).
    public static func read(text: String, fileName: String) throws(RecordingError) -> Recording {
        try read(bytes: Array(text.utf8), fileName: fileName)
    }

    /// Reads a recording from raw bytes (so binary junk is reported, not reinterpreted by a decoder).
    public static func read(bytes: [UInt8], fileName: String) throws(RecordingError) -> Recording {
        switch detectFormat(bytes) {
        case .evemu: return try readEvemu(bytes: bytes, fileName: fileName)
        case .libinputRecord: return try readLibinputRecord(bytes: bytes, fileName: fileName)
        }
    }

    /// Reads an evemu `.desc` file and a separate `.events` file (the xorg-integration-tests layout).
    ///
    /// - Parameters:
    ///   - descriptionText: The description; it must not contain `E:` lines.
    ///   - eventsText: `E:` lines, comments and blank lines only.
    ///   - fileName: The description's name, used in its errors and as the device's `path`.
    ///   - eventsFileName: The events file's name for its errors (defaults to `fileName`).
    /// - Throws: `RecordingError` for a malformed description.
    public static func read(
        descriptionText: String,
        eventsText: String,
        fileName: String,
        eventsFileName: String? = nil
    ) throws(RecordingError) -> Recording {
        let bytes = Array(descriptionText.utf8)
        let result = try EvemuDescriptionReader.read(bytes: bytes, fileName: fileName)
        var rest = result.rest
        if let line = rest.next() {
            throw RecordingError(
                file: fileName,
                line: line.number,
                message: "the description file holds events; read it as a single recording, or remove the 'E:' lines"
            )
        }
        let events = EvemuEventScanner(
            scanner: LineScanner(bytes: Array(eventsText.utf8)),
            fileName: eventsFileName ?? fileName,
            description: result.description
        )
        let device = RecordedDevice(
            description: result.description,
            events: EventSource(backend: .evemu(events)),
            formatVersion: result.version?.text
        )
        return Recording(format: .evemu, devices: [device], fileName: fileName)
    }

    /// Reads only an evemu description (a `.desc` file, or the head of a recording), ignoring any events.
    public static func readDescription(text: String, fileName: String) throws(RecordingError) -> DeviceDescription {
        try EvemuDescriptionReader.read(bytes: Array(text.utf8), fileName: fileName).description
    }

    static func readEvemu(bytes: [UInt8], fileName: String) throws(RecordingError) -> Recording {
        let result = try EvemuDescriptionReader.read(bytes: bytes, fileName: fileName)
        let events = EvemuEventScanner(scanner: result.rest, fileName: fileName, description: result.description)
        let device = RecordedDevice(
            description: result.description,
            events: EventSource(backend: .evemu(events)),
            formatVersion: result.version?.text
        )
        return Recording(format: .evemu, devices: [device], fileName: fileName)
    }

    /// evemu lines start with an upper-case letter and a colon (`N:`, `E:`); YAML with a lower-case key.
    /// Comment lines say nothing, except libinput's own `# libinput record` header.
    static func detectFormat(_ bytes: [UInt8]) -> RecordingFormat {
        var scanner = LineScanner(bytes: bytes)
        while let line = scanner.next() {
            var start = line.range.lowerBound
            while start < line.range.upperBound, ASCII.isSpace(bytes[start]) { start += 1 }
            let range = start..<line.range.upperBound
            if range.isEmpty { continue }
            if bytes[start] == UInt8(ascii: "#") {
                if bytes.text(range).lowercased().hasPrefix("# libinput record") { return .libinputRecord }
                continue
            }
            let first = bytes[start]
            if first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") { return .libinputRecord }
            return .evemu
        }
        return .evemu
    }
}
