/// The subset of YAML that `libinput record` writes, parsed strictly with line numbers in every error.
///
/// Foundation has no YAML reader and the package may not depend on one, so this reads what the format uses:
/// block mappings (`key: value`), block sequences (`- item`, including `- key: value` items and sequences
/// written at their key's indentation), flow sequences and mappings (`[1, 2]`, `{time: 1.0, type: X}`, which
/// may span lines), plain, 'single' and "double" quoted scalars, and `#` comments. Anchors, aliases, tags,
/// multi-line plain scalars, block scalars (`|`, `>`) and multiple documents are not used by the format and
/// are errors. Tabs are not allowed in indentation (as in YAML itself).
///
/// The parser pulls lines from a `LineScanner` on demand. It parses a text whole: a recording's `events` blocks,
/// which can be endless, never reach it (``LibinputRecordOutline`` keeps them out, ``LibinputEventsParser``
/// reads them line by line and hands it one entry at a time).
struct YAMLNode: Sendable {
    indirect enum Value: Sendable {
        case scalar(String, quoted: Bool)
        case sequence([YAMLNode])
        case mapping([(key: String, value: YAMLNode)])
        case null
    }

    var value: Value
    var line: Int

    var kind: String {
        switch value {
        case .scalar: "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .null: "nothing"
        }
    }

    /// The value of `key` in a mapping.
    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let entries) = value else { return nil }
        return entries.first(where: { $0.key == key })?.value
    }
}

/// One significant line: indentation in spaces and the content without indentation and trailing comment.
struct YAMLLine {
    var number: Int
    var indent: Int
    var content: Range<Int>
}

struct YAMLParser {
    var scanner: LineScanner
    let fileName: String
    private var peeked: YAMLLine?
    /// The block lists and mappings open (plus those around the text, for a part of a file): each is a frame of
    /// the recursion, so at most ``RecordingLimits/maximumNesting``.
    private(set) var depth: Int

    var bytes: [UInt8] { scanner.bytes }

    init(scanner: LineScanner, fileName: String, depth: Int = 0) {
        self.scanner = scanner
        self.fileName = fileName
        self.depth = depth
    }

    /// Enters one more level of nesting.
    /// - Throws: `RecordingError` at `line` beyond ``RecordingLimits/maximumNesting``.
    private mutating func enter(_ line: Int) throws(RecordingError) {
        guard depth < RecordingLimits.maximumNesting else { throw fail(line, FlowParser.nestingMessage) }
        depth += 1
    }

    func fail(_ line: Int?, _ message: String) -> RecordingError {
        RecordingError(file: fileName, line: line, message: message)
    }

    // MARK: Lines

    /// The next significant line (not blank, not only a comment), without consuming it.
    mutating func peek() throws(RecordingError) -> YAMLLine? {
        if let peeked { return peeked }
        while true {
            guard let raw = try scanner.next() else { return nil }
            guard let line = try Self.significantLine(raw, in: bytes, fileName: fileName) else { continue }
            peeked = line
            return line
        }
    }

