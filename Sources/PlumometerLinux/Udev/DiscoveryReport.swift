/// The result of a scan: every device looked at, the best one, and why nothing fits when nothing does.
public struct DiscoveryReport: Sendable {
    /// The devices in event-number order; skipped ones only when the scan asked for them.
    public var devices: [DiscoveredDevice]
    /// How many nodes the scan looked at, skipped ones included.
    public var scannedCount: Int

    public init(devices: [DiscoveredDevice], scannedCount: Int? = nil) {
        self.devices = devices.sorted { ($0.eventNumber, $0.node) < ($1.eventNumber, $1.node) }
        self.scannedCount = scannedCount ?? devices.count
    }

    /// The usable devices, best first: force with units, force, contact size; ties by event number.
    public var ranked: [DiscoveredDevice] {
        devices.filter(\.isUsable).enumerated()
            .sorted { ($0.element.sensing.rank, $0.offset) < ($1.element.sensing.rank, $1.offset) }
            .map(\.element)
    }

    /// The usable device with the lowest rank, nil when none is usable.
    public var best: DiscoveredDevice? { ranked.first }

    /// Finds a device by its node (`/dev/input/event5` or `event5`) or by a case-insensitive name substring.
    ///
    /// An exact node wins; among name matches, usable devices first, best rank first. Skipped devices (keyboards,
    /// mice) are never selected.
    public func select(_ pathOrNameSubstring: String) -> DiscoveredDevice? {
        let selectable = devices.filter { if case .skipped = $0.verdict { false } else { true } }
        let wanted = pathOrNameSubstring
        if let exact = selectable.first(where: { $0.node == wanted || $0.node == "/dev/input/" + wanted }) {
            return exact
        }
        let needle = wanted.lowercased()
        let matches = selectable.filter { $0.name.lowercased().contains(needle) }
        return matches.enumerated().min { lhs, rhs in
            let left = (lhs.element.isUsable ? 0 : 1, lhs.element.sensing.rank, lhs.offset)
            let right = (rhs.element.isUsable ? 0 : 1, rhs.element.sensing.rank, rhs.offset)
            return left < right
        }?.element
    }

    /// The udev rule that grants access, as installed by scripts/install.sh.
    public static let ruleFile = "/etc/udev/rules.d/70-plumometer.rules"
    /// The page that explains permissions.
    public static let permissionsDoc = "docs/permissions.md"

    /// Why no device is usable, in sentences a user can act on; empty when a device is usable.
    public var whyNothingUsable: String {
        if best != nil { return "" }
        let considered = devices.filter { if case .skipped = $0.verdict { false } else { true } }
        if scannedCount == 0 {
            return "No input devices at all: /dev/input is empty or udev cannot see it (a container without "
                + "devices?). On real hardware, check that the touchpad works in your desktop first."
        }
        if considered.isEmpty {
            return "No touchpad, touchscreen or pen tablet was found among \(scannedCount) input device(s); "
                + "'plumometer list --all' shows every device and why it was skipped."
        }
        let denied = considered.filter {
            if case .unopenable(let error) = $0.verdict, error.code == .permissionDenied { true } else { false }
        }
        if !denied.isEmpty {
            let nodes = denied.map { "\($0.node) (\($0.name))" }.joined(separator: ", ")
            return "Permission denied opening \(nodes). Install the udev rule udev/70-plumometer.rules as "
                + "\(Self.ruleFile) (scripts/install.sh does it), then unplug and replug the device or log out and "
                + "in; see \(Self.permissionsDoc). Adding yourself to the 'input' group also works but exposes "
                + "every keyboard to every program you run."
        }
        let lines = considered.map { "\($0.node) (\($0.name)): \($0.verdict.reason ?? $0.verdict.label)" }
        return "None of the \(considered.count) touch device(s) can be used:\n" + lines.joined(separator: "\n")
    }
}
