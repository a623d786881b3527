public import PlumometerCore
import PlumometerRecording

/// The formats `record` and `stream --record` write.
public enum RecordingFileFormat: String, CaseIterable, Sendable {
    /// evemu 1.3: one device a file (`evemu-record`).
    case evemu
    /// `libinput record` YAML, version 1: one or several devices (`libinput record --multiple`).
    case libinput

    /// The format a file name asks for: `.yml` and `.yaml` are `libinput record`'s, anything else (and stdout) evemu.
    public static func implied(by path: String?) -> RecordingFileFormat {
        guard let path else { return .evemu }
        let lower = path.lowercased()
        return lower.hasSuffix(".yml") || lower.hasSuffix(".yaml") ? .libinput : .evemu
    }
}

/// Writes the raw events of one or several live devices as a recording that replays to the same frames: the
/// state found at open as events at the recording's start, then every event read (a `SYN_DROPPED` for each
/// resynchronisation, as `evemu-record` and `libinput record` keep it), times relative to the first event of any
/// device.
///
/// One device is written as it comes. Several devices (libinput format only) are assembled at the end, because
/// `libinput record`'s file lists each device's events after its description, as `libinput record --multiple`
/// does: until then each device's events wait in a spool of its own on the disk (``Spool``), not in memory, and
/// the file is written whole from them; that is why several devices need a file, not a pipe.
public final class RawRecorder {
    /// One device recorded: what it said about itself, where it was read, what rested on it at open.
    public struct Device {
        public let description: DeviceDescription
        public let node: String
        public let initialFrame: ContactFrame?

        public init(description: DeviceDescription, node: String, initialFrame: ContactFrame?) {
            self.description = description
            self.node = node
            self.initialFrame = initialFrame
        }
    }

    public let format: RecordingFileFormat
    private let sink: any TextSink
    private var devices: [Device] = []
    /// The time written as the recording's zero (evemu: a microsecond before the first event, as evemu-record).
    private var start: EventTime?
    /// libinput: each device's events since its last `SYN_REPORT`.
    private var pending: [[RawEvent]] = []
    /// Several devices: each device's `events` entries, written at the end.
    private var spools: [any Spool] = []
    private let makeSpool: () throws -> any Spool
    private var framesWritten: [Bool] = []
    private var finished = false
    /// Events recorded so far (the state at open not counted): written out, or held in a device's spool.
    public private(set) var eventCount = 0
    /// Whether a write failed (a full disk): nothing more is written, and ``eventCount`` is what got out before.
    public private(set) var failed = false

    /// A recorder writing to `sink`; `spool` makes each device's spool when there are several (by default the
    /// runtime's, beside `sink`'s file).
    public init(sink: any TextSink, format: RecordingFileFormat, spool: (() throws -> any Spool)? = nil) {
        self.sink = sink
        self.format = format
        let path = (sink as? any FileOutput)?.path ?? "recording"
        makeSpool = spool ?? { try Runtime.current.files.createSpool(beside: path) }
    }

    /// Runs `body`, a write; after a failure the recorder writes nothing more.
    private func writing(_ body: () throws -> Void) throws {
        guard !failed else { return }
        do {
            try body()
        } catch {
            failed = true
            throw error
        }
    }

    private var streaming: Bool { devices.count == 1 }

    /// Starts the recording of `devices`: writes the head of the file when the events can follow as they come.
    public func begin(_ devices: [Device]) throws {
        precondition(format == .libinput || devices.count == 1, "evemu holds one device")
        self.devices = devices
        pending = Array(repeating: [], count: devices.count)
        spools = devices.count > 1 ? try devices.map { _ in try makeSpool() } : []
        framesWritten = Array(repeating: false, count: devices.count)
        guard streaming, let device = devices.first else { return }
        try writing {
            switch format {
            case .evemu: try sink.write(EvemuWriter.description(of: device.description))
            case .libinput:
                try sink.write(
                    LibinputRecordWriter.header(deviceCount: 1)
                        + LibinputRecordWriter.device(device.description, node: device.node)
                )
            }
        }
    }

    /// Records what device `index` read.
    public func record(_ inputs: [DeviceInput], device index: Int) throws {
        guard !finished, !failed else { return }
        let events = inputs.compactMap(\.recordedEvent)
        guard let first = events.first else { return }
        if start == nil { try startAt(first.time) }
        try add(events, device: index)
        eventCount += events.count
    }

