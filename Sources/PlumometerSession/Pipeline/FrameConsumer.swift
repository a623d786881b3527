public import PlumometerCore

/// Something frames are played into, with time passing between them: the reading pipeline, or the guided
/// calibration. Sources (a live device, a recording at any pace) tick it at exactly ``nextDeadline``.
public protocol FrameConsumer: AnyObject {
    /// Consumes a frame; returns true to stop reading.
    func consume(_ frame: ContactFrame) throws -> Bool
    /// Time has passed to `now` (a deadline) without a frame; returns true to stop reading.
    func tick(now: EventTime) throws -> Bool
    /// The next device time at which time passing alone changes something, or nil.
    var nextDeadline: EventTime? { get }
    /// The input ended (a recording's end) with its last event at `time`: the deadlines up to `time` are due, and
    /// nothing after it is evidence (docs/quantities.md, "The end of a recording"). Returns true to stop reading.
    func inputEnded(at time: EventTime) throws -> Bool
}

extension FrameConsumer {
    /// Ticks the consumer at each of its deadlines up to `time`, in order: what every source (a recording at any
    /// pace, a live device) does when time passes, so readings are stamped alike.
    /// - Returns: true when the consumer asked to stop.
    public func tickDeadlines(through time: EventTime) throws -> Bool {
        while let deadline = nextDeadline, deadline <= time {
            if try tick(now: deadline) { return true }
            // A tick at its own deadline always moves the deadline on; never loop on one that does not.
            if let after = nextDeadline, after <= deadline { break }
        }
        return false
    }

    /// By default the end of the input honours the deadlines up to its last event, and none after it.
    public func inputEnded(at time: EventTime) throws -> Bool {
        try tickDeadlines(through: time)
    }
}

/// A source of frames driven by the poll loop (a live device, a recording at its pace): the timed half of reading,
/// called before every wait. Reading itself happens in the source's own watch handler, or here for a recording.
public protocol FrameSource: AnyObject {
    /// Plays or ticks what is due now into the source's consumer.
    /// - Returns: when the source next needs a look, or `.finished` when it has nothing more to give.
    func due() throws -> Due
}
