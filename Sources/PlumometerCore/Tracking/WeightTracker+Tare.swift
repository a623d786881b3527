/// A tare that follows one carrier: a spoon, a coin, a cable or a finger that holds the load.
///
/// Its zero is the carrier's pressure when it was tared. When the carrier lifts, the next contact it makes (within
/// ``TrackerConfiguration/carrierRadius`` of where it lifted, or the next contact alone on the pad when the device
/// reports no positions) is the carrier again and has the same zero, so lifting it, loading it and putting it back
/// reads the load.
public struct CarrierTare: Sendable, Hashable {
    /// The carrier's zero: its pressure when tared (device units, within the range).
    public var pressure: Double
    /// The carrier's contact while it is down; nil while it is lifted.
    public var contactID: Int?
    /// Where the carrier was last seen (device units), nil when the device reports no positions.
    public var x: Int32?
    /// Where the carrier was last seen (device units), nil when the device reports no positions.
    public var y: Int32?

    /// Creates a carrier tare.
    public init(pressure: Double, contactID: Int?, x: Int32?, y: Int32?) {
        self.pressure = pressure
        self.contactID = contactID
        self.x = x
        self.y = y
    }
}

/// Why a carrier tare could not be taken.
public enum TareError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Nothing is down: there is no carrier to tare.
    case nothingDown
    /// More than one contact is down, so which one is the carrier is not known.
    case severalDown(count: Int)

    public var description: String {
        switch self {
        case .nothingDown:
            return "Nothing is on the pad to tare as a carrier; put the carrier (a spoon, a coin, a cable or a "
                + "finger) down alone and tare it again."
        case .severalDown(let count):
            return "\(count) contacts are down, so the carrier is not known; lift everything but the carrier "
                + "(a spoon, a coin, a cable or a finger) and tare it again."
        }
    }
}

extension WeightTracker {
    /// Tares every contact down now: each reads zero from here on, until it lifts or ``clearTare()``.
    ///
    /// Each contact is zeroed at its settled value: the mean of its values since it came to rest when it is stable,
    /// else its value now as a provisional zero that moves to the settled value when the contact becomes stable. A
    /// single sample of a noisy object is not its weight: 500 g read at ±1 unit and tared on the sample 499 would
    /// read 1 g for ever after (docs/quantities.md, "Tare").
    ///
    /// Contacts placed later read their own weight: a 100 g object placed after taring a 500 g one reads 100 g.
    /// If the carrier is down, its zero moves to its value now (load it, tare, add more: the addition is read).
    /// - Returns: how many contacts were zeroed (0 with nothing down, when nothing changes).
    @discardableResult
    public mutating func tare() -> Int {
        for id in contacts.keys { zero(id) }
        refresh()
        return contacts.count
    }

    /// Tares one contact: it reads zero from here on, until it lifts or ``clearTare()``.
    ///
    /// - Returns: false when no contact with that id is down.
    @discardableResult
    public mutating func tare(contact id: Int) -> Bool {
        guard contacts[id] != nil else { return false }
        zero(id)
        refresh()
        return true
    }

    /// Tares the one contact down as a carrier: it reads zero, and so does the contact it makes when it is lifted
    /// and put back (see ``CarrierTare``), until ``clearTare()`` or another carrier tare.
    ///
    /// - Returns: the carrier's contact id.
    /// - Throws: ``TareError`` when nothing or more than one contact is down; nothing changes then.
    @discardableResult
    public mutating func tareCarrier() throws(TareError) -> Int {
        guard contacts.count == 1, let (id, contact) = contacts.first else {
            throw contacts.isEmpty ? .nothingDown : .severalDown(count: contacts.count)
        }
        carrierTare = CarrierTare(pressure: contact.reportedPressure, contactID: id, x: contact.x, y: contact.y)
        contacts[id]!.isCarrier = true
        zero(id)
        refresh()
        return id
    }

    /// Removes every tare: per contact and the carrier's.
    public mutating func clearTare() {
        carrierTare = nil
        for id in contacts.keys {
            contacts[id]!.tarePressure = nil
            contacts[id]!.tareAwaitsSettling = false
            contacts[id]!.isCarrier = false
        }
        tareAwaitsSettling = false
        refresh()
    }

    /// Moves each provisional zero to its contact's settled value once the contact is stable (a carrier's too).
    mutating func settleTares() {
        var waiting = false
        for index in contacts.indices where contacts.values[index].tareAwaitsSettling {
            let contact = contacts.values[index]
            guard contact.stable else {
                waiting = true
                continue
            }
            let pressure = contact.reportedPressure
            contacts.values[index].tarePressure = pressure
            contacts.values[index].tareAwaitsSettling = false
            if contact.isCarrier, carrierTare?.contactID == contacts.keys[index] { carrierTare?.pressure = pressure }
        }
        tareAwaitsSettling = waiting
    }

    /// Makes one of the contacts that began in this frame the carrier, if the carrier is lifted and one of them is
    /// where it was (or, without positions, if it is the only contact down).
    mutating func adoptCarrier(began: [Int]) {
        guard let carrier = carrierTare, carrier.contactID == nil, !began.isEmpty else { return }
        var chosen: Int?
        let positioned = began.filter { contacts[$0]!.x != nil && contacts[$0]!.y != nil }
        if let x = carrier.x, let y = carrier.y, !positioned.isEmpty {
            var best = Double.infinity
            for id in positioned {
                let distance = carrierDistance(from: (x, y), to: (contacts[id]!.x!, contacts[id]!.y!))
                if distance <= carrierRadius, distance < best {
                    best = distance
                    chosen = id
                }
            }
        } else if contacts.count == 1, began.count == 1 {
            chosen = began[0]
        }
        guard let chosen else { return }
        carrierTare?.contactID = chosen
        contacts[chosen]!.isCarrier = true
        contacts[chosen]!.tarePressure = carrier.pressure
        contacts[chosen]!.tareAwaitsSettling = false
    }

    /// The distance in millimetres when the position scale is known, else in device units.
    private func carrierDistance(from a: (Int32, Int32), to b: (Int32, Int32)) -> Double {
        let scale = positionScale.flatMap { $0.x > 0 && $0.y > 0 ? $0 : nil }
        let dx = (Double(b.0) - Double(a.0)) / (scale?.x ?? 1)
        let dy = (Double(b.1) - Double(a.1)) / (scale?.y ?? 1)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The carrier radius in the unit ``carrierDistance(from:to:)`` measures in.
    private var carrierRadius: Double {
        positionScale.map { $0.x > 0 && $0.y > 0 } == true
            ? configuration.carrierRadius : configuration.carrierRadiusUnits
    }

    /// Zeroes one contact at the value it reports now: its settled value while stable, else a provisional zero
    /// that ``settleTares()`` moves to the settled value once the contact is stable.
    private mutating func zero(_ id: Int) {
        let pressure = contacts[id]!.reportedPressure
        contacts[id]!.tarePressure = pressure
        contacts[id]!.tareAwaitsSettling = !contacts[id]!.stable
        if !contacts[id]!.stable { tareAwaitsSettling = true }
        if contacts[id]!.isCarrier { carrierTare?.pressure = pressure }
    }

    /// Re-reports ``current`` after a tare changed the forces (the heaviest mark may move).
    private mutating func refresh() {
        updateHeaviest(at: latestTime ?? current.time)
        current = render(time: current.time, resync: current.resync)
    }
}
