/// A unit for displaying weights. JSON Lines and CSV always carry grams.
public enum WeightUnit: String, Hashable, Sendable, CaseIterable {
    case grams = "g"
    case ounces = "oz"
    case carats = "ct"
    case pounds = "lb"

    /// Converts grams to this unit.
    public func value(fromGrams grams: Double) -> Double {
        switch self {
        case .grams: grams
        case .ounces: grams / 28.349523125
        case .carats: grams / 0.2
        // The international avoirdupois pound (1959): exactly 453.59237 g.
        case .pounds: grams / 453.59237
        }
    }

    /// `12.3 g`, `0.43 oz`, `61.5 ct`, `0.027 lb`.
    public func format(grams: Double) -> String {
        switch self {
        case .grams: NumberText.fixed(value(fromGrams: grams), 1) + " g"
        case .ounces: NumberText.fixed(value(fromGrams: grams), 2) + " oz"
        case .carats: NumberText.fixed(value(fromGrams: grams), 1) + " ct"
        case .pounds: NumberText.fixed(value(fromGrams: grams), 3) + " lb"
        }
    }
}
