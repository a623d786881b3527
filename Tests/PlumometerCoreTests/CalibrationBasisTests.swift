import Foundation
import PlumometerCore
import Testing

/// What a calibration's intercept means: a carrier's weight is a result of the fit, not part of the pad's line;
/// references placed directly on the pad (points, or a carrier of known mass) measure the pad's own offset.
@Suite("Calibration: the carrier is measured, the pad is calibrated")
struct CalibrationBasisTests {
    private let trackpad = DeviceIdentity(bus: 5, vendor: 0x05ac, product: 0x0265, version: 0x111, name: "MT2")
    private let range = AxisInfo(minimum: 0, maximum: 253)
    /// The session: a carrier at 40 units, then 1, 2 and 4 US quarters (5.67 g each) on it.
    private let onCarrier = [point(40, 0), point(60, 5.67), point(80, 11.34), point(120, 22.68)]

    @Test("on a carrier: the slope from the increments, the carrier's weight reported, the pad's line through 0")
    func carrierIsAResultNotAnIntercept() throws {
        let calibration = try Calibration.fit(
            points: onCarrier,
            device: trackpad,
            pressureRange: range,
            basis: .carrier
        )
        #expect(abs(calibration.slope - 0.2835) < 1e-9)
        #expect(calibration.intercept == 0)
        #expect(calibration.basis == .carrier)
        #expect(abs((calibration.carrierGrams ?? 0) - 11.34) < 1e-9)
        #expect(calibration.largestResidual < 1e-9)
        #expect(calibration.grade == .good)
        // An 8.5 g object at 30 units, placed directly on the pad, reads its weight (it read -2.8 g before).
        #expect(abs(calibration.grams(forPressure: 30) - 8.505) < 1e-9)
        #expect(calibration.grams(forPressure: 0) == 0, "zero load reads zero")
    }

    @Test("the same points taken as everything on the pad keep the intercept: what --point means")
    func directPointsKeepTheOffset() throws {
        let calibration = try Calibration.fit(points: onCarrier, device: trackpad, pressureRange: range)
        #expect(calibration.basis == .direct)
        #expect(calibration.carrierGrams == nil)
        #expect(abs(calibration.intercept + 11.34) < 1e-9, "the pad reads nothing below 11.34 g: its own offset")
        #expect(abs(calibration.grams(forPressure: 30) + 2.835) < 1e-9)
    }

    @Test("a carrier of known mass is a reference placed directly: the guide counts it, and the offset is measured")
    func knownCarrierMeasuresTheOffset() throws {
        // A pad that reads nothing below 2 g and 4 units per gram above it: pressure = 4 * (grams - 2).
        var guide = CalibrationGuide(
            references: [("us-quarter", 5.67), ("2x us-quarter", 11.34)],
            carrier: ("us-quarter", 5.67),
            pressureRange: gramsRange
        )
        #expect(guide.basis == .direct)
        #expect(guide.steps.map(\.grams) == [5.67, 11.34, 22.68])
        #expect(guide.prompt.contains("directly on the pad"))
        let levels: [Int32] = [5.67, 11.34, 22.68].map { Int32((4 * ($0 - 2)).rounded()) }
        let frames = resting(0, 1, [(1, levels[0])]) + resting(1, 1, [(1, levels[1])]) + resting(2, 1, [(1, levels[2])])
        #expect(drive(&guide, frames, until: at(4)).error == nil)
        let calibration = try Calibration.fit(
            points: guide.points,
            device: pad,
            pressureRange: gramsRange,
            basis: guide.basis
        )
        #expect(abs(calibration.intercept - 2) < 0.1, "the pad's 2 g threshold, measured: \(calibration.intercept)")
        #expect(abs(calibration.slope - 0.25) < 0.01)
        // Without the known mass the same session is a carrier calibration: the guide says so.
        #expect(CalibrationGuide(references: [("us-quarter", 5.67)], pressureRange: gramsRange).basis == .carrier)
    }

    @Test("a tracker with a carrier calibration weighs an object placed directly at its weight, tare or not")
    func trackerReadsDirectObjects() throws {
        let calibration = try Calibration.fit(
            points: onCarrier,
            device: trackpad,
            pressureRange: range,
            basis: .carrier
        )
        var tracker = WeightTracker(pressureRange: range, calibration: calibration)
        let grams = try #require(tracker.consume(frame(0, [(1, 30)]))[id: 1]?.grams)
        #expect(abs(grams - 8.505) < 1e-9)
    }

    @Test("the new keys round-trip through our JSON and Foundation's, and a profile without them still loads")
    func profileKeys() throws {
        var calibration = try Calibration.fit(
            points: onCarrier,
            device: trackpad,
            pressureRange: range,
            basis: .carrier
        )
        calibration.measuresContactArea = true
        let text = try calibration.jsonText(made: "2026-12-01T10:02:03Z")
        #expect(text.contains("\"basis\" : \"carrier\""))
        #expect(text.contains("\"contactArea\" : true"))
        #expect(try Calibration(json: Array(text.utf8)) == calibration)
        #expect(try JSONDecoder().decode(Calibration.self, from: Data(text.utf8)) == calibration)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let theirs = String(decoding: try encoder.encode(calibration), as: UTF8.self) + "\n"
        #expect(try calibration.jsonText() == theirs)

        // A profile saved before these keys: a direct calibration of a force sensor, its intercept as saved.
        let old = """
            {"device":{"bus":5,"name":"MT2","product":613,"vendor":1452,"version":273},"grade":"good",\
            "intercept":-11.34,"made":"2026-11-01T10:00:00Z","points":[{"grams":0,"pressure":40},\
            {"grams":5.67,"pressure":60}],"pressureRange":{"flat":0,"fuzz":0,"maximum":253,"minimum":0,\
            "resolution":0},"rSquared":1,"residuals":[0,0],"slope":0.2835}
            """
        for loaded in [
            try Calibration(json: Array(old.utf8)),
            try JSONDecoder().decode(Calibration.self, from: Data(old.utf8)),
        ] {
            #expect(loaded.basis == .direct)
            #expect(loaded.carrierGrams == nil)
            #expect(loaded.measuresContactArea == false)
            #expect(loaded.intercept == -11.34)
        }
        let unknown = old.replacingOccurrences(of: "\"grade\"", with: "\"basis\":\"spoon\",\"grade\"")
        #expect {
            _ = try Calibration(json: Array(unknown.utf8))
        } throws: { error in
            (error as? CalibrationJSONError)?.description.contains("'basis' is 'spoon'") == true
        }
    }
}
