/// The subset of YAML that `libinput record` writes, parsed strictly with line numbers in every error.
///
/// Foundation has no YAML reader and the package may not depend on one, so this reads what the format uses:
/// block mappings (`key: value`), block sequences (`- item`, including `- key: value` items and sequences
/// written at their key's indentation), flow sequences and mappings (`[1, 2]`, `{time: 1.0, type: X}`, which
/// may span lines), plain, 'single' and "double" quoted scalars, and `#` comments. Anchors, aliases, tags,
/// multi-line plain scalars, block scalars (`|`, `>`) and multiple documents are not used by the format and
/// are errors. Tabs are not allowed in indentation (as in YAML itself).
///
/// The parser pulls lines from a `LineScanner` on demand, so a block can be skipped without being parsed
/// (``YAMLParser/skipBlock(deeperThan:)``): that is how a device's `events` are left for the lazy event reader.
struct YAMLNode: Sendable {
    indirect enum Value: Sendable {
        case scalar(String, quoted: Bool)
        case sequence([YAMLNode])
        case mapping([(key: String, value: YAMLNode)])
        /// A block that was skipped; `start` is the scanner positioned at its first line.
        case deferred(start: LineScanner, parentIndent: Int)
        case null
    }

    var value: Value
    var line: Int

    var kind: String {
        switch value {
        case .scalar: "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        case .deferred: "a block"
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
    /// Mapping keys whose block values are skipped and returned as `.deferred`.
    let deferredKeys: Set<String>
    private var peeked: (line: YAMLLine, before: LineScanner)?

    var bytes: [UInt8] { scanner.bytes }

    init(scanner: LineScanner, fileName: String, deferredKeys: Set<String> = []) {
        self.scanner = scanner
        self.fileName = fileName
        self.deferredKeys = deferredKeys
    }

    func fail(_ line: Int?, _ message: String) -> RecordingError {
        RecordingError(file: fileName, line: line, message: message)
    }

    // MARK: Lines

    /// The next significant line (not blank, not only a comment), without consuming it.
    mutating func peek() throws(RecordingError) -> YAMLLine? {
        if let peeked { return peeked.line }
        while true {
            let before = scanner
            guard let raw = scanner.next() else { return nil }
            let range = raw.range
            if let nul = bytes.firstNUL(in: range) {
                throw fail(raw.number, "NUL byte at column \(nul - range.lowerBound + 1): this is not a text file")
            }
            var index = range.lowerBound
            while index < range.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 }
            if index < range.upperBound, bytes[index] == UInt8(ascii: "\t") {
                var rest = index
                while rest < range.upperBound, ASCII.isSpace(bytes[rest]) { rest += 1 }
                if rest == range.upperBound || bytes[rest] == UInt8(ascii: "#") { continue }
                throw fail(raw.number, "tab in the indentation: YAML indents with spaces only")
            }
            if index == range.upperBound || bytes[index] == UInt8(ascii: "#") { continue }
            let content = index..<contentEnd(index..<range.upperBound)
            let line = YAMLLine(number: raw.number, indent: index - range.lowerBound, content: content)
            peeked = (line, before)
            return line
        }
    }

    mutating func take() { peeked = nil }

    /// The end of `range` without a trailing comment (a `#` after a space, outside quotes) and spaces.
    private func contentEnd(_ range: Range<Int>) -> Int {
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
        let c = line.content
        return bytes[c.lowerBound] == UInt8(ascii: "-")
            && (c.count == 1 || bytes[c.lowerBound + 1] == UInt8(ascii: " "))
    }

    /// Skips every line deeper than `indent` (and `- ` items at `indent`: a sequence may sit at its key's
    /// indentation) without parsing them; returns the scanner positioned at the first skipped line.
    mutating func skipBlock(deeperThan indent: Int) -> LineScanner {
        var start = scanner
        if let peeked {
            start = peeked.before
            scanner = peeked.before
            self.peeked = nil
        }
        while true {
            let before = scanner
            guard let raw = scanner.next() else { break }
            var index = raw.range.lowerBound
            while index < raw.range.upperBound, ASCII.isSpace(bytes[index]) { index += 1 }
            if index == raw.range.upperBound || bytes[index] == UInt8(ascii: "#") { continue }
            let lineIndent = index - raw.range.lowerBound
            let item =
                bytes[index] == UInt8(ascii: "-")
                && (index + 1 == raw.range.upperBound || bytes[index + 1] == UInt8(ascii: " "))
            if lineIndent > indent || (lineIndent == indent && item) { continue }
            scanner = before
            break
        }
        return start
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
        while let line = try peek(), line.indent == indent, isSequenceItem(line) {
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
                if deferredKeys.contains(key) {
                    value = YAMLNode(
                        value: .deferred(start: skipBlock(deeperThan: indent), parentIndent: indent),
                        line: line.number
                    )
                } else if next.indent == indent {
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
        var flow = FlowParser(bytes: text, line: line.number, fileName: fileName)
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
        return bytes.text(range)
    }
}

/// Bracket nesting of flow text fed in pieces (brackets inside quotes do not count).
struct BracketState {
    var depth = 0
    var quote: UInt8?
    var escaped = false

    mutating func scan<C: Collection>(_ text: C) where C.Element == UInt8 {
        for byte in text {
            if let open = quote {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\"), open == UInt8(ascii: "\"") {
                    escaped = true
                } else if byte == open {
                    quote = nil
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }
}

/// Flow collections (`[a, b]`, `{k: v}`) and quoted scalars within one logical line.
struct FlowParser {
    let bytes: [UInt8]
    var index = 0
    let line: Int
    let fileName: String

    init(bytes: [UInt8], line: Int, fileName: String) {
        self.bytes = bytes
        self.line = line
        self.fileName = fileName
    }

    func fail(_ message: String) -> RecordingError {
        RecordingError(file: fileName, line: line, message: message)
    }

    mutating func skipSpaces() {
        while index < bytes.count, ASCII.isSpace(bytes[index]) { index += 1 }
    }

    mutating func parseValue() throws(RecordingError) -> YAMLNode {
        skipSpaces()
        guard index < bytes.count else { throw fail("expected a value, found the end of the line") }
        switch bytes[index] {
        case UInt8(ascii: "["):
            index += 1
            var items: [YAMLNode] = []
            while true {
                skipSpaces()
                guard index < bytes.count else { throw fail("unclosed '['") }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    break
                }
                items.append(try parseValue())
                skipSpaces()
                guard index < bytes.count else { throw fail("unclosed '['") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] != UInt8(ascii: "]") {
                    throw fail("expected ',' or ']' in a list, found '\(bytes.quoted(index..<bytes.count, limit: 10))'")
                }
            }
            return YAMLNode(value: .sequence(items), line: line)
        case UInt8(ascii: "{"):
            index += 1
            var entries: [(key: String, value: YAMLNode)] = []
            while true {
                skipSpaces()
                guard index < bytes.count else { throw fail("unclosed '{'") }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    break
                }
                let key = try parseScalar(inMapping: true)
                skipSpaces()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw fail("expected ':' after the key '\(key)' in a flow mapping")
                }
                index += 1
                entries.append((key, try parseValue()))
                skipSpaces()
                guard index < bytes.count else { throw fail("unclosed '{'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] != UInt8(ascii: "}") {
                    throw fail(
                        "expected ',' or '}' in a mapping, found '\(bytes.quoted(index..<bytes.count, limit: 10))'"
                    )
                }
            }
            return YAMLNode(value: .mapping(entries), line: line)
        case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","):
            throw fail("unexpected '\(Character(Unicode.Scalar(bytes[index])))' where a value was expected")
        default:
            let quoted = bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
            return YAMLNode(value: .scalar(try parseScalar(inMapping: false), quoted: quoted), line: line)
        }
    }

    /// A plain scalar ends at `,`, `]`, `}` (and at `: ` for a key); quoted scalars end at their quote.
    mutating func parseScalar(inMapping: Bool) throws(RecordingError) -> String {
        if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") { return try parseQuoted() }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { break }
            if inMapping, byte == UInt8(ascii: ":") { break }
            index += 1
        }
        var end = index
        while end > start, ASCII.isSpace(bytes[end - 1]) { end -= 1 }
        if end == start { throw fail("empty value in a flow collection") }
        return bytes.text(start..<end)
    }

