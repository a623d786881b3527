import PlumometerCore
import PlumometerLinux
import PlumometerOutput
import PlumometerRecording

extension RecordCommand: Command {
    /// `record`'s options.
    enum Options {
        static let device = Option.inputDevice(
            help: "The device (default: the best force-sensing device)."
        )
        static let output = Option<String>(
            "output",
            short: "o",
            value: "FILE",
            completion: .file,
            help: "Write to FILE instead of stdout (- for stdout; never through a symlink)."
        )
        // A year at most: enough for any recording, and within Int64 microseconds.
        static let duration = Option<Double>.number(
            "duration",
            value: "S",
            maximum: 31_536_000,
            help: "Stop after S seconds (default: until Ctrl-C)."
        )
        static let grab = Flag("grab", help: "Grab the device while recording.")
    }

    static let spec = CommandSpec(
        name: "record",
        summary: "Record a device to an evemu 1.3 file that evemu-play, umockdev and `plumometer replay` accept.",
        options: [Options.device, Options.output, Options.duration, Options.grab, Flag.quiet],
        examples: ["plumometer record -d /dev/input/event7 -o plums.evemu --duration 20"]
    )
}

/// `plumometer record`: an evemu 1.3 recording (description, then events with times relative to the first)
/// that evemu-play, umockdev's evemu loader and `plumometer replay` accept.
enum RecordCommand {
    static func run(_ arguments: ParsedArguments) throws {
        let duration = try arguments.value(of: Options.duration)
        let path = try DeviceTarget(arguments.value(of: Options.device)).resolve()
        let source = try LiveSource(path: path, grab: arguments.flag(Options.grab))
        defer { source.close() }
        let sink: FileDescriptorWriter
        if let file = try arguments.value(of: Options.output), file != "-" {
            sink = try FileDescriptorWriter.create(file)
        } else {
            sink = FileDescriptorWriter.standardOutput()
        }
        try sink.write(EvemuWriter.description(of: source.description))
        let initial = source.initialFrame
        var start: EventTime?
        var eventCount = 0
        /// The state found at open, as events at the recording's time zero, so a replay starts where we did.
        func writeStart(at time: EventTime) throws {
            start = time
            guard let initial else { return }
            for event in initialEvents(initial, description: source.description, at: time) {
                try sink.write(EvemuWriter.eventLine(event, since: time) + "\n")
            }
        }
        let driver = try Driver()
        if sink.fileDescriptor == FileDescriptorWriter.standardOutput().fileDescriptor { driver.stopWhenOutputCloses() }
        let began = MonotonicClock.now()
        source.onGone = {
            Diagnostics.note("\(path) was removed; the recording ends here")
            driver.finish()
        }
        source.onInputs = { inputs in
            // One write per read, not per event: a 16-finger pad at 1 kHz sends ~50,000 events a second.
            var text = ""
            for event in inputs.compactMap(\.recordedEvent) {
                if start == nil { try writeStart(at: event.time) }
                text += EvemuWriter.eventLine(event, since: start ?? event.time)
                text += "\n"
                eventCount += 1
            }
            if !text.isEmpty { try sink.write(text) }
        }
        source.start(in: driver, into: nil)
        driver.work = {
            guard let duration else { return .idle }
            let remaining = Int64(duration * 1_000_000) - (MonotonicClock.now().microseconds - began.microseconds)
            return remaining <= 0 ? .finished : .within(remaining)
        }
        Diagnostics.note("recording \(path) ('\(source.description.name.forTerminalName)'); Ctrl-C to stop")
        try driver.run()
        if start == nil, let initial {
            try writeStart(at: initial.time)
        }
        Diagnostics.note("recorded \(eventCount) events")
    }

    /// Events that recreate `frame` on a device like `description`: per contact its slot, tracking id,
    /// position and pressure, then the touch key and a `SYN_REPORT`.
    static func initialEvents(_ frame: ContactFrame, description: DeviceDescription, at time: EventTime) -> [RawEvent] {
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
