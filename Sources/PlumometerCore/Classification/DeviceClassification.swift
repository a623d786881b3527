/// The verdict on one device: what its pressure axis measures and why we think so.
public struct DeviceClassification: Sendable, Hashable {
    /// What the pressure axis measures.
    public var sensing: PressureSensing
    /// One sentence a user understands, for `plumometer list` and for the rejection message.
    public var reason: String
    /// The axis the readings come from (`ABS_MT_PRESSURE` or `ABS_PRESSURE`), nil without a pressure axis.
    public var pressureAxis: AbsoluteAxis?

    public init(sensing: PressureSensing, reason: String, pressureAxis: AbsoluteAxis? = nil) {
        self.sensing = sensing
        self.reason = reason
        self.pressureAxis = pressureAxis
    }

    /// True for the force kinds, false for contact size, nil when the device has no pressure axis.
    public var isForceSensor: Bool? {
        switch sensing {
        case .forceWithUnits, .force: true
        case .contactSize: false
        case .none: nil
        }
    }

    /// Lower is better: force with units, then force, then contact size; `none` ranks last and is unusable.
    public var rank: Int { sensing.rank }

    /// Whether plumometer can read weights (or at least relative pressure) from this device.
    public var isUsable: Bool { sensing != .none }
}
