import PlumometerCore

/// Reads the YAML that `libinput record` writes (file format version 1; see the FILE FORMAT section of
/// libinput-record(1)).
///
/// Used keys: `version` (must be 1), `ndevices` (checked against the list when present), and per device
/// `node`, `evdev` (`name`, `id`, `codes`, `absinfo`, `properties`) and `events`. Every other key (`libinput`,
/// `system`, `hid`, `udev`, `quirks`, and event kinds other than `evdev`) is ignored, as the format requires,
/// but must still be well-formed YAML of the supported subset. `EV_SYN` codes in `codes` are dropped so that a
/// device reads the same from an evemu file and from a libinput one (evemu cannot express them).
///
/// Each device's `events` block is skipped at first and parsed lazily by its `EventSource`, one list item
/// (`- evdev:` frame) at a time: a consumer gets every frame before a malformed one.
extension RecordingReader {
    static func readLibinputRecord(bytes: [UInt8], fileName: String) throws(RecordingError) -> Recording {
        var parser = YAMLParser(scanner: LineScanner(bytes: bytes), fileName: fileName, deferredKeys: ["events"])
        let document = try parser.parseDocument()
        let reader = LibinputRecordInterpreter(fileName: fileName)
        guard case .mapping = document.value else {
            throw reader.fail(document.line, "the top level must be a mapping with 'version' and 'devices'")
        }
        let versionNode = try reader.required(document, "version", in: "the top level")
        let version = try reader.integer(versionNode, "version", bounds: 0...Int64(Int32.max))
        guard version == 1 else {
            throw reader.fail(
                versionNode.line,
                "libinput record file format version \(version) is not supported (only 1)"
            )
        }
        let devicesNode = try reader.required(document, "devices", in: "the top level")
        guard case .sequence(let deviceNodes) = devicesNode.value, !deviceNodes.isEmpty else {
            throw reader.fail(devicesNode.line, "'devices' must be a non-empty list, found \(devicesNode.kind)")
        }
        if let ndevices = document["ndevices"] {
            let count = try reader.integer(ndevices, "ndevices", bounds: 0...Int64(Int32.max))
            guard count == Int64(deviceNodes.count) else {
                throw reader.fail(ndevices.line, "'ndevices' says \(count) but 'devices' lists \(deviceNodes.count)")
            }
        }
        var devices: [RecordedDevice] = []
        for node in deviceNodes {
            devices.append(try reader.device(node, bytes: bytes))
        }
        return Recording(format: .libinputRecord, devices: devices, fileName: fileName)
    }
}

struct LibinputRecordInterpreter {
    let fileName: String

    func fail(_ line: Int?, _ message: String) -> RecordingError {
        RecordingError(file: fileName, line: line, message: message)
    }

    func required(_ node: YAMLNode, _ key: String, in place: String) throws(RecordingError) -> YAMLNode {
        guard let value = node[key], !isNull(value) else {
            throw fail(node.line, "missing key '\(key)' in \(place)")
        }
        return value
    }

    func isNull(_ node: YAMLNode) -> Bool {
        if case .null = node.value { return true }
        return false
    }

    func integer(_ node: YAMLNode, _ what: String, bounds: ClosedRange<Int64>) throws(RecordingError) -> Int64 {
        guard case .scalar(let text, quoted: false) = node.value else {
            throw fail(node.line, "\(what) must be an integer, found \(node.kind)")
        }
        let bytes = Array(text.utf8)
        switch NumberParser.decimal(bytes, 0..<bytes.count, bounds: bounds) {
        case .value(let value): return value
        case .notANumber: throw fail(node.line, "\(what) must be an integer, found '\(text)'")
        case .outOfRange:
            throw fail(node.line, "\(what) \(text) is outside \(bounds.lowerBound)...\(bounds.upperBound)")
        }
    }

    func integers(
        _ node: YAMLNode,
        _ what: String,
        count: Int?,
        bounds: ClosedRange<Int64>
    ) throws(RecordingError) -> [Int64] {
        guard case .sequence(let items) = node.value else {
            throw fail(node.line, "\(what) must be a list, found \(node.kind)")
        }
        if let count, items.count != count {
            throw fail(node.line, "expected \(count) numbers in \(what), found \(items.count)")
        }
        var result: [Int64] = []
        for item in items { result.append(try integer(item, "an element of \(what)", bounds: bounds)) }
        return result
    }

