import PlumometerCore

/// Reads one device's `events` block of a `libinput record` file line by line, so that a live `libinput record`
/// piped in gives each event as soon as its line arrives.
///
/// `libinput record` writes one list item per kernel frame, `- evdev:` followed by one `- [sec, usec, type,
/// code, value]` line per event, the frame's `SYN_REPORT` last. Those lines are read one by one (an entry may
/// also spread over several lines until its brackets close). Every other item (`- libinput:`, `- hid:`, or an
/// `evdev` list written inline) is gathered whole, at most ``maximumEntryLength`` bytes, and parsed by
/// ``YAMLParser`` when the next item begins: it yields its events then. The block ends at the first line that
/// is neither an item of the list nor deeper than it (the device's next key, or the next device).
struct LibinputEventsParser: Sendable {
    /// The largest entry: a non-`evdev` one (a `- libinput:` or `- hid:` item) kept while it is read, or a `- evdev:`
    /// item read line by line.
    static let maximumEntryLength = 1 << 20
    /// The levels of nesting around an item's keys: the document, `devices`, the device, `events`, the item.
    static let itemDepth = 5

    let parentIndent: Int
    let interpreter: LibinputRecordInterpreter
    let validator: EventValidator
    private var itemIndent: Int?
    private var item = Item.none
    /// The lines of an item gathered (``Item/whole``, ``Item/evdevRest``). Kept here, not in ``Item``: a buffer in
    /// an enum's payload is copied by every change (the enum still holds it), which made an entry's reading
    /// quadratic in its size (1 MB: 9 s).
    private var lines = LineScanner(bytes: [])
    /// The entry of an `evdev` list spread over several lines, until its brackets close (kept here for the same
    /// reason).
    private var pending: PendingFrame?
    /// The bytes of the current `- evdev:` item read line by line, for the entry limit (at 16 bytes or more an
    /// event, it also keeps the item under ``RecordingLimits/maximumListLength`` events).
    private var evdevBytes = 0

    private enum Item: Sendable {
        case none
        /// A `- evdev:` item; `key` is the line of `evdev:`, `keyIndent` its column.
        case evdev(key: Int, keyIndent: Int, listIndent: Int?)
        /// The keys after a `- evdev:` item's list (`libinput:` with `--with-libinput`), gathered in ``lines``.
        case evdevRest(key: Int, keyIndent: Int)
        /// Any other item, gathered whole in ``lines``.
        case whole
    }

    private struct PendingFrame: Sendable {
        var text: [UInt8]
        var line: Int
        var indent: Int
        var brackets: BracketState
    }

    init(parentIndent: Int, interpreter: LibinputRecordInterpreter, description: DeviceDescription) {
        self.parentIndent = parentIndent
        self.interpreter = interpreter
        self.validator = EventValidator(description)
    }

    /// The bytes held for an entry not read yet.
    var bufferedByteCount: Int {
        switch item {
        case .whole, .evdevRest: lines.bufferedByteCount
        case .evdev: pending?.text.count ?? 0
        default: 0
        }
    }

