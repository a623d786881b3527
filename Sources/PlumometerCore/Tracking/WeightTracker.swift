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
/// stability and settled values, saturation, tare (per contact and carrier) and grams.
///
/// A synchronous state machine: no I/O, no threads, no clock. Every frame carries the kernel's time, and
/// ``tick(now:)`` lets the caller advance time when a resting object sends no events, so a replayed recording gives
/// exactly the readings the live device gave.
///
/// A frame's contact list is the complete truth: a contact missing from a frame has ended (or, in a resync frame,
/// was cancelled), and everything the tracker knew about it (smoothing, stability, tare, the heaviest mark) is
/// dropped at once. Ids that come back later are new contacts; only a carrier tare (``tareCarrier()``) follows its
/// carrier to the contact it makes when it is put back.
public struct WeightTracker: Sendable {
    /// The device's declared pressure range; `force` is measured against it.
    public let pressureRange: AxisInfo
    /// Units per millimetre of the position axes, when the device declares them: the carrier is recognised within
    /// ``TrackerConfiguration/carrierRadius`` millimetres, else within ``TrackerConfiguration/carrierRadiusUnits``.
    public var positionScale: PositionScale?
    /// The rules; changes apply from the next frame or tick.
    public var configuration: TrackerConfiguration
    /// A fit of grams against pressure. When set it wins over the axis resolution. The caller is expected to have
    /// checked it with ``Calibration/checkApplies(to:pressureRange:)``. Setting it re-reports ``current``.
    public var calibration: Calibration? {
        didSet { current = render(time: current.time, resync: current.resync) }
    }
    /// The reading after the last frame, tick, tare or calibration change.
    public internal(set) var current: Reading
    /// Which contacts began, ended or were cancelled at the last frame.
    public private(set) var lastChanges = ContactChanges()
    /// The carrier tare set by ``tareCarrier()``, or nil.
    public internal(set) var carrierTare: CarrierTare?

    var contacts = ContactTable()
    var heaviestID: Int?
    var latestTime: EventTime?
    /// The end of the evidence (a recording's last event), set by ``endOfEvidence(at:)``; nil while frames may come.
    public private(set) var evidenceEnd: EventTime?
    /// Whether some contact's tare waits for it to settle (see ``TrackedContact/tareAwaitsSettling``).
    var tareAwaitsSettling = false
    private var nextOrder = 0
    /// Counts frames: a contact stamped with the current count was in the current frame.
    private var frameCount = 0
    /// The buffers render and the heaviest rules sort in, kept so that a frame allocates nothing for them.
    var rankingBuffer: [Ranking] = []
    var standingsBuffer: [Standing] = []

    /// Creates a tracker for one device.
    ///
    /// - Parameters:
    ///   - pressureRange: the pressure axis' `input_absinfo` (its resolution, if non-zero, is units per gram).
    ///   - configuration: the heaviest mark, stability, saturation, smoothing and carrier rules.
    ///   - calibration: an optional fit of grams against pressure.
    ///   - positionScale: the position axes' resolution, if known (see ``PositionScale/init(_:)``).
    public init(
        pressureRange: AxisInfo,
        configuration: TrackerConfiguration = .init(),
        calibration: Calibration? = nil,
        positionScale: PositionScale? = nil
    ) {
        self.pressureRange = pressureRange
        self.configuration = configuration
        self.calibration = calibration
        self.positionScale = positionScale
        self.current = Reading(time: .zero, contacts: [], totalGrams: nil)
        self.current.totalGrams = knowsGrams ? 0 : nil
    }

