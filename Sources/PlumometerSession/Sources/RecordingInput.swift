public import PlumometerCore
import PlumometerOutput
public import PlumometerRecording

/// A recording read as it arrives: a file, standard input (`-`), a FIFO or a pipe from a live `evemu-record` or
/// `libinput record`, fed a chunk at a time into a ``RecordingStream`` and never read ahead of what is played.
///
/// Memory is the chunk plus the stream's current line and description, whatever the recording's size. A regular
/// file is read when more is needed; anything else only once it is ready (``pull()`` says ``Pull/waiting``, and
/// the caller polls ``fileDescriptor``). One device is picked: the one `selector` names (index, node or a
/// substring of its name), or the only one. The stream's warnings are printed on stderr once each.
public final class RecordingInput {
    /// What ``pull()`` found.
    public enum Pull {
        /// The picked device; its events follow.
        case device(StreamedDevice)
        /// One of its events, and the line it was read from.
        case event(RawEvent, line: Int)
        /// Nothing more has arrived yet: poll ``fileDescriptor``.
        case waiting
        /// The recording (or the picked device's part of it) is over.
        case end
    }

    /// Bytes read at a time.
    public static let chunkSize = 1 << 16

    public let file: any ByteInput
    private var stream: RecordingStream
    private let selector: String?
    private var chunk = [UInt8](repeating: 0, count: RecordingInput.chunkSize)
    /// The devices announced so far, for the listing in an error.
    private var seen: [StreamedDevice] = []
    private var picked: StreamedDevice?
    private var pickedDone = false
    private var warned = 0

    /// Reads `file` as a recording in either format, or as bare evemu events of `description`.
    public init(_ file: any ByteInput, selector: String?, description: DeviceDescription? = nil) {
        self.file = file
        self.selector = selector
        if let description {
            stream = RecordingStream(eventsFileName: file.name, description: description)
        } else {
            stream = RecordingStream(fileName: file.name)
        }
    }

    /// The descriptor to poll while ``pull()`` says ``Pull/waiting``.
    public var fileDescriptor: Int32 { file.fileDescriptor }

    /// The line of the last item pulled, for messages.
    public private(set) var line: Int?

    /// The next device or event of the picked device, reading more when needed and possible.
    /// - Throws: `RecordingError` for what is not a recording, a malformed line, or a device choice that cannot be
    ///   made; the input's own error when it cannot be read.
    public func pull() throws -> Pull {
        while true {
            if pickedDone { return .end }
            let item: RecordingStreamItem?
            do {
                item = try stream.next()
            } catch {
                printWarnings()
                throw error
            }
            printWarnings()
            switch item {
            case .device(let device)?:
                if let result = try choose(device) { return result }
            case .event(let event, let number)?:
                guard picked != nil else { continue }
                line = number
                return .event(event, line: number)
            case nil:
                if stream.isAtEnd { return try ended() }
                let result = try chunk.withUnsafeMutableBytes { buffer in try file.read(into: buffer) }
                switch result {
                case .bytes(let count): stream.feed(chunk[0..<count])
                case .wouldBlock: return .waiting
                case .end: stream.finish()
                }
            }
        }
    }

    /// Takes a newly announced device: the picked one (returned), one to skip (nil), or the end of the picked one.
    private func choose(_ device: StreamedDevice) throws -> Pull? {
        seen.append(device)
        if picked != nil {
            // The picked device's events are over; without a choice, a second device is a question for the user.
            guard selector == nil else {
                pickedDone = true
                return .end
            }
            throw RecordingError(
                file: file.name,
                line: nil,
                message: "the recording holds more than one device, choose one with --device: \(listing)"
            )
        }
        guard matches(device) else { return nil }
        picked = device
        return .device(device)
    }

    private func matches(_ device: StreamedDevice) -> Bool {
        guard let selector else { return true }
        if let index = Int(selector) { return index == device.index }
        if device.node == selector { return true }
        return device.description.name.lowercased().contains(selector.lowercased())
    }

    private func ended() throws -> Pull {
        if picked == nil {
            let problem = selector.map { "no device matches '\($0)'" } ?? "the recording describes no device"
            throw RecordingError(file: file.name, line: nil, message: "\(problem): \(listing)")
        }
        return .end
    }

    private var listing: String {
        seen.map { device in
            "\(device.index): \(device.description.name.forTerminalName)" + (device.node.map { " (\($0))" } ?? "")
        }.joined(separator: "; ")
    }

    private func printWarnings() {
        while warned < stream.warnings.count {
            Diagnostics.note(stream.warnings[warned].description)
            warned += 1
        }
    }
}