    func device(_ node: YAMLNode, bytes: [UInt8]) throws(RecordingError) -> RecordedDevice {
        guard case .mapping = node.value else {
            throw fail(
                node.line,
                "each entry of 'devices' must be a mapping with 'evdev' and 'events', found \(node.kind)"
            )
        }
        var nodePath: String?
        if let nodeValue = node["node"] {
            guard case .scalar(let text, _) = nodeValue.value else {
                throw fail(nodeValue.line, "'node' must be a device path, found \(nodeValue.kind)")
            }
            nodePath = text
        }
        let evdev = try required(node, "evdev", in: "a device")
        guard case .mapping = evdev.value else {
            throw fail(evdev.line, "'evdev' must be a mapping, found \(evdev.kind)")
        }
        let nameNode = try required(evdev, "name", in: "'evdev'")
        guard case .scalar(let name, _) = nameNode.value else {
            throw fail(nameNode.line, "'name' must be a string, found \(nameNode.kind)")
        }
        let ids = try integers(
            try required(evdev, "id", in: "'evdev'"),
            "'id' ([bustype, vendor, product, version])",
            count: 4,
            bounds: 0...0xffff
        )

        let codesNode = try required(evdev, "codes", in: "'evdev'")
        guard case .mapping(let codeEntries) = codesNode.value else {
            throw fail(codesNode.line, "'codes' must be a mapping of event type to codes, found \(codesNode.kind)")
        }
        var codes: [EventType: Set<UInt16>] = [:]
        for (key, list) in codeEntries {
            guard let type = UInt16(key), type <= EventType.max.rawValue else {
                throw fail(list.line, "'\(key)' in 'codes' is not an event type (0...31)")
            }
            let limit = Int64(EvemuDescriptionReader.maxCode(ofType: type))
            let values = try integers(list, "the codes of type \(type)", count: nil, bounds: 0...limit)
            if type == 0 { continue }
            if !values.isEmpty { codes[EventType(rawValue: type)] = Set(values.map { UInt16($0) }) }
        }

        var axes: [AbsoluteAxis: AxisInfo] = [:]
        if let absinfo = evdev["absinfo"], !isNull(absinfo) {
            guard case .mapping(let entries) = absinfo.value else {
                throw fail(
                    absinfo.line,
                    "'absinfo' must be a mapping of axis code to [min, max, fuzz, flat, resolution]"
                )
            }
            for (key, list) in entries {
                guard let code = UInt16(key), code <= AbsoluteAxis.max.rawValue else {
                    throw fail(list.line, "'\(key)' in 'absinfo' is not an axis code (0...63)")
                }
                let numbers = try integers(
                    list,
                    "absinfo \(key) ([min, max, fuzz, flat, resolution])",
                    count: 5,
                    bounds: NumberParser.int32Bounds
                )
                guard codes[.abs]?.contains(code) == true else {
                    throw fail(
                        list.line,
                        "'absinfo' has axis \(code) (\(AbsoluteAxis(rawValue: code).name)) "
                            + "but 'codes' does not list it under 3 (EV_ABS)"
                    )
                }
                axes[AbsoluteAxis(rawValue: code)] = AxisInfo(
                    minimum: Int32(numbers[0]),
                    maximum: Int32(numbers[1]),
                    fuzz: Int32(numbers[2]),
                    flat: Int32(numbers[3]),
                    resolution: Int32(numbers[4])
                )
            }
        }
        if let missing = (codes[.abs] ?? []).sorted().first(where: { axes[AbsoluteAxis(rawValue: $0)] == nil }) {
            throw fail(
                codesNode.line,
                "'codes' lists axis \(missing) (\(AbsoluteAxis(rawValue: missing).name)) "
                    + "but 'absinfo' gives no range for it"
            )
        }

        var properties = Set<InputProperty>()
        if let props = evdev["properties"], !isNull(props) {
            for value in try integers(props, "'properties'", count: nil, bounds: 0...Int64(InputProperty.max.rawValue))
            {
                properties.insert(InputProperty(rawValue: UInt16(value)))
            }
        }

        let description = DeviceDescription(
            path: nodePath.map { "\(fileName) (\($0))" } ?? fileName,
            identity: DeviceIdentity(
                bus: UInt16(ids[0]),
                vendor: UInt16(ids[1]),
                product: UInt16(ids[2]),
                version: UInt16(ids[3]),
                name: name
            ),
            properties: properties,
            codes: codes,
            axes: axes
        )

        var events = EventSource(events: [])
        if let eventsNode = node["events"] {
            switch eventsNode.value {
            case .deferred(let start, let parentIndent):
                events = EventSource(
                    backend: .libinput(
                        LibinputEventScanner(
                            parser: YAMLParser(scanner: start, fileName: fileName),
                            parentIndent: parentIndent,
                            interpreter: self,
                            validator: EventValidator(description)
                        )
                    )
                )
            case .null:
                break
            case .sequence(let items) where items.isEmpty:
                break
            default:
                throw fail(eventsNode.line, "'events' must be a list of event frames, found \(eventsNode.kind)")
            }
        }
        return RecordedDevice(description: description, events: events, node: nodePath, formatVersion: "1")
    }
}