    /// `raw` as a significant line, or nil when it is blank or only a comment.
    ///
    /// - Throws: `RecordingError` for a NUL byte or a tab in the indentation.
    static func significantLine(
        _ raw: TextLine,
        in bytes: [UInt8],
        fileName: String
    ) throws(RecordingError) -> YAMLLine? {
        let range = raw.range
        if let nul = bytes.firstNUL(in: range) {
            throw RecordingError(
                file: fileName,
                line: raw.number,
                message: "NUL byte at column \(nul - range.lowerBound + 1): this is not a text file"
            )
        }
        var index = range.lowerBound
        while index < range.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 }
        if index < range.upperBound, bytes[index] == UInt8(ascii: "\t") {
            var rest = index
            while rest < range.upperBound, ASCII.isSpace(bytes[rest]) { rest += 1 }
            if rest == range.upperBound || bytes[rest] == UInt8(ascii: "#") { return nil }
            throw RecordingError(
                file: fileName,
                line: raw.number,
                message: "tab in the indentation: YAML indents with spaces only"
            )
        }
        if index == range.upperBound || bytes[index] == UInt8(ascii: "#") { return nil }
        let content = index..<contentEnd(bytes, index..<range.upperBound)
        return YAMLLine(number: raw.number, indent: index - range.lowerBound, content: content)
    }

    /// The indentation of `raw` and whether it is a `- ` item, or nil for a blank or comment line; never throws,
    /// for skipping a block whose lines are checked later.
    static func outline(_ raw: TextLine, in bytes: [UInt8]) -> (indent: Int, isItem: Bool)? {
        var index = raw.range.lowerBound
        while index < raw.range.upperBound, ASCII.isSpace(bytes[index]) { index += 1 }
        if index == raw.range.upperBound || bytes[index] == UInt8(ascii: "#") { return nil }
        let item =
            bytes[index] == UInt8(ascii: "-")
            && (index + 1 == raw.range.upperBound || bytes[index + 1] == UInt8(ascii: " "))
        return (index - raw.range.lowerBound, item)
    }

    mutating func take() { peeked = nil }

    /// The end of `range` without a trailing comment (a `#` after a space, outside quotes) and spaces.
    private static func contentEnd(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        var quote: UInt8?
        var end = range.upperBound
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\"), open == UInt8(ascii: "\"") {
                    index += 2
                    continue
                }
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                // A quote opens a quoted scalar only at the start of a scalar.
                if index == range.lowerBound || " [{,:-".utf8.contains(bytes[index - 1]) { quote = byte }
            } else if byte == UInt8(ascii: "#"), index > range.lowerBound, ASCII.isSpace(bytes[index - 1]) {
                end = index
                break
            }
            index += 1
        }
        while end > range.lowerBound, ASCII.isSpace(bytes[end - 1]) { end -= 1 }
        return end
    }

    private func isSequenceItem(_ line: YAMLLine) -> Bool {
        Self.isSequenceItem(line, in: bytes)
    }

    /// Whether `line` is a `- ` item of a block sequence.
    static func isSequenceItem(_ line: YAMLLine, in bytes: [UInt8]) -> Bool {
        let c = line.content
        return bytes[c.lowerBound] == UInt8(ascii: "-")
            && (c.count == 1 || bytes[c.lowerBound + 1] == UInt8(ascii: " "))
    }

    // MARK: Blocks

    /// Parses the whole text as one block mapping at indentation 0.
    mutating func parseDocument() throws(RecordingError) -> YAMLNode {
        guard let first = try peek() else { throw fail(nil, "the file is empty") }
        if first.indent != 0 {
            throw fail(first.number, "the document must start at column 1, found \(first.indent) spaces of indentation")
        }
        let node = try parseBlock(indent: 0)
        if let extra = try peek() {
            throw fail(extra.number, "unexpected indentation: \(extra.indent) spaces do not match any open block")
        }
        return node
    }

    /// Parses the block whose first line (already peeked) has indentation `indent`.
    mutating func parseBlock(indent: Int) throws(RecordingError) -> YAMLNode {
        guard let first = try peek() else { return YAMLNode(value: .null, line: scanner.lineNumber) }
        if isSequenceItem(first) { return try parseSequence(indent: indent) }
        return try parseMapping(indent: indent, inlineFirst: nil)
    }

    mutating func parseSequence(indent: Int) throws(RecordingError) -> YAMLNode {
        var items: [YAMLNode] = []
        let startLine = try peek()?.number ?? 0
        try enter(startLine)
        defer { depth -= 1 }
        while let line = try peek(), line.indent == indent, isSequenceItem(line) {
            guard items.count < RecordingLimits.maximumListLength else {
                throw fail(line.number, FlowParser.listMessage)
            }
            items.append(try parseSequence(indentOneItem: indent))
        }
        if let line = try peek(), line.indent > indent {
            throw fail(line.number, "bad indentation: \(line.indent) spaces inside a list indented by \(indent)")
        }
        return YAMLNode(value: .sequence(items), line: startLine)
    }

    /// Parses one `- ` item at `indent` (the caller has peeked it) and returns the item's value.
    mutating func parseSequence(indentOneItem indent: Int) throws(RecordingError) -> YAMLNode {
        guard let line = try peek() else { return YAMLNode(value: .null, line: scanner.lineNumber) }
        take()
        var start = line.content.lowerBound + 1
        while start < line.content.upperBound, bytes[start] == UInt8(ascii: " ") { start += 1 }
        if start == line.content.upperBound {
            if let next = try peek(), next.indent > indent {
                return try parseBlock(indent: next.indent)
            }
            return YAMLNode(value: .null, line: line.number)
        }
        let rest = YAMLLine(
            number: line.number,
            indent: line.indent + (start - line.content.lowerBound),
            content: start..<line.content.upperBound
        )
        if mappingKeyEnd(rest.content) != nil, !isFlowStart(rest.content) {
            return try parseMapping(indent: rest.indent, inlineFirst: rest)
        }
        let value = try parseInlineValue(rest)
        try expectNoDeeperLine(than: indent)
        return value
    }

    /// Parses `key: value` lines at `indent`; `inlineFirst` is the first entry when it followed a `- `.
    mutating func parseMapping(indent: Int, inlineFirst: YAMLLine?) throws(RecordingError) -> YAMLNode {
        var entries: [(key: String, value: YAMLNode)] = []
        var firstLines: [String: Int] = [:]
        var pending = inlineFirst
        let peekedLine = try peek()?.number ?? 0
        let startLine = inlineFirst?.number ?? peekedLine
        try enter(startLine)
        defer { depth -= 1 }
        while true {
            let line: YAMLLine
            if let first = pending {
                line = first
                pending = nil
            } else {
                guard let next = try peek() else { break }
                if next.indent < indent { break }
                if next.indent > indent {
                    throw fail(
                        next.number,
                        "bad indentation: \(next.indent) spaces where a key at \(indent) was expected"
                    )
                }
                if isSequenceItem(next) {
                    throw fail(
                        next.number,
                        "a list item where a 'key: value' line at indentation \(indent) was expected"
                    )
                }
                take()
                line = next
            }
            guard let colon = mappingKeyEnd(line.content) else {
                throw fail(line.number, "expected 'key: value', found '\(bytes.quoted(line.content))'")
            }
            guard entries.count < RecordingLimits.maximumListLength else {
                throw fail(line.number, FlowParser.listMessage)
            }
            let key = try parseScalarText(line.content.lowerBound..<colon, line: line.number)
            if let previous = firstLines[key] {
                throw fail(line.number, "duplicate key '\(key)' (first on line \(previous))")
            }
            firstLines[key] = line.number
            var valueStart = colon + 1
            while valueStart < line.content.upperBound, bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            var value: YAMLNode
            if valueStart < line.content.upperBound {
                value = try parseInlineValue(
                    YAMLLine(number: line.number, indent: indent, content: valueStart..<line.content.upperBound)
                )
                try expectNoDeeperLine(than: indent)
            } else if let next = try peek(), next.indent > indent || (next.indent == indent && isSequenceItem(next)) {
                if next.indent == indent {
                    value = try parseSequence(indent: indent)
                } else {
                    value = try parseBlock(indent: next.indent)
                }
            } else {
                value = YAMLNode(value: .null, line: line.number)
            }
            // Errors about a value name the line of its key: that is where a reader looks for it.
            value.line = line.number
            entries.append((key, value))
        }
        return YAMLNode(value: .mapping(entries), line: startLine)
    }

    private mutating func expectNoDeeperLine(than indent: Int) throws(RecordingError) {
        if let next = try peek(), next.indent > indent {
            throw fail(
                next.number,
                "bad indentation: \(next.indent) spaces after a complete value at indentation \(indent)"
            )
        }
    }

    private func isFlowStart(_ range: Range<Int>) -> Bool {
        bytes[range.lowerBound] == UInt8(ascii: "[") || bytes[range.lowerBound] == UInt8(ascii: "{")
    }

    /// The index of the `:` that ends a mapping key on this line (followed by a space or the end), if any.
    private func mappingKeyEnd(_ range: Range<Int>) -> Int? {
        if isFlowStart(range) { return nil }
        var index = range.lowerBound
        if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
            let quote = bytes[index]
            index += 1
            while index < range.upperBound, bytes[index] != quote {
                if bytes[index] == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") { index += 1 }
                index += 1
            }
            index += 1
            guard index < range.upperBound, bytes[index] == UInt8(ascii: ":") else { return nil }
            return (index + 1 == range.upperBound || bytes[index + 1] == UInt8(ascii: " ")) ? index : nil
        }
        while index < range.upperBound {
            if bytes[index] == UInt8(ascii: ":"), index + 1 == range.upperBound || bytes[index + 1] == UInt8(ascii: " ")
            {
                return index
            }
            index += 1
        }
        return nil
    }

    // MARK: Inline values

    /// A value on one line after `key: ` or `- `: a scalar, or a flow collection that may continue on the
    /// following lines until its brackets close.
    private mutating func parseInlineValue(_ line: YAMLLine) throws(RecordingError) -> YAMLNode {
        let first = bytes[line.content.lowerBound]
        guard isFlowStart(line.content) else {
            if "|>&*!%@`".utf8.contains(first) {
                throw fail(
                    line.number,
                    "'\(bytes.quoted(line.content, limit: 20))': block scalars, anchors, aliases and tags "
                        + "are not part of the libinput record format"
                )
            }
            let text = try parseScalarText(line.content, line: line.number)
            let quoted = first == UInt8(ascii: "\"") || first == UInt8(ascii: "'")
            return YAMLNode(value: .scalar(text, quoted: quoted), line: line.number)
        }
        // Gather the text of the collection, line by line, until the brackets balance. The depth is updated
        // with each new line only, so a long multi-line list (a HID report descriptor) stays linear.
        var text = Array(bytes[line.content])
        var state = BracketState()
        state.scan(text)
        while state.depth > 0 {
            guard let next = try peek() else {
                throw fail(line.number, "unclosed '\(Character(Unicode.Scalar(first)))': the file ends inside it")
            }
            let opener = bytes[next.content.lowerBound]
            if next.indent <= line.indent, opener != UInt8(ascii: "]"), opener != UInt8(ascii: "}") {
                throw fail(line.number, "unclosed '\(Character(Unicode.Scalar(first)))' before line \(next.number)")
            }
            take()
            text.append(UInt8(ascii: " "))
            let chunk = bytes[next.content]
            text.append(contentsOf: chunk)
            state.scan(chunk)
        }
        var flow = FlowParser(bytes: text, line: line.number, fileName: fileName, depth: depth)
        let node = try flow.parseValue()
        flow.skipSpaces()
        if flow.index < text.count {
            throw fail(
                line.number,
                "unexpected text '\(text.quoted(flow.index..<text.count))' "
                    + "after a closed '\(Character(Unicode.Scalar(first)))'"
            )
        }
        return node
    }

    /// A plain or quoted scalar occupying all of `range`.
    private func parseScalarText(_ range: Range<Int>, line: Int) throws(RecordingError) -> String {
        var flow = FlowParser(bytes: Array(bytes[range]), line: line, fileName: fileName)
        let first = bytes[range.lowerBound]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            let text = try flow.parseQuoted()
            flow.skipSpaces()
            if flow.index < flow.bytes.count {
                throw fail(
                    line,
                    "unexpected text after the closing quote: '\(flow.bytes.quoted(flow.index..<flow.bytes.count))'"
                )
            }
            return text
        }
        if range.count > RecordingLimits.maximumScalarLength { throw fail(line, FlowParser.scalarMessage) }
        return bytes.text(range)
    }
}
