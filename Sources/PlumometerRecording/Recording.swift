public import PlumometerCore

/// The file formats plumometer reads.
public enum RecordingFormat: String, Hashable, Sendable {
    /// evemu: `N:`/`I:`/`P:`/`B:`/`A:` description lines and `E:` event lines (`evemu-record`, `evemu-describe`).
    case evemu
    /// The YAML written by `libinput record` (file format version 1).
    case libinputRecord = "libinput-record"
}

/// A recording: one or more devices, each with its description and its events.
public struct Recording: Sendable {
    public var format: RecordingFormat
    public var devices: [RecordedDevice]
    /// The name the reader was given, for messages.
    public var fileName: String
    /// What the reader accepted but a user should hear about (print each on stderr).
    public var warnings: [RecordingWarning]

    public init(
        format: RecordingFormat,
        devices: [RecordedDevice],
        fileName: String = "recording",
        warnings: [RecordingWarning] = []
    ) {
        self.format = format
        self.devices = devices
        self.fileName = fileName
        self.warnings = warnings
    }

    /// Picks one device: the only one when `selector` is nil, else by index (`0`, `1`, ...), device node
    /// (`/dev/input/event5`, libinput record files only) or a case-insensitive substring of the name.
    ///
    /// - Throws: `RecordingError` naming the devices when the choice is ambiguous or matches nothing.
    public func device(_ selector: String?) throws(RecordingError) -> RecordedDevice {
        let listing = devices.enumerated().map { index, device in
            "\(index): \(device.description.name)" + (device.node.map { " (\($0))" } ?? "")
        }.joined(separator: "; ")
        guard let selector else {
            if devices.count == 1 { return devices[0] }
            throw RecordingError(
                file: fileName,
                line: nil,
                message: "the recording holds \(devices.count) devices, choose one with --device: \(listing)"
            )
        }
        if let index = Int(selector), devices.indices.contains(index) { return devices[index] }
        if let byNode = devices.first(where: { $0.node == selector }) { return byNode }
        let matches = devices.filter { $0.description.name.lowercased().contains(selector.lowercased()) }
        if matches.count == 1 { return matches[0] }
        let problem = matches.isEmpty ? "no device matches" : "\(matches.count) devices match"
        throw RecordingError(file: fileName, line: nil, message: "\(problem) '\(selector)': \(listing)")
    }
}

/// One recorded device: its description (which drives normalisation exactly like a live device) and its events.
public struct RecordedDevice: Sendable {
    public var description: DeviceDescription
    /// The device's events, read lazily: iterate with `next()`.
    public var events: EventSource
    /// The device node it was recorded from, when the format says (`libinput record` does, evemu does not).
    public var node: String?
    /// The format version the file declared: `1.3` for `# EVEMU 1.3`, `1` for `version: 1`; nil when absent.
    public var formatVersion: String?
    /// What the reader accepted in this device's description but a user should hear about (print on stderr).
    public var warnings: [RecordingWarning]

    public init(
        description: DeviceDescription,
        events: EventSource,
        node: String? = nil,
        formatVersion: String? = nil,
        warnings: [RecordingWarning] = []
    ) {
        self.description = description
        self.events = events
        self.node = node
        self.formatVersion = formatVersion
        self.warnings = warnings
    }
}

/// The events of a recorded device, parsed one at a time.
///
/// Parsing is incremental so that a consumer can use every event before a bad line and only then receive the
/// ``RecordingError`` for it: a replay shows every frame the file holds up to the damage. After an error (or the
/// end) `next()` returns nil. Copies are independent cursors over the same (shared, immutable) text.
public struct EventSource: Sendable {
    enum Backend: Sendable {
        case evemu(EvemuEventScanner)
        case libinput(LibinputEventCursor)
        case array([RawEvent], Int)
        case finished
    }

    var backend: Backend
    /// The line of the event `next()` returned last (nil for events that did not come from a file).
    public private(set) var line: Int?

    init(backend: Backend) {
        self.backend = backend
    }

    /// A source that replays `events` as they are (tests, generated sessions).
    public init(events: [RawEvent]) {
        self.backend = .array(events, 0)
    }

