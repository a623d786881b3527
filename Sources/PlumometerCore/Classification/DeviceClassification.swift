/// The verdict on one device: what its pressure axis measures and why we think so.
public struct DeviceClassification: Sendable, Hashable {
    /// What the pressure axis measures.
    public var sensing: PressureSensing
    /// One sentence a user understands, for `plumometer list` and for the rejection message.
    public var reason: String
    /// The axis the readings come from (`ABS_MT_PRESSURE` or `ABS_PRESSURE`), nil without a pressure axis.
    public var pressureAxis: AbsoluteAxis?
    /// Everything the description says about the pressure axis, in the order the rules looked, each with its
    /// implication; the finding that decided `sensing` is among them.
    public var findings: [StaticFinding]
    /// Whether the device is `INPUT_PROP_SEMI_MT`: its two "contacts" are a bounding box, to be read as one
    /// contact with the pressure the pad reports.
    public var semiMultitouch: Bool

    /// Creates a classification; findings default to none and semi-multitouch to false.
    public init(
        sensing: PressureSensing,
        reason: String,
        pressureAxis: AbsoluteAxis? = nil,
        findings: [StaticFinding] = [],
        semiMultitouch: Bool = false
    ) {
        self.sensing = sensing
        self.reason = reason
        self.pressureAxis = pressureAxis
        self.findings = findings
        self.semiMultitouch = semiMultitouch
    }

    /// True for the force kinds, false for contact size, nil when the device has no usable pressure axis.
    public var isForceSensor: Bool? {
        switch sensing {
        case .forceWithUnits, .force: true
        case .contactSize: false
        case .bogus, .none: nil
        }
    }

    /// Lower is better: force with units, then force, then contact size; `bogus` and `none` rank last and are
    /// unusable.
    public var rank: Int { sensing.rank }

    /// Whether plumometer can read weights (or at least relative pressure) from this device.
    public var isUsable: Bool { sensing.isUsable }

    /// The finding codes, for tests and scripts.
    public var findingCodes: [StaticFinding.Code] { findings.map(\.code) }
}
