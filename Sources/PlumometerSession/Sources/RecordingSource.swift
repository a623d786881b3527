public import PlumometerCore
import PlumometerOutput
public import PlumometerRecording

/// Plays a recorded device's events through the decoder into a ``FrameConsumer``, ticking it at exactly its
/// deadlines between events, so a recording gives the same readings, with the same time stamps, whether it is
/// played as fast as possible, sped up, or in real time. The CLI's `LiveSource` is its live counterpart; both drive
/// the one decoder (``SourceDecoder``) with ``DeviceInput``s (a recording has no resync markers: its `SYN_DROPPED`
/// is an event).
///
/// Its events arrive from a ``RecordingInput`` (a file read in chunks, a pipe, a FIFO, bytes in memory), which may
/// have nothing more yet: then the player is ``isWaiting`` and plays on once more has arrived.
public struct RecordingPlayer {
    private let input: RecordingInput
    private var decoder: SourceDecoder
    /// The next event to play, or nil at the end (or after a malformed line), or while waiting for more.
    public private(set) var next: RawEvent?
    /// Whether the recording has nothing more yet (not the end): poll its input and play on.
    public private(set) var isWaiting = false
    /// Whether the wait is only a pause (``RecordingInput/Pull/paused``): play on at the loop's next turn, with no
    /// descriptor to watch.
    public private(set) var isPaused = false
    /// The error that ended the recording early, if any: everything before it has been played.
    public private(set) var failure: (any Error)?
    /// The time of the first event (zero for an empty recording).
    public let startTime: EventTime
    /// The latest event time played.
    public private(set) var lastTime: EventTime
    private let fileName: String
    private var warnedBackwards = false
    /// Whether the consumer has been told the recording ended (``FrameConsumer/inputEnded(at:)``).
    public private(set) var ended = false

    /// Plays `device` as its events arrive from `input`, starting with `first` (nil when the device has none).
    public init(_ device: StreamedDevice, first: RawEvent?, from input: RecordingInput) {
        self.input = input
        fileName = device.description.path
        decoder = SourceDecoder(device.description, name: device.description.path)
        next = first
        startTime = first?.time ?? .zero
        lastTime = startTime
    }

    public var isFinished: Bool { next == nil && !isWaiting }

    /// Takes the next event into ``next``: nil at the end, after an error, or (``isWaiting``) until more arrives.
    private mutating func advance() {
        do {
            switch try input.pull() {
            case .event(let event, _):
                next = event
                isWaiting = false
            case .waiting:
                next = nil
                isWaiting = true
                isPaused = false
            case .paused:
                next = nil
                isWaiting = true
                isPaused = true
            case .device, .end:
                next = nil
                isWaiting = false
            }
        } catch {
            failure = error
            next = nil
            isWaiting = false
        }
    }

    /// Plays the events due at or before `time` (all of them when nil), at most `limit`, with the consumer's
    /// deadlines ticked in between; with a `time`, also the deadlines up to it, but never past the last event once
    /// the recording has ended.
    ///
    /// The end of a recording is the end of the evidence: when the last event has been played (or a malformed line
    /// ended it), the consumer's deadlines up to that event's time are honoured and it is told so once
    /// (``FrameConsumer/inputEnded(at:)``): a reading pipeline then resolves a heaviest hold still pending, as the
    /// live device would a moment later, and nothing becomes stable in the silence after the end (time a recording
    /// does not show). A paced replay ends exactly as a fast one.
    /// - Returns: true when the consumer asked to stop.
    public mutating func play(
        until time: EventTime?,
        limit: Int = .max,
        into consumer: any FrameConsumer
    ) throws
        -> Bool
    {
        var played = 0
        if isWaiting { advance() }
        while let event = next, played < limit {
            if let time, event.time > time { break }
            if event.time < lastTime && !warnedBackwards {
                // Recordings are taken as written; a clock that jumps back (an edited file, a merge of two
                // recordings) is worth a word, since stability and --interval are judged on these times.
                warnedBackwards = true
                Diagnostics.note(
                    "\(fileName)" + (input.line.map { ":\($0)" } ?? "") + ": event time goes backwards "
                        + "(\(NumberText.seconds(event.time)) after \(NumberText.seconds(lastTime))); readings use the times as recorded"
                )
            }
            // Deadlines only need a look when time moves on: the events of one frame share their time.
            if event.time > lastTime || played == 0, try consumer.tickDeadlines(through: event.time) { return true }
            lastTime = Swift.max(lastTime, event.time)
            if let frame = decoder.consume(.event(event)), try consumer.consume(frame) { return true }
            played += 1
            advance()
        }
        // Never silently: once, at the end, as a live device says it when it closes.
        if isFinished { decoder.reportDroppedSlots() }
        if isFinished, !ended {
            ended = true
            return try consumer.inputEnded(at: lastTime)
        }
        if let time, !ended { return try consumer.tickDeadlines(through: time) }
        return false
    }
}

