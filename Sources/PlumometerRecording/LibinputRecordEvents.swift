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
    /// The largest non-`evdev` entry (a `- libinput:` or `- hid:` item) kept while it is read.
    static let maximumEntryLength = 1 << 20
    /// The levels of nesting around an item's keys: the document, `devices`, the device, `events`, the item.
    static let itemDepth = 5

    let parentIndent: Int
    let interpreter: LibinputRecordInterpreter
    let validator: EventValidator
    private var itemIndent: Int?
    private var item = Item.none

    private enum Item: Sendable {
        case none
        /// A `- evdev:` item; `key` is the line of `evdev:`, `keyIndent` its column.
        case evdev(key: Int, keyIndent: Int, listIndent: Int?, pending: PendingFrame?)
        /// The keys after a `- evdev:` item's list (`libinput:` with `--with-libinput`), gathered to be checked.
        case evdevRest(key: Int, keyIndent: Int, lines: LineScanner)
        /// Any other item, gathered whole.
        case whole(LineScanner)
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
        case .whole(let lines), .evdevRest(_, _, let lines): lines.bufferedByteCount
        case .evdev(_, _, _, let pending?): pending.text.count
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
            if case .whole(var lines) = item {
                try append(raw, in: bytes, to: &lines)
                item = .whole(lines)
            } else if case .evdevRest(let key, let keyIndent, var lines) = item {
                try append(raw, in: bytes, to: &lines)
                item = .evdevRest(key: key, keyIndent: keyIndent, lines: lines)
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
                    listIndent: nil,
                    pending: nil
                )
            } else {
                var lines = LineScanner(bytes: [])
                try append(raw, in: bytes, to: &lines)
                item = .whole(lines)
            }
            return true
        }
        switch item {
        case .none:
            preconditionFailure("a line deeper than the list before its first item")
        case .whole(var lines):
            try append(raw, in: bytes, to: &lines)
            item = .whole(lines)
        case .evdevRest(let key, let keyIndent, var lines):
            try append(raw, in: bytes, to: &lines)
            item = .evdevRest(key: key, keyIndent: keyIndent, lines: lines)
        case .evdev(let key, let keyIndent, let listIndent, _) where line.indent == keyIndent && !isItem:
            if listIndent == nil {
                throw interpreter.fail(key, "'evdev' must be a list of [sec, usec, type, code, value], found nothing")
            }
            var lines = LineScanner(bytes: [])
            try append(raw, in: bytes, to: &lines)
            item = .evdevRest(key: key, keyIndent: keyIndent, lines: lines)
        case .evdev(let key, let keyIndent, let listIndent, var pending):
            if var frame = pending {
                let content = bytes[line.content]
                if line.indent <= frame.indent, content.first != UInt8(ascii: "]"), content.first != UInt8(ascii: "}") {
                    throw interpreter.fail(frame.line, "unclosed '[' before line \(line.number)")
                }
                frame.text.append(UInt8(ascii: " "))
                frame.text.append(contentsOf: content)
                frame.brackets.scan(content)
                if frame.text.count > Self.maximumEntryLength {
                    throw interpreter.fail(frame.line, "an event entry longer than 1 MiB: its brackets never close")
                }
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
                events.append((try event(frame), frame.line))
                pending = nil
            }
            item = .evdev(key: key, keyIndent: keyIndent, listIndent: listIndent ?? line.indent, pending: pending)
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
        case .evdev(let key, _, let listIndent, let pending):
            if let pending {
                throw interpreter.fail(pending.line, "unclosed '[': the list ends inside it")
            }
            if listIndent == nil {
                throw interpreter.fail(key, "'evdev' must be a list of [sec, usec, type, code, value], found nothing")
            }
        case .evdevRest(let key, let keyIndent, let lines):
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
        case .whole(let lines):
            try readWhole(lines, events: &events)
        }
    }

    private func append(_ raw: TextLine, in bytes: [UInt8], to lines: inout LineScanner) throws(RecordingError) {
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
