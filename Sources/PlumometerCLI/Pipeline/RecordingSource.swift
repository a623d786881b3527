import PlumometerCore
import PlumometerOutput
import PlumometerRecording

/// Plays a recorded device's events through the decoder into a ``FrameConsumer``, ticking it at exactly its
/// deadlines between events, so a recording gives the same readings, with the same time stamps, whether it is
/// played as fast as possible, sped up, or in real time. ``LiveSource`` is its live counterpart; both drive the one
/// ``ContactDecoder`` with ``DeviceInput``s (a recording has no resync markers: its `SYN_DROPPED` is an event).
///
/// Its events come from a recording read whole (``EventSource``) or from one that arrives as it is played
/// (``RecordingInput``: a pipe, a FIFO, a file read in chunks), which may have nothing more yet: then the player is
/// ``isWaiting`` and plays on once more has arrived.
struct RecordingPlayer {
    private enum Events {
        case whole(EventSource)
        case arriving(RecordingInput)
    }

    private var events: Events
    private var decoder: ContactDecoder
    /// The next event to play, or nil at the end (or after a malformed line), or while waiting for more.
    private(set) var next: RawEvent?
    /// Whether an arriving recording has nothing more yet (not the end): poll its input and play on.
    private(set) var isWaiting = false
    /// The error that ended the recording early, if any: everything before it has been played.
    private(set) var failure: (any Error)?
    /// The time of the first event (zero for an empty recording).
    let startTime: EventTime
    /// The latest event time played.
    private(set) var lastTime: EventTime
    private let fileName: String
    private let declaredSlots: Int?
    private var warnedBackwards = false
    private var reportedDrops = false
    /// Whether the consumer has been told the recording ended (``FrameConsumer/inputEnded(at:)``).
    private(set) var ended = false

    init(_ device: RecordedDevice) {
        var source = device.events
        fileName = device.description.path
        declaredSlots = device.description.slotCount
        decoder = ContactDecoder(device: device.description)
        var first: RawEvent?
        do throws(RecordingError) {
            first = try source.next()
        } catch {
            failure = error
        }
        events = .whole(source)
        next = first
        startTime = first?.time ?? .zero
        lastTime = startTime
    }

    /// Plays `device` as its events arrive from `input`, starting with `first` (nil when the device has none).
    init(_ device: StreamedDevice, first: RawEvent?, from input: RecordingInput) {
        events = .arriving(input)
        fileName = device.description.path
        declaredSlots = device.description.slotCount
        decoder = ContactDecoder(device: device.description)
        next = first
        startTime = first?.time ?? .zero
        lastTime = startTime
    }

    var isFinished: Bool { next == nil && !isWaiting }

    /// The line of the event played last, when it came from a file.
    private var line: Int? {
        switch events {
        case .whole(let source): source.line
        case .arriving(let input): input.line
        }
    }

    /// Takes the next event into ``next``: nil at the end, after an error, or (``isWaiting``) until more arrives.
    private mutating func advance() {
        switch events {
        case .whole(var source):
            do throws(RecordingError) {
                next = try source.next()
            } catch {
                failure = error
                next = nil
            }
            events = .whole(source)
        case .arriving(let input):
            do {
                switch try input.pull() {
                case .event(let event, _):
                    next = event
                    isWaiting = false
                case .waiting:
                    next = nil
                    isWaiting = true
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
    }

    /// Plays the events due at or before `time` (all of them when nil), at most `limit`, with the consumer's
    /// deadlines ticked in between; with a `time`, also the deadlines up to it, but never past the last event once
    /// the recording has ended.
    ///
    /// The end of a recording is the end of the evidence, whichever initialiser made the player: when the last
    /// event has been played (or a malformed line ended it), the consumer's deadlines up to that event's time are
    /// honoured and it is told so once (``FrameConsumer/inputEnded(at:)``): a reading pipeline then resolves a
    /// heaviest hold still pending, as the live device would a moment later, and nothing becomes stable in the
    /// silence after the end (time a recording does not show). A paced replay ends exactly as a fast one.
    /// - Returns: true when the consumer asked to stop.
    mutating func play(until time: EventTime?, limit: Int = .max, into consumer: any FrameConsumer) throws -> Bool {
        var played = 0
        if isWaiting { advance() }
        while let event = next, played < limit {
            if let time, event.time > time { break }
            if event.time < lastTime && !warnedBackwards {
                // Recordings are taken as written; a clock that jumps back (an edited file, a merge of two
                // recordings) is worth a word, since stability and --interval are judged on these times.
                warnedBackwards = true
                Diagnostics.note(
                    "\(fileName)" + (line.map { ":\($0)" } ?? "") + ": event time goes backwards "
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
        if isFinished, decoder.droppedSlotEvents > 0, !reportedDrops {
            // Never silently: once, at the end, as a live device says it when it closes.
            reportedDrops = true
            Diagnostics.error(
                LiveSource.droppedSlotsMessage(fileName, decoder.droppedSlotEvents, declared: declaredSlots)
            )
        }
        if isFinished, !ended {
            ended = true
            return try consumer.inputEnded(at: lastTime)
        }
        if let time, !ended { return try consumer.tickDeadlines(through: time) }
        return false
    }
}

/// A recorded device as a source of frames in the poll loop: its events played into a consumer at the pace asked
/// for, the poll loop sleeping until the next event or deadline is due in device time.
final class RecordingSource: FrameSource {
    /// Events handled between two looks at signals and keys when playing as fast as possible.
    static let fastBatch = 4_096

    private var player: RecordingPlayer
    private let pacing: Pacing
    private let consumer: any FrameConsumer
    /// The wall-clock time playing started, for a paced replay (on the clock that leaves out stops by Ctrl-Z).
    private var wallStart: EventTime?

    /// Plays `player` into `consumer` at `pacing`.
    init(_ player: RecordingPlayer, pacing: Pacing, into consumer: any FrameConsumer) {
        self.player = player
        self.pacing = pacing
        self.consumer = consumer
    }

    /// The error that ended the recording early, if any: everything before it has been played.
    var failure: (any Error)? { player.failure }

    /// Whether the recording arrives as it is played and has nothing more yet: poll its input.
    var isWaiting: Bool { player.isWaiting }

    /// The latest event time played.
    var lastTime: EventTime { player.lastTime }

    /// Whether the consumer asked to stop (rather than the recording ending).
    private(set) var consumerStopped = false

    func due() throws -> Due {
        guard let speed = pacing.speed else {
            if try player.play(until: nil, limit: Self.fastBatch, into: consumer) {
                consumerStopped = true
                return .finished
            }
            if player.isWaiting { return .idle }
            return player.isFinished ? .finished : .within(0)
        }
        let start = wallStart ?? MonotonicClock.playbackNow()
        wallStart = start
        // The device time that corresponds to now on the wall clock, the time stopped by Ctrl-Z left out.
        let elapsed = Double(MonotonicClock.playbackNow().microseconds - start.microseconds) * speed
        let now = EventTime(microseconds: player.startTime.microseconds + clampedMicroseconds(elapsed))
        if try player.play(until: now, into: consumer) {
            consumerStopped = true
            return .finished
        }
        var due: EventTime
        if let next = player.next {
            due = next.time
        } else {
            // A live pipe with nothing more yet: its events are played as they arrive, its deadlines on time.
            guard player.isWaiting else { return .finished }
            guard let deadline = consumer.nextDeadline else { return .idle }
            due = deadline
        }
        if let deadline = consumer.nextDeadline { due = Swift.min(due, deadline) }
        return .within(clampedMicroseconds(Double(due.microseconds - now.microseconds) / speed))
    }
}
