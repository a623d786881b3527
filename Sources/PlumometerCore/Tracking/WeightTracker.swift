/// What changed in the set of contacts at the last frame a ``WeightTracker`` consumed.
public struct ContactChanges: Sendable, Hashable {
    /// Contacts that appeared, in the order they began (ids).
    public var began: [Int]
    /// Contacts that lifted: missing from an ordinary frame (ids, ascending).
    public var ended: [Int]
    /// Contacts that a resynchronisation frame did not confirm (ids, ascending). Their state is dropped exactly as
    /// for `ended`; the distinction is only for reporting, like a cancelled touch on iOS.
    public var cancelled: [Int]

    public init(began: [Int] = [], ended: [Int] = [], cancelled: [Int] = []) {
        self.began = began
        self.ended = ended
        self.cancelled = cancelled
    }
}

/// Turns a device's contact frames into weight readings: normalised force, relative weights, the heaviest mark,
/// stability, saturation, tare and grams.
///
/// A synchronous state machine: no I/O, no threads, no clock. Every frame carries the kernel's time, and
/// ``tick(now:)`` lets the caller advance time when a resting object sends no events, so a replayed recording gives
/// exactly the readings the live device gave.
///
/// A frame's contact list is the complete truth: a contact missing from a frame has ended (or, in a resync frame,
/// was cancelled), and everything the tracker knew about it (smoothing, stability, tare, the heaviest mark) is
/// dropped at once. Ids that come back later are new contacts.
public struct WeightTracker: Sendable {
    /// The device's declared pressure range; `force` is measured against it.
    public let pressureRange: AxisInfo
    /// The rules; changes apply from the next frame or tick.
    public var configuration: TrackerConfiguration
    /// A fit of grams against pressure. When set it wins over the axis resolution. The caller is expected to have
    /// checked it with ``Calibration/checkApplies(to:pressureRange:)``. Setting it re-reports ``current``.
    public var calibration: Calibration? {
        didSet { current = render(time: current.time, resync: current.resync) }
    }
    /// The reading after the last frame, tick, tare or calibration change.
    public private(set) var current: Reading
    /// Which contacts began, ended or were cancelled at the last frame.
    public private(set) var lastChanges = ContactChanges()
    /// The pressure (device units, within the range) that ``tare()`` records for contacts that begin after it, or
    /// nil when the device is not tared.
    public private(set) var deviceTarePressure: Double?

    private var contacts: [Int: TrackedContact] = [:]
    private var nextOrder = 0
    private var heaviestID: Int?
    private var latestTime: EventTime?

    /// Creates a tracker for one device.
    ///
    /// - Parameters:
    ///   - pressureRange: the pressure axis' `input_absinfo` (its resolution, if non-zero, is units per gram).
    ///   - configuration: hysteresis, stability, saturation and smoothing rules.
    ///   - calibration: an optional fit of grams against pressure.
    public init(pressureRange: AxisInfo, configuration: TrackerConfiguration = .init(), calibration: Calibration? = nil)
    {
        self.pressureRange = pressureRange
        self.configuration = configuration
        self.calibration = calibration
        self.current = Reading(time: .zero, contacts: [])
    }

    /// The ids of the contacts down now, ascending.
    public var contactIDs: [Int] { contacts.keys.sorted() }

    /// Whether grams can be reported: a calibration is set or the axis declares a resolution.
    public var knowsGrams: Bool { calibration != nil || pressureRange.resolution > 0 }

    // MARK: - Frames and time