    /// Ends the recording: what is still pending, and (several devices) the whole file.
    public func finish(at time: EventTime? = nil) throws {
        guard !finished, !failed else { return }
        if start == nil, let time = time ?? devices.compactMap({ $0.initialFrame?.time }).min() {
            try startAt(time)
        }
        finished = true
        if format == .libinput {
            for index in devices.indices where !pending[index].isEmpty {
                let events = pending[index]
                pending[index] = []
                try emit(frame: events, device: index)
            }
            for index in devices.indices where !framesWritten[index] {
                try emit(text: LibinputRecordWriter.noEvents, device: index)
            }
        }
        try writing {
            if !streaming {
                try sink.write(LibinputRecordWriter.header(deviceCount: devices.count))
                for (index, device) in devices.enumerated() {
                    try sink.write(LibinputRecordWriter.device(device.description, node: device.node))
                    try spools[index].readBack { try sink.write($0) }
                }
            }
            // A file is flushed; several devices' is renamed into place only now.
            try (sink as? any FileOutput)?.finish()
        }
    }

    /// Sets the recording's zero at the first event, and writes each device's state at open there.
    private func startAt(_ time: EventTime) throws {
        start = format == .evemu ? EvemuWriter.start(forFirstEventAt: time) : time
        for (index, device) in devices.enumerated() {
            guard let initial = device.initialFrame else { continue }
            try add(Self.initialEvents(initial, description: device.description, at: time), device: index)
        }
    }

    private func add(_ events: [RawEvent], device index: Int) throws {
        guard let start else { return }
        switch format {
        case .evemu:
            // One write per read, not per event: a 16-finger pad at 1 kHz sends ~50,000 events a second.
            var text = ""
            for event in events {
                text += EvemuWriter.eventLine(event, since: start)
                text += "\n"
            }
            try writing { try sink.write(text) }
        case .libinput:
            var text = ""
            for event in events {
                pending[index].append(event)
                guard event.type == .syn, event.code == SynCode.report.rawValue else { continue }
                text += LibinputRecordWriter.frame(pending[index], since: start)
                pending[index] = []
            }
            if !text.isEmpty { try emit(text: text, device: index) }
        }
    }

    private func emit(frame events: [RawEvent], device index: Int) throws {
        guard let start else { return }
        try emit(text: LibinputRecordWriter.frame(events, since: start), device: index)
    }

    private func emit(text: String, device index: Int) throws {
        framesWritten[index] = true
        try writing {
            if streaming {
                try sink.write(text)
            } else {
                try spools[index].write(text)
            }
        }
    }

    /// Events that recreate `frame` on a device like `description`: per contact its slot, tracking id,
    /// position and pressure, then the touch key and a `SYN_REPORT`.
    public static func initialEvents(
        _ frame: ContactFrame,
        description: DeviceDescription,
        at time: EventTime
    ) -> [RawEvent] {
        var events: [RawEvent] = []
        let slotted = description.contactProtocol == .multitouchSlots
        func add(_ axis: AbsoluteAxis, _ value: Int32?) {
            if let value, description.hasAxis(axis) { events.append(.abs(axis, value, at: time)) }
        }
        for contact in frame.contacts {
            switch description.contactProtocol {
            case .multitouchSlots, .multitouchAnonymous:
                if slotted, let slot = contact.slot { add(.mtSlot, Int32(slot)) }
                if slotted { add(.mtTrackingID, Int32(truncatingIfNeeded: contact.id)) }
                add(.mtPositionX, contact.x)
                add(.mtPositionY, contact.y)
                add(.mtPressure, contact.pressure)
                add(.mtTouchMajor, contact.touchMajor)
                add(.mtTouchMinor, contact.touchMinor)
                if !slotted { events.append(.syn(.mtReport, at: time)) }
            case .singleTouch:
                add(.x, contact.x)
                add(.y, contact.y)
                add(.pressure, contact.pressure)
            }
        }
        if !frame.contacts.isEmpty, description.hasKey(.btnTouch) {
            events.append(.key(.btnTouch, 1, at: time))
        }
        events.append(.syn(.report, at: time))
        return events
    }
}