/// A recording as a source of frames in the session's loop, read as it arrives (`replay FILE`, `replay -`, a FIFO,
/// a live `evemu-record` piped in, the bundled demo, every command's `--replay`): it waits for the device and its
/// first event, has the consumer built for them (``Begin``), then plays at the pace asked for, the loop sleeping
/// until the next event or deadline is due in device time.
///
/// Nothing here blocks: whenever the input has nothing more yet, its descriptor is watched in the loop (whose
/// signals keep SIGINT and SIGTERM working) until it is ready, and unwatched again so a ready input that is not
/// needed yet (a paced replay ahead of its time) never makes the loop spin. Memory is the input's chunk and the
/// current line, whatever the recording's size.
public final class RecordingSource: FrameSource {
    /// Builds the consumer for the device once it and its first event (nil: it has none) are known; nil plays
    /// nothing (the device was all that was wanted).
    public typealias Begin = (StreamedDevice, RawEvent?) throws -> (any FrameConsumer)?

    /// Events handled between two looks at signals and keys when playing as fast as possible.
    public static let fastBatch = 4_096

    private let input: RecordingInput
    private let pacing: Pacing
    private let loop: any EventLoop
    private let begin: Begin
    /// The device picked, once the recording described it.
    public private(set) var device: StreamedDevice?
    private var player: RecordingPlayer?
    private var consumer: (any FrameConsumer)?
    private var begun = false
    private var token: Int?
    /// The wall-clock time playing started, for a paced replay (on the clock that leaves out stops by Ctrl-Z).
    private var wallStart: EventTime?

    /// Plays the device `input` picks at `pacing` in `loop`, into the consumer `begin` builds for it.
    public init(_ input: RecordingInput, pacing: Pacing, loop: any EventLoop, begin: @escaping Begin) {
        self.input = input
        self.pacing = pacing
        self.loop = loop
        self.begin = begin
    }

    /// The error that ended the recording early, if any: everything before it has been played.
    public var failure: (any Error)? { player?.failure }

    /// The time of the device's first event (zero when it has none), once known.
    public var startTime: EventTime? { player?.startTime }

    /// The latest event time played, once playing.
    public var lastTime: EventTime? { player?.lastTime }

    /// Whether the consumer asked to stop (rather than the recording ending).
    public private(set) var consumerStopped = false

    public func due() throws -> Due {
        if !begun {
            var first: RawEvent?
            opening: while true {
                switch try input.pull() {
                case .device(let found): device = found
                case .event(let event, _):
                    first = event
                    break opening
                case .waiting:
                    return watchInput()
                case .paused:
                    return .within(0)
                case .end:
                    break opening
                }
            }
            begun = true
            // The input throws before its end when no device was picked.
            guard let device, let consumer = try begin(device, first) else { return .finished }
            self.consumer = consumer
            player = RecordingPlayer(device, first: first, from: input)
        }
        guard player != nil, let consumer else { return .finished }
        let due = try play(into: consumer)
        guard due != .finished, player?.isWaiting == true else { return due }
        return due.sooner(player?.isPaused == true ? .within(0) : watchInput())
    }

    /// Plays what is due now.
    private func play(into consumer: any FrameConsumer) throws -> Due {
        guard let speed = pacing.speed else {
            if try player?.play(until: nil, limit: Self.fastBatch, into: consumer) == true {
                consumerStopped = true
                return .finished
            }
            if player?.isWaiting == true { return .idle }
            return player?.isFinished == true ? .finished : .within(0)
        }
        let start = wallStart ?? MonotonicClock.playbackNow()
        wallStart = start
        let startTime = player?.startTime ?? .zero
        // The device time that corresponds to now on the wall clock, the time stopped by Ctrl-Z left out.
        let elapsed = Double(MonotonicClock.playbackNow().microseconds - start.microseconds) * speed
        let now = EventTime(microseconds: startTime.microseconds + clampedMicroseconds(elapsed))
        if try player?.play(until: now, into: consumer) == true {
            consumerStopped = true
            return .finished
        }
        var due: EventTime
        if let next = player?.next {
            due = next.time
        } else {
            // A live pipe with nothing more yet: its events are played as they arrive, its deadlines on time.
            guard player?.isWaiting == true else { return .finished }
            guard let deadline = consumer.nextDeadline else { return .idle }
            due = deadline
        }
        if let deadline = consumer.nextDeadline { due = Swift.min(due, deadline) }
        return .within(clampedMicroseconds(Double(due.microseconds - now.microseconds) / speed))
    }

    /// Watches the input until it is ready once; the next look at ``due()`` reads it.
    ///
    /// - Returns: `.within(0)` when the watch is new: the loop lists its descriptors before it asks for the
    ///   timeout, so one more turn is needed for the wait to include the input (else it could sleep for ever).
    private func watchInput() -> Due {
        guard token == nil else { return .idle }
        token = loop.watchInput(input.fileDescriptor) { [unowned self] in
            if let token = self.token { self.loop.unwatch(token) }
            self.token = nil
        }
        return .within(0)
    }
}
