/// How to read an `INPUT_PROP_SEMI_MT` pad: as one contact.
///
/// A semi-multitouch pad (older Synaptics, Cypress and Elantech PS/2 pads) reports the two corners of the
/// bounding box around the fingers in its two slots, not the fingers themselves (the kernel's
/// Documentation/input/multi-touch-protocol.rst), and one pressure for the whole surface. Two "contacts" of
/// such a pad are not two objects: the only honest reading is one contact with the pressure the pad reports.
extension ContactFrame {
    /// This frame as a semi-multitouch pad means it: one contact at the centre of the bounding box, with the
    /// highest pressure and touch size any slot reported, and the lowest id (stable while a finger stays).
    ///
    /// - Returns: The frame unchanged when it has at most one contact.
    public func mergingBoundingBox() -> ContactFrame {
        guard contacts.count > 1, let first = contacts.first else { return self }
        func centre(_ values: [Int32]) -> Int32? {
            guard let low = values.min(), let high = values.max() else { return nil }
            return Int32((Int64(low) + Int64(high)) / 2)
        }
        let merged = ContactSample(
            id: first.id,
            slot: first.slot,
            x: centre(contacts.compactMap(\.x)),
            y: centre(contacts.compactMap(\.y)),
            pressure: contacts.compactMap(\.pressure).max(),
            touchMajor: contacts.compactMap(\.touchMajor).max(),
            touchMinor: contacts.compactMap(\.touchMinor).max()
        )
        return ContactFrame(time: time, contacts: [merged], resync: resync)
    }
}
