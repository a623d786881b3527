/// One step of a guided calibration: the carrier alone, then each reference weight added to it.
public struct CalibrationStep: Sendable, Hashable {
    /// What to place, as the user named it ("us-quarter", "2x 1-euro"), or the carrier.
    public var label: String
    /// The known mass on the followed contact once this step is placed: the running sum of the references added,
    /// plus the carrier's mass when it is a reference itself (else the carrier counts 0: its weight is unknown).
    public var grams: Double

    /// Creates a step.
    public init(label: String, grams: Double) {
        self.label = label
        self.grams = grams
    }
}

/// The guided calibration as a state machine fed frames: it follows ONE contact from the first step to the last.
///
/// Step 1 captures the carrier (a finger, a spoon, a coin or a small dish: whatever is placed first, alone) once it
/// is stable; its weight is unknown unless it is a reference itself (``hasKnownCarrier``), placed directly on the pad; each later step captures the same contact once it is stable again and has risen by at least
/// ``minimumRise`` (a reference was added to it). A pad splits its force among the contacts it sees, so a reference
/// put down beside the carrier is a second contact that the followed one does not feel: summing contacts would fit
/// a line to whatever was placed anywhere. The guide refuses instead, with the reason and what to do, when a contact
/// appears elsewhere or the followed one lifts between references. Like ``WeightTracker`` it has no I/O and no clock:
/// the caller feeds frames and ticks at ``nextDeadline``.
public struct CalibrationGuide: Sendable {
    /// Every step, the carrier first.
    public let steps: [CalibrationStep]
    /// The points captured so far: pressure (the followed contact's settled value) and the step's grams.
    public private(set) var points: [CalibrationPoint] = []
    /// The contact being followed, once the first step is captured.
    public private(set) var followedID: Int?
    /// Why the guide stopped, if it did; every later call throws it again.
    public private(set) var failure: CalibrationGuideError?
    /// The smallest rise in pressure that counts as "a reference was added": twice the stability tolerance (4 g on
    /// a pad that reports grams, 2% of full scale otherwise), at least one unit, so a single coin registers.
    public let minimumRise: Double
    private var tracker: WeightTracker

    /// Whether the carrier is a reference of known mass placed directly on the pad: the points' grams are then
    /// everything on the pad (``CalibrationBasis/direct``), else what was added on the carrier
    /// (``CalibrationBasis/carrier``).
    public let hasKnownCarrier: Bool

    /// What the captured points' grams stand for, to fit them with.
    public var basis: CalibrationBasis { hasKnownCarrier ? .direct : .carrier }

    /// Creates a guide for the references, placed one after the other on the carrier.
    ///
    /// - Parameters:
    ///   - references: each reference's label and grams, in the order they are added.
    ///   - carrier: a reference of known mass to place first, directly on the pad, as the carrier; nil for a carrier
    ///     of unknown weight (a finger, a spoon).
    ///   - pressureRange: the device's pressure axis.
    ///   - configuration: the tracker's rules (stability decides when a step is captured).
    public init(
        references: [(label: String, grams: Double)],
        carrier: (label: String, grams: Double)? = nil,
        pressureRange: AxisInfo,
        configuration: TrackerConfiguration = .init()
    ) {
        var cumulative = carrier?.grams ?? 0
        var steps = [
            carrier.map { CalibrationStep(label: $0.label, grams: $0.grams) }
                ?? CalibrationStep(label: "the carrier (a finger, a spoon, a coin or a small dish)", grams: 0)
        ]
        for reference in references {
            cumulative += reference.grams
            steps.append(CalibrationStep(label: reference.label, grams: cumulative))
        }
        self.steps = steps
        self.hasKnownCarrier = carrier != nil
        self.tracker = WeightTracker(pressureRange: pressureRange, configuration: configuration)
        self.minimumRise = Swift.max(1, 2 * tracker.stabilityTolerancePressure)
    }

    /// Whether every step is captured.
    public var isDone: Bool { points.count == steps.count }

    /// What to do now, for the user: "Step 2/3: add us-quarter on the carrier (total 5.67 g) and keep still."
    public var prompt: String {
        guard !isDone else { return "Every step is captured." }
        let step = steps[points.count]
        if points.isEmpty, hasKnownCarrier {
            return "Step 1/\(steps.count): place \(step.label) (" + DecimalText.fixed(step.grams, digits: 2)
                + " g) alone, directly on the pad, as the carrier, and keep it still."
        }
        if points.isEmpty { return "Step 1/\(steps.count): place \(step.label) alone and keep it still." }
        return "Step \(points.count + 1)/\(steps.count): add \(step.label) on the carrier (total "
            + DecimalText.fixed(step.grams, digits: 2) + " g) and keep still."
    }