    mutating func parseQuoted() throws(RecordingError) -> String {
        let quote = bytes[index]
        index += 1
        var result: [UInt8] = []
        while true {
            guard index < bytes.count else { throw fail("unclosed quoted string") }
            let byte = bytes[index]
            index += 1
            if byte == quote {
                // '' inside a single-quoted string is one quote.
                if quote == UInt8(ascii: "'"), index < bytes.count, bytes[index] == quote {
                    result.append(quote)
                    index += 1
                    continue
                }
                break
            }
            if quote == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") {
                guard index < bytes.count else { throw fail("unclosed quoted string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): result.append(0x0a)
                case UInt8(ascii: "t"): result.append(0x09)
                case UInt8(ascii: "r"): result.append(0x0d)
                case UInt8(ascii: "0"): result.append(0x00)
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: " "): result.append(escape)
                case UInt8(ascii: "x"), UInt8(ascii: "u"):
                    let digits = escape == UInt8(ascii: "x") ? 2 : 4
                    guard index + digits <= bytes.count,
                        let value = NumberParser.hex(bytes, index..<(index + digits), maxDigits: digits),
                        let scalar = Unicode.Scalar(value)
                    else { throw fail("bad '\\\(Character(Unicode.Scalar(escape)))' escape in a quoted string") }
                    index += digits
                    result.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw fail("unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a quoted string")
                }
                continue
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
