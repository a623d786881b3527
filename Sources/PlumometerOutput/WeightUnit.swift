/// A unit for displaying weights. JSON Lines and CSV always carry grams.
public enum WeightUnit: String, Hashable, Sendable, CaseIterable {
    case grams = "g"
    case ounces = "oz"
    case carats = "ct"
    case pounds = "lb"
    case kilograms = "kg"

    /// Converts grams to this unit.
    public func value(fromGrams grams: Double) -> Double {
        switch self {
        case .grams: grams
        case .ounces: grams / 28.349523125
        case .carats: grams / 0.2
        // The international avoirdupois pound (1959): exactly 453.59237 g.
        case .pounds: grams / 453.59237
        case .kilograms: grams / 1000
        }
    }

    /// The decimals a weight in this unit is written with: about a tenth of a gram or finer (a pound's 0.001 is
    /// 0.45 g, an ounce's 0.01 is 0.28 g, a kilogram's 0.0001 is 0.1 g, as the gram's one decimal).
    public var decimals: Int {
        switch self {
        case .grams, .carats: 1
        case .ounces: 2
        case .pounds: 3
        case .kilograms: 4
        }
    }

    /// `12.3 g`, `0.43 oz`, `61.5 ct`, `0.027 lb`, `2.0000 kg`.
    public func format(grams: Double) -> String {
        NumberText.fixed(value(fromGrams: grams), decimals) + " " + rawValue
    }
}
