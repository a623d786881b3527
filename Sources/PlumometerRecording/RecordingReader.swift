public import PlumometerCore

/// Reads recordings from text already in memory; callers do the file I/O.
///
/// The same line readers as ``RecordingStream`` run over the complete text: the descriptions of every device
/// are parsed before anything is returned (a replay needs the axis ranges up front, and a multi-device file its
/// list), the events lazily by each device's ``EventSource``. A file that is not a recording is refused from its
/// first bytes, as by the stream.
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
        let bytes = withoutByteOrderMark(bytes)
        try sniff(bytes, fileName: fileName)
        try refuseForeign(bytes, fileName: fileName)
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
        let bytes = withoutByteOrderMark(Array(descriptionText.utf8))
        try sniff(bytes, fileName: fileName)
        try refuseForeign(bytes, fileName: fileName)
        let eventBytes = withoutByteOrderMark(Array(eventsText.utf8))
        if !eventBytes.isEmpty { try sniff(eventBytes, fileName: eventsFileName ?? fileName) }
        let result = try EvemuDescriptionReader.read(bytes: bytes, fileName: fileName)
        var rest = result.rest
        if let line = try rest.next() {
            throw RecordingError(
                file: fileName,
                line: line.number,
                message: "the description file holds events; read it as a single recording, or remove the 'E:' lines"
            )
        }
        let events = EvemuEventScanner(
            scanner: LineScanner(bytes: eventBytes),
            fileName: eventsFileName ?? fileName,
            description: result.description
        )
        let device = RecordedDevice(
            description: result.description,
            events: EventSource(backend: .evemu(events)),
            formatVersion: result.version?.text,
            warnings: result.warnings
        )
        return Recording(format: .evemu, devices: [device], fileName: fileName, warnings: result.warnings)
    }

    /// Reads only an evemu description (a `.desc` file, or the head of a recording), ignoring any events.
    public static func readDescription(text: String, fileName: String) throws(RecordingError) -> DeviceDescription {
        try EvemuDescriptionReader.read(bytes: Array(text.utf8), fileName: fileName).description
    }

    /// `bytes` without a UTF-8 byte order mark at the start (some editors write one; it is no part of the text).
    static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: LineScanner.byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes
    }

    /// Throws when the first line that says anything is another format's (hid-recorder) or plain text.
    static func refuseForeign(_ bytes: [UInt8], fileName: String) throws(RecordingError) {
        var scanner = LineScanner(bytes: bytes)
        var looked = 0
        while looked < RecordingSniffer.lookahead, let line = try? scanner.next() {
            looked = line.range.upperBound
            if let error = RecordingSniffer.foreign(line, in: bytes, fileName: fileName) { throw error }
            if format(of: line, in: bytes) != nil { return }
        }
    }

    /// Throws the ``RecordingSniffer``'s error when `bytes` are not a recording.
    static func sniff(_ bytes: [UInt8], fileName: String) throws(RecordingError) {
        if case .reject(let error) = RecordingSniffer.check(bytes[...], isComplete: true, fileName: fileName) {
            throw error
        }
    }

    static func readEvemu(bytes: [UInt8], fileName: String) throws(RecordingError) -> Recording {
        let result = try EvemuDescriptionReader.read(bytes: bytes, fileName: fileName)
        let events = EvemuEventScanner(scanner: result.rest, fileName: fileName, description: result.description)
        let device = RecordedDevice(
            description: result.description,
            events: EventSource(backend: .evemu(events)),
            formatVersion: result.version?.text,
            warnings: result.warnings
        )
        return Recording(format: .evemu, devices: [device], fileName: fileName, warnings: result.warnings)
    }

    /// Follows the document with ``LibinputRecordOutline`` (descriptions parsed, events skipped), then gives each
    /// device a lazy source that starts at its `events` block.
    static func readLibinputRecord(bytes: [UInt8], fileName: String) throws(RecordingError) -> Recording {
        var scanner = LineScanner(bytes: bytes)
        scanner.fileName = fileName
        var outline = LibinputRecordOutline(fileName: fileName, mode: .outline)
        var starts: [Int: (scanner: LineScanner, parentIndent: Int)] = [:]
        var unused: [RecordingStreamItem] = []
        while let line = try scanner.next() {
            try outline.consume(line, in: bytes, output: &unused)
            if let began = outline.eventsBegan { starts[began.device] = (scanner, began.parentIndent) }
        }
        let devices = try outline.finish(output: &unused).map { device in
            var events = EventSource(events: [])
            if let start = starts[device.index] {
                let parser = LibinputEventsParser(
                    parentIndent: start.parentIndent,
                    interpreter: outline.interpreter,
                    description: device.description
                )
                events = EventSource(backend: .libinput(LibinputEventCursor(scanner: start.scanner, parser: parser)))
            }
            return RecordedDevice(
                description: device.description,
                events: events,
                node: device.node,
                formatVersion: device.formatVersion
            )
        }
        return Recording(format: .libinputRecord, devices: devices, fileName: fileName)
    }

    /// evemu lines start with an upper-case letter and a colon (`N:`, `E:`); YAML with a lower-case key.
    /// Comment lines say nothing, except libinput's own `# libinput record` header.
    static func detectFormat(_ bytes: [UInt8]) -> RecordingFormat {
        var scanner = LineScanner(bytes: bytes)
        while let line = try? scanner.next() {
            if let format = format(of: line, in: bytes) { return format }
        }
        return .evemu
    }

    /// The format `line` shows, or nil for a blank or comment line that says nothing.
    static func format(of line: TextLine, in bytes: [UInt8]) -> RecordingFormat? {
        var start = line.range.lowerBound
        while start < line.range.upperBound, ASCII.isSpace(bytes[start]) { start += 1 }
        let range = start..<line.range.upperBound
        if range.isEmpty { return nil }
        if bytes[start] == UInt8(ascii: "#") {
            return bytes.text(range).lowercased().hasPrefix("# libinput record") ? .libinputRecord : nil
        }
        let first = bytes[start]
        return first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") ? .libinputRecord : .evemu
    }
}
