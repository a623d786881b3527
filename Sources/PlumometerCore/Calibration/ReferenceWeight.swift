/// A common object of documented mass, for calibrating a pad without a kitchen scale.
///
/// Masses are the issuing mints' specifications for coins in circulation; worn coins weigh slightly less, which is
/// one reason to calibrate with several coins rather than one.
public struct ReferenceWeight: Sendable, Hashable {
    /// The canonical name: lowercase and hyphenated, such as `us-quarter`, `1-euro` or `100-yen`.
    public var name: String
    /// Other accepted spellings (also lowercase and hyphenated).
    public var aliases: [String]
    /// The documented mass in grams.
    public var grams: Double
    /// What the object is, with its mass, for listings.
    public var summary: String

    public init(name: String, aliases: [String] = [], grams: Double, summary: String) {
        self.name = name
        self.aliases = aliases
        self.grams = grams
        self.summary = summary
    }

    /// Every known reference weight, grouped by currency.
    public static let all: [ReferenceWeight] = [
        // United States Mint specifications.
        .init(name: "us-cent", aliases: ["penny", "us-penny"], grams: 2.500, summary: "US cent (2.500 g)"),
        .init(name: "us-nickel", aliases: ["nickel"], grams: 5.000, summary: "US nickel (5.000 g)"),
        .init(name: "us-dime", aliases: ["dime"], grams: 2.268, summary: "US dime (2.268 g)"),
        .init(name: "us-quarter", aliases: ["quarter"], grams: 5.670, summary: "US quarter (5.670 g)"),
        .init(
            name: "us-half-dollar",
            aliases: ["half-dollar"],
            grams: 11.340,
            summary: "US half dollar (11.340 g)"
        ),
        .init(
            name: "us-dollar-coin",
            aliases: ["us-dollar", "dollar-coin"],
            grams: 8.1,
            summary: "US dollar coin, golden (8.1 g)"
        ),
        // Euro coins, common sides (European Central Bank).
        .init(name: "1-euro", aliases: ["euro", "1-eur"], grams: 7.50, summary: "1 euro (7.50 g)"),
        .init(name: "2-euro", aliases: ["2-eur"], grams: 8.50, summary: "2 euro (8.50 g)"),
        .init(
            name: "50-euro-cent",
            aliases: ["50-eurocent", "50-cent-euro"],
            grams: 7.80,
            summary: "50 euro cent (7.80 g)"
        ),
        .init(
            name: "20-euro-cent",
            aliases: ["20-eurocent", "20-cent-euro"],
            grams: 5.74,
            summary: "20 euro cent (5.74 g)"
        ),
        .init(
            name: "10-euro-cent",
            aliases: ["10-eurocent", "10-cent-euro"],
            grams: 4.10,
            summary: "10 euro cent (4.10 g)"
        ),
        .init(
            name: "5-euro-cent",
            aliases: ["5-eurocent", "5-cent-euro"],
            grams: 3.92,
            summary: "5 euro cent (3.92 g)"
        ),
        .init(
            name: "2-euro-cent",
            aliases: ["2-eurocent", "2-cent-euro"],
            grams: 3.06,
            summary: "2 euro cent (3.06 g)"
        ),
        .init(
            name: "1-euro-cent",
            aliases: ["1-eurocent", "1-cent-euro"],
            grams: 2.30,
            summary: "1 euro cent (2.30 g)"
        ),
        // People's Bank of China, 1999 series.
        .init(name: "1-yuan", aliases: ["yuan", "1-cny", "1-rmb"], grams: 6.05, summary: "1 yuan (6.05 g)"),
        // The Royal Mint, current coins.
        .init(
            name: "uk-pound",
            aliases: ["1-pound", "pound", "uk-1-pound"],
            grams: 8.75,
            summary: "UK 1 pound (8.75 g)"
        ),
        .init(name: "uk-2-pound", aliases: ["2-pound", "uk-2-pounds"], grams: 12.0, summary: "UK 2 pounds (12.0 g)"),
        .init(name: "uk-50p", aliases: ["50p"], grams: 8.0, summary: "UK 50 pence (8.0 g)"),
        .init(name: "uk-20p", aliases: ["20p"], grams: 5.0, summary: "UK 20 pence (5.0 g)"),
        .init(name: "uk-10p", aliases: ["10p"], grams: 6.5, summary: "UK 10 pence (6.5 g)"),
        .init(name: "uk-5p", aliases: ["5p"], grams: 3.25, summary: "UK 5 pence (3.25 g)"),
        .init(name: "uk-2p", aliases: ["2p"], grams: 7.12, summary: "UK 2 pence (7.12 g)"),
        .init(name: "uk-1p", aliases: ["1p"], grams: 3.56, summary: "UK 1 penny (3.56 g)"),
        // Japan Mint.
        .init(name: "500-yen", aliases: ["500-jpy"], grams: 7.0, summary: "500 yen (7.0 g)"),
        .init(name: "100-yen", aliases: ["100-jpy"], grams: 4.8, summary: "100 yen (4.8 g)"),
        .init(name: "50-yen", aliases: ["50-jpy"], grams: 4.0, summary: "50 yen (4.0 g)"),
        .init(name: "10-yen", aliases: ["10-jpy"], grams: 4.5, summary: "10 yen (4.5 g)"),
        .init(name: "5-yen", aliases: ["5-jpy"], grams: 3.75, summary: "5 yen (3.75 g)"),
        .init(name: "1-yen", aliases: ["1-jpy"], grams: 1.0, summary: "1 yen (1.0 g)"),
        // Royal Canadian Mint.
        .init(
            name: "loonie",
            aliases: ["ca-dollar", "canadian-dollar", "1-cad"],
            grams: 6.27,
            summary: "Canadian loonie, 1 dollar (6.27 g)"
        ),
        .init(
            name: "toonie",
            aliases: ["ca-2-dollar", "canadian-2-dollar", "2-cad"],
            grams: 6.92,
            summary: "Canadian toonie, 2 dollars (6.92 g)"
        ),
    ]

