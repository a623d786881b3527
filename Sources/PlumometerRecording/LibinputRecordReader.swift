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
/// The reading is split by job: ``LibinputRecordOutline`` follows the document line by line and parses
/// everything but the `events` blocks (the skeleton) with ``YAMLParser``, this interpreter turns the parsed
/// nodes into devices, and ``LibinputEventsParser`` reads each `events` block line by line.
struct LibinputRecordInterpreter: Sendable {
    let fileName: String

    /// The device entries of a parsed document, after checking `version` and, unless `partial` (a document
    /// whose later devices have not arrived yet), `ndevices`.
    func deviceNodes(_ document: YAMLNode, partial: Bool) throws(RecordingError) -> [YAMLNode] {
        guard case .mapping = document.value else {
            throw fail(document.line, "the top level must be a mapping with 'version' and 'devices'")
        }
        let versionNode = try required(document, "version", in: "the top level")
        let version = try integer(versionNode, "version", bounds: 0...Int64(Int32.max))
        guard version == 1 else {
            throw fail(versionNode.line, "libinput record file format version \(version) is not supported (only 1)")
        }
        let devicesNode = try required(document, "devices", in: "the top level")
        guard case .sequence(let deviceNodes) = devicesNode.value, !deviceNodes.isEmpty else {
            throw fail(devicesNode.line, "'devices' must be a non-empty list, found \(devicesNode.kind)")
        }
        guard deviceNodes.count <= RecordingLimits.maximumDeviceCount else {
            throw fail(deviceNodes[RecordingLimits.maximumDeviceCount].line, Self.deviceCountMessage)
        }
        if !partial, let ndevices = document["ndevices"] {
            let count = try integer(ndevices, "ndevices", bounds: 0...Int64(Int32.max))
            guard count == Int64(deviceNodes.count) else {
                throw fail(ndevices.line, "'ndevices' says \(count) but 'devices' lists \(deviceNodes.count)")
            }
        }
        return deviceNodes
    }

    static let deviceCountMessage =
        "more than \(RecordingLimits.maximumDeviceCount) devices in one recording (the limit)"

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

    func device(_ node: YAMLNode) throws(RecordingError) -> StreamedDevice {
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

        if let eventsNode = node["events"] {
            switch eventsNode.value {
            case .null: break
            case .sequence(let items) where items.isEmpty: break
            default:
                throw fail(eventsNode.line, "'events' must be a list of event frames, found \(eventsNode.kind)")
            }
        }
        return StreamedDevice(description: description, node: nodePath, formatVersion: "1")
    }

    /// The event of one `[sec, usec, type, code, value]` entry of an `evdev` list, checked against the device.
    func event(fromFrame frame: YAMLNode, validator: EventValidator) throws(RecordingError) -> RawEvent {
        let numbers = try integers(
            frame,
            "an evdev event ([sec, usec, type, code, value])",
            count: 5,
            bounds: Int64(Int32.min)...EvemuEventParser.maxSeconds
        )
        let what = ["sec", "usec", "type", "code", "value"]
        let limits: [ClosedRange<Int64>] = [
            0...EvemuEventParser.maxSeconds, 0...999_999, 0...0xffff, 0...0xffff, NumberParser.int32Bounds,
        ]
        for index in 0..<5 where !limits[index].contains(numbers[index]) {
            throw fail(
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
        if let problem = validator.problem(with: event) { throw fail(frame.line, problem) }
        return event
    }
}
