import PlumometerCore
import PlumometerOutput
import PlumometerRecording

/// Plays a recorded device's events through the decoder into a ``FrameConsumer``, ticking it at exactly its
/// deadlines between events, so a recording gives the same readings, with the same time stamps, whether it is
/// played as fast as possible, sped up, or in real time. ``LiveSource`` is its live counterpart; both drive the one
/// ``ContactDecoder`` with ``DeviceInput``s (a recording has no resync markers: its `SYN_DROPPED` is an event).
struct RecordingPlayer {
    private var events: EventSource
    private var decoder: ContactDecoder
    /// The next event to play, or nil at the end (or after a malformed line).
    private(set) var next: RawEvent?
    /// The error that ended the recording early, if any: everything before it has been played.
    private(set) var failure: RecordingError?
    /// The time of the first event (zero for an empty recording).
    let startTime: EventTime
    /// The latest event time played.
    private(set) var lastTime: EventTime
    private let fileName: String
    private var warnedBackwards = false

    init(_ device: RecordedDevice) {
        events = device.events
        fileName = device.description.path
        decoder = ContactDecoder(device: device.description)
        var first: RawEvent?
        do throws(RecordingError) {
            first = try events.next()
        } catch {
            failure = error
        }
        next = first
        startTime = first?.time ?? .zero
        lastTime = startTime
    }

    var isFinished: Bool { next == nil }

    /// Plays the events due at or before `time` (all of them when nil), at most `limit`, with the consumer's
    /// deadlines ticked in between; with a `time`, also the deadlines up to it.
    /// - Returns: true when the consumer asked to stop.
    mutating func play(until time: EventTime?, limit: Int = .max, into consumer: any FrameConsumer) throws -> Bool {
        var played = 0
        while let event = next, played < limit {
            if let time, event.time > time { break }
            if event.time < lastTime && !warnedBackwards {
                // Recordings are taken as written; a clock that jumps back (an edited file, a merge of two
                // recordings) is worth a word, since stability and --interval are judged on these times.
                warnedBackwards = true
                Diagnostics.note(
                    "\(fileName)" + (events.line.map { ":\($0)" } ?? "") + ": event time goes backwards "
                        + "(\(NumberText.seconds(event.time)) after \(NumberText.seconds(lastTime))); readings use the times as recorded"
                )
            }
            // Deadlines only need a look when time moves on: the events of one frame share their time.
            if event.time > lastTime || played == 0, try consumer.tickDeadlines(through: event.time) { return true }
            lastTime = Swift.max(lastTime, event.time)
            if let frame = decoder.consume(.event(event)), try consumer.consume(frame) { return true }
            played += 1
            do throws(RecordingError) {
                next = try events.next()
            } catch {
                failure = error
                next = nil
            }
        }
        if let time { return try consumer.tickDeadlines(through: time) }
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
    /// The wall-clock time playing started, for a paced replay.
    private var wallStart: EventTime?

    /// Plays `player` into `consumer` at `pacing`.
    init(_ player: RecordingPlayer, pacing: Pacing, into consumer: any FrameConsumer) {
        self.player = player
        self.pacing = pacing
        self.consumer = consumer
    }

    /// The error that ended the recording early, if any: everything before it has been played.
    var failure: RecordingError? { player.failure }

    func due() throws -> Due {
        guard let speed = pacing.speed else {
            if try player.play(until: nil, limit: Self.fastBatch, into: consumer) { return .finished }
            return player.isFinished ? .finished : .within(0)
        }
        let start = wallStart ?? MonotonicClock.now()
        wallStart = start
        // The device time that corresponds to now on the wall clock.
        let elapsed = Double(MonotonicClock.now().microseconds - start.microseconds) * speed
        let now = EventTime(microseconds: player.startTime.microseconds + clampedMicroseconds(elapsed))
        if try player.play(until: now, into: consumer) { return .finished }
        guard let next = player.next else { return .finished }
        var due = next.time
        if let deadline = consumer.nextDeadline { due = Swift.min(due, deadline) }
        return .within(clampedMicroseconds(Double(due.microseconds - now.microseconds) / speed))
    }
}
