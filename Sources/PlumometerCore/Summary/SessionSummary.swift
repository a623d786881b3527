/// What a session came to: when each contact was placed and lifted, what it settled at, how long it held the
/// heaviest mark, and the session's duration, frames, resyncs and frames a slow consumer skipped.
///
/// Made by ``SessionSummarizer`` from the readings an output saw, on kernel time only, so a replayed recording
/// summarises exactly as the live session did.
public struct SessionSummary: Hashable, Sendable {
    /// The unit a settled weight is in: grams when the reading carried grams, else percent of full scale.
    public enum WeightUnit: String, Hashable, Sendable {
        case grams = "g"
        case percent = "%"
    }

    /// A contact's settled weight: the value its last stable reading showed, the one settled value every view
    /// shows for it (docs/quantities.md, "One weight per object"), with how much that value moved over its last
    /// stable run.
    public struct SettledWeight: Hashable, Sendable {
        /// Grams, or percent when grams were not known.
        public var unit: WeightUnit
        /// The settled value: what the contact's last stable reading showed (the tracker's settled value, the
        /// time-weighted mean of its last run at rest).
        public var mean: Double
        /// The smallest value shown while stable in that last stable run.
        public var minimum: Double
        /// The largest value shown while stable in that last stable run.
        public var maximum: Double
        /// The time-weighted (population) standard deviation of the values shown in that last stable run.
        public var standardDeviation: Double
        /// Seconds the contact was stable in all.
        public var stableSeconds: Double
    }

    /// The largest value a contact read at any moment, stable or not: what there is to say of a contact that never
    /// settled (a tap, a press, a plum rolled off before it came to rest).
    public struct Peak: Hashable, Sendable {
        /// Grams when the contact's first reading carried grams, else percent of full scale.
        public var unit: WeightUnit
        /// The largest value in that unit.
        public var value: Double
    }

    /// One contact of the session.
    public struct Contact: Hashable, Sendable {
        /// The contact's id.
        public var id: Int
        /// The time of the first reading that had it.
        public var placed: EventTime
        /// The time of the first reading without it, or nil when it was still down at the end.
        public var lifted: EventTime?
        /// What it settled at, or nil when it was never stable.
        public var settled: SettledWeight?
        /// The largest value it read, stable or not.
        public var peak: Peak
        /// Seconds it carried the heaviest mark.
        public var heaviestSeconds: Double
    }

    /// The kernel time of the first reading, or nil for a session without readings.
    public var start: EventTime?
    /// The kernel time the session ended (the last reading, or later when the summariser was told so).
    public var end: EventTime?
    /// Readings the consumer saw (frames and the ticks that changed stability).
    public var frames: Int
    /// Readings that followed a `SYN_DROPPED` resynchronisation, seen or skipped.
    public var resyncs: Int
    /// Readings a slow consumer never saw (the latest state won over them).
    public var skipped: Int
    /// Every contact, in the order they were placed (ties by id).
    public var contacts: [Contact]

    /// `end - start` in seconds (0 without readings).
    public var duration: Double {
        guard let start, let end else { return 0 }
        return end.seconds(since: start)
    }
}

/// Builds a ``SessionSummary`` from readings fed one at a time: constant memory per contact, no clock, no I/O.
///
/// Each reading's state holds until the next reading (or the end): that is how long a contact held the heaviest
/// mark and how much a stable value weighs in its mean. Readings must come in time order; one earlier than the
/// last counts as at the last one's time.
public struct SessionSummarizer: Sendable {
    private struct Running: Sendable {
        var contact: SessionSummary.Contact
        var unit: SessionSummary.WeightUnit?
        // Time-weighted sums of (value - origin), shifted so a 5 kg weight's variance does not cancel away.
        var origin = 0.0
        var weight = 0.0
        var sum = 0.0
        var sumOfSquares = 0.0
        var count = 0
        var unweightedSum = 0.0
        var unweightedSquares = 0.0
        var minimum = Double.infinity
        var maximum = -Double.infinity
        /// Whether the last reading was stable: the next stable one continues its run, else begins a new one.
        var inRun = false
        /// The value of the last stable reading: the settled value.
        var lastStable = 0.0
        /// Seconds stable over every run.
        var stableSeconds = 0.0
        /// The stable value of the previous reading, waiting for the next reading's time to know its weight.
        var pendingValue: Double?
        var wasHeaviest = false
    }

    private var start: EventTime?
    private var last: EventTime?
    private var frames = 0
    private var resyncs = 0
    private var skipped = 0
    /// The contacts down at the last reading, in its order (a handful: a linear search beats hashing here).
    private var down: [Running] = []
    private var finished: [SessionSummary.Contact] = []

    public init() {}