    /// The next event, nil at the end of the recording.
    ///
    /// - Throws: `RecordingError` for the first malformed event line; the source is finished afterwards.
    public mutating func next() throws(RecordingError) -> RawEvent? {
        do {
            switch backend {
            case .evemu(var scanner):
                backend = .finished
                guard let (event, number) = try scanner.next() else { return nil }
                line = number
                backend = .evemu(scanner)
                return event
            case .libinput(var scanner):
                backend = .finished
                guard let (event, number) = try scanner.next() else { return nil }
                line = number
                backend = .libinput(scanner)
                return event
            case .array(let events, let index):
                guard index < events.count else {
                    backend = .finished
                    return nil
                }
                backend = .array(events, index + 1)
                return events[index]
            case .finished:
                return nil
            }
        } catch {
            backend = .finished
            throw error
        }
    }

    /// Every remaining event.
    ///
    /// - Throws: `RecordingError` for the first malformed event line (the events before it are lost to the
    ///   caller; use `next()` to keep them).
    public mutating func collect() throws(RecordingError) -> [RawEvent] {
        var result: [RawEvent] = []
        while let event = try next() { result.append(event) }
        return result
    }
}

/// Reads one device's `events` block of a complete `libinput record` text, one event at a time.
struct LibinputEventCursor: Sendable {
    var scanner: LineScanner
    var parser: LibinputEventsParser
    var pending: [(RawEvent, Int)] = []
    var pendingIndex = 0
    var finished = false
    /// An error found after events that must be taken first.
    var pendingError: RecordingError?

    mutating func next() throws(RecordingError) -> (RawEvent, Int)? {
        while pendingIndex >= pending.count {
            if let error = pendingError {
                pendingError = nil
                throw error
            }
            guard !finished else { return nil }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            do {
                if let line = try scanner.next() {
                    if try parser.consume(line, in: scanner.bytes, events: &pending) { continue }
                } else {
                    try parser.finish(events: &pending)
                }
            } catch {
                pendingError = error
            }
            finished = true
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }
}

/// The checks every reader applies to an event against its device description.
///
/// The kernel never delivers an event for a code the device does not declare (`input_handle_event` drops
/// it), and it ignores `ABS_MT_SLOT` values outside the device's slots. A recording that holds either was
/// edited by hand or paired with the wrong description, so the readers reject it with a message that says so
/// instead of replaying something no real device could have sent. `EV_SYN` codes are always allowed: the
/// evdev layer itself emits `SYN_DROPPED`, whatever the device declares.
struct EventValidator: Sendable {
    let codes: [EventType: Set<UInt16>]
    let slots: ClosedRange<Int32>?

    init(_ description: DeviceDescription) {
        codes = description.codes
        if let slot = description.axes[.mtSlot], slot.maximum >= slot.minimum {
            slots = slot.minimum...slot.maximum
        } else {
            slots = nil
        }
    }

    /// nil when the event is acceptable, else the reason it is not.
    func problem(with event: RawEvent) -> String? {
        if event.type.rawValue > EventType.max.rawValue {
            return "event type 0x\(hex(event.type.rawValue)) is beyond EV_MAX (0x1f)"
        }
        if event.type == .syn {
            return event.code <= 0x0f ? nil : "EV_SYN code 0x\(hex(event.code)) is beyond SYN_MAX (0x0f)"
        }
        guard codes[event.type]?.contains(event.code) == true else {
            let typeName = event.type.name ?? "type 0x\(hex(event.type.rawValue))"
            let codeName = event.type.name == nil ? "" : EventCodeName.name(type: event.type, code: event.code) + " "
            return "the description does not declare \(typeName) code \(codeName)(0x\(hex(event.code))), "
                + "so no device could have sent this event; is this the right description for these events?"
        }
        if event.type == .abs, event.code == AbsoluteAxis.mtSlot.rawValue, let slots, !slots.contains(event.value) {
            return "slot \(event.value) is outside the device's slots \(slots.lowerBound)...\(slots.upperBound) "
                + "(ABS_MT_SLOT); the kernel never reports such a slot"
        }
        return nil
    }
}

func hex<T: BinaryInteger>(_ value: T, width: Int = 2) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
