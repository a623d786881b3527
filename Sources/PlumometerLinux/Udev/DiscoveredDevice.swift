public import PlumometerCore

/// One `/dev/input/event*` node as discovery saw it: what udev says, what the device says, and the verdict.
public struct DiscoveredDevice: Sendable {
    /// What discovery concluded.
    public enum Verdict: Sendable {
        /// Opened, classified, and it has a pressure axis we can read.
        case usable
        /// Not usable: no pressure axis (seen in udev's capability bits or in the opened device).
        case rejected(reason: String)
        /// A candidate that could not be opened; the error says why and what to do.
        case unopenable(DeviceError)
        /// Never opened: not a touch device (keyboards, mice, ...). Listed only with `includeSkipped`.
        case skipped(reason: String)

        /// A short label for lists and JSON: usable, rejected, unopenable, skipped.
        public var label: String {
            switch self {
            case .usable: "usable"
            case .rejected: "rejected"
            case .unopenable: "unopenable"
            case .skipped: "skipped"
            }
        }

        /// The sentence that explains a verdict other than `usable` (nil for usable devices).
        public var reason: String? {
            switch self {
            case .usable: nil
            case .rejected(let reason), .skipped(let reason): reason
            case .unopenable(let error): error.description
            }
        }
    }

    /// `/dev/input/eventN`.
    public var node: String
    /// The kernel's device name, from udev (so it is known even when the node cannot be opened).
    public var name: String
    /// Bus, vendor, product and version from udev's `PRODUCT` property, nil when udev has none.
    public var identity: DeviceIdentity?
    /// udev's `ID_INPUT_*` tags on the node.
    public var kinds: [InputKind]
    /// The description read from the opened device; nil when it was not opened.
    public var description: DeviceDescription?
    /// The classification; nil for skipped and unopenable devices.
    public var classification: DeviceClassification?
    public var verdict: Verdict
    /// Its pairing with an input remapper's copy (``RemapperClones``), nil when it has none.
    public var remapper: RemapperLink?

    public init(
        node: String,
        name: String,
        identity: DeviceIdentity?,
        kinds: [InputKind],
        description: DeviceDescription? = nil,
        classification: DeviceClassification? = nil,
        verdict: Verdict
    ) {
        self.node = node
        self.name = name
        self.identity = identity
        self.kinds = kinds
        self.description = description
        self.classification = classification
        self.verdict = verdict
    }

    /// Whether the device can be read.
    public var isUsable: Bool {
        if case .usable = verdict { return true }
        return false
    }

    /// The pressure sensing kind, `none` when unknown.
    public var sensing: PressureSensing { classification?.sensing ?? .none }

    /// The event number of the node (`event12` -> 12), for a stable, human order.
    var eventNumber: Int {
        Int(node.reversed().prefix(while: \.isNumber).reversed().map(String.init).joined()) ?? Int.max
    }
}
