/// Line and token scanning over the bytes of a recording, shared by the evemu and YAML readers.
///
/// The readers work on UTF-8 bytes rather than `String` so that every step is a constant-time index move:
/// parsing stays linear in the size of the file whatever it contains, including binary junk.

/// One line of a text: its byte range without the line terminator (`\n`, or `\r\n`) and its 1-based number.
struct TextLine {
    var range: Range<Int>
    var number: Int
}

/// Splits bytes into lines, one at a time, from a complete text or from bytes fed as they arrive.
///
/// Memory stays bounded by the longest line: ``append(_:)`` first drops the lines already returned, and a line
/// longer than ``maximumLineLength`` is an error as soon as that many bytes have arrived without a line break
/// (a file of zeros, or one without newlines, is refused at once instead of being read whole). A partial line
/// that already holds a NUL byte is returned early, so the reader reports binary data from its first bytes.
struct LineScanner: Sendable {
    /// The longest line a recording may hold: `libinput record`'s longest lines (a HID report descriptor) are a
    /// few kilobytes.
    static let defaultMaximumLineLength = 1 << 20

    private(set) var bytes: [UInt8]
    private(set) var position: Int
    private(set) var lineNumber: Int
    /// Whether every byte has arrived (true for a text given whole); until then a line needs its `\n`.
    private(set) var isComplete: Bool
    /// The file name for the error about an overlong line.
    var fileName = "recording"
    let maximumLineLength: Int
    /// Where the search for the next `\n` resumes, so a long line fed in small pieces is searched once.
    private var searched: Int
    /// Line numbers that jump (a skeleton that left lines out): at byte offset `offset` the line is `line`.
    private var jumps: [(offset: Int, line: Int)] = []
    private var lastAppendedLine = 0

    /// A scanner over a complete text.
    init(bytes: [UInt8], position: Int = 0, lineNumber: Int = 0, maximumLineLength: Int = defaultMaximumLineLength) {
        self.bytes = bytes
        self.position = position
        self.lineNumber = lineNumber
        self.isComplete = true
        self.maximumLineLength = maximumLineLength
        self.searched = position
    }

    /// A scanner that is fed bytes with ``append(_:)`` and told the end with ``finish()``.
    init(streamingWithLimit maximumLineLength: Int = defaultMaximumLineLength, fileName: String) {
        self.init(bytes: [], maximumLineLength: maximumLineLength)
        self.isComplete = false
        self.fileName = fileName
    }

    var isAtEnd: Bool { isComplete && position >= bytes.count }

    /// The bytes held but not yet returned as lines.
    var bufferedByteCount: Int { bytes.count - position }

    /// Adds bytes that arrived, after dropping the lines already returned.
    mutating func append<C: Collection>(_ chunk: C) where C.Element == UInt8 {
        precondition(!isComplete, "bytes appended after the end of the input")
        if position > 0 {
            bytes.removeFirst(position)
            searched -= position
            jumps = jumps.compactMap { $0.offset >= position ? ($0.offset - position, $0.line) : nil }
            position = 0
        }
        bytes.append(contentsOf: chunk)
    }

    /// Adds one line (without its terminator) numbered `number`: how a skeleton of a larger text is built.
    mutating func appendLine(_ line: ArraySlice<UInt8>, number: Int) {
        if number != lastAppendedLine + 1 { jumps.append((bytes.count, number)) }
        lastAppendedLine = number
        bytes.append(contentsOf: line)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Skips a UTF-8 byte order mark (EF BB BF) where reading stands: editors on other systems start a text file
    /// with one, and it is no part of the first line.
    mutating func skipByteOrderMark() {
        guard bytes.count - position >= 3, Array(bytes[position..<(position + 3)]) == LineScanner.byteOrderMark else {
            return
        }
        position += 3
        searched = Swift.max(searched, position)
    }

    /// The UTF-8 byte order mark.
    static let byteOrderMark: [UInt8] = [0xef, 0xbb, 0xbf]

    /// Marks the end of the input: a final line without a terminator is now a line.
    mutating func finish() { isComplete = true }

    /// The next line, or nil when there is none yet (more bytes are needed) or at the end.
    ///
    /// - Throws: `RecordingError` for a line longer than ``maximumLineLength``.
    mutating func next() throws(RecordingError) -> TextLine? {
        guard position < bytes.count else { return nil }
        let start = position
        if let jump = jumps.first, jump.offset == start {
            lineNumber = jump.line - 1
            jumps.removeFirst()
        }
        let unsearched = Swift.max(searched, start)
        let newline = bytes[unsearched...].firstIndex(of: UInt8(ascii: "\n"))
        let end = newline ?? bytes.count
        if end - start > maximumLineLength {
            throw RecordingError(
                file: fileName,
                line: lineNumber + 1,
                message: "a line longer than \(byteCount(maximumLineLength)) without a line break: this is not a "
                    + "recording (binary data, or text without newlines)"
            )
        }
        if newline == nil, !isComplete {
            searched = bytes.count
            // A NUL in a partial line already proves binary data: hand the line over for the reader to say so.
            // (The bytes searched before had none, or the line would have been handed over then.)
            guard bytes[unsearched..<end].contains(0) else { return nil }
        }
        position = newline.map { $0 + 1 } ?? end
        searched = position
        lineNumber += 1
        var trimmed = end
        // CRLF files (edited on Windows, or mailed) read like LF files.
        if trimmed > start, bytes[trimmed - 1] == UInt8(ascii: "\r"), newline != nil || isComplete { trimmed -= 1 }
        return TextLine(range: start..<trimmed, number: lineNumber)
    }
}

enum ASCII {
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }
}

