import Foundation
import PlumometerTestSupport
import Testing

/// What a calibration means, through the built binary: a carrier calibration measures the pad (the carrier's weight
/// is a result, so an object placed directly reads its own weight); references placed directly measure the pad's
/// offset; contact-size and bogus devices are not passed off as scales, and whatever reads a contact-size device
/// says that its figures are contact area, not weight.
@Suite struct CalibrationMeaningTests {
    let coinsOnCarrier = CLI.fixture("magic-trackpad-2.coins-on-carrier.evemu")
    let objectDirect = CLI.fixture("magic-trackpad-2.object-direct.evemu")
    let finger = CLI.fixture("touchscreen-contact-size.finger.evemu")
    let bogus = CLI.fixture("bogus-pressure.finger.evemu")
    let quarters = ["--reference", "us-quarter", "--reference", "us-quarter", "--reference", "2x us-quarter"]

    /// Every file in the configuration directory's plumometer folder.
    static func savedProfiles(_ config: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: config.appendingPathComponent("plumometer").path)) ?? []
    }

    /// The settled grams of the one contact `weigh -f jsonl` printed.
    static func weighedGrams(_ result: ProcessResult) throws -> Double {
        let frame = try #require(try CLI.jsonObjects(result).first, "\(result.stderr)")
        return try #require(frame.objects("contacts").first?.number("grams"), "\(result.stdout)")
    }

    @Test func aCarrierCalibrationWithCoinsThenAnObjectPlacedDirectlyReadsItsWeight() throws {
        // The user's scenario: a carrier (40 units), then 1, 2 and 4 quarters on it (60, 80, 120 units). The fit
        // once kept the carrier in its intercept (grams = 0.2835 x pressure - 11.34) and an 8.5 g object at 30
        // units, placed directly, read -2.8 g.
        let config = try CLI.temporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let calibrated = try CLI.run(
            ["calibrate", "--replay", coinsOnCarrier] + quarters + ["--save", "-f", "json"],
            environment: environment
        )
        #expect(calibrated.status == 0, "\(calibrated.stderr)")
        let fit = try #require(try CLI.jsonObjects(calibrated).first)
        let slope = try #require(fit.number("slope"))
        #expect(abs(slope - 0.2835) < 0.001, "grams per unit from the increments: \(slope)")
        #expect(fit.number("intercept") == 0, "the pad's line: no force reads 0 g")
        #expect(fit.string("basis") == "carrier")
        let carrier = try #require(fit.number("carrier_grams"))
        #expect(abs(carrier - 11.34) < 0.05, "the carrier's own weight is a result: \(carrier)")
        #expect(fit.bool("contact_area") == false)
        let residuals = try #require(fit["residuals"] as? [NSNumber]).map { abs($0.doubleValue) }
        let fitError = residuals.max() ?? 0
        #expect(Self.savedProfiles(config).count == 1)

        // The object placed directly on the pad: 30 units, 8.505 g at the pad's 0.2835 g per unit.
        let weighed = try CLI.run(["weigh", "--replay", objectDirect, "-f", "jsonl"], environment: environment)
        #expect(weighed.status == 0, "\(weighed.stderr)")
        let grams = try Self.weighedGrams(weighed)
        #expect(abs(grams - 8.505) <= fitError + 0.1, "within the fit's error (\(fitError) g): \(grams) g")
        let text = try CLI.run(["weigh", "--replay", objectDirect], environment: environment)
        #expect(text.stdout.contains("8.5 g"), "\(text.stdout)")

        // The fit's text says what the carrier is, and that the profile leaves it out.
        let words = try CLI.run(["calibrate", "--replay", coinsOnCarrier] + quarters + ["--no-save"])
        #expect(words.stdout.contains("carrier:    11.3"), "\(words.stdout)")
        #expect(words.stdout.contains("the carrier's own weight"))
        #expect(words.stdout.contains("anything placed directly on the pad reads its own weight"))
        #expect(words.stdout.contains("fit:        grams = 0.28"))
        #expect(words.stdout.contains("* pressure + 0.000"))
    }

    @Test func aCarrierOfKnownMassPlacedDirectlyMeasuresThePadsOffset() throws {
        // The same session, told that the carrier is itself a quarter: every point is then everything on the pad,
        // and the line keeps the offset it measures (the pad reads 5.67 g less than the quarters it bears).
        let result = try CLI.run(
            ["calibrate", "--replay", coinsOnCarrier, "--direct-reference", "us-quarter"] + quarters + [
                "--no-save", "-f", "json",
            ]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Step 1/4: place us-quarter (5.67 g) alone, directly on the pad"))
        let fit = try #require(try CLI.jsonObjects(result).first)
        #expect(fit.objects("points").compactMap { $0.number("grams") } == [5.67, 11.34, 17.01, 28.35])
        #expect(fit.string("basis") == "direct")
        #expect(fit.isNull("carrier_grams"))
        let intercept = try #require(fit.number("intercept"))
        #expect(abs(intercept - (5.67 - 11.34)) < 0.05, "\(intercept)")

        let alone = try CLI.run(["calibrate", "--replay", coinsOnCarrier, "--direct-reference", "us-quarter"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("give --reference weights to add on it"))
    }

    @Test func pointsAreEverythingOnThePadAndKeepTheirIntercept() throws {
        let result = try CLI.run([
            "calibrate", "--replay", coinsOnCarrier, "--point", "40:0", "--point", "60:us-quarter", "--point",
            "120:4x us-quarter", "--no-save",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("- 11.340"), "\(result.stdout)")
        #expect(result.stdout.contains("offset:     the intercept, what the pad reads at pressure 0"))
        #expect(!result.stdout.contains("carrier:"))
    }
}

/// Contact-size and bogus devices: refused by `calibrate`, unless asked for contact area; said in words by `weigh`,
/// the text header, stderr and the live view.
extension CalibrationMeaningTests {
    static let contactArea = "contact area, not weight"

    @Test func calibrateRefusesAContactSizeDeviceAndSavesNothing() throws {
        let config = try CLI.temporaryDirectory()
        let result = try CLI.run(
            ["calibrate", "--replay", finger, "--point", "0:0", "--point", "58:11.6", "--point", "100:20", "--save"],
            environment: ["XDG_CONFIG_HOME": config.path]
        )
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("'ELAN Touchscreen' cannot be calibrated as a scale"))
        #expect(result.stderr.contains("contact area, not force"))
        #expect(result.stderr.contains("add --allow-contact-size"))
        #expect(Self.savedProfiles(config).isEmpty)
        // Refused before the guided flow asks for anything.
        let guided = try CLI.run(["calibrate", "--replay", finger, "--reference", "us-quarter"])
        #expect(guided.status == 1)
        #expect(!guided.stderr.contains("Step 1/"))
    }

    @Test func aContactSizeProfileIsMarkedAndEveryReaderSaysContactArea() throws {
        let config = try CLI.temporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": config.path]
        let points = ["--point", "0:0", "--point", "58:11.6", "--point", "100:20"]
        let made = try CLI.run(
            ["calibrate", "--replay", finger] + points + ["--allow-contact-size", "--save"],
            environment: environment
        )
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("measures:   " + Self.contactArea), "\(made.stdout)")
        let json = try CLI.run(["calibrate", "--replay", finger, "--allow-contact-size", "-f", "json"] + points)
        #expect(try CLI.jsonObjects(json).first?.bool("contact_area") == true)
        let file = try #require(Self.savedProfiles(config).first)
        let saved = try String(
            contentsOfFile: config.appendingPathComponent("plumometer/" + file).path,
            encoding: .utf8
        )
        #expect(saved.contains("\"contactArea\" : true"))

        // weigh: the answer in grams, and what they are, on stdout and stderr.
        let weighed = try CLI.run(["weigh", "--replay", finger], environment: environment)
        #expect(weighed.status == 0, "\(weighed.stderr)")
        #expect(weighed.stdout.contains(" g"), "\(weighed.stdout)")
        #expect(weighed.stdout.contains(Self.contactArea))
        #expect(weighed.stderr.contains("made with --allow-contact-size: " + Self.contactArea))
        // The text format's header, and stderr, for a replay.
        let replayed = try CLI.run(["replay", "--fast", "-f", "text", finger], environment: environment)
        #expect(replayed.status == 0)
        #expect(replayed.stdoutLines.first?.contains("contact-size (" + Self.contactArea) == true)
        #expect(replayed.stderr.contains("ELAN Touchscreen: " + Self.contactArea))
    }

    @Test func weighWithoutAProfileSaysItsPercentIsContactArea() throws {
        let result = try CLI.run(["weigh", "--replay", finger])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("22.7%"), "\(result.stdout)")
        #expect(result.stdout.contains(Self.contactArea))
        #expect(result.stderr.contains(Self.contactArea))
        // A force sensor's answer says nothing of the kind.
        let force = try CLI.run(["weigh", "--replay", CLI.fixture("grams-pad.one-object.evemu")])
        #expect(force.status == 0)
        #expect(!force.stdout.contains("contact area") && !force.stderr.contains("contact area"))
    }

    @Test func allowingContactSizeOnAForceSensorChangesNothingAndSaysSo() throws {
        let points = ["--point", "150:0", "--point", "420:270", "--no-save", "-f", "json"]
        let fixture = CLI.fixture("grams-pad.one-object.evemu")
        let plain = try CLI.run(["calibrate", "--replay", fixture] + points)
        let allowed = try CLI.run(["calibrate", "--replay", fixture, "--allow-contact-size"] + points)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout == plain.stdout, "the same calibration")
        #expect(try CLI.jsonObjects(allowed).first?.bool("contact_area") == false)
        #expect(allowed.stderr.contains("senses force, not contact size: --allow-contact-size changes nothing"))
        #expect(!plain.stderr.contains("--allow-contact-size"), "\(plain.stderr)")
        let quiet = try CLI.run(["calibrate", "--replay", fixture, "--allow-contact-size", "-q"] + points)
        #expect(!quiet.stderr.contains("--allow-contact-size"), "a note, left out with -q")
    }

    @Test func calibrateRefusesABogusDeviceEvenWhenContactSizeIsAllowed() throws {
        let result = try CLI.run([
            "calibrate", "--replay", bogus, "--point", "0:0", "--point", "700:10", "--point", "1400:20",
            "--allow-contact-size", "--no-save",
        ])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("cannot be calibrated"))
        #expect(result.stderr.contains("copied from a position axis"))
    }

    @Test(.enabled(if: Fixtures.sharedFixtures != nil, "../shared/fixtures is absent"))
    func theNexus4TouchscreenIsNoScale() throws {
        let events = try #require(Fixtures.sharedFixtures).appendingPathComponent("nexus4-touchscreen/n4.events").path
        // It once fitted "R² 1.00 good" from points, and weigh then printed a finger as "11.6 g".
        let fit = try CLI.run([
            "calibrate", "--replay", events, "--point", "0:0", "--point", "30:6", "--point", "60:12", "--no-save",
        ])
        #expect(fit.status == 1, "\(fit.stdout)")
        #expect(fit.stderr.contains("cannot be calibrated as a scale"))
        let text = try CLI.run(["replay", "--fast", "-f", "text", events])
        #expect(text.status == 0)
        #expect(text.stdoutLines.first?.contains(Self.contactArea) == true, "\(text.stdoutLines.first ?? "")")
        let weighed = try CLI.run(["weigh", "--replay", events])
        #expect(weighed.stderr.contains(Self.contactArea), "\(weighed.stderr)")
        if weighed.status == 0 { #expect(weighed.stdout.contains(Self.contactArea), "\(weighed.stdout)") }
    }
}

/// The live view's device line, on a pseudo-terminal.
@Suite(.enabled(if: LiveTerminal.available, "python3-pyte is missing (scripts/install-deps.sh --test)"))
struct ContactAreaLiveViewTests {
    @Test func theLiveViewSaysContactAreaNotWeight() throws {
        let run = try LiveTerminal.run(
            ["replay", "--fast", CLI.fixture("touchscreen-contact-size.finger.evemu")],
            steps: ["until:end of recording", "snap", "key:q"]
        )
        #expect(run.status == 0)
        let screen = try #require(run.screens.first)
        #expect(
            screen.lines.joined(separator: " ").contains("contact-size: contact area, not weight"),
            "\(screen.lines)"
        )
    }
}