    /// The reference weight with this name or alias.
    ///
    /// Case, surrounding spaces, underscores and inner spaces (read as hyphens) do not matter, and a plural "s" is
    /// accepted ("quarters", "us-cents"; "pennies" too).
    public static func named(_ name: String) -> ReferenceWeight? {
        let key = normalisedName(name)
        guard !key.isEmpty else { return nil }
        if let found = lookUp(key) { return found }
        if key.hasSuffix("ies") { return lookUp(String(key.dropLast(3)) + "y") }
        if key.hasSuffix("s") { return lookUp(String(key.dropLast())) }
        return nil
    }

    /// Grams in one avoirdupois ounce (exact, by the international yard and pound agreement of 1959).
    public static let gramsPerOunce = 28.349_523_125
    /// Grams in one metric carat (exact, by definition).
    public static let gramsPerCarat = 0.2

    /// Parses a mass: grams ("10", "10g", "5.67 g", "0.5kg", "250mg"), ounces ("0.2oz") or carats ("25ct"), a
    /// reference weight ("us-quarter"), either with a count ("2x 5.67g", "3x 1-euro", "3 x us-cent"), or several of
    /// these joined by "+". Decimals are written with a dot: "5,67" is refused with a note saying so.
    ///
    /// - Returns: the total in grams.
    /// - Throws: ``ReferenceWeightError`` saying what could not be read; an unknown name comes with the closest
    ///   known names.
    public static func parseMass(_ text: String) throws(ReferenceWeightError) -> Double {
        let trimmed = trim(Substring(text))
        guard !trimmed.isEmpty else { throw .empty }
        var total = 0.0
        for term in trimmed.split(separator: "+", omittingEmptySubsequences: false) {
            total += try parseTerm(trim(term), whole: text)
        }
        return total
    }

    // MARK: - Internals

    private static func lookUp(_ key: String) -> ReferenceWeight? {
        all.first { $0.name == key || $0.aliases.contains(key) }
    }

    private static func normalisedName(_ name: String) -> String {
        var result = ""
        for character in trim(Substring(name)).lowercased() {
            let mapped: Character = (character == "_" || character == " " || character == "\t") ? "-" : character
            if mapped == "-" && result.hasSuffix("-") { continue }
            result.append(mapped)
        }
        return result
    }

