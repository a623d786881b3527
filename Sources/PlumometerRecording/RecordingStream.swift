public import PlumometerCore

/// A device of a recording read as a stream, announced before its events.
public struct StreamedDevice: Sendable {
    /// Its position among the recording's devices (0 for an evemu file).
    public var index: Int
    /// Its description, which drives normalisation exactly like a live device.
    public var description: DeviceDescription
    /// The device node it was recorded from, when the format says (`libinput record` does, evemu does not).
    public var node: String?
    /// The format version the file declared: `1.3` for `# EVEMU 1.3`, `1` for `version: 1`; nil when absent.
    public var formatVersion: String?
    /// What the reader accepted in this device's description but a user should hear about (print on stderr).
    public var warnings: [RecordingWarning]

    public init(
        index: Int = 0,
        description: DeviceDescription,
        node: String? = nil,
        formatVersion: String? = nil,
        warnings: [RecordingWarning] = []
    ) {
        self.index = index
        self.description = description
        self.node = node
        self.formatVersion = formatVersion
        self.warnings = warnings
    }
}

/// What a ``RecordingStream`` yields: a device, then the events recorded from it.
public enum RecordingStreamItem: Sendable {
    /// A device's description; the events that follow (until the next device) are its own.
    case device(StreamedDevice)
    /// One event and the line it was read from.
    case event(RawEvent, line: Int)
}

/// Reads a recording from bytes fed as they arrive (a pipe, a FIFO, a file read in chunks): nothing in it
/// blocks or reads, so a caller can poll its descriptor, hear signals between reads, and feed what it got.
///
/// ```swift
/// var stream = RecordingStream(fileName: "-")
/// while let chunk = readSomeBytes() {      // the caller's I/O
///     stream.feed(chunk)
///     while let item = try stream.next() { use(item) }
/// }
/// stream.finish()
/// while let item = try stream.next() { use(item) }
/// ```
///
/// Each event is yielded as soon as its line has arrived, so a live `evemu-record` or `libinput record` piped
/// in plays as it happens. An evemu device is yielded with its first `E:` line (an evemu description has no end
/// marker: `L:` and `S:` lines may follow the axes), a `libinput record` device when its `events:` key arrives. Memory is bounded by the longest line (at most 1 MiB by default, an error beyond)
/// plus the device description; lines already read are dropped on the next ``feed(_:)``. A file that is not a
/// recording is refused from its first bytes (``RecordingSniffer``). The format is detected from the content:
/// evemu (description and events; or bare `E:` lines with ``init(eventsFileName:description:)``) or the YAML of
/// `libinput record`. After an error, or the end, ``next()`` returns nil.
public struct RecordingStream: Sendable {
    /// The name used in errors and as the devices' `path`.
    public let fileName: String
    private var scanner: LineScanner
    private var phase: Phase
    private var output: [RecordingStreamItem] = []
    private var outputIndex = 0
    /// An error found after items that must be taken first.
    private var pendingError: RecordingError?
    /// The bytes held at the last look at the start of the input (while the format is not known yet).
    private var sniffedByteCount = -1
    /// What the reader accepted but a user should hear about, in the order found (print each on stderr).
    public private(set) var warnings: [RecordingWarning] = []
    /// The format, once the first significant line has arrived.
    public private(set) var format: RecordingFormat?
    /// Whether a `libinput record` file's events are skipped by their indentation, unparsed, and its devices given
    /// at the end (``init(fileName:maximumLineLength:skippingEvents:)``).
    private var skippingEvents = false

    private enum Phase: Sendable {
        case sniffing(bareEvents: DeviceDescription?)
        case evemuDescription(EvemuDescriptionReader)
        case evemuEvents(EvemuEventParser)
        case libinput(LibinputRecordOutline)
        case ended
    }

    /// A stream for a whole recording in either format.
    ///
    /// - Parameters:
    ///   - fileName: The name used in errors (`-` or a path).
    ///   - maximumLineLength: The longest line accepted, in bytes.
    ///   - skippingEvents: For the devices alone (`describe`, a device choice settled before a replay): a
    ///     `libinput record` file's events are skipped by their indentation, without being parsed (several times
    ///     faster), and its devices are given at its end. An evemu file is read as without it.
    public init(fileName: String, maximumLineLength: Int = 1 << 20, skippingEvents: Bool = false) {
        self.fileName = fileName
        self.scanner = LineScanner(streamingWithLimit: maximumLineLength, fileName: fileName)
        self.phase = .sniffing(bareEvents: nil)
        self.skippingEvents = skippingEvents
    }

    /// A stream for a bare evemu events file (`E:` lines only) of a device described separately (a `.desc`).
    public init(eventsFileName: String, description: DeviceDescription, maximumLineLength: Int = 1 << 20) {
        self.fileName = eventsFileName
        self.scanner = LineScanner(streamingWithLimit: maximumLineLength, fileName: eventsFileName)
        self.phase = .sniffing(bareEvents: description)
    }

    /// The bytes held: the part of the input not read yet, and the description kept while it is read.
    public var bufferedByteCount: Int {
        var count = scanner.bufferedByteCount
        if case .libinput(let outline) = phase { count += outline.bufferedByteCount }
        return count
    }

    /// Whether the stream has ended: ``finish()`` was called and every item was taken, or an error was thrown.
    public var isAtEnd: Bool {
        if case .ended = phase { return outputIndex >= output.count && pendingError == nil }
        return false
    }

