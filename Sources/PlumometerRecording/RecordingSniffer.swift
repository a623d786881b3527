/// Recognises, from its first bytes, a file that is not a recording, and says what it is and what to do.
///
/// Reading stops at the first line of a file that is not text instead of at its end: a compressed recording,
/// a umockdev device description, binary data and an empty file each get a sentence of their own. The magic
/// numbers are the formats' own (gzip RFC 1952, xz, zstd RFC 8878, bzip2); a umockdev file is recognised by its
/// first line, `P: /devices/...` (a sysfs path, where an evemu file has `N:` and a hexadecimal `P:` mask).
enum RecordingSniffer {
    enum Verdict {
        /// More bytes are needed to decide.
        case needMore
        /// Text that a reader can try.
        case text
        /// Not a recording: the error says what it is.
        case reject(RecordingError)
    }

    /// How much of the first line is examined: a verdict needs the line, or this many bytes of it.
    static let firstLineLength = 4096

    /// How far the format is looked for (the first line that is not blank or a comment); beyond it, evemu.
    static let lookahead = 64 << 10

    private static let compressions: [(magic: [UInt8], name: String, command: String)] = [
        ([0x1f, 0x8b], "gzip", "zcat"),
        ([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], "xz", "xzcat"),
        ([0x28, 0xb5, 0x2f, 0xfd], "zstd", "zstdcat"),
        ([0x42, 0x5a, 0x68], "bzip2", "bzcat"),
    ]

    /// The verdict on the first bytes of `fileName`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes read so far, from the start of the file.
    ///   - isComplete: Whether they are the whole file.
    static func check(_ bytes: ArraySlice<UInt8>, isComplete: Bool, fileName: String) -> Verdict {
        func reject(_ line: Int?, _ message: String) -> Verdict {
            .reject(RecordingError(file: fileName, line: line, message: message))
        }
        if bytes.isEmpty {
            if !isComplete { return .needMore }
            return reject(
                nil,
                "the file is empty: a recording is an evemu file (evemu-record) or a libinput record YAML file"
            )
        }
        for (magic, name, command) in compressions {
            let prefix = bytes.prefix(magic.count)
            guard magic.starts(with: prefix) else { continue }
            if prefix.count < magic.count, !isComplete { return .needMore }
            if prefix.count == magic.count {
                return reject(
                    nil,
                    "this is a \(name)-compressed file, not a recording; decompress it first: "
                        + "\(command) \(fileName) | plumometer replay -"
                )
            }
        }
        let head = bytes.prefix(firstLineLength)
        let newline = head.firstIndex(of: UInt8(ascii: "\n"))
        let firstLine = head[head.startIndex..<(newline ?? head.endIndex)]
        if let bad = firstLine.firstIndex(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0d || $0 == 0x7f }) {
            let column = bad - bytes.startIndex + 1
            if bytes[bad] == 0 {
                return reject(1, "NUL byte at column \(column): this is not a text file")
            }
            return reject(
                1,
                "binary data (byte 0x\(hex(bytes[bad])) at column \(column)): this is not a text file; plumometer "
                    + "replays evemu recordings and libinput record YAML files"
            )
        }
        guard newline != nil || isComplete || head.count == firstLineLength else { return .needMore }
        if firstLine.starts(with: "P: /".utf8) { return umockdev(bytes, fileName: fileName) }
        return .text
    }

    /// The error for a line (the first that is not blank or a comment) that shows a file of another kind: a
    /// hid-recorder file (hid-tools: `R:` report descriptor, `D:` device index) or plain text, which is neither an
    /// evemu line (`N: ...`, `E: ...`) nor a YAML key (`version: 1`); nil for a line of a recording.
    static func foreign(_ line: TextLine, in bytes: [UInt8], fileName: String) -> RecordingError? {
        var start = line.range.lowerBound
        while start < line.range.upperBound, ASCII.isSpace(bytes[start]) { start += 1 }
        let text = bytes[start..<line.range.upperBound]
        guard let first = text.first, first != UInt8(ascii: "#"), first != UInt8(ascii: "\r") else { return nil }
        if text.starts(with: "R: ".utf8) || text.starts(with: "D: ".utf8) {
            return RecordingError(
                file: fileName,
                line: line.number,
                message: "this is a hid-recorder file (HID reports: an 'R:' report descriptor and 'E:' report lines), "
                    + "not the evdev events plumometer reads; replay it into a kernel device with hid-tools "
                    + "(sudo hid-replay \(fileName)) and read that device, or record it: plumometer record -d NODE "
                    + "-o FILE.evemu"
            )
        }
        let isUpper = { (byte: UInt8) in byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        let isKey = { (byte: UInt8) in
            byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
                || byte >= UInt8(ascii: "0")
                    && byte <= UInt8(ascii: "9")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        // evemu: one upper-case letter and a colon.
        if isUpper(first), text.dropFirst().first == UInt8(ascii: ":") { return nil }
        // YAML: a document marker, a directive, a list item, or a lower-case key and a colon.
        if text.starts(with: "---".utf8) || first == UInt8(ascii: "%") || first == UInt8(ascii: "-") { return nil }
        let key = text.prefix(while: isKey)
        if !key.isEmpty, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z"), key.endIndex < text.endIndex,
            text[key.endIndex] == UInt8(ascii: ":")
        {
            return nil
        }
        let glimpse = String(decoding: text.prefix(40), as: UTF8.self)
        return RecordingError(
            file: fileName,
            line: line.number,
            message: "'\(glimpse)\(text.count > 40 ? "..." : "")' is neither an evemu line ('N: name', 'E: time type "
                + "code value') nor libinput record YAML ('version: 1'): this is plain text, not a recording; record "
                + "one with 'plumometer record -o FILE.evemu', evemu-record or libinput record"
        )
    }

    /// The umockdev verdict, naming the device node from the file's `N:` line when the first bytes hold it.
    private static func umockdev(_ bytes: ArraySlice<UInt8>, fileName: String) -> Verdict {
        var node = "/dev/input/eventN"
        for line in bytes.prefix(lookahead).split(separator: UInt8(ascii: "\n")).prefix(8)
        where line.starts(with: "N: ".utf8) {
            let name = String(decoding: line.dropFirst(3), as: UTF8.self).trimmingSuffix()
            if !name.isEmpty, !name.contains(" ") { node = "/dev/" + name }
            break
        }
        return .reject(
            RecordingError(
                file: fileName,
                line: 1,
                message: "this is a umockdev device description ('P: /devices/...' and 'E: KEY=VALUE' udev lines), "
                    + "not a recording of events; run plumometer on the device it describes under umockdev: "
                    + "umockdev-run -d \(fileName) -i \(node)=DEVICE.ioctl -e \(node)=EVENTS.evemu -- "
                    + "plumometer stream -d \(node)"
            )
        )
    }
}

extension String {
    /// The text without trailing spaces, tabs or a carriage return.
    fileprivate func trimmingSuffix() -> String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
