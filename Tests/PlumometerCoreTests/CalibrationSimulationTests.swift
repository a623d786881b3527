import PlumometerCore
import PlumometerTestKit
import Testing

/// A simulated pad: a response curve from grams to pressure units, plus uniform noise of ±`noise` units.
struct SimulatedSensor {
    var response: (Double) -> Double
    var noise: Double
    var generator = SplitMix64(state: 42)

    /// One raw sample, rounded to whole units as a device reports it.
    mutating func sample(grams: Double) -> Double {
        let jitter = Double.random(in: -noise...noise, using: &generator)
        return (response(grams) + jitter).rounded()
    }

    /// The mean of `count` samples: what a calibration takes from a stable stretch.
    mutating func resting(grams: Double, count: Int = 20) -> Double {
        (0..<count).reduce(0.0) { sum, _ in sum + sample(grams: grams) } / Double(count)
    }
}

/// Calibrates from the empty pad plus three coins, as a user would.
func calibrateWithThreeCoins(_ sensor: inout SimulatedSensor, minimumRSquared: Double) throws -> Calibration {
    let masses = try [0.0] + ["us-quarter", "2-euro", "uk-2-pound"].map { try ReferenceWeight.parseMass($0) }
    let points = masses.map { CalibrationPoint(pressure: sensor.resting(grams: $0), grams: $0) }
    return try Calibration.fit(
        points: points,
        device: pad,
        pressureRange: AxisInfo(minimum: 0, maximum: 1023),
        minimumRSquared: minimumRSquared
    )
}

/// Weights not used for calibrating, one extrapolated beyond the heaviest calibration coin.
let checkMasses = ["us-cent", "100-yen", "1-euro", "us-half-dollar", "2x uk-2-pound"]

@Suite("Calibration: simulated sensors")
struct CalibrationSimulationTests {
    @Test("a linear sensor with noise, calibrated from three coins, recovers other weights within 0.15 g")
    func linearSensor() throws {
        var sensor = SimulatedSensor(response: { 150 + 12 * $0 }, noise: 2)
        let calibration = try calibrateWithThreeCoins(&sensor, minimumRSquared: 0.97)
        #expect(calibration.grade == .good)
        #expect(calibration.rSquared > 0.999)
        #expect(abs(calibration.slope - 1.0 / 12) < 0.002)
        #expect(calibration.largestResidual < 0.1)
        for text in checkMasses {
            let grams = try ReferenceWeight.parseMass(text)
            let measured = calibration.grams(forPressure: sensor.resting(grams: grams))
            #expect(abs(measured - grams) < 0.15, "\(text): \(measured) g for \(grams) g")
        }
        // Through the tracker, from single raw frames (more noise than a resting mean): within 0.3 g.
        var tracker = WeightTracker(pressureRange: AxisInfo(minimum: 0, maximum: 1023), calibration: calibration)
        for (index, text) in checkMasses.enumerated() {
            let grams = try ReferenceWeight.parseMass(text)
            let pressure = Int32(sensor.sample(grams: grams))
            let reading = tracker.consume(frame(Double(index), [(index, pressure)]))
            let reported = try #require(reading[id: index]?.grams)
            #expect(abs(reported - grams) < 0.3, "\(text): \(reported) g for \(grams) g")
        }
    }

    @Test("a mildly non-linear sensor gets a lower R² and larger residuals than a linear one")
    func nonLinearSensor() throws {
        var linear = SimulatedSensor(response: { 150 + 12 * $0 }, noise: 2)
        var bending = SimulatedSensor(response: { 150 + 20 * $0 - 0.3 * $0 * $0 }, noise: 2)
        let straight = try calibrateWithThreeCoins(&linear, minimumRSquared: 0.97)
        let bent = try calibrateWithThreeCoins(&bending, minimumRSquared: 0.5)
        #expect(bent.rSquared < straight.rSquared)
        #expect(bent.rSquared < 0.999)
        #expect(bent.largestResidual > 3 * straight.largestResidual)
        // And its predictions between the points are worse.
        var worstStraight = 0.0
        var worstBent = 0.0
        for text in checkMasses {
            let grams = try ReferenceWeight.parseMass(text)
            worstStraight = max(worstStraight, abs(straight.grams(forPressure: linear.resting(grams: grams)) - grams))
            worstBent = max(worstBent, abs(bent.grams(forPressure: bending.resting(grams: grams)) - grams))
        }
        #expect(worstBent > worstStraight)
    }
}
