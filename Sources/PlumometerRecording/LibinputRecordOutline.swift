import PlumometerCore

/// Follows a `libinput record` document line by line, keeping everything but the `events` blocks.
///
/// The kept lines (the skeleton: header, and each device's `node`, `evdev`, `hid`, `udev`, `quirks`) keep their
/// line numbers and are parsed with ``YAMLParser`` when a device's `events:` key arrives, so the device is
/// described before its first event; its events are then read by ``LibinputEventsParser`` as their lines
/// arrive. Memory is bounded by the skeleton (at most ``maximumSkeletonLength``) plus one event entry. The
/// whole skeleton is parsed again at the end, which checks `ndevices` and reports devices without events.
///
/// What this asks of a file, beyond YAML: `version` comes before `devices`, and a device's `evdev` before its
/// `events`, as `libinput record` writes them.
///
/// In ``Mode/outline`` the `events` blocks are only skipped (their lines are checked later, by a lazy
/// ``EventSource``) and ``eventsBegan`` says where each one starts: that is how ``RecordingReader`` reads a
/// complete text.
struct LibinputRecordOutline: Sendable {
    enum Mode: Sendable {
        /// Parse every event as its line arrives.
        case stream
        /// Skip the events, report where each block begins.
        case outline
    }

    /// The largest skeleton kept: real descriptions (with a HID report descriptor and udev properties) are
    /// tens of kilobytes.
    static let maximumSkeletonLength = 16 << 20

    let interpreter: LibinputRecordInterpreter
    let mode: Mode
    private var skeleton = LineScanner(bytes: [])
    private var topKey: [UInt8] = []
    private var devicesIndent: Int?
    private var deviceKeyIndent: Int?
    private var deviceCount = 0
    private var emitted = 0
    private var events: LibinputEventsParser?
    private var skipping: (parent: Int, item: Int?)?
    /// After ``consume(_:in:output:)`` in ``Mode/outline``: the device whose `events` block starts at the next
    /// line, and the indentation of its keys.
    private(set) var eventsBegan: (device: Int, parentIndent: Int)?

    init(fileName: String, mode: Mode) {
        self.interpreter = LibinputRecordInterpreter(fileName: fileName)
        self.mode = mode
    }

    /// The bytes held: the skeleton and the event entry being read.
    var bufferedByteCount: Int { skeleton.bufferedByteCount + (events?.bufferedByteCount ?? 0) }

    /// Reads one line; devices and events it completes are appended to `output`.
    mutating func consume(
        _ raw: TextLine,
        in bytes: [UInt8],
        output: inout [RecordingStreamItem]
    ) throws(RecordingError) {
        eventsBegan = nil
        if var parser = events {
            // The parser is changed alone, not as a copy of `events`: a copy shared its entry's buffer, and each
            // line copied the whole entry (quadratic: a 1 MB entry took 9 s).
            events = nil
            var produced: [(RawEvent, Int)] = []
            // Also when the line throws: the events before its error come first.
            defer { for (event, line) in produced { output.append(.event(event, line: line)) } }
            let inBlock = try parser.consume(raw, in: bytes, events: &produced)
            if inBlock {
                events = parser
                return
            }
            events = nil
        }
        if let skip = skipping {
            guard let (indent, isItem) = YAMLParser.outline(raw, in: bytes) else { return }
            let item = skip.item ?? indent
            if !(indent < item || indent <= skip.parent && !isItem) {
                skipping = (skip.parent, item)
                return
            }
            skipping = nil
        }
        guard skeleton.bufferedByteCount + raw.range.count < Self.maximumSkeletonLength else {
            throw interpreter.fail(
                raw.number,
                "the recording's description (everything but its events) is larger than "
                    + "\(Self.maximumSkeletonLength >> 20) MiB"
            )
        }
        skeleton.appendLine(bytes[raw.range], number: raw.number)
        guard let (indent, isItem) = YAMLParser.outline(raw, in: bytes) else { return }
        let start = raw.range.lowerBound + indent
        if indent == 0, !isItem {
            let colon = bytes[start..<raw.range.upperBound].firstIndex(of: UInt8(ascii: ":")) ?? raw.range.upperBound
            topKey = Array(bytes[start..<colon])
            devicesIndent = nil
            deviceKeyIndent = nil
            return
        }
        guard topKey.elementsEqual("devices".utf8) else { return }
        if isItem, devicesIndent == nil || devicesIndent == indent {
            devicesIndent = indent
            deviceCount += 1
            guard deviceCount <= RecordingLimits.maximumDeviceCount else {
                throw interpreter.fail(raw.number, LibinputRecordInterpreter.deviceCountMessage)
            }
            var key = start + 1
            while key < raw.range.upperBound, bytes[key] == UInt8(ascii: " ") { key += 1 }
            deviceKeyIndent = key - raw.range.lowerBound
            if Self.isBareEventsKey(bytes, key..<raw.range.upperBound) { try beginEvents(output: &output) }
        } else if !isItem, indent == deviceKeyIndent, Self.isBareEventsKey(bytes, start..<raw.range.upperBound) {
            try beginEvents(output: &output)
        }
    }

    /// Ends the document: reads the last event entry, parses the whole skeleton (checking `ndevices`) and
    /// appends the devices not reported yet (those without events).
    ///
    /// - Returns: Every device of the document.
    mutating func finish(output: inout [RecordingStreamItem]) throws(RecordingError) -> [StreamedDevice] {
        if var parser = events {
            // The parser is changed alone, not as a copy of `events`: a copy shared its entry's buffer, and each
            // line copied the whole entry (quadratic: a 1 MB entry took 9 s).
            events = nil
            var produced: [(RawEvent, Int)] = []
            defer { for (event, line) in produced { output.append(.event(event, line: line)) } }
            events = nil
            try parser.finish(events: &produced)
        }
        let devices = try parseSkeleton(partial: false)
        emit(devices, output: &output)
        return devices
    }

    private mutating func beginEvents(output: inout [RecordingStreamItem]) throws(RecordingError) {
        guard let parent = deviceKeyIndent else { return }
        switch mode {
        case .outline:
            skipping = (parent, nil)
            eventsBegan = (deviceCount - 1, parent)
        case .stream:
            let devices = try parseSkeleton(partial: true)
            emit(devices, output: &output)
            guard let device = devices.last else { return }
            events = LibinputEventsParser(
                parentIndent: parent,
                interpreter: interpreter,
                description: device.description
            )
        }
    }

    private mutating func emit(_ devices: [StreamedDevice], output: inout [RecordingStreamItem]) {
        while emitted < devices.count {
            output.append(.device(devices[emitted]))
            emitted += 1
        }
    }

    private func parseSkeleton(partial: Bool) throws(RecordingError) -> [StreamedDevice] {
        var parser = YAMLParser(scanner: skeleton, fileName: interpreter.fileName)
        let document = try parser.parseDocument()
        var devices: [StreamedDevice] = []
        for (index, node) in try interpreter.deviceNodes(document, partial: partial).enumerated() {
            var device = try interpreter.device(node)
            device.index = index
            devices.append(device)
        }
        return devices
    }

    /// Whether `range` is `events:` alone (maybe followed by a comment): a block of events follows.
    private static func isBareEventsKey(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        guard bytes.hasPrefix("events:", in: range) else { return false }
        var index = range.lowerBound + 7
        while index < range.upperBound, ASCII.isSpace(bytes[index]) { index += 1 }
        return index == range.upperBound || bytes[index] == UInt8(ascii: "#")
    }
}
