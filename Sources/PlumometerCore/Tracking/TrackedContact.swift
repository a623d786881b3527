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

    /// The settled value: the time-weighted mean of the values of the current run (``window``), as last judged
    /// (``WeightTracker`` updates it whenever it judges the contact's stability).
    var settledPressure = 0.0

    /// The pressure every reported quantity comes from: while stable, the settled value, the time-weighted mean of
    /// the values since the run began (a resting object reads steady); otherwise the latest value, so a moving load
    /// is followed without lag.
    var reportedPressure: Double {
        stable ? settledPressure : value
    }
}

/// The values of one contact's current run (since its anchor), each held until the next, as running time-weighted
/// sums: their mean is the settled value, their least-squares trend says whether the value is still changing, the
/// scatter about that trend is the noise, and their spread (largest minus smallest) feeds the heaviest margin.
///
/// O(1) per value and no memory of the values themselves: the sums are integrals of the held value (sample and
/// hold) over time since the run began, shifted by the run's first value so that a 5 kg load's variance does not
/// cancel away.
struct ValueWindow: Sendable, Hashable {
    private(set) var count = 0
    private(set) var smallest = 0.0
    private(set) var largest = 0.0
    private var start = EventTime.zero
    private var origin = 0.0
    /// Seconds since ``start`` of the last value, and that value (held until the next).
    private var lastOffset = 0.0
    private var lastValue = 0.0
    private var sums = Sums()

    /// Integrals over the run of 1, t, t², v, t·v and v² (v shifted by ``origin``).
    private struct Sums: Sendable, Hashable {
        var weight = 0.0
        var t = 0.0
        var tt = 0.0
        var v = 0.0
        var tv = 0.0
        var vv = 0.0

        /// Adds `value` held from `a` to `b` seconds.
        mutating func hold(_ value: Double, from a: Double, to b: Double) {
            guard b > a else { return }
            let d1 = b - a
            let d2 = (b * b - a * a) / 2
            let d3 = (b * b * b - a * a * a) / 3
            weight += d1
            t += d2
            tt += d3
            v += value * d1
            tv += value * d2
            vv += value * value * d1
        }
    }

    /// Starts again from one value at `time` (the anchor moved).
    mutating func restart(_ value: Double, at time: EventTime) {
        count = 1
        smallest = value
        largest = value
        start = time
        origin = value
        lastOffset = 0
        lastValue = 0
        sums = Sums()
    }

    /// Adds one value at `time`: the previous one is held until then.
    mutating func add(_ value: Double, at time: EventTime) {
        guard count > 0 else { return restart(value, at: time) }
        let offset = Swift.max(lastOffset, time.seconds(since: start))
        sums.hold(lastValue, from: lastOffset, to: offset)
        lastOffset = offset
        lastValue = value - origin
        count += 1
        smallest = Swift.min(smallest, value)
        largest = Swift.max(largest, value)
    }

    /// The sums with the last value held until `time`.
    private func sums(at time: EventTime) -> Sums {
        var copy = sums
        copy.hold(lastValue, from: lastOffset, to: Swift.max(lastOffset, time.seconds(since: start)))
        return copy
    }

    /// The time-weighted mean of the run at `time` (the last value held until then); the last value when the run
    /// has lasted no time yet; nil before the first value.
    func mean(at time: EventTime) -> Double? {
        guard count > 0 else { return nil }
        let sums = sums(at: time)
        guard sums.weight > 0 else { return origin + lastValue }
        return origin + sums.v / sums.weight
    }

    /// The run's least-squares trend at `time`: its slope (units per second) and the scatter of the values about
    /// the trend line (units, a standard deviation). Zero slope for a run that lasted no time.
    func trend(at time: EventTime) -> (slope: Double, scatter: Double) {
        let sums = sums(at: time)
        guard sums.weight > 0 else { return (0, 0) }
        let meanT = sums.t / sums.weight
        let meanV = sums.v / sums.weight
        let varianceT = sums.tt / sums.weight - meanT * meanT
        let covariance = sums.tv / sums.weight - meanT * meanV
        let varianceV = Swift.max(0, sums.vv / sums.weight - meanV * meanV)
        guard varianceT > 0 else { return (0, varianceV.squareRoot()) }
        let slope = covariance / varianceT
        return (slope, Swift.max(0, varianceV - slope * covariance).squareRoot())
    }

    /// Largest minus smallest: how much the value wandered while resting.
    var spread: Double { largest - smallest }
}
