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
    /// The levels of lists and mappings open around the text (the block structure it sits in), then the flow
    /// collections open at ``index``: at most ``RecordingLimits/maximumNesting``.
    var depth: Int

    init(bytes: [UInt8], line: Int, fileName: String, depth: Int = 0) {
        self.bytes = bytes
        self.line = line
        self.fileName = fileName
        self.depth = depth
    }

    func fail(_ message: String) -> RecordingError {
        RecordingError(file: fileName, line: line, message: message)
    }

    mutating func skipSpaces() {
        while index < bytes.count, ASCII.isSpace(bytes[index]) { index += 1 }
    }

    /// Parses one value; collections nest at most ``RecordingLimits/maximumNesting`` deep (each level is a frame
    /// of this recursion) and hold at most ``RecordingLimits/maximumListLength`` items.
    mutating func parseValue() throws(RecordingError) -> YAMLNode {
        skipSpaces()
        guard index < bytes.count else { throw fail("expected a value, found the end of the line") }
        let opener = bytes[index]
        if opener == UInt8(ascii: "[") || opener == UInt8(ascii: "{") {
            guard depth < RecordingLimits.maximumNesting else { throw fail(Self.nestingMessage) }
            depth += 1
        }
        defer { if opener == UInt8(ascii: "[") || opener == UInt8(ascii: "{") { depth -= 1 } }
        switch opener {
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
                guard items.count < RecordingLimits.maximumListLength else { throw fail(Self.listMessage) }
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
                guard entries.count < RecordingLimits.maximumListLength else { throw fail(Self.listMessage) }
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
        if end - start > RecordingLimits.maximumScalarLength { throw fail(Self.scalarMessage) }
        return bytes.text(start..<end)
    }

    /// The errors of the limits, each naming its limit.
    static let nestingMessage =
        "lists and mappings nested more than \(RecordingLimits.maximumNesting) levels deep (the limit)"
    static let listMessage =
        "a list or mapping of more than \(RecordingLimits.maximumListLength) items (the limit)"
    static let scalarMessage =
        "a value longer than \(byteCount(RecordingLimits.maximumScalarLength)) (the limit)"

    mutating func parseQuoted() throws(RecordingError) -> String {
        let quote = bytes[index]
        index += 1
        var result: [UInt8] = []
        while true {
            guard index < bytes.count else { throw fail("unclosed quoted string") }
            if result.count > RecordingLimits.maximumScalarLength { throw fail(Self.scalarMessage) }
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