    /// The error to report when the input ends before every step was captured.
    public var incomplete: CalibrationGuideError { .incomplete(captured: points.count, of: steps.count) }

    /// When the followed contact (or a contact still settling) becomes stable if nothing changes.
    public var nextDeadline: EventTime? { isDone || failure != nil ? nil : tracker.nextDeadline }

    /// Consumes one frame.
    ///
    /// - Returns: the point this frame captured, if any.
    /// - Throws: ``CalibrationGuideError`` when the frame breaks the one-contact rule; nothing is captured after.
    public mutating func consume(_ frame: ContactFrame) throws(CalibrationGuideError) -> CalibrationPoint? {
        if let failure { throw failure }
        return try observe(tracker.consume(frame))
    }

    /// Lets kernel time pass without a frame: a resting weight sends no events but becomes stable.
    ///
    /// - Returns: the point captured at `now`, if any.
    /// - Throws: the guide's ``failure`` if it already stopped.
    public mutating func tick(now: EventTime) throws(CalibrationGuideError) -> CalibrationPoint? {
        if let failure { throw failure }
        guard let reading = tracker.tick(now: now) else { return nil }
        return try observe(reading)
    }

    private mutating func observe(_ reading: Reading) throws(CalibrationGuideError) -> CalibrationPoint? {
        guard !isDone else { return nil }
        let step = points.count
        guard let followed = followedID else {
            // The first step: one contact alone and stable. Several resting together cannot be told apart.
            guard !reading.contacts.isEmpty, reading.contacts.allSatisfy(\.stable) else { return nil }
            guard reading.contacts.count == 1 else { return try stop(.severalContacts(count: reading.contacts.count)) }
            followedID = reading.contacts[0].id
            return capture(reading.contacts[0].id, step: step)
        }
        guard reading.contacts.contains(where: { $0.id == followed }) else {
            return try stop(.followedLifted(step: step + 1, of: steps.count, label: steps[step].label))
        }
        guard reading.contacts.count == 1 else {
            return try stop(.contactAdded(step: step + 1, of: steps.count, label: steps[step].label))
        }
        guard reading.contacts[0].stable, let pressure = tracker.contacts[followed]?.reportedPressure,
            let last = points.last, pressure - last.pressure >= minimumRise
        else { return nil }
        return capture(followed, step: step)
    }

    private mutating func capture(_ id: Int, step: Int) -> CalibrationPoint? {
        guard let pressure = tracker.contacts[id]?.reportedPressure else { return nil }
        let point = CalibrationPoint(pressure: pressure, grams: steps[step].grams)
        points.append(point)
        return point
    }

    private mutating func stop(_ error: CalibrationGuideError) throws(CalibrationGuideError) -> CalibrationPoint? {
        failure = error
        throw error
    }
}

/// Why a guided calibration stopped; nothing should be saved.
public enum CalibrationGuideError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Several contacts rested together at the first step, so which one to follow is not known.
    case severalContacts(count: Int)
    /// A second contact appeared while waiting for step `step` (1-based) of `of`.
    case contactAdded(step: Int, of: Int, label: String)
    /// The followed contact lifted while waiting for step `step` (1-based) of `of`.
    case followedLifted(step: Int, of: Int, label: String)
    /// The input ended with `captured` of `of` steps captured.
    case incomplete(captured: Int, of: Int)

    public var description: String {
        switch self {
        case .severalContacts(let count):
            return "\(count) contacts rest on the pad at the first step, so which one to calibrate is not known. "
                + "Start again with the carrier (a finger, a spoon, a coin or a small dish) alone on the pad, and "
                + "put every reference on it."
        case .contactAdded(let step, let total, let label):
            return "A second contact appeared on the pad while waiting for step \(step)/\(total) (\(label)): a "
                + "reference put down beside the carrier is a new contact, weighed apart from it. Start again and "
                + "put each reference on the carrier (or in the dish it holds), with nothing else touching the pad."
        case .followedLifted(let step, let total, let label):
            return "The carrier lifted before step \(step)/\(total) (\(label)) was captured: put back, it is a new "
                + "contact that may rest elsewhere. Start again and keep the carrier down from the first step to "
                + "the last, adding each reference on it."
        case .incomplete(let captured, let total):
            return "Only \(captured) of \(total) steps were captured; keep the carrier and each reference still "
                + "until its reading is captured."
        }
    }
}