    /// Consumes one frame and returns the readings of every contact in it.
    ///
    /// Contacts new in the frame begin, known ones update, and contacts the frame lacks end (a resync frame cancels
    /// them). A sample without a pressure keeps the contact's previous pressure (the range minimum for a new one).
    /// If the frame repeats an id, the first sample wins.
    public mutating func consume(_ frame: ContactFrame) -> Reading {
        let time = frame.time
        latestTime = latestTime.map { Swift.max($0, time) } ?? time
        var changes = ContactChanges()
        var seen = Set<Int>()
        for sample in frame.contacts where seen.insert(sample.id).inserted {
            if var contact = contacts[sample.id] {
                contact.slot = sample.slot
                contact.x = sample.x
                contact.y = sample.y
                if let pressure = sample.pressure { contact.rawPressure = pressure }
                advance(&contact, at: time)
                contacts[sample.id] = contact
            } else {
                contacts[sample.id] = begin(sample, at: time)
                changes.began.append(sample.id)
            }
        }
        for id in contacts.keys.sorted() where !seen.contains(id) {
            contacts[id] = nil
            if frame.resync { changes.cancelled.append(id) } else { changes.ended.append(id) }
        }
        lastChanges = changes
        current = render(time: time, resync: frame.resync)
        return current
    }

    /// The earliest kernel time at which a contact still settling becomes stable if nothing changes, or nil when
    /// every contact is stable (or none is down).
    ///
    /// Callers tick at exactly this time, whether they replay as fast as possible, in real time, or read a live
    /// device, so the same events always give the same readings with the same time stamps.
    public var nextStabilityDeadline: EventTime? {
        contacts.values.lazy.filter { !$0.stable }
            .map { $0.anchorTime.adding(seconds: self.configuration.stabilityWindow) }
            .min()
    }

    /// Re-evaluates stability at kernel time `now` without a new frame.
    ///
    /// A resting object may send no events at all, so the caller ticks when time passes (for example when `poll`
    /// times out, or between events of a recording). A time earlier than the last frame counts as that frame's time.
    /// - Returns: a new reading stamped `now` (or the last frame's time, if later) when some contact's `stable` changed, else nil.
    public mutating func tick(now: EventTime) -> Reading? {
        // With nothing down there is nothing to re-evaluate, and a `now` taken before the first event (when the
        // caller cannot yet relate its clock to the device's) must not become the tracker's idea of the time.
        guard !contacts.isEmpty else { return nil }
        let time = latestTime.map { Swift.max($0, now) } ?? now
        latestTime = time
        var changed = false
        for id in contacts.keys {
            let stable = isStable(anchoredAt: contacts[id]!.anchorTime, at: time)
            if stable != contacts[id]!.stable {
                contacts[id]!.stable = stable
                changed = true
            }
        }
        guard changed else { return nil }
        current = render(time: time, resync: false)
        return current
    }

    // MARK: - Tare

    /// Tares the whole device: every contact down now reads zero from here on, and contacts that begin later have
    /// the mean of the tared pressures subtracted (a tray or a sheet that stays on the pad).
    ///
    /// With nothing down, the device offset is cleared (the empty pad is zero). Per-contact tares set earlier on
    /// contacts down now are replaced. A tare survives contacts lifting; only ``clearTare()`` removes it.
    public mutating func tare() {
        let ids = contacts.keys.sorted()
        var total = 0.0
        for id in ids {
            let pressure = clampedPressure(contacts[id]!.smoothedPressure)
            contacts[id]!.tarePressure = pressure
            total += pressure
        }
        deviceTarePressure = ids.isEmpty ? nil : total / Double(ids.count)
        current = render(time: current.time, resync: current.resync)
    }

    /// Tares one contact: it reads zero from here on, until it lifts or ``clearTare()``.
    ///
    /// - Returns: false when no contact with that id is down.
    @discardableResult
    public mutating func tare(contact id: Int) -> Bool {
        guard let contact = contacts[id] else { return false }
        contacts[id]!.tarePressure = clampedPressure(contact.smoothedPressure)
        current = render(time: current.time, resync: current.resync)
        return true
    }

    /// Removes every tare: per contact and the device offset.
    public mutating func clearTare() {
        deviceTarePressure = nil
        for id in contacts.keys { contacts[id]!.tarePressure = nil }
        current = render(time: current.time, resync: current.resync)
    }

    // MARK: - Quantities

    /// `clamp((pressure - min) / (max - min), 0, 1)`; 0 for a zero-width or inverted range, never NaN.
    public func normalisedForce(pressure: Double) -> Double {
        let span = pressureRange.span
        guard span > 0, pressure.isFinite else { return 0 }
        return Swift.min(Swift.max((pressure - Double(pressureRange.minimum)) / span, 0), 1)
    }