    /// Takes in one reading the consumer saw.
    public mutating func consume(_ reading: Reading) {
        let time = last.map { Swift.max($0, reading.time) } ?? reading.time
        if start == nil { start = time }
        advance(to: time)
        frames += 1
        if reading.resync { resyncs += 1 }
        // The common case, the same contacts as last time in the same order: update in place.
        if down.count == reading.contacts.count && zip(down, reading.contacts).allSatisfy({ $0.contact.id == $1.id }) {
            for index in down.indices { Self.take(reading.contacts[index], into: &down[index]) }
            last = time
            return
        }
        var next: [Running] = []
        next.reserveCapacity(reading.contacts.count)
        var carried = 0
        for contact in reading.contacts {
            var running: Running
            if let index = down.firstIndex(where: { $0.contact.id == contact.id }) {
                running = down[index]
                carried += 1
            } else {
                let (unit, value) = Self.value(of: contact)
                running = Running(
                    contact: .init(
                        id: contact.id,
                        placed: time,
                        lifted: nil,
                        settled: nil,
                        peak: .init(unit: unit, value: value),
                        heaviestSeconds: 0
                    )
                )
            }
            Self.take(contact, into: &running)
            next.append(running)
        }
        if carried < down.count {
            for var running in down where !next.contains(where: { $0.contact.id == running.contact.id }) {
                running.contact.lifted = time
                finished.append(Self.close(running))
            }
        }
        down = next
        last = time
    }

    /// Records what `contact` shows now: its heaviest mark, its peak, and its value when stable.
    private static func take(_ contact: ContactReading, into running: inout Running) {
        running.wasHeaviest = contact.heaviest
        running.pendingValue = nil
        let (unit, value) = Self.value(of: contact)
        if unit == running.contact.peak.unit && value > running.contact.peak.value {
            running.contact.peak.value = value
        }
        guard contact.stable else {
            running.inRun = false
            return
        }
        if running.unit == nil { running.unit = unit }
        guard running.unit == unit else {
            running.inRun = false
            return
        }
        if !running.inRun {
            // A new stable run: the settled weight is the last run's, so the sums begin again.
            running.inRun = true
            running.origin = value
            running.weight = 0
            running.sum = 0
            running.sumOfSquares = 0
            running.count = 0
            running.unweightedSum = 0
            running.unweightedSquares = 0
            running.minimum = .infinity
            running.maximum = -.infinity
        }
        running.lastStable = value
        running.pendingValue = value
        let shifted = value - running.origin
        running.count += 1
        running.unweightedSum += shifted
        running.unweightedSquares += shifted * shifted
        running.minimum = Swift.min(running.minimum, value)
        running.maximum = Swift.max(running.maximum, value)
    }

    /// What `contact` reads: grams when it carries them, else percent of full scale.
    private static func value(of contact: ContactReading) -> (unit: SessionSummary.WeightUnit, value: Double) {
        contact.grams.map { (.grams, $0) } ?? (.percent, contact.percent)
    }

    /// Counts readings the consumer never saw, `resyncs` of them resynchronisations.
    public mutating func noteSkipped(readings: Int, resyncs: Int = 0) {
        skipped += Swift.max(0, readings)
        self.resyncs += Swift.max(0, resyncs)
    }

    /// The summary so far, as if the session ended at `end` (the last reading's time when nil or earlier).
    public func summary(endingAt end: EventTime? = nil) -> SessionSummary {
        var copy = self
        let ending = last.map { latest in end.map { Swift.max(latest, $0) } ?? latest }
        if let ending { copy.advance(to: ending) }
        let open = copy.down.map(Self.close)
        let contacts = (copy.finished + open).sorted { ($0.placed, $0.id) < ($1.placed, $1.id) }
        return SessionSummary(
            start: start,
            end: ending,
            frames: frames,
            resyncs: resyncs,
            skipped: skipped,
            contacts: contacts
        )
    }

    /// Credits the time from the last reading to `time` to what the last reading showed.
    private mutating func advance(to time: EventTime) {
        guard let last, time > last else { return }
        let seconds = time.seconds(since: last)
        for index in down.indices {
            if down[index].wasHeaviest { down[index].contact.heaviestSeconds += seconds }
            if let value = down[index].pendingValue {
                let shifted = value - down[index].origin
                down[index].weight += seconds
                down[index].stableSeconds += seconds
                down[index].sum += seconds * shifted
                down[index].sumOfSquares += seconds * shifted * shifted
            }
        }
        self.last = time
    }

    /// The contact with its settled weight worked out.
    private static func close(_ running: Running) -> SessionSummary.Contact {
        var contact = running.contact
        guard let unit = running.unit, running.count > 0 else { return contact }
        // Stable readings all at one instant weigh nothing in time: fall back to counting them.
        let (weight, sum, squares) =
            running.weight > 0
            ? (running.weight, running.sum, running.sumOfSquares)
            : (Double(running.count), running.unweightedSum, running.unweightedSquares)
        let meanShift = sum / weight
        let variance = Swift.max(0, squares / weight - meanShift * meanShift)
        contact.settled = .init(
            unit: unit,
            mean: running.lastStable,
            minimum: running.minimum,
            maximum: running.maximum,
            standardDeviation: variance.squareRoot(),
            stableSeconds: running.stableSeconds
        )
        return contact
    }
}
