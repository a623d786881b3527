public import PlumometerCore
import PlumometerOutput
public import PlumometerRecording

/// The one rule for choosing a device in a recording, the same in every command (`replay`, `plot`, `describe`, and
/// `weigh`, `calibrate`, `probe` with `--replay`): `-d`/`--device` names it by its index in the recording (`0`, `1`,
/// ...), the node it was recorded from (`/dev/input/event5`, which `libinput record` files say), or a
/// case-insensitive part of its name that no other device's name has. Without `-d`, a recording of one device is
/// read; one of several is refused. Every refusal lists the devices.
public enum RecordingDeviceChoice {
    /// Whether `selector` names `device`.
    public static func matches(_ selector: String, _ device: StreamedDevice) -> Bool {
        if let index = Int(selector) { return index == device.index }
        if device.node == selector { return true }
        return device.description.name.lowercased().contains(selector.lowercased())
    }

    /// Whether `selector` can name only one device by itself (an index or a node), so nothing after that device
    /// needs to be read.
    public static func isUnique(_ selector: String, _ device: StreamedDevice) -> Bool {
        Int(selector) != nil || device.node == selector
    }

    /// `0: Apple Trackpad (/dev/input/event5); 1: ...`: the devices, as errors list them.
    public static func listing(_ devices: [StreamedDevice]) -> String {
        devices.map { device in
            "\(device.index): \(device.description.name.forTerminalName)"
                + (device.node.map { " (\($0.forTerminalName))" } ?? "")
        }.joined(separator: "; ")
    }

    /// What to write after a refusal: how to choose.
    public static let advice = "choose one with --device (-d): its index, its node, or a part of its name only it has"
}

/// A recording read as it arrives: a file, standard input (`-`), a FIFO or a pipe from a live `evemu-record` or
/// `libinput record`, fed a chunk at a time into a ``RecordingStream`` and never read ahead of what is played.
///
/// Memory is the chunk plus the stream's current line and description, whatever the recording's size. A regular
/// file is read when more is needed; anything else only once it is ready (``pull()`` says ``Pull/waiting``, and
/// the caller polls ``fileDescriptor``). This is the one way every command reads a recording (`describe` included,
/// with ``pullDevice()``), so each of them keeps the limits of ``RecordingLimits`` and never blocks on its input.
/// One device is picked by ``RecordingDeviceChoice``. The stream's warnings are printed on stderr once each.
public final class RecordingInput {
    /// What ``pull()`` found.
    public enum Pull {
        /// The picked device; its events follow.
        case device(StreamedDevice)
        /// One of its events, and the line it was read from.
        case event(RawEvent, line: Int)
        /// Nothing more has arrived yet: poll ``fileDescriptor``.
        case waiting
        /// Much was read (``pauseAfter`` bytes) without an item to give: pull again after a look at signals, so
        /// skipping a long part of a file never makes the loop deaf.
        case paused
        /// The recording (or the picked device's part of it) is over.
        case end
    }

    /// The bytes one pull reads at most without an item to give before it says ``Pull/paused``.
    public static let pauseAfter = 1 << 20

    /// Bytes read at a time.
    public static let chunkSize = 1 << 16

    public let file: any ByteInput
    private var stream: RecordingStream
    private let selector: String?
    private var chunk = [UInt8](repeating: 0, count: RecordingInput.chunkSize)
    /// The devices announced so far, for the listing in an error.
    private var seen: [StreamedDevice] = []
    private var picked: StreamedDevice?
    /// Whether the events read now are the picked device's.
    private var playing = false
    /// Whether nothing more is needed from the input.
    private var done = false
    private var warned = 0
    /// Whether the stream's warnings are printed.
    private let warns: Bool
    /// Bytes read by the current pull.
    private var readInPull = 0
    /// The same recording read ahead for its devices alone, so the choice is settled before anything is played.
    private var scout: RecordingInput?

    /// Reads `file` as a recording in either format, or as bare evemu events of `description`.
    /// - Parameters:
    ///   - scout: the same file opened again, read first for its devices alone (a regular file): then a device
    ///     choice that cannot be made (``RecordingDeviceChoice``) is refused before any event is given.
    ///   - warns: whether the stream's warnings are printed on stderr.
    ///   - devicesOnly: whether only ``pullDevice()`` is wanted: a `libinput record` file's events are then skipped
    ///     unparsed (``RecordingStream/init(fileName:maximumLineLength:skippingEvents:)``).
    public init(
        _ file: any ByteInput,
        selector: String?,
        description: DeviceDescription? = nil,
        scout: (any ByteInput)? = nil,
        warns: Bool = true,
        devicesOnly: Bool = false
    ) {
        self.file = file
        self.selector = selector
        self.warns = warns
        if let scout, description == nil {
            self.scout = RecordingInput(scout, selector: selector, warns: false, devicesOnly: true)
        }
        if let description {
            stream = RecordingStream(eventsFileName: file.name, description: description)
        } else {
            stream = RecordingStream(fileName: file.name, skippingEvents: devicesOnly)
        }
    }

    /// The descriptor to poll while ``pull()`` says ``Pull/waiting``.
    public var fileDescriptor: Int32 { file.fileDescriptor }

    /// The line of the last item pulled, for messages.
    public private(set) var line: Int?

