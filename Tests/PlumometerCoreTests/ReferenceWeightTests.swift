import PlumometerCore
import Testing

@Suite("Reference weights: the coin table and mass parsing")
struct ReferenceWeightTests {
    @Test(
        "documented masses by canonical name",
        arguments: [
            ("us-cent", 2.500), ("us-nickel", 5.000), ("us-dime", 2.268), ("us-quarter", 5.670),
            ("us-half-dollar", 11.340), ("us-dollar-coin", 8.1), ("1-euro", 7.50), ("2-euro", 8.50),
            ("50-euro-cent", 7.80), ("20-euro-cent", 5.74), ("10-euro-cent", 4.10), ("5-euro-cent", 3.92),
            ("2-euro-cent", 3.06), ("1-euro-cent", 2.30), ("1-yuan", 6.05), ("uk-pound", 8.75), ("uk-2-pound", 12.0),
            ("uk-50p", 8.0), ("uk-20p", 5.0), ("uk-10p", 6.5), ("uk-5p", 3.25), ("uk-1p", 3.56), ("100-yen", 4.8),
            ("500-yen", 7.0), ("10-yen", 4.5), ("1-yen", 1.0), ("loonie", 6.27), ("toonie", 6.92),
        ]
    )
    func documentedMasses(name: String, grams: Double) throws {
        let weight = try #require(ReferenceWeight.named(name))
        #expect(weight.name == name)
        #expect(weight.grams == grams)
        #expect(!weight.summary.isEmpty)
    }

    @Test("names are unique, lowercase and hyphenated, and no alias is another coin's name")
    func tableShape() {
        let names = ReferenceWeight.all.map(\.name)
        let aliases = ReferenceWeight.all.flatMap(\.aliases)
        #expect(Set(names).count == names.count)
        #expect(Set(names + aliases).count == names.count + aliases.count)
        for spelling in names + aliases {
            #expect(spelling == spelling.lowercased())
            #expect(!spelling.contains(" ") && !spelling.contains("_"))
        }
        #expect(ReferenceWeight.all.allSatisfy { $0.grams > 0 })
    }

    @Test("aliases, case, spaces, underscores and plurals are accepted")
    func aliases() {
        #expect(ReferenceWeight.named("quarter")?.name == "us-quarter")
        #expect(ReferenceWeight.named("  US_Quarter ")?.name == "us-quarter")
        #expect(ReferenceWeight.named("US quarter")?.name == "us-quarter")
        #expect(ReferenceWeight.named("quarters")?.name == "us-quarter")
        #expect(ReferenceWeight.named("pennies")?.name == "us-cent")
        #expect(ReferenceWeight.named("euro")?.name == "1-euro")
        #expect(ReferenceWeight.named("1-pound")?.name == "uk-pound")
        #expect(ReferenceWeight.named("50p")?.name == "uk-50p")
        #expect(ReferenceWeight.named("ca-dollar")?.name == "loonie")
        #expect(ReferenceWeight.named("") == nil)
        #expect(ReferenceWeight.named("doubloon") == nil)
    }

    @Test(
        "parseMass reads grams, coins, counts and sums",
        arguments: [
            ("2x 5.67g", 11.34), ("us-quarter", 5.67), ("3x 1-euro", 22.5), ("10g", 10), ("10", 10),
            ("3 x us-cent", 7.5), ("2X5g", 10), ("4 * dime", 9.072), ("2 × 2-euro", 17), (" 5.5 g ", 5.5),
            ("0.25kg", 250), ("500mg", 0.5), ("0", 0), (".5g", 0.5), ("5.g", 5), ("10 grams", 10),
            ("100-yen", 4.8), ("50p", 8), ("2x us-quarter + 1-euro", 18.84), ("10g+5g", 15),
        ]
    )
    func parse(text: String, grams: Double) throws {
        let parsed = try ReferenceWeight.parseMass(text)
        #expect(abs(parsed - grams) < 1e-9)
    }

    @Test("parseMass refuses what it cannot read, with a clear reason")
    func parseErrors() throws {
        #expect(throws: ReferenceWeightError.empty) { try ReferenceWeight.parseMass("   ") }
        #expect(throws: ReferenceWeightError.missingMass("3x")) { try ReferenceWeight.parseMass("3x") }
        #expect(throws: ReferenceWeightError.missingMass("5g +")) { try ReferenceWeight.parseMass("5g +") }
        #expect(throws: ReferenceWeightError.invalidCount("0x us-cent")) { try ReferenceWeight.parseMass("0x us-cent") }
        #expect(throws: ReferenceWeightError.invalidCount("99999999999999999999x dime")) {
            try ReferenceWeight.parseMass("99999999999999999999x dime")
        }
        for bad in ["-5g", "5 lb", "1.2.3g", "nan", "inf", "1e3"] {
            #expect(throws: ReferenceWeightError.self, "\(bad)") { try ReferenceWeight.parseMass(bad) }
        }
        #expect(ReferenceWeightError.empty.description.contains("No mass given"))
        #expect(ReferenceWeightError.missingMass("3x").description.contains("\"3x\" is missing a mass"))
    }

    @Test("an unknown coin name suggests the closest known names")
    func suggestions() throws {
        do {
            _ = try ReferenceWeight.parseMass("2x us-quater")
            Issue.record("a misspelt coin must be refused")
        } catch {
            guard case .unknownName(let name, let suggestions) = error else {
                Issue.record("expected unknownName, got \(error)")
                return
            }
            #expect(name == "us-quater")
            #expect(suggestions.first == "us-quarter")
            #expect(suggestions.count <= 3)
            #expect(error.description.contains("Did you mean \"us-quarter\""))
            #expect(error.description.contains("neither grams"))
        }
        do {
            _ = try ReferenceWeight.parseMass("1 euro cents")
        } catch {
            Issue.record("\"1 euro cents\" should read as 1-euro-cent: \(error)")
        }
        do {
            _ = try ReferenceWeight.parseMass("100-yem")
            Issue.record("a misspelt coin must be refused")
        } catch {
            guard case .unknownName(_, let suggestions) = error else { return }
            #expect(suggestions.first == "100-yen")
        }
    }
}

@Suite("Reference weights: ounces, carats and the decimal comma")
struct ReferenceWeightUnitTests {
    @Test("ounces and carats are read, alone, with counts and in sums")
    func ouncesAndCarats() throws {
        #expect(try ReferenceWeight.parseMass("1oz") == 28.349_523_125)
        #expect(try ReferenceWeight.parseMass("0.2 oz") == 0.2 * 28.349_523_125)
        #expect(try ReferenceWeight.parseMass("2 ounces") == 2 * 28.349_523_125)
        #expect(try ReferenceWeight.parseMass("25ct") == 5)
        #expect(try ReferenceWeight.parseMass("1 carat") == 0.2)
        #expect(try ReferenceWeight.parseMass("2x 10ct + 1g") == 5)
    }

    @Test("a decimal comma is refused with 'use a dot'", arguments: ["5,67", "5,67g", "0,5 kg", "us-quarter + 1,5g"])
    func decimalComma(text: String) throws {
        do {
            _ = try ReferenceWeight.parseMass(text)
            Issue.record("\(text) was accepted")
        } catch {
            guard case .decimalComma = error else {
                Issue.record("expected decimalComma, got \(error)")
                return
            }
            #expect(error.description.contains("use a dot"))
            #expect(error.description.contains("."))
        }
        #expect(ReferenceWeightError.decimalComma("5,67g").description.contains("\"5.67g\""))
    }
}
