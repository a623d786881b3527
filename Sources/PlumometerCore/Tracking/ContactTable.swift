/// The tracker's contacts, ordered by id: two arrays side by side, ids and what is known of each contact.
///
/// A frame lists its contacts by id too, so the tracker walks both in step and finds each sample's contact where
/// it expects it, with no hashing; render lists readings in id order without sorting them. Lookups by id are a
/// binary search; a contact that begins or ends moves the ones after it (a frame holds a handful, and contacts
/// begin and end far less often than they move). It has the few parts of `Dictionary`'s interface the tracker
/// used, so the rules read as before.
struct ContactTable: Sendable {
    /// The ids, ascending.
    private(set) var keys: [Int] = []
    /// What is known of each contact, at the same position as its id.
    var values: [TrackedContact] = []

    /// How many contacts are down.
    var count: Int { keys.count }
    /// Whether no contact is down.
    var isEmpty: Bool { keys.isEmpty }
    /// The positions of the contacts.
    var indices: Range<Int> { keys.indices }
    /// The contact with the lowest id.
    var first: (key: Int, value: TrackedContact)? { keys.first.map { ($0, values[0]) } }

    /// The position of the contact with `id`, or nil.
    func index(forKey id: Int) -> Int? {
        let position = insertionPoint(of: id)
        return position < keys.count && keys[position] == id ? position : nil
    }

    /// The contact with `id`; setting nil removes it, setting a contact adds or replaces it.
    subscript(id: Int) -> TrackedContact? {
        get { index(forKey: id).map { values[$0] } }
        set {
            let position = insertionPoint(of: id)
            let present = position < keys.count && keys[position] == id
            switch (newValue, present) {
            case (let contact?, true): values[position] = contact
            case (let contact?, false):
                keys.insert(id, at: position)
                values.insert(contact, at: position)
            case (nil, true): remove(at: position)
            case (nil, false): break
            }
        }
    }

    /// Adds a contact that is not down yet.
    /// - Returns: its position.
    @discardableResult
    mutating func insert(_ contact: TrackedContact, id: Int) -> Int {
        let position = insertionPoint(of: id)
        keys.insert(id, at: position)
        values.insert(contact, at: position)
        return position
    }

    /// Removes the contact at `index`.
    mutating func remove(at index: Int) {
        keys.remove(at: index)
        values.remove(at: index)
    }

    /// The first position whose id is not below `id`.
    private func insertionPoint(of id: Int) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
