/// The heaviest mark: it follows a clear lead, relative to the readings, kept for a moment.
///
/// A margin in fixed units cannot serve every load: 2 g is more than the difference between two coins and less
/// than the noise of a kilogram load on most pads. So the margin is a fraction of the holder's value
/// (``TrackerConfiguration/heaviestMargin``, 3%), raised to the noise the tracker has seen on the two contacts
/// (the spread of their values since they came to rest, at least the axis' `fuzz`), and capped at
/// ``TrackerConfiguration/heaviestMarginCap`` (10%) of the holder's value. A contact that leads by more than the
/// margin for ``TrackerConfiguration/heaviestHold`` (0.1 s of kernel time) takes the mark. This gives two guarantees
/// (docs/quantities.md): a lead of more than 10% kept for 0.3 s always moves the mark, and two contacts within 1% of
/// each other never trade it (the margin is at least 3%).
extension WeightTracker {
    /// Differences of forces carry rounding error (0.51 - 0.50 is a little more than 0.01); a lead must beat the
    /// margin by more than this, so that a lead of exactly the margin does not move the mark.
    static let roundingAllowance = 1e-9

    /// ``TrackerConfiguration/heaviestHold`` made safe to add to a time: 0 when negative or not a number.
    var heaviestHoldSeconds: Double {
        let hold = configuration.heaviestHold
        return hold.isFinite ? Swift.max(0, hold) : (hold == .infinity ? 1e9 : 0)
    }

    /// The lead (in force) that `challenger` must exceed to count as leading `holder`, whose force is `value`.
    func heaviestMargin(holder: TrackedContact, challenger: TrackedContact, value: Double) -> Double {
        let span = pressureRange.span
        let noiseUnits = Swift.max(Double(pressureRange.fuzz), holder.window.spread, challenger.window.spread)
        let noise = span > 0 ? noiseUnits / span : 0
        let relative = Swift.max(configuration.heaviestMargin * value, noise)
        return Swift.min(relative, Swift.max(0, configuration.heaviestMarginCap) * value)
    }

    /// Moves the heaviest mark at kernel time `time`.
    ///
    /// No mark while no contact has a positive force. A new mark (none yet, or the holder lifted or fell to zero)
    /// goes to rank 1 at once; exact ties go to the contact that began first. Otherwise a contact takes the mark
    /// once it has led the holder by more than the margin for the hold time; when several have, the heaviest of them.
    mutating func updateHeaviest(at time: EventTime) {
        // Each contact's force once, beside its position in ``contacts``: the rules below compare and update
        // contacts by position, with no hashing, in a buffer the tracker keeps (no allocation per frame).
        var standings: [Standing] = []
        swap(&standings, &standingsBuffer)
        standings.removeAll(keepingCapacity: true)
        defer { standingsBuffer = standings }
        var top: Int?
        var holder: Int?
        for index in contacts.indices {
            let contact = contacts.values[index]
            // Only loads compete: a tared thing at its zero is never the heaviest.
            standings.append(Standing(index: index, force: loadForce(of: contact), order: contact.order))
            let position = standings.count - 1
            if top.map({ Self.heavier(standings[position], than: standings[$0]) }) ?? true { top = position }
            if contacts.keys[index] == heaviestID { holder = position }
        }
        guard let top, standings[top].force > 0 else {
            heaviestID = nil
            restartLeads(holder: nil, standings: standings, at: time)
            return
        }
        guard let holder, standings[holder].force > 0 else {
            heaviestID = contacts.keys[standings[top].index]
            restartLeads(holder: top, standings: standings, at: time)
            return
        }
        updateLeads(holder: holder, standings: standings, at: time)
        var winner: Int?
        for position in standings.indices {
            guard let since = contacts.values[standings[position].index].leadingSince,
                since.adding(seconds: heaviestHoldSeconds) <= time
            else { continue }
            if winner.map({ Self.heavier(standings[position], than: standings[$0]) }) ?? true { winner = position }
        }
        guard let winner else { return }
        heaviestID = contacts.keys[standings[winner].index]
        restartLeads(holder: winner, standings: standings, at: time)
    }

    /// A contact's place in the heaviest rules: where it is in ``contacts``, its force and when it began.
    struct Standing {
        var index: Int
        var force: Double
        var order: Int
    }

    /// Heavier: the larger force, ties to the contact that began first.
    private static func heavier(_ a: Standing, than b: Standing) -> Bool {
        a.force != b.force ? a.force > b.force : a.order < b.order
    }

    private mutating func restartLeads(holder: Int?, standings: [Standing], at time: EventTime) {
        for standing in standings { contacts.values[standing.index].leadingSince = nil }
        guard let holder else { return }
        updateLeads(holder: holder, standings: standings, at: time)
    }

    private mutating func updateLeads(holder: Int, standings: [Standing], at time: EventTime) {
        let holderContact = contacts.values[standings[holder].index]
        let value = standings[holder].force
        for position in standings.indices {
            let index = standings[position].index
            guard position != holder else {
                contacts.values[index].leadingSince = nil
                continue
            }
            let margin = heaviestMargin(holder: holderContact, challenger: contacts.values[index], value: value)
            if standings[position].force - value > margin + Self.roundingAllowance {
                if contacts.values[index].leadingSince == nil { contacts.values[index].leadingSince = time }
            } else {
                contacts.values[index].leadingSince = nil
            }
        }
    }
}
