/// Everything the tracker knows about one contact; dropped as a whole when the contact ends.
struct TrackedContact: Sendable {
    /// Begin order: ties in force go to the smaller value.
    var order: Int
    var slot: Int?
    var x: Int32?
    var y: Int32?
    var rawPressure: Int32
    var filter = SmoothingFilter()
    /// The smoothed pressure clamped into the declared range: the value stability, tare and the settled mean use.
    var value = 0.0
    var tarePressure: Double?
    /// Whether ``tarePressure`` is provisional: the tare was taken before the contact settled, so it moves to the
    /// contact's settled value when the contact next becomes stable (``WeightTracker/tare()``).
    var tareAwaitsSettling = false
    /// Whether this contact is the carrier of a carrier tare.
    var isCarrier = false
    var anchorPressure = 0.0
    var anchorTime: EventTime
    var stable = false
    /// Since when this contact has led the heaviest mark's holder by more than the margin, or nil.
    var leadingSince: EventTime?
    /// The values seen since the anchor: their mean is the settled value, their spread the noise.
    var window = ValueWindow()
    /// The tracker's count of the last frame that listed this contact (a repeat in the same frame is ignored).
    var frameStamp = 0
    /// Where the last reading ranked this contact, its force and its grams: written by the tracker's render, which
    /// ranks the contacts in one order and lists them in another.
    var rank = 0
    var force = 0.0
    var grams: Double?

    init(order: Int, slot: Int?, x: Int32?, y: Int32?, rawPressure: Int32, anchorTime: EventTime) {
        self.order = order
        self.slot = slot
        self.x = x
        self.y = y
        self.rawPressure = rawPressure
        self.anchorTime = anchorTime
    }

    /// The pressure every reported quantity comes from: while stable, the mean of the values since the anchor (a
    /// resting object reads steady); otherwise the latest value, so a moving load is followed without lag.
    var reportedPressure: Double {
        stable ? window.mean ?? value : value
    }
}

/// Count, sum, smallest and largest of the values since a contact's anchor.
struct ValueWindow: Sendable, Hashable {
    private(set) var count = 0
    private var sum = 0.0
    private(set) var smallest = 0.0
    private(set) var largest = 0.0

    /// Starts again from one value (the anchor moved).
    mutating func restart(_ value: Double) {
        count = 1
        sum = value
        smallest = value
        largest = value
    }

    /// Adds one value.
    mutating func add(_ value: Double) {
        guard count > 0 else { return restart(value) }
        count += 1
        sum += value
        smallest = Swift.min(smallest, value)
        largest = Swift.max(largest, value)
    }

    /// The mean, or nil before the first value.
    var mean: Double? { count > 0 ? sum / Double(count) : nil }

    /// Largest minus smallest: how much the value wandered while resting.
    var spread: Double { largest - smallest }
}