/// Reads a device's `events` list lazily, one item (`- evdev: [...]`, `- libinput: ...`, `- hid: ...`) at a time.
struct LibinputEventScanner: Sendable {
    var parser: YAMLParser
    let parentIndent: Int
    let interpreter: LibinputRecordInterpreter
    let validator: EventValidator
    var itemIndent: Int?
    var pending: [(RawEvent, Int)] = []
    var pendingIndex = 0
    var finished = false

    init(parser: YAMLParser, parentIndent: Int, interpreter: LibinputRecordInterpreter, validator: EventValidator) {
        self.parser = parser
        self.parentIndent = parentIndent
        self.interpreter = interpreter
        self.validator = validator
    }

    mutating func next() throws(RecordingError) -> (RawEvent, Int)? {
        while pendingIndex >= pending.count {
            guard !finished else { return nil }
            try readItem()
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// Parses the next list item into `pending`, or marks the end.
    private mutating func readItem() throws(RecordingError) {
        pending.removeAll(keepingCapacity: true)
        pendingIndex = 0
        guard let line = try parser.peek() else {
            finished = true
            return
        }
        let indent = itemIndent ?? line.indent
        itemIndent = indent
        // The list ends where its device's next key (or the next device) begins.
        if line.indent < indent || line.indent <= parentIndent && !isItem(line) {
            finished = true
            return
        }
        guard line.indent == indent, isItem(line) else {
            throw interpreter.fail(
                line.number,
                "'events' must be a list of '- evdev:' frames: expected a '- ' item at \(indent) spaces, "
                    + "found '\(parser.bytes.quoted(line.content, limit: 20))' at \(line.indent)"
            )
        }
        let item = try parser.parseSequence(indentOneItem: indent)
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
                let numbers = try interpreter.integers(
                    frame,
                    "an evdev event ([sec, usec, type, code, value])",
                    count: 5,
                    bounds: Int64(Int32.min)...EvemuEventScanner.maxSeconds
                )
                let what = ["sec", "usec", "type", "code", "value"]
                let limits: [ClosedRange<Int64>] = [
                    0...EvemuEventScanner.maxSeconds, 0...999_999, 0...0xffff, 0...0xffff, NumberParser.int32Bounds,
                ]
                for index in 0..<5 where !limits[index].contains(numbers[index]) {
                    throw interpreter.fail(
                        frame.line,
                        "the event's \(what[index]) \(numbers[index]) is outside "
                            + "\(limits[index].lowerBound)...\(limits[index].upperBound)"
                    )
                }
                let event = RawEvent(
                    time: EventTime(seconds: numbers[0], microseconds: numbers[1]),
                    type: EventType(rawValue: UInt16(numbers[2])),
                    code: UInt16(numbers[3]),
                    value: Int32(numbers[4])
                )
                if let problem = validator.problem(with: event) { throw interpreter.fail(frame.line, problem) }
                pending.append((event, frame.line))
            }
        }
    }

    private func isItem(_ line: YAMLLine) -> Bool {
        let c = line.content
        return parser.bytes[c.lowerBound] == UInt8(ascii: "-")
            && (c.count == 1 || parser.bytes[c.lowerBound + 1] == UInt8(ascii: " "))
    }
}
