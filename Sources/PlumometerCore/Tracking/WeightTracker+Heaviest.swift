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
        let forces = contacts.mapValues { force(of: $0) }
        let heavier = { (a: Int, b: Int) -> Bool in
            forces[a]! != forces[b]! ? forces[a]! > forces[b]! : self.contacts[a]!.order < self.contacts[b]!.order
        }
        guard let top = contacts.keys.min(by: heavier), forces[top]! > 0 else {
            heaviestID = nil
            restartLeads(holder: nil, forces: forces, at: time)
            return
        }
        guard let holder = heaviestID, let value = forces[holder], value > 0 else {
            heaviestID = top
            restartLeads(holder: top, forces: forces, at: time)
            return
        }
        updateLeads(holder: holder, value: value, forces: forces, at: time)
        let due = contacts.keys.filter { id in
            guard let since = contacts[id]!.leadingSince else { return false }
            return since.adding(seconds: heaviestHoldSeconds) <= time
        }
        guard let winner = due.min(by: heavier) else { return }
        heaviestID = winner
        restartLeads(holder: winner, forces: forces, at: time)
    }

    /// Forgets every lead and measures them afresh against a new holder (or none).
    private mutating func restartLeads(holder: Int?, forces: [Int: Double], at time: EventTime) {
        for id in contacts.keys { contacts[id]!.leadingSince = nil }
        guard let holder, let value = forces[holder] else { return }
        updateLeads(holder: holder, value: value, forces: forces, at: time)
    }

    /// Starts the lead of each contact that now leads `holder` by more than the margin, and ends the others'.
    private mutating func updateLeads(holder: Int, value: Double, forces: [Int: Double], at time: EventTime) {
        let holderContact = contacts[holder]!
        for id in contacts.keys {
            guard id != holder else {
                contacts[id]!.leadingSince = nil
                continue
            }
            let margin = heaviestMargin(holder: holderContact, challenger: contacts[id]!, value: value)
            if forces[id]! - value > margin + Self.roundingAllowance {
                if contacts[id]!.leadingSince == nil { contacts[id]!.leadingSince = time }
            } else {
                contacts[id]!.leadingSince = nil
            }
        }
    }
}
