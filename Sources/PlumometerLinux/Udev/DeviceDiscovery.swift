public import PlumometerCore

/// Finds the touchpads, touchscreens and pen tablets worth reading, without opening anything else.
///
/// The rules, in order (printed by `plumometer list`):
/// 1. Enumerate `SUBSYSTEM=input` nodes named `event*` through libudev (never a fixed node, never libinput,
///    which opens every device on the seat).
/// 2. Decide from udev alone (`DiscoveryPrefilter`): keyboards are skipped unconditionally; nodes that are not
///    touchpads, touchscreens or tablets are skipped; touch devices whose `capabilities/abs` has neither
///    `ABS_PRESSURE` (0x18) nor `ABS_MT_PRESSURE` (0x3a) are rejected. None of these is opened.
/// 3. Open the remaining candidates read-only, read their description, close them, and classify
///    (`DeviceClassifier`). An open that fails keeps its error (permission denied names the udev rule).
/// 4. Rank the usable ones: force with units, force, contact size; ties by event number.
/// 5. Pair each device with an input remapper's copy of it, by name and ids (`RemapperClones`).
///
/// `udev_device_get_is_initialized` is deliberately not consulted: without a udev database (umockdev,
/// containers) it is false for every device.
public enum DeviceDiscovery {
    /// Reads a device's description: the production opener opens the node with `EvdevDevice` and closes it.
    public typealias Opener = (String) throws(DeviceError) -> DeviceDescription

    /// The default opener: `EvdevDevice(path:)`, read the description, close.
    public static func evdevOpener(_ path: String) throws(DeviceError) -> DeviceDescription {
        let device = try EvdevDevice(path: path)
        defer { device.close() }
        return device.description
    }

    /// Scans the system's input devices.
    ///
    /// - Parameter includeSkipped: Whether to list devices skipped before opening (keyboards, mice, ...).
    /// - Returns: Every device considered, the best one and the explanation when nothing is usable.
    /// - Throws: `UdevError` when libudev itself fails (no /sys, no udev).
    public static func scan(includeSkipped: Bool = false) throws(UdevError) -> DiscoveryReport {
        try scan(includeSkipped: includeSkipped, opener: evdevOpener)
    }

    /// Applies the same rules to one node that just appeared (`/dev/input/eventN`), opening nothing else: the
    /// hotplug path, which must not reopen every other touch device on each udev event.
    /// - Returns: The node's verdict, or nil when udev does not know it.
    public static func inspect(node: String) throws(UdevError) -> DiscoveredDevice? {
        let sysname = node.split(separator: "/").last.map(String.init) ?? node
        return try scan(includeSkipped: true, opener: evdevOpener, sysnamePattern: sysname).devices.first {
            $0.node == node
        }
    }

    /// Scans with a custom opener (tests, or a caller that keeps devices open).
    public static func scan(
        includeSkipped: Bool,
        opener: Opener,
        sysnamePattern: String = "event*"
    ) throws(UdevError) -> DiscoveryReport {
        let udev = try UdevContext()
        let nodes = try udev.syspaths(subsystem: "input", sysnamePattern: sysnamePattern).map {
            (syspath) throws(UdevError) -> UdevInputNode in try udev.inputNode(syspath: syspath)
        }
        return evaluate(nodes, includeSkipped: includeSkipped, opener: opener)
    }

    /// Applies the rules to nodes already read from udev.
    public static func evaluate(
        _ nodes: [UdevInputNode],
        includeSkipped: Bool,
        opener: Opener
    ) -> DiscoveryReport {
        var devices: [DiscoveredDevice] = []
        for node in nodes {
            guard let path = node.devnode, node.sysname.hasPrefix("event") else { continue }
            let kinds = InputKind.kinds(in: node.properties)
            let identity = udevIdentity(node)
            let name = node.name ?? identity?.name ?? node.sysname
            var device = DiscoveredDevice(node: path, name: name, identity: identity, kinds: kinds, verdict: .usable)
            switch DiscoveryPrefilter.evaluate(node) {
            case .skipped(let reason):
                guard includeSkipped else { continue }
                device.verdict = .skipped(reason: reason)
            case .noPressure(let reason):
                device.classification = DeviceClassification(sensing: .none, reason: reason.capitalizedFirst + ".")
                device.verdict = .rejected(reason: reason)
            case .candidate:
                do throws(DeviceError) {
                    let description = try opener(path)
                    let classification = DeviceClassifier.classify(description)
                    device.description = description
                    device.identity = description.identity
                    device.name = description.name
                    device.classification = classification
                    device.verdict = classification.isUsable ? .usable : .rejected(reason: classification.reason)
                } catch {
                    device.verdict = .unopenable(error)
                }
            }
            devices.append(device)
        }
        return DiscoveryReport(devices: RemapperClones.link(devices), scannedCount: nodes.count)
    }

    /// The identity from udev's `PRODUCT=bus/vendor/product/version` (hex) and the name, before any open.
    static func udevIdentity(_ node: UdevInputNode) -> DeviceIdentity? {
        guard let product = node.parentProperties["PRODUCT"] ?? node.properties["PRODUCT"] else { return nil }
        let fields = product.split(separator: "/").compactMap { UInt16($0, radix: 16) }
        guard fields.count == 4 else { return nil }
        return DeviceIdentity(
            bus: fields[0],
            vendor: fields[1],
            product: fields[2],
            version: fields[3],
            name: node.name ?? ""
        )
    }
}

extension String {
    fileprivate var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