    /// Adds bytes that arrived; take what they complete with ``next()``. Not after ``finish()``.
    public mutating func feed<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if case .ended = phase { return }
        scanner.append(bytes)
    }

    /// Marks the end of the input (EOF): a last line without a newline is read now.
    public mutating func finish() {
        if case .ended = phase { return }
        scanner.finish()
    }

    /// The next device or event, or nil when the bytes fed so far hold no more (feed more, or ``finish()``)
    /// and at the end.
    ///
    /// - Throws: `RecordingError` for what is not a recording or a malformed line; everything before it has been
    ///   yielded, and the stream is ended afterwards.
    public mutating func next() throws(RecordingError) -> RecordingStreamItem? {
        if outputIndex < output.count {
            defer { outputIndex += 1 }
            return output[outputIndex]
        }
        if let error = pendingError {
            pendingError = nil
            throw error
        }
        output.removeAll(keepingCapacity: true)
        outputIndex = 0
        do {
            while output.isEmpty {
                guard try step() else { break }
            }
        } catch {
            phase = .ended
            // What the failing line completed before its error (the end of an entry read whole) comes first.
            guard output.isEmpty else {
                pendingError = error
                outputIndex = 1
                return output[0]
            }
            throw error
        }
        guard !output.isEmpty else { return nil }
        outputIndex = 1
        return output[0]
    }

    /// Reads what one line (or the end) gives; false when more input is needed or the stream has ended.
    private mutating func step() throws(RecordingError) -> Bool {
        switch phase {
        case .ended:
            return false
        case .sniffing(let bareEvents):
            // Nothing new since the last look: the verdict is the same.
            if scanner.bufferedByteCount == sniffedByteCount, !scanner.isComplete { return false }
            sniffedByteCount = scanner.bufferedByteCount
            // A byte order mark first (what some editors write) is no part of the recording.
            let start = scanner.bytes[scanner.position...]
            if !scanner.isComplete, start.count < 3, LineScanner.byteOrderMark.starts(with: start) { return false }
            scanner.skipByteOrderMark()
            let pending = scanner.bytes[scanner.position...]
            switch RecordingSniffer.check(pending, isComplete: scanner.isComplete, fileName: fileName) {
            case .needMore: return false
            case .reject(let error): throw error
            case .text: break
            }
            if let bareEvents {
                format = .evemu
                output.append(.device(StreamedDevice(description: bareEvents)))
                phase = .evemuEvents(EvemuEventParser(fileName: fileName, description: bareEvents))
                return true
            }
            guard let detected = try detectFormat() else { return false }
            format = detected
            switch detected {
            case .evemu: phase = .evemuDescription(EvemuDescriptionReader(fileName: fileName))
            case .libinputRecord:
                phase = .libinput(LibinputRecordOutline(fileName: fileName, mode: skippingEvents ? .outline : .stream))
            }
            return true
        case .evemuDescription(var reader):
            phase = .ended  // the reader is mutated alone, not as a copy shared with `phase`
            guard let line = try scanner.next() else {
                guard scanner.isAtEnd else {
                    phase = .evemuDescription(reader)
                    return false
                }
                try announce(&reader)
                phase = .ended
                return true
            }
            if try reader.consume(line, in: scanner.bytes) {
                phase = .evemuDescription(reader)
                return true
            }
            let parser = try announce(&reader)
            phase = .evemuEvents(parser)
            if let event = try parser.event(line, in: scanner.bytes) { output.append(.event(event, line: line.number)) }
            return true
        case .evemuEvents(let parser):
            guard let line = try scanner.next() else {
                if scanner.isAtEnd { phase = .ended }
                return false
            }
            if let event = try parser.event(line, in: scanner.bytes) { output.append(.event(event, line: line.number)) }
            return true
        case .libinput(var outline):
            phase = .ended  // the outline is mutated alone, not as a copy shared with `phase`
            guard let line = try scanner.next() else {
                guard scanner.isAtEnd else {
                    phase = .libinput(outline)
                    return false
                }
                _ = try outline.finish(output: &output)
                phase = .ended
                return true
            }
            try outline.consume(line, in: scanner.bytes, output: &output)
            phase = .libinput(outline)
            return true
        }
    }

    /// Ends an evemu description: yields its device and keeps its warnings.
    @discardableResult
    private mutating func announce(_ reader: inout EvemuDescriptionReader) throws(RecordingError) -> EvemuEventParser {
        let description = try reader.finish()
        warnings += reader.warnings
        output.append(
            .device(
                StreamedDevice(description: description, formatVersion: reader.version?.text, warnings: reader.warnings)
            )
        )
        return EvemuEventParser(fileName: fileName, description: description)
    }

    /// The format from the first significant line, looking ahead without consuming; nil until it has arrived.
    private func detectFormat() throws(RecordingError) -> RecordingFormat? {
        var look = scanner
        while true {
            // An overlong line (an error) is the evemu reader's to report.
            guard let line = try? look.next() else {
                if look.isAtEnd || scanner.bufferedByteCount >= RecordingSniffer.lookahead { return .evemu }
                return nil
            }
            if let error = RecordingSniffer.foreign(line, in: look.bytes, fileName: fileName) { throw error }
            if let format = RecordingReader.format(of: line, in: look.bytes) { return format }
        }
    }
}