    /// The ids of the contacts down now, ascending.
    public var contactIDs: [Int] { contacts.keys }

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
        // A frame is evidence again: time up to it counts for stability.
        evidenceEnd = nil
        latestTime = latestTime.map { Swift.max($0, time) } ?? time
        var changes = ContactChanges()
        frameCount &+= 1
        let stamp = frameCount
        var seen = 0
        // The frame and the table are both ordered by id, so a sample's contact is usually the one after the last
        // sample's: no hashing and, in the common case, no search.
        var next = 0
        for sample in frame.contacts {
            let index =
                next < contacts.count && contacts.keys[next] == sample.id ? next : contacts.index(forKey: sample.id)
            if let index {
                // If the frame repeats an id, the first sample wins.
                guard contacts.values[index].frameStamp != stamp else { continue }
                var contact = contacts.values[index]
                contact.frameStamp = stamp
                contact.slot = sample.slot
                contact.x = sample.x
                contact.y = sample.y
                if let pressure = sample.pressure { contact.rawPressure = pressure }
                advance(&contact, at: time)
                contacts.values[index] = contact
                next = index + 1
            } else {
                var contact = begin(sample, at: time)
                contact.frameStamp = stamp
                next = contacts.insert(contact, id: sample.id) + 1
                changes.began.append(sample.id)
            }
            seen += 1
        }
        // Every id seen is down now, so when the counts agree nothing lifted (the common case: no search).
        if contacts.count != seen {
            var index = 0
            while index < contacts.count {
                guard contacts.values[index].frameStamp != stamp else {
                    index += 1
                    continue
                }
                let id = contacts.keys[index]
                contacts.remove(at: index)
                if carrierTare?.contactID == id { carrierTare?.contactID = nil }
                if frame.resync { changes.cancelled.append(id) } else { changes.ended.append(id) }
            }
        }
        if tareAwaitsSettling { settleTares() }
        adoptCarrier(began: changes.began)
        if let id = carrierTare?.contactID, let carrier = contacts[id] {
            carrierTare?.x = carrier.x
            carrierTare?.y = carrier.y
        }
        lastChanges = changes
        updateHeaviest(at: time)
        current = render(time: time, resync: frame.resync)
        return current
    }

    /// The earliest kernel time at which the reading changes if no frame comes: a contact still settling becomes
    /// stable, or a contact that leads the heaviest mark's holder has kept its lead for
    /// ``TrackerConfiguration/heaviestHold``. Nil when neither is pending (or nothing is down).
    ///
    /// Callers tick at exactly this time, whether they replay as fast as possible, in real time, or read a live
    /// device, so the same events always give the same readings with the same time stamps.
    public var nextDeadline: EventTime? {
        var earliest: EventTime?
        for contact in contacts.values {
            if !contact.stable {
                let due = contact.anchorTime.adding(seconds: configuration.stabilityWindow)
                // Past the end of the evidence nothing becomes stable, so there is nothing to wait for.
                if evidenceEnd.map({ due <= $0 }) ?? true { earliest = earliest.map { Swift.min($0, due) } ?? due }
            }
            if let since = contact.leadingSince {
                let due = since.adding(seconds: heaviestHoldSeconds)
                earliest = earliest.map { Swift.min($0, due) } ?? due
            }
        }
        return earliest
    }

    /// The same as ``nextDeadline``: the name the front ends have always used (stability was its first job).
    public var nextStabilityDeadline: EventTime? { nextDeadline }

    /// Re-evaluates stability and the heaviest mark at kernel time `now` without a new frame.
    ///
    /// A resting object may send no events at all, so the caller ticks when time passes (for example when `poll`
    /// times out, or between events of a recording). A time earlier than the last frame counts as that frame's time.
    /// - Returns: a new reading stamped `now` (or the last frame's time, if later) when some contact's `stable` or
    ///   the heaviest mark changed, else nil.
    public mutating func tick(now: EventTime) -> Reading? {
        // With nothing down there is nothing to re-evaluate, and a `now` taken before the first event (when the
        // caller cannot yet relate its clock to the device's) must not become the tracker's idea of the time.
        guard !contacts.isEmpty else { return nil }
        let time = latestTime.map { Swift.max($0, now) } ?? now
        latestTime = time
        var changed = false
        // Stability is judged on evidence: never later than its end, however late the tick.
        let judged = evidenceEnd.map { Swift.min($0, time) } ?? time
        for index in contacts.indices {
            let stable = contacts.values[index].stable
            judge(&contacts.values[index], at: judged)
            if stable != contacts.values[index].stable { changed = true }
        }
        if tareAwaitsSettling { settleTares() }
        let holder = heaviestID
        updateHeaviest(at: time)
        guard changed || heaviestID != holder else { return nil }
        current = render(time: time, resync: false)
        return current
    }

    /// The input ended at kernel time `time` (a recording's last event): nothing is known after it.
    ///
    /// Stability is judged at `time` (a contact that has rested for the window by then is stable) and never later:
    /// from here on ``nextDeadline`` holds no stability deadline past `time`, and a later ``tick(now:)`` judges
    /// stability as at `time`. The heaviest mark's hold is a presentation delay, not evidence, so a lead already
    /// kept when the input ended still takes the mark at the end of its hold: ticking on to ``nextDeadline`` gives
    /// the final frame a live device would have shown, with no contact made stable by the silence after the end. A
    /// frame consumed later is evidence again and lifts the limit.
    /// - Returns: the reading at `time` when some contact's `stable` or the heaviest mark changed, else nil.
    public mutating func endOfEvidence(at time: EventTime) -> Reading? {
        let end = latestTime.map { Swift.max($0, time) } ?? time
        let reading = tick(now: end)
        evidenceEnd = end
        return reading
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

    // MARK: - Internals

    private mutating func begin(_ sample: ContactSample, at time: EventTime) -> TrackedContact {
        defer { nextOrder += 1 }
        var contact = TrackedContact(
            order: nextOrder,
            slot: sample.slot,
            x: sample.x,
            y: sample.y,
            rawPressure: sample.pressure ?? pressureRange.minimum,
            anchorTime: time
        )
        smooth(&contact, at: time)
        contact.anchorPressure = contact.value
        contact.window.restart(contact.value, at: time)
        judge(&contact, at: time)
        return contact
    }

    func clampedPressure(_ pressure: Double) -> Double {
        guard pressureRange.span > 0 else { return pressure }
        return Swift.min(Swift.max(pressure, Double(pressureRange.minimum)), Double(pressureRange.maximum))
    }

    /// A contact's force after tare: its reported (settled) pressure's force minus its tare's.
    func force(of contact: TrackedContact) -> Double {
        normalisedForce(pressure: contact.reportedPressure)
            - (contact.tarePressure.map(normalisedForce(pressure:)) ?? 0)
    }

    /// Whether a contact is a load: anything not tared, and a tared object or carrier once it reads more than the
    /// stability tolerance above its zero (something was put onto it). A tared thing at its zero reads 0 within the
    /// noise and is not a load: it is not in the total, has no share, ranks after the loads and is never the
    /// heaviest.
    func isLoad(_ contact: TrackedContact) -> Bool {
        guard let tare = contact.tarePressure else { return true }
        return contact.reportedPressure - tare > stabilityTolerancePressure
    }

    /// The force a contact weighs with among the loads (ranking, ratio, share, total, the heaviest mark): its force
    /// when it is a load, else 0.
    func loadForce(of contact: TrackedContact) -> Double {
        isLoad(contact) ? force(of: contact) : 0
    }

    private func isSaturated(_ raw: Int32) -> Bool {
        let span = pressureRange.span
        guard span > 0 else { return false }
        return Double(raw) >= Double(pressureRange.minimum) + configuration.saturationThreshold * span
    }

    /// A contact's place in rank order: where it is in ``contacts``, its force and when it began.
    struct Ranking {
        var index: Int
        var force: Double
        var order: Int
    }

    /// Builds the reading of every contact down now with the heaviest mark as it stands.
    ///
    /// The readings are written into the storage of the last reading's contacts (free again once its consumer is
    /// done with it), ranked in a buffer the tracker keeps: a frame allocates nothing here.
    mutating func render(time: EventTime, resync: Bool) -> Reading {
        // Small rows (where the contact is, its force, when it began) are sorted, not the contacts themselves.
        var rows: [Ranking] = []
        swap(&rows, &rankingBuffer)
        rows.removeAll(keepingCapacity: true)
        for index in contacts.indices {
            let contact = contacts.values[index]
            rows.append(Ranking(index: index, force: loadForce(of: contact), order: contact.order))
        }
        // Rank order: largest force first, ties to the contact that began first.
        rows.sort { $0.force != $1.force ? $0.force > $1.force : $0.order < $1.order }

        let largest = rows.first.map { Swift.max($0.force, 0) } ?? 0
        let total = rows.reduce(0) { $0 + Swift.max($1.force, 0) }
        var totalGrams: Double? = knowsGrams ? 0 : nil
        // Sums in rank order, as the readings were always added up (floating-point sums depend on the order).
        for position in rows.indices {
            let index = rows[position].index
            let contact = contacts.values[index]
            let grams = grams(pressure: contact.reportedPressure, tare: contact.tarePressure)
            // Only loads add up: a tared object at its zero is not weighed (its grams are shown, 0 within the noise).
            let load = isLoad(contact) ? grams : 0
            totalGrams = totalGrams.flatMap { sum in load.map { sum + $0 } }
            contacts.values[index].rank = position + 1
            contacts.values[index].grams = grams
            contacts.values[index].force = force(of: contact)
            contacts.values[index].loadForce = rows[position].force
        }
        rankingBuffer = rows
        // The table is ordered by id, as the readings are.
        var readings: [ContactReading] = []
        swap(&readings, &current.contacts)
        readings.removeAll(keepingCapacity: true)
        for index in contacts.indices {
            let contact = contacts.values[index]
            let force = contact.force
            let positive = Swift.max(contact.loadForce, 0)
            readings.append(
                ContactReading(
                    id: contacts.keys[index],
                    slot: contact.slot,
                    x: contact.x,
                    y: contact.y,
                    pressure: contact.rawPressure,
                    force: force,
                    percent: force * 100,
                    ratio: largest > 0 ? positive / largest : 0,
                    share: total > 0 ? positive / total : 0,
                    rank: contact.rank,
                    heaviest: contacts.keys[index] == heaviestID,
                    stable: contact.stable,
                    saturated: isSaturated(contact.rawPressure),
                    grams: contact.grams,
                    carrier: contact.isCarrier
                )
            )
        }
        return Reading(time: time, contacts: readings, resync: resync, totalGrams: totalGrams)
    }
}

/// Units per millimetre of a device's position axes, for recognising a carrier put back where it was.
public struct PositionScale: Sendable, Hashable {
    /// Units per millimetre along x.
    public var x: Double
    /// Units per millimetre along y.
    public var y: Double

    /// Creates a scale from the axes' resolutions (units per millimetre).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The scale of a device's position axes (`ABS_MT_POSITION_X/Y` when present, else `ABS_X/Y`), or nil when
    /// either declares no resolution.
    public init?(_ description: DeviceDescription) {
        let pair =
            description.axes[.mtPositionX].flatMap { x in description.axes[.mtPositionY].map { (x, $0) } }
            ?? description.axes[.x].flatMap { x in description.axes[.y].map { (x, $0) } }
        guard let (x, y) = pair, x.resolution > 0, y.resolution > 0 else { return nil }
        self.init(x: Double(x.resolution), y: Double(y.resolution))
    }
}