    /// The next device or event of the picked device, reading more when needed and possible.
    ///
    /// After the picked device's events, the rest of the recording is read (its events skipped) when the choice was
    /// a part of a name, so a second device it names is refused as it is by `describe`.
    /// - Throws: `RecordingError` for what is not a recording, a malformed line, or a device choice that cannot be
    ///   made; the input's own error when it cannot be read.
    public func pull() throws -> Pull {
        readInPull = 0
        if let scout {
            if try !settle(scout) { return .paused }
            self.scout = nil
        }
        while true {
            if done { return .end }
            switch try nextItem() {
            case .device(let device)?:
                if let result = try choose(device) { return result }
            case .event(let event, let number)?:
                guard playing else { continue }
                line = number
                return .event(event, line: number)
            case nil:
                if stream.isAtEnd {
                    done = true
                    if picked == nil { throw missing() }
                    return .end
                }
                if try readMore() { return .waiting }
                if readInPull >= Self.pauseAfter { return .paused }
            }
        }
    }

    /// Reads the scout on: true once it has settled the choice (every device seen without a selector), false to
    /// pause. A choice that cannot be made throws, naming the devices.
    private func settle(_ scout: RecordingInput) throws -> Bool {
        while true {
            switch try scout.pullDevice() {
            case .device:
                if selector == nil, scout.seen.count > 1 {
                    throw RecordingError(
                        file: file.name,
                        line: nil,
                        message: "the recording holds more than one device, \(RecordingDeviceChoice.advice): "
                            + scout.listing
                    )
                }
                // With a selector, the scout gives the one device it names, once no other can.
                if selector != nil { return true }
            case .end: return true
            case .paused, .waiting: return false
            }
        }
    }

    /// What ``pullDevice()`` found.
    public enum DevicePull {
        /// A device `-d` names (each one of the recording without `-d`); its events are skipped.
        case device(StreamedDevice)
        /// Nothing more has arrived yet: poll ``fileDescriptor``.
        case waiting
        /// Much was read without a device to give: pull again after a look at signals (``Pull/paused``).
        case paused
        /// Every device has been given.
        case end
    }

    /// The next device of the recording, its events read and skipped (`describe`): every one without a selector,
    /// else the one it names, given once the whole recording showed that it names only one. An evemu file
    /// describes one device: nothing after its description is read.
    /// - Throws: as ``pull()``.
    public func pullDevice() throws -> DevicePull {
        readInPull = 0
        while true {
            if done { return .end }
            switch try nextItem() {
            case .device(let device)?:
                seen.append(device)
                if stream.format == .evemu { done = true }
                guard let selector else { return .device(device) }
                if RecordingDeviceChoice.matches(selector, device) {
                    if picked != nil { throw ambiguous(selector) }
                    picked = device
                    if RecordingDeviceChoice.isUnique(selector, device) { done = true }
                }
                if done {
                    guard let picked else { throw missing() }
                    return .device(picked)
                }
            case .event?:
                continue
            case nil:
                if stream.isAtEnd {
                    done = true
                    if selector == nil, !seen.isEmpty { return .end }
                    guard let picked else { throw missing() }
                    return .device(picked)
                }
                if try readMore() { return .waiting }
                if readInPull >= Self.pauseAfter { return .paused }
            }
        }
    }

    /// The stream's next item, its warnings printed.
    private func nextItem() throws -> RecordingStreamItem? {
        defer { printWarnings() }
        return try stream.next()
    }

    /// Feeds the stream the next chunk; true when nothing is ready yet.
    private func readMore() throws -> Bool {
        let result = try chunk.withUnsafeMutableBytes { buffer in try file.read(into: buffer) }
        switch result {
        case .bytes(let count):
            stream.feed(chunk[0..<count])
            readInPull += count
        case .wouldBlock: return true
        case .end: stream.finish()
        }
        return false
    }

    /// Takes a newly announced device: the picked one (returned), one to skip (nil), or the end of the picked one.
    private func choose(_ device: StreamedDevice) throws -> Pull? {
        seen.append(device)
        let wasPlaying = playing
        playing = false
        guard let selector else {
            // Without a choice, a second device is a question for the user.
            guard picked == nil else {
                throw RecordingError(
                    file: file.name,
                    line: nil,
                    message: "the recording holds more than one device, \(RecordingDeviceChoice.advice): \(listing)"
                )
            }
            picked = device
            playing = true
            return .device(device)
        }
        guard RecordingDeviceChoice.matches(selector, device) else {
            if wasPlaying, let picked, RecordingDeviceChoice.isUnique(selector, picked) {
                done = true
                return .end
            }
            return nil
        }
        if picked != nil { throw ambiguous(selector) }
        picked = device
        playing = true
        return .device(device)
    }

    private func ambiguous(_ selector: String) -> RecordingError {
        let matching = seen.filter { RecordingDeviceChoice.matches(selector, $0) }.count
        return RecordingError(
            file: file.name,
            line: nil,
            message:
                "\(matching) devices match '\(selector.forTerminalName)', \(RecordingDeviceChoice.advice): \(listing)"
        )
    }

    private func missing() -> RecordingError {
        guard let selector else {
            return RecordingError(file: file.name, line: nil, message: "the recording describes no device")
        }
        return RecordingError(
            file: file.name,
            line: nil,
            message: "no device matches '\(selector.forTerminalName)', \(RecordingDeviceChoice.advice): \(listing)"
        )
    }

    private var listing: String { RecordingDeviceChoice.listing(seen) }

    private func printWarnings() {
        guard warns else { return }
        while warned < stream.warnings.count {
            Diagnostics.note(stream.warnings[warned].description)
            warned += 1
        }
    }
}