extension Array where Element == UInt8 {
    /// The bytes in `range` as text, for messages and names (invalid UTF-8 becomes U+FFFD).
    func text(_ range: Range<Int>) -> String {
        String(decoding: self[range], as: UTF8.self)
    }

    /// The bytes in `range` as text for an error message: at most `limit` characters, control bytes escaped.
    func quoted(_ range: Range<Int>, limit: Int = 40) -> String {
        var result = ""
        var count = 0
        for byte in self[range] {
            if count == limit {
                result += "..."
                break
            }
            switch byte {
            case 0x20...0x7e: result.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x09: result += "\\t"
            case 0x0d: result += "\\r"
            default: result += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
            count += 1
        }
        return result
    }

    /// Whether `range` starts with the ASCII text `prefix`.
    func hasPrefix(_ prefix: StaticString, in range: Range<Int>) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard range.count >= count else { return false }
        return prefix.withUTF8Buffer { buffer in
            for offset in 0..<count where self[range.lowerBound + offset] != buffer[offset] { return false }
            return true
        }
    }

    /// The index of the first NUL byte in `range`, if any.
    func firstNUL(in range: Range<Int>) -> Int? {
        self[range].firstIndex(of: 0)
    }
}

/// Whitespace-separated tokens of a line, up to a `#` that starts a token (a trailing comment).
func tokens(in bytes: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var index = range.lowerBound
    while index < range.upperBound {
        while index < range.upperBound, ASCII.isSpace(bytes[index]) { index += 1 }
        guard index < range.upperBound else { break }
        if bytes[index] == UInt8(ascii: "#") { break }
        let start = index
        while index < range.upperBound, !ASCII.isSpace(bytes[index]) { index += 1 }
        result.append(start..<index)
    }
    return result
}

/// Number parsing with the limits of the C types the kernel uses; nil means "not a number of this kind".
enum NumberParser {
    /// 1 to `maxDigits` hexadecimal digits, either case, no `0x` prefix (evemu's `%02x` / `%04x`).
    static func hex(_ bytes: [UInt8], _ range: Range<Int>, maxDigits: Int) -> UInt32? {
        guard !range.isEmpty, range.count <= maxDigits else { return nil }
        var value: UInt32 = 0
        for byte in bytes[range] {
            guard let digit = ASCII.hexValue(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    enum DecimalResult {
        case value(Int64)
        case notANumber
        case outOfRange
    }

    /// An optionally signed decimal integer within `bounds`.
    static func decimal(_ bytes: [UInt8], _ range: Range<Int>, bounds: ClosedRange<Int64>) -> DecimalResult {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < range.upperBound else { return .notANumber }
        var magnitude: Int64 = 0
        var overflow = false
        while index < range.upperBound {
            let byte = bytes[index]
            guard ASCII.isDigit(byte) else { return .notANumber }
            if !overflow {
                let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(Int64(byte - 0x30))
                if o1 || o2 { overflow = true } else { magnitude = sum }
            }
            index += 1
        }
        if overflow { return .outOfRange }
        let value = negative ? -magnitude : magnitude
        return bounds.contains(value) ? .value(value) : .outOfRange
    }

    static let int32Bounds: ClosedRange<Int64> = Int64(Int32.min)...Int64(Int32.max)
}

/// `count` bytes for a message: `1 MiB`, `64 KiB`, `100 bytes`.
func byteCount(_ count: Int) -> String {
    if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
    if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
    return "\(count) bytes"
}
