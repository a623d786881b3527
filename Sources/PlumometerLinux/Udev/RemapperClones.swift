/// How a device relates to the copy an input remapper made of it.
///
/// Remappers such as keymapper take a device for themselves (`EVIOCGRAB`) and re-emit its events through uinput as
/// a new device named after the original: a reader of the original node then sees nothing at all. Whether the
/// original is grabbed cannot be asked without grabbing it, which plumometer never does unasked, so discovery
/// reports the pair and says which node carries the events when the remapper holds the original.
public enum RemapperLink: Sendable, Equatable {
    /// This device is re-emitted by a remapper as `node` (named `name`).
    case clonedAs(node: String, name: String)
    /// This device is a remapper's copy of `node` (named `name`).
    case cloneOf(node: String, name: String)

    /// One sentence for `list`, and for the note of commands that pick this device.
    public var explanation: String {
        switch self {
        case .clonedAs(let node, let name):
            "an input remapper re-emits this device as \(node) ('\(name)'); while it holds this one (EVIOCGRAB) "
                + "nothing arrives here: read \(node) instead (-d \(node))"
        case .cloneOf(let node, let name):
            "an input remapper's copy of \(node) ('\(name)'): its events are the original's as the remapper passes "
                + "them on"
        }
    }
}

/// Pairs each device with its remapper clone, from names and ids alone (nothing is opened or grabbed).
public enum RemapperClones {
    /// The suffixes remappers append to the name of the device they re-emit (keymapper: "; keymapper").
    public static let nameSuffixes = ["; keymapper"]

    /// Whether `clone` is a remapper's copy of `original`: its name is the original's plus a known suffix, or it
    /// starts with the original's name and carries the same vendor and product.
    public static func isClone(_ clone: DiscoveredDevice, of original: DiscoveredDevice) -> Bool {
        guard clone.node != original.node, !original.name.isEmpty, clone.name.count > original.name.count else {
            return false
        }
        if nameSuffixes.contains(where: { clone.name == original.name + $0 }) { return true }
        guard clone.name.hasPrefix(original.name), let a = clone.identity, let b = original.identity else {
            return false
        }
        return a.vendor == b.vendor && a.product == b.product
    }

    /// The devices with ``DiscoveredDevice/remapper`` set on every original that has a clone and on the clone.
    public static func link(_ devices: [DiscoveredDevice]) -> [DiscoveredDevice] {
        var linked = devices
        for (c, clone) in devices.enumerated() {
            guard let o = devices.indices.first(where: { isClone(clone, of: devices[$0]) }) else { continue }
            linked[o].remapper = .clonedAs(node: clone.node, name: clone.name)
            linked[c].remapper = .cloneOf(node: devices[o].node, name: devices[o].name)
        }
        return linked
    }
}
