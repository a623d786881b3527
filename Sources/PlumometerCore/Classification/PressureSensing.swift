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
    /// No pressure axis at all: nothing to weigh with.
    case none

    /// The rank of this kind: lower is better. Force with units beats force, which beats contact size.
    public var rank: Int {
        switch self {
        case .forceWithUnits: 0
        case .force: 1
        case .contactSize: 2
        case .none: 3
        }
    }
}
