/// What a device's pressure axis measures, which decides whether plumometer can weigh with it.
///
/// The raw values are the spellings used by `plumometer list` and the JSON output.
public enum PressureSensing: String, Sendable, Codable, CaseIterable {
    /// A force sensor whose pressure axis has a resolution: the kernel says how many units make a gram.
    case forceWithUnits = "force-grams"
    /// A force sensor without units: readings are proportional to force, grams need a calibration.
    case force
    /// The pressure axis tracks how much of the finger touches the surface, not how hard it presses.
    case contactSize = "contact-size"
    /// A pressure axis is declared but cannot be used: an empty, inverted or copied range, a constant value, or
    /// zero under a finger.
    case bogus
    /// No pressure axis at all: nothing to weigh with.
    case none

    /// The rank of this kind: lower is better. Force with units beats force, which beats contact size; the two
    /// unusable kinds come last.
    public var rank: Int {
        switch self {
        case .forceWithUnits: 0
        case .force: 1
        case .contactSize: 2
        case .bogus: 3
        case .none: 4
        }
    }

    /// Whether plumometer can read weights (or at least relative pressure) with this kind of axis.
    public var isUsable: Bool {
        switch self {
        case .forceWithUnits, .force, .contactSize: true
        case .bogus, .none: false
        }
    }
}
