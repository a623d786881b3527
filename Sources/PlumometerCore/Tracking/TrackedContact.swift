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
    /// The force it weighs with among the loads: its force, or 0 for a tared thing at its zero.
    var loadForce = 0.0
    var grams: Double?

    init(order: Int, slot: Int?, x: Int32?, y: Int32?, rawPressure: Int32, anchorTime: EventTime) {
        self.order = order
        self.slot = slot
        self.x = x
        self.y = y
        self.rawPressure = rawPressure
        self.anchorTime = anchorTime
    }

    /// The settled value: the mean of the values of the current run (``window``), as last judged (``WeightTracker``
    /// updates it whenever it judges the contact's stability).
    var settledPressure = 0.0

    /// The pressure every reported quantity comes from: while stable, the settled value, the mean of the values
    /// since the run began (a resting object reads steady); otherwise the latest value, so a moving load is followed
    /// without lag.
    var reportedPressure: Double {
        stable ? settledPressure : value
    }
}

/// The values of one contact's current run (since its anchor) as running sums: their mean is the settled value,
/// their least-squares trend against time says whether the value is still changing, the scatter about that trend
/// is the noise, and their spread (largest minus smallest) feeds the heaviest margin.
///
/// O(1) per value and no memory of the values themselves. Each value the device sent counts once (silence adds
/// nothing: a recording or a device that stops sending says nothing new). Times are seconds since the run began and
/// values are shifted by its first value, so that a 5 kg load's variance does not cancel away.
struct ValueWindow: Sendable, Hashable {
    private(set) var count = 0
    private(set) var smallest = 0.0
    private(set) var largest = 0.0
    private var start = EventTime.zero
    private var origin = 0.0
    private var sumT = 0.0
    private var sumTT = 0.0
    private var sumV = 0.0
    private var sumTV = 0.0
    private var sumVV = 0.0

    /// Starts again from one value at `time` (the anchor moved).
    mutating func restart(_ value: Double, at time: EventTime) {
        // One value, at time 0 and shifted to 0: every sum is 0.
        count = 1
        start = time
        origin = value
        sumT = 0
        sumTT = 0
        sumV = 0
        sumTV = 0
        sumVV = 0
        smallest = value
        largest = value
    }

    /// Adds one value at `time`.
    mutating func add(_ value: Double, at time: EventTime) {
        guard count > 0 else { return restart(value, at: time) }
        let t = Swift.max(0, time.seconds(since: start))
        let v = value - origin
        count += 1
        sumT += t
        sumTT += t * t
        sumV += v
        sumTV += t * v
        sumVV += v * v
        smallest = Swift.min(smallest, value)
        largest = Swift.max(largest, value)
    }

    /// The mean, or nil before the first value.
    var mean: Double? { count > 0 ? origin + sumV / Double(count) : nil }

    /// The least-squares trend of the values against time: its slope (units per second) and the scatter of the
    /// values about the trend line (units, a standard deviation). Zero slope while all values share one time.
    var trend: (slope: Double, scatter: Double) {
        guard count > 1 else { return (0, 0) }
        let n = Double(count)
        let meanT = sumT / n
        let meanV = sumV / n
        let varianceT = sumTT / n - meanT * meanT
        let covariance = sumTV / n - meanT * meanV
        let varianceV = Swift.max(0, sumVV / n - meanV * meanV)
        guard varianceT > 1e-12 else { return (0, varianceV.squareRoot()) }
        let slope = covariance / varianceT
        return (slope, Swift.max(0, varianceV - slope * covariance).squareRoot())
    }

    /// Largest minus smallest: how much the value wandered while resting.
    var spread: Double { largest - smallest }
}
