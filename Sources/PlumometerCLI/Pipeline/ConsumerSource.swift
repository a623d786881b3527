import PlumometerCore
import PlumometerRecording
import PlumometerSession

/// The device a command's own consumer reads, as the consumer needs it before the first frame.
struct OpenedDevice {
    /// The device, as it described itself (a live one at open, a recorded one in its recording).
    let description: DeviceDescription
    /// The node read, or the recording's name for its device.
    let path: String
    /// The node: a live device's, or the one a recording says its device had (nil when it says none).
    let node: String?
    /// Where reading starts, in device time: now on a live device's clock, a recording's first event.
    let start: EventTime
    /// What rests on a live device at open (a resync frame), for the consumer to take first.
    let initialFrame: ContactFrame?
    /// Whether a recording holds an event at all (a live device: true).
    let hasEvents: Bool
    let kind: SourceKind
}

/// Where `weigh`, `calibrate` and `probe` read: a live device (`-d`, or the best one) or a recording
/// (`--replay FILE`, read as it arrives), as one source into the consumer their `begin` builds once the device is
/// known. One place for the choice all three make; then one ``Session/run(_:)``.
final class ConsumerSource {
    /// Builds the consumer for the device, having it take the ``OpenedDevice/initialFrame``; nil when there is
    /// nothing to read (the answer is in already, or only the device was wanted).
    typealias Begin = (OpenedDevice) throws -> (any FrameConsumer)?

    private var source: (any FrameSource)?
    private let live: LiveSource?
    private let recording: RecordingSource?
    private let limit: LimitedSource?

    /// Opens the device `selector` names (nil: the best one), or the recording `replay` (with its `--desc`) and the
    /// device of it `selector` names (``RecordingDeviceChoice``: nil for a recording of one device).
    /// - Parameters:
    ///   - liveTimeout: seconds of the wall clock after which reading a live device ends (``timedOut``).
    ///   - begin: builds the consumer; for a live device at once, for a recording once its device and first event
    ///     have arrived.
    init(
        device selector: String?,
        replay: String?,
        description: String?,
        in session: Session,
        liveTimeout: Double? = nil,
        begin: @escaping Begin
    ) throws {
        if let replay {
            let input = try RecordingFile.input(replay, selector: selector, description: description)
            let recording = RecordingSource(input, pacing: Pacing(speed: nil), loop: session.loop) { device, first in
                try begin(
                    OpenedDevice(
                        description: device.description,
                        path: device.description.path,
                        node: device.node,
                        start: first?.time ?? .zero,
                        initialFrame: nil,
                        hasEvents: first != nil,
                        kind: .recording
                    )
                )
            }
            source = recording
            live = nil
            self.recording = recording
            limit = nil
            return
        }
        let device = try LiveSource(path: try DeviceTarget(selector).resolve())
        live = device
        recording = nil
        let opened = OpenedDevice(
            description: device.description,
            path: device.path,
            node: device.path,
            start: device.clock.now(),
            initialFrame: device.initialFrame,
            hasEvents: true,
            kind: .device
        )
        let consumer: (any FrameConsumer)?
        do {
            consumer = try begin(opened)
        } catch {
            device.close()
            throw error
        }
        guard let consumer else {
            source = nil
            limit = nil
            return
        }
        device.start(in: session.loop, into: consumer)
        limit = liveTimeout.map { LimitedSource(device, duration: Int64($0 * 1_000_000)) }
        source = limit ?? device
    }

    /// Runs `session` until the source ends, the consumer stops, the live timeout or a stop signal (nothing, when
    /// there is nothing to read).
    func run(in session: Session) throws {
        if let source { try session.run(source) }
    }

    /// The error that ended a recording early, if any: everything before it has been played.
    var failure: (any Error)? { recording?.failure }

    /// Whether the live timeout ran out.
    var timedOut: Bool { limit?.expired == true }

    /// Where reading ended in device time: a recording's last event played, or now on a live device's clock.
    var endTime: EventTime? { recording?.lastTime ?? live?.clock.now() }

    /// Closes a live device (safe to call twice).
    func close() { live?.close() }
}