    /// Reads one line of the block and appends the events it completes to `events`.
    ///
    /// - Returns: false when the line is not part of the block (it ended before it); the line is not consumed
    ///   and the block is finished.
    /// - Throws: `RecordingError` for a malformed entry or an event the description does not allow.
    mutating func consume(
        _ raw: TextLine,
        in bytes: [UInt8],
        events: inout [(RawEvent, Int)]
    ) throws(RecordingError) -> Bool {
        guard let line = try YAMLParser.significantLine(raw, in: bytes, fileName: interpreter.fileName) else {
            switch item {
            case .whole, .evdevRest: try append(raw, in: bytes)
            case .evdev, .none: break
            }
            return true
        }
        let isItem = YAMLParser.isSequenceItem(line, in: bytes)
        let indent = itemIndent ?? line.indent
        itemIndent = indent
        if line.indent < indent || line.indent <= parentIndent && !isItem {
            try finish(events: &events)
            return false
        }
        if line.indent == indent {
            guard isItem else {
                throw interpreter.fail(
                    line.number,
                    "'events' must be a list of '- evdev:' frames: expected a '- ' item at \(indent) spaces, "
                        + "found '\(bytes.quoted(line.content, limit: 20))' at \(line.indent)"
                )
            }
            try finishItem(events: &events)
            var start = line.content.lowerBound + 1
            while start < line.content.upperBound, bytes[start] == UInt8(ascii: " ") { start += 1 }
            if bytes[start..<line.content.upperBound].elementsEqual("evdev:".utf8) {
                item = .evdev(
                    key: line.number,
                    keyIndent: line.indent + start - line.content.lowerBound,
                    listIndent: nil
                )
                pending = nil
                evdevBytes = 0
            } else {
                lines = LineScanner(bytes: [])
                try append(raw, in: bytes)
                item = .whole
            }
            return true
        }
        switch item {
        case .none:
            preconditionFailure("a line deeper than the list before its first item")
        case .whole, .evdevRest:
            try append(raw, in: bytes)
        case .evdev(let key, let keyIndent, let listIndent) where line.indent == keyIndent && !isItem:
            if listIndent == nil {
                throw interpreter.fail(key, "'evdev' must be a list of [sec, usec, type, code, value], found nothing")
            }
            lines = LineScanner(bytes: [])
            try append(raw, in: bytes)
            item = .evdevRest(key: key, keyIndent: keyIndent)
        case .evdev(let key, let keyIndent, let listIndent):
            // The entry's limit, as for an item gathered whole (a real frame holds a few hundred bytes; the limit is
            // far above what the kernel's event buffer lets one frame hold).
            evdevBytes += raw.range.count + 1
            if evdevBytes > Self.maximumEntryLength {
                throw interpreter.fail(key, "an entry of 'events' longer than 1 MiB")
            }
            if var frame = pending {
                pending = nil  // `frame` alone holds the text while it grows
                let content = bytes[line.content]
                if line.indent <= frame.indent, content.first != UInt8(ascii: "]"), content.first != UInt8(ascii: "}") {
                    throw interpreter.fail(frame.line, "unclosed '[' before line \(line.number)")
                }
                frame.text.append(UInt8(ascii: " "))
                frame.text.append(contentsOf: content)
                frame.brackets.scan(content)
                pending = frame
            } else {
                guard isItem else {
                    if listIndent == nil {
                        throw interpreter.fail(
                            key,
                            "'evdev' must be a list of [sec, usec, type, code, value], "
                                + "found '\(bytes.quoted(line.content, limit: 20))'"
                        )
                    }
                    throw interpreter.fail(
                        line.number,
                        "expected a '- [sec, usec, type, code, value]' entry of the 'evdev' list, "
                            + "found '\(bytes.quoted(line.content, limit: 20))'"
                    )
                }
                let expected = listIndent ?? line.indent
                guard line.indent == expected, line.indent >= keyIndent else {
                    throw interpreter.fail(
                        line.number,
                        "bad indentation: \(line.indent) spaces inside a list indented by \(expected)"
                    )
                }
                var start = line.content.lowerBound + 1
                while start < line.content.upperBound, bytes[start] == UInt8(ascii: " ") { start += 1 }
                let content = bytes[start..<line.content.upperBound]
                var brackets = BracketState()
                brackets.scan(content)
                pending = PendingFrame(text: Array(content), line: line.number, indent: line.indent, brackets: brackets)
            }
            if let frame = pending, frame.brackets.depth <= 0 {
                pending = nil
                events.append((try event(frame), frame.line))
            }
            item = .evdev(key: key, keyIndent: keyIndent, listIndent: listIndent ?? line.indent)
        }
        return true
    }

    /// Ends the block (at the end of the input, or at the line after it), reading the last entry.
    mutating func finish(events: inout [(RawEvent, Int)]) throws(RecordingError) {
        try finishItem(events: &events)
    }