    /// Grams for a pressure, relative to `tare` when given; nil when neither a calibration nor a resolution is known.
    ///
    /// Pressures are clamped into the declared range first, as for force: values outside it are not trustworthy.
    public func grams(pressure: Double, tare: Double? = nil) -> Double? {
        let value = clampedPressure(pressure)
        let tared = tare.map(clampedPressure)
        let result: Double
        if let calibration {
            result = calibration.grams(forPressure: value) - (tared.map(calibration.grams(forPressure:)) ?? 0)
        } else if pressureRange.resolution > 0 {
            result = (value - (tared ?? 0)) / Double(pressureRange.resolution)
        } else {
            return nil
        }
        return result.isFinite ? result : nil
    }

    // MARK: - Internals

    private mutating func begin(_ sample: ContactSample, at time: EventTime) -> TrackedContact {
        defer { nextOrder += 1 }
        var contact = TrackedContact(
            order: nextOrder,
            slot: sample.slot,
            x: sample.x,
            y: sample.y,
            rawPressure: sample.pressure ?? pressureRange.minimum,
            tarePressure: deviceTarePressure,
            anchorTime: time
        )
        contact.smoothedPressure = contact.filter.update(
            Double(contact.rawPressure),
            at: time,
            smoothing: configuration.smoothing,
            fullScale: pressureRange.span
        )
        contact.anchorPressure = clampedPressure(contact.smoothedPressure)
        contact.stable = isStable(anchoredAt: time, at: time)
        return contact
    }

    private func advance(_ contact: inout TrackedContact, at time: EventTime) {
        contact.smoothedPressure = contact.filter.update(
            Double(contact.rawPressure),
            at: time,
            smoothing: configuration.smoothing,
            fullScale: pressureRange.span
        )
        let value = clampedPressure(contact.smoothedPressure)
        if Swift.abs(value - contact.anchorPressure) > stabilityTolerancePressure || time < contact.anchorTime {
            contact.anchorPressure = value
            contact.anchorTime = time
        }
        contact.stable = isStable(anchoredAt: contact.anchorTime, at: time)
    }

    private func isStable(anchoredAt anchor: EventTime, at time: EventTime) -> Bool {
        time.seconds(since: anchor) >= configuration.stabilityWindow
    }

    /// The stability tolerance in pressure units: grams converted through the calibration or resolution when grams
    /// are known, else a fraction of full scale. Working in pressure keeps tare and calibration changes from
    /// disturbing a contact's stability.
    public var stabilityTolerancePressure: Double {
        let grams = configuration.stabilityToleranceGrams
        if let calibration, calibration.slope.isFinite, calibration.slope != 0 {
            return grams / Swift.abs(calibration.slope)
        }
        if pressureRange.resolution > 0 { return grams * Double(pressureRange.resolution) }
        return configuration.stabilityTolerance * pressureRange.span
    }

    /// The heaviest margin as a fraction of full scale: ``TrackerConfiguration/heaviestMargin``, or the grams margin
    /// converted through the calibration or resolution when that is smaller.
    private var heaviestMarginForce: Double {
        let span = pressureRange.span
        guard span > 0 else { return configuration.heaviestMargin }
        var gramsMarginPressure: Double?
        if let calibration, calibration.slope.isFinite, calibration.slope != 0 {
            gramsMarginPressure = configuration.heaviestMarginGrams / Swift.abs(calibration.slope)
        } else if pressureRange.resolution > 0 {
            gramsMarginPressure = configuration.heaviestMarginGrams * Double(pressureRange.resolution)
        }
        guard let gramsMarginPressure else { return configuration.heaviestMargin }
        return Swift.min(configuration.heaviestMargin, gramsMarginPressure / span)
    }

    private func clampedPressure(_ pressure: Double) -> Double {
        guard pressureRange.span > 0 else { return pressure }
        return Swift.min(Swift.max(pressure, Double(pressureRange.minimum)), Double(pressureRange.maximum))
    }

