import PlumometerCore
import PlumometerRecording

/// libFuzzer entry point: keeps each bound of `RecordingLimits` honest.
///
/// The first byte picks a limit, the second how far from it the input goes (-3...+3), the rest fills the input
/// (the characters of scalars, where items break lines) and cuts it into the pieces the streaming reader is fed.
/// An input past its limit must be refused, by the whole-text reader and by the stream, with an error naming the
/// limit; an input at or under it must be read; and nothing may crash on the way (the old reader overflowed its
/// stack on deep nesting).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLimits(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 2 else { return 0 }
    let kind = Int(bytes[0]) % LimitCase.allCases.count
    let delta = Int(bytes[1] % 7) - 3
    let filler = Array(bytes.dropFirst(2))
    let limitCase = LimitCase.allCases[kind]
    let (text, over) = limitCase.text(delta: delta, filler: filler)
    checkWhole(text, over: over, limitCase: limitCase)
    checkStream(text, over: over, limitCase: limitCase, pieces: filler)
    return 0
}

enum LimitCase: CaseIterable {
    case flowNesting, blockNesting, plainScalar, quotedScalar, flowList, blockList, devices, line

    /// The words every error of this limit holds.
    var fragment: String {
        switch self {
        case .flowNesting, .blockNesting: "nested more than \(RecordingLimits.maximumNesting) levels deep (the limit)"
        case .plainScalar, .quotedScalar: "(the limit)"
        case .flowList, .blockList: "items (the limit)"
        case .devices: "devices in one recording (the limit)"
        case .line: "a line longer than"
        }
    }

    static func head(_ extra: String) -> String {
        "version: 1\ndevices:\n- evdev:\n    name: Pad\n    id: [3, 1, 2, 1]\n    codes:\n      0: [0]\n" + extra
            + "  events:\n  - evdev:\n    - [0, 0, 0, 0, 0]\n"
    }

    /// The text of a recording `delta` from the limit, and whether that is past it.
    func text(delta: Int, filler: [UInt8]) -> (String, Bool) {
        // Letters only, so the filler never closes a scalar or a list early.
        func letters(_ count: Int) -> String {
            var result = ""
            result.reserveCapacity(count)
            for index in 0..<count {
                let byte = filler.isEmpty ? 0 : filler[index % filler.count]
                result.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "a") + byte % 26))
            }
            return result
        }
        switch self {
        case .flowNesting:
            // The document, devices and the device are 3 levels around `hid`.
            let depth = RecordingLimits.maximumNesting - 3 + delta
            let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            return (Self.head("  hid: \(deep)\n"), delta > 0)
        case .blockNesting:
            // 3 levels around `quirks`, whose mapping is the 4th; each key below opens one more.
            let keys = RecordingLimits.maximumNesting - 4 + delta
            var lines = "  quirks:\n"
            for level in 0..<max(keys, 0) { lines += String(repeating: " ", count: level + 4) + "k\(level):\n" }
            lines += String(repeating: " ", count: max(keys, 0) + 4) + "last: 1\n"
            return (Self.head(lines), delta > 0)
        case .plainScalar:
            return (Self.head("  hid: " + letters(RecordingLimits.maximumScalarLength + delta) + "\n"), delta > 0)
        case .quotedScalar:
            let text = letters(RecordingLimits.maximumScalarLength + delta)
            return (Self.head("  hid: [\"" + text + "\"]\n"), delta > 0)
        case .flowList:
            let count = RecordingLimits.maximumListLength + delta
            // Where the filler says so, an item goes on a line of its own (a list spread over lines).
            var list = "  hid: ["
            for index in 0..<count {
                if index > 0 { list += filler.isEmpty || filler[index % filler.count] & 0x80 == 0 ? "," : ",\n    " }
                list += "1"
            }
            return (Self.head(list + "]\n"), delta > 0)
        case .blockList:
            let count = RecordingLimits.maximumListLength + delta
            var lines = "  udev:\n"
            for _ in 0..<count { lines += "  - x\n" }
            return (Self.head(lines), delta > 0)
        case .devices:
            let count = RecordingLimits.maximumDeviceCount + delta
            var text = "version: 1\ndevices:\n"
            for _ in 0..<count {
                text +=
                    "- evdev:\n    name: Pad\n    id: [3, 1, 2, 1]\n    codes:\n      0: [0]\n"
                    + "  events:\n  - evdev:\n    - [0, 0, 0, 0, 0]\n"
            }
            return (text, delta > 0)
        case .line:
            // A comment as long as the limit allows, plus delta.
            let line = "# " + letters(RecordingLimits.maximumLineLength - 2 + delta)
            return (Self.head("") + line + "\n", delta > 0)
        }
    }
}

func checkWhole(_ text: String, over: Bool, limitCase: LimitCase) {
    do {
        var recording = try RecordingReader.read(text: text, fileName: "limits.yml")
        for index in recording.devices.indices { _ = try recording.devices[index].events.collect() }
        require(!over, "\(limitCase) past its limit was read whole")
    } catch {
        require(over, "\(limitCase) within its limit was refused: \(error)")
        require(error.line != nil, "\(limitCase): an error without a line: \(error)")
        require(error.message.contains(limitCase.fragment), "\(limitCase): not the limit's error: \(error)")
    }
}

func checkStream(_ text: String, over: Bool, limitCase: LimitCase, pieces: [UInt8]) {
    let bytes = Array(text.utf8)
    var stream = RecordingStream(fileName: "limits.yml")
    var offset = 0
    var piece = 0
    do {
        while offset < bytes.count {
            let size = pieces.isEmpty ? 4096 : 1 + Int(pieces[piece % pieces.count]) * 256
            piece += 1
            stream.feed(bytes[offset..<min(offset + size, bytes.count)])
            offset += size
            while try stream.next() != nil {}
        }
        stream.finish()
        while try stream.next() != nil {}
        require(!over, "\(limitCase) past its limit was streamed whole")
    } catch {
        require(over, "\(limitCase) within its limit was refused by the stream: \(error)")
        require(error.message.contains(limitCase.fragment), "\(limitCase): not the limit's error: \(error)")
    }
}