    private mutating func finishItem(events: inout [(RawEvent, Int)]) throws(RecordingError) {
        let current = item
        item = .none
        switch current {
        case .none:
            break
        case .evdev(let key, _, let listIndent):
            if let pending {
                throw interpreter.fail(pending.line, "unclosed '[': the list ends inside it")
            }
            if listIndent == nil {
                throw interpreter.fail(key, "'evdev' must be a list of [sec, usec, type, code, value], found nothing")
            }
        case .evdevRest(let key, let keyIndent):
            var parser = YAMLParser(scanner: lines, fileName: interpreter.fileName, depth: Self.itemDepth)
            let rest = try parser.parseMapping(indent: keyIndent, inlineFirst: nil)
            if let extra = try parser.peek() {
                throw interpreter.fail(
                    extra.number,
                    "bad indentation: \(extra.indent) spaces where a key at \(keyIndent) was expected"
                )
            }
            if let duplicate = rest["evdev"] {
                throw interpreter.fail(duplicate.line, "duplicate key 'evdev' (first on line \(key))")
            }
        case .whole:
            try readWhole(lines, events: &events)
        }
        lines = LineScanner(bytes: [])
        pending = nil
    }

    private mutating func append(_ raw: TextLine, in bytes: [UInt8]) throws(RecordingError) {
        lines.appendLine(bytes[raw.range], number: raw.number)
        if lines.bufferedByteCount > Self.maximumEntryLength {
            throw interpreter.fail(raw.number, "an entry of 'events' longer than 1 MiB")
        }
    }

    /// One frame entry: a flow list on one or more lines, or a scalar (an error the interpreter words).
    private func event(_ frame: PendingFrame) throws(RecordingError) -> RawEvent {
        var flow = FlowParser(
            bytes: frame.text,
            line: frame.line,
            fileName: interpreter.fileName,
            depth: Self.itemDepth + 1
        )
        let node: YAMLNode
        if frame.text.first == UInt8(ascii: "[") || frame.text.first == UInt8(ascii: "{") {
            node = try flow.parseValue()
            flow.skipSpaces()
            if flow.index < frame.text.count {
                throw interpreter.fail(
                    frame.line,
                    "unexpected text '\(frame.text.quoted(flow.index..<frame.text.count))' after a closed '['"
                )
            }
        } else {
            node = YAMLNode(value: .scalar(frame.text.text(0..<frame.text.count), quoted: false), line: frame.line)
        }
        return try interpreter.event(fromFrame: node, validator: validator)
    }

    /// An item gathered whole: parsed as YAML; its `evdev` lists give events, other keys are only checked.
    private func readWhole(_ lines: LineScanner, events: inout [(RawEvent, Int)]) throws(RecordingError) {
        var parser = YAMLParser(scanner: lines, fileName: interpreter.fileName, depth: Self.itemDepth - 1)
        guard let first = try parser.peek() else { return }
        let item = try parser.parseSequence(indentOneItem: first.indent)
        if let extra = try parser.peek() {
            throw interpreter.fail(
                extra.number,
                "'events' must be a list of '- evdev:' frames: expected a '- ' item at \(first.indent) spaces, "
                    + "found '\(parser.bytes.quoted(extra.content, limit: 20))' at \(extra.indent)"
            )
        }
        guard case .mapping(let entries) = item.value else {
            throw interpreter.fail(
                item.line,
                "each item of 'events' must be a mapping such as 'evdev: [...]', found \(item.kind)"
            )
        }
        for (key, value) in entries where key == "evdev" {
            guard case .sequence(let frames) = value.value else {
                throw interpreter.fail(
                    value.line,
                    "'evdev' must be a list of [sec, usec, type, code, value], found \(value.kind)"
                )
            }
            for frame in frames {
                events.append((try interpreter.event(fromFrame: frame, validator: validator), frame.line))
            }
        }
    }
}
