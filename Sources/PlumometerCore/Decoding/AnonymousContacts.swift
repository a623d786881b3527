/// Protocol A contact identities: the kernel gives protocol A contacts no id, so each contact of a frame takes the
/// id of the nearest unmatched contact of the previous frame, or a new synthetic id.
struct AnonymousContacts: Sendable {
    /// One contact of the last frame: its id and the values it was listed with.
    struct Contact: Sendable {
        var id: Int
        var values: [AbsoluteAxis: Int32]
    }

    /// The contacts of the last frame, in the order the device listed them.
    private(set) var contacts: [Contact] = []
    /// A contact that moved farther than this (squared, in device units) since the previous frame is another one.
    let matchDistanceSquared: Double

    /// Creates the matcher for `device`: a quarter of the larger position span is the farthest a contact moves.
    init(device: DeviceDescription) {
        // Fingers do not move that far in one report (about 12 ms).
        let xSpan = (device.axes[.mtPositionX] ?? device.axes[.x])?.span ?? 0
        let ySpan = (device.axes[.mtPositionY] ?? device.axes[.y])?.span ?? 0
        let limit = Swift.max(xSpan, ySpan) / 4
        matchDistanceSquared = limit > 0 ? limit * limit : Double.infinity
    }

    /// Replaces the contacts by `listed`, each keeping the id of the contact it continues.
    /// - Parameters:
    ///   - listed: the contacts of the new frame, as the device listed them.
    ///   - nextID: the next synthetic id, taken (and advanced) for each contact that continues none.
    mutating func match(_ listed: [[AbsoluteAxis: Int32]], nextID: inout Int) {
        var previous = contacts
        var next: [Contact] = []
        for values in listed {
            var bestIndex: Int?
            var bestDistance = Double.infinity
            for (index, old) in previous.enumerated() {
                // The device's own tracking id, when it sends one, decides outright.
                if let id = values[.mtTrackingID], let oldID = old.values[.mtTrackingID] {
                    if id == oldID {
                        bestIndex = index
                        bestDistance = 0
                        break
                    }
                    continue
                }
                let distance = Self.distanceSquared(values, old.values)
                if distance < bestDistance {
                    bestDistance = distance
                    bestIndex = index
                }
            }
            if let index = bestIndex, bestDistance <= matchDistanceSquared {
                next.append(Contact(id: previous[index].id, values: values))
                previous.remove(at: index)
            } else {
                next.append(Contact(id: nextID, values: values))
                nextID += 1
            }
        }
        contacts = next
    }

    private static func distanceSquared(_ a: [AbsoluteAxis: Int32], _ b: [AbsoluteAxis: Int32]) -> Double {
        guard let ax = a[.mtPositionX], let ay = a[.mtPositionY], let bx = b[.mtPositionX], let by = b[.mtPositionY]
        else { return 0 }
        let dx = Double(ax) - Double(bx)
        let dy = Double(ay) - Double(by)
        return dx * dx + dy * dy
    }
}