    private static func trim(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }

    /// One "[count x] item" term.
    private static func parseTerm(_ term: Substring, whole: String) throws(ReferenceWeightError) -> Double {
        guard !term.isEmpty else { throw .missingMass(whole) }
        var count = 1
        var item = term
        // A count is digits followed by "x", "×" or "*" (spaces allowed around it): "2x 5g", "3 x us-cent".
        let digits = term.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty {
            let afterDigits = trim(term.dropFirst(digits.count))
            if let marker = afterDigits.first, marker == "x" || marker == "X" || marker == "×" || marker == "*" {
                guard let value = Int(digits), value > 0 else { throw .invalidCount(String(term)) }
                count = value
                item = trim(afterDigits.dropFirst())
                guard !item.isEmpty else { throw .missingMass(String(term)) }
            }
        }
        return Double(count) * (try parseItem(item))
    }

    /// One item: a number of grams with an optional unit, or a reference weight's name.
    private static func parseItem(_ item: Substring) throws(ReferenceWeightError) -> Double {
        if let comma = item.firstIndex(of: ","), comma > item.startIndex, item.index(after: comma) < item.endIndex,
            item[item.index(before: comma)].isNumber, item[item.index(after: comma)].isNumber
        {
            throw .decimalComma(String(item))
        }
        let numberPart = item.prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
        let digitCount = numberPart.filter { $0 != "." }.count
        if digitCount > 0, numberPart.filter({ $0 == "." }).count <= 1, let number = Double(String(numberPart)) {
            let unit = trim(item.dropFirst(numberPart.count)).lowercased()
            switch unit {
            case "", "g", "gram", "grams": return number
            case "kg": return number * 1000
            case "mg": return number / 1000
            case "oz", "ounce", "ounces": return number * gramsPerOunce
            case "ct", "carat", "carats": return number * gramsPerCarat
            default: break  // "1-euro", "50p", "100-yen": a name that starts with digits.
            }
        }
        if let weight = named(String(item)) { return weight.grams }
        throw .unknownName(String(item), suggestions: suggestions(for: String(item)))
    }

    /// Up to three known names closest to `text` by edit distance.
    static func suggestions(for text: String) -> [String] {
        let key = Array(normalisedName(text))
        var best: [(name: String, distance: Int, order: Int)] = []
        for (order, weight) in all.enumerated() {
            let distance = ([weight.name] + weight.aliases).map { editDistance(key, Array($0)) }.min() ?? Int.max
            best.append((weight.name, distance, order))
        }
        best.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.order < $1.order }
        return best.prefix(3).map(\.name)
    }

    /// Levenshtein distance.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var row = previous
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                row[j] = Swift.min(previous[j] + 1, row[j - 1] + 1, substitution)
            }
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}

/// Why a mass could not be read.
public enum ReferenceWeightError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Nothing was given.
    case empty
    /// A count or a "+" was not followed by a mass.
    case missingMass(String)
    /// The count before "x" is zero or too large.
    case invalidCount(String)
    /// Neither a number of grams nor a known reference weight.
    case unknownName(String, suggestions: [String])
    /// A number written with a decimal comma ("5,67").
    case decimalComma(String)

    public var description: String {
        switch self {
        case .empty:
            return
                "No mass given; write grams such as \"10g\" (or \"0.2oz\", \"25ct\") or a coin such as \"us-quarter\"."
        case .missingMass(let text):
            return "\"\(text)\" is missing a mass; write for example \"2x 5.67g\" or \"3x 1-euro\"."
        case .invalidCount(let text):
            return "\"\(text)\" has a count that is not a whole number from 1 up; write for example \"3x us-cent\"."
        case .unknownName(let text, let suggestions):
            let hint =
                suggestions.isEmpty
                ? "" : " Did you mean " + suggestions.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
            return "\"\(text)\" is neither grams (like \"10g\") nor a known coin.\(hint)"
        case .decimalComma(let text):
            let dotted = String(text.map { $0 == "," ? "." : $0 })
            return "\"\(text)\" has a decimal comma; use a dot: \"\(dotted)\"."
        }
    }
}