    private func isSaturated(_ raw: Int32) -> Bool {
        let span = pressureRange.span
        guard span > 0 else { return false }
        return Double(raw) >= Double(pressureRange.minimum) + configuration.saturationThreshold * span
    }

    /// Builds the reading of every contact down now, and moves the heaviest mark.
    private mutating func render(time: EventTime, resync: Bool) -> Reading {
        struct Row {
            var id: Int
            var contact: TrackedContact
            var force: Double
        }
        var rows = contacts.map { id, contact in
            let force =
                normalisedForce(pressure: contact.smoothedPressure)
                - (contact.tarePressure.map(normalisedForce(pressure:)) ?? 0)
            return Row(id: id, contact: contact, force: force)
        }
        // Rank order: largest force first, ties to the contact that began first.
        rows.sort { $0.force != $1.force ? $0.force > $1.force : $0.contact.order < $1.contact.order }
        updateHeaviest(ranked: rows.map { ($0.id, $0.force) })

        let largest = rows.first.map { Swift.max($0.force, 0) } ?? 0
        let total = rows.reduce(0) { $0 + Swift.max($1.force, 0) }
        var readings: [ContactReading] = []
        readings.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            let positive = Swift.max(row.force, 0)
            readings.append(
                ContactReading(
                    id: row.id,
                    slot: row.contact.slot,
                    x: row.contact.x,
                    y: row.contact.y,
                    pressure: row.contact.rawPressure,
                    force: row.force,
                    percent: row.force * 100,
                    ratio: largest > 0 ? positive / largest : 0,
                    share: total > 0 ? positive / total : 0,
                    rank: index + 1,
                    heaviest: row.id == heaviestID,
                    stable: row.contact.stable,
                    saturated: isSaturated(row.contact.rawPressure),
                    grams: grams(pressure: row.contact.smoothedPressure, tare: row.contact.tarePressure)
                )
            )
        }
        readings.sort { $0.id < $1.id }
        return Reading(time: time, contacts: readings, resync: resync)
    }

    /// Differences of forces carry rounding error (0.51 - 0.50 is a little more than 0.01); a lead must beat the
    /// margin by more than this, so that a lead of exactly the margin does not move the mark.
    private static let roundingAllowance = 1e-9

    /// Moves the heaviest mark with hysteresis.
    ///
    /// No mark while no contact has a positive force. A new mark (none yet, or the holder lifted or fell to zero)
    /// goes to rank 1. Otherwise the mark moves only when the best other contact exceeds the holder by more than
    /// `heaviestMargin`.
    private mutating func updateHeaviest(ranked: [(id: Int, force: Double)]) {
        guard let top = ranked.first, top.force > 0 else {
            heaviestID = nil
            return
        }
        guard let holderID = heaviestID, let holder = ranked.first(where: { $0.id == holderID }), holder.force > 0
        else {
            heaviestID = top.id
            return
        }
        if let challenger = ranked.first(where: { $0.id != holderID }),
            challenger.force - holder.force > heaviestMarginForce + Self.roundingAllowance
        {
            heaviestID = challenger.id
        }
    }
}

/// Everything the tracker knows about one contact; dropped as a whole when the contact ends.
private struct TrackedContact: Sendable {
    /// Begin order: ties in force go to the smaller value.
    var order: Int
    var slot: Int?
    var x: Int32?
    var y: Int32?
    var rawPressure: Int32
    var filter = SmoothingFilter()
    var smoothedPressure = 0.0
    var tarePressure: Double?
    var anchorPressure = 0.0
    var anchorTime: EventTime
    var stable = false

    init(order: Int, slot: Int?, x: Int32?, y: Int32?, rawPressure: Int32, tarePressure: Double?, anchorTime: EventTime)
    {
        self.order = order
        self.slot = slot
        self.x = x
        self.y = y
        self.rawPressure = rawPressure
        self.tarePressure = tarePressure
        self.anchorTime = anchorTime
    }
}
