import Foundation
import PlumometerCore
import Testing

let pad = DeviceIdentity(bus: 0x18, vendor: 0x06cb, product: 0xcdaa, version: 0x100, name: "SYNA Touchpad")
let padRange = AxisInfo(minimum: 0, maximum: 255)

func point(_ pressure: Double, _ grams: Double) -> CalibrationPoint {
    CalibrationPoint(pressure: pressure, grams: grams)
}

/// Fits and returns the error, or nil when the fit succeeded.
func refusal(
    _ points: [CalibrationPoint],
    minimumRSquared: Double = 0.97,
    range: AxisInfo = padRange
) -> CalibrationError? {
    do {
        _ = try Calibration.fit(points: points, device: pad, pressureRange: range, minimumRSquared: minimumRSquared)
        return nil
    } catch {
        return error
    }
}

@Suite("Calibration: least-squares fit, refusals, device binding")
struct CalibrationTests {
    @Test("collinear points: exact slope and intercept, R² 1, zero residuals, graded good")
    func collinear() throws {
        // grams = 0.25 * pressure - 5
        let points = [point(20, 0), point(40, 5), point(60, 10), point(100, 20)]
        let calibration = try Calibration.fit(points: points, device: pad, pressureRange: padRange)
        #expect(calibration.slope == 0.25)
        #expect(calibration.intercept == -5)
        #expect(calibration.rSquared == 1)
        #expect(calibration.residuals == [0, 0, 0, 0])
        #expect(calibration.largestResidual == 0)
        #expect(calibration.grade == .good)
        #expect(calibration.points == points)
        #expect(calibration.grams(forPressure: 80) == 15)
    }

    @Test("two distinct points are enough, and repeated pressures are allowed beside them")
    func twoPoints() throws {
        let calibration = try Calibration.fit(
            points: [point(10, 0), point(10, 0), point(110, 50)],
            device: pad,
            pressureRange: padRange
        )
        #expect(calibration.slope == 0.5)
        #expect(calibration.intercept == -5)
        #expect(calibration.rSquared == 1)
        #expect(calibration.grade == .unchecked, "two distinct pressures: linearity cannot be judged")
    }

    @Test("two points are graded unchecked, three or more distinct pressures are judged by R²")
    func uncheckedGrade() throws {
        let two = try Calibration.fit(points: [point(0, 0), point(100, 20)], device: pad, pressureRange: padRange)
        #expect(two.rSquared == 1)
        #expect(two.grade == .unchecked)
        let three = try Calibration.fit(
            points: [point(0, 0), point(100, 20), point(200, 40)],
            device: pad,
            pressureRange: padRange
        )
        #expect(three.grade == .good)
        #expect(CalibrationGrade(rSquared: 1, distinctPressures: 2) == .unchecked)
        #expect(CalibrationGrade(rSquared: 0.98, distinctPressures: 3) == .acceptable)
        #expect(CalibrationGrade.unchecked.rawValue == "unchecked")
    }

    @Test("a fit whose full scale would mean more than 20 kg is refused, naming the mass")
    func absurdFullScale() throws {
        // 5.67 g per unit on a 6000-unit pad: a quarter at 1 unit means 34 kg at full scale.
        let range = AxisInfo(minimum: 0, maximum: 6000)
        let error = refusal([point(0, 0), point(1, 5.67)], range: range)
        #expect(error == .implausibleFullScale(grams: 5.67 * 6000, pressure: 6000))
        #expect(error?.description.contains("34.02 kg") == true)
        #expect(error?.description.contains("20.00 kg") == true)
        let tonnes = CalibrationError.implausibleFullScale(grams: 5_670_000, pressure: 6000).description
        #expect(tonnes.contains("5.67 t"))
        // 20 kg exactly is still allowed.
        #expect(refusal([point(0, 0), point(6000, 20_000)], range: range) == nil)
    }

    @Test("noisy points: residuals are known mass minus the line, and R² matches its definition")
    func noisy() throws {
        let points = [point(10, 0), point(30, 5.2), point(50, 9.7), point(70, 15.1), point(90, 19.9)]
        let calibration = try Calibration.fit(points: points, device: pad, pressureRange: padRange)
        // Reference values computed by hand with the normal equations.
        let meanP = 50.0
        let meanG = (0 + 5.2 + 9.7 + 15.1 + 19.9) / 5
        let sxy = points.reduce(0.0) { $0 + ($1.pressure - meanP) * ($1.grams - meanG) }
        let sxx = points.reduce(0.0) { $0 + ($1.pressure - meanP) * ($1.pressure - meanP) }
        #expect(abs(calibration.slope - sxy / sxx) < 1e-12)
        #expect(abs(calibration.intercept - (meanG - sxy / sxx * meanP)) < 1e-12)
        for (index, residual) in calibration.residuals.enumerated() {
            let expected = points[index].grams - calibration.grams(forPressure: points[index].pressure)
            #expect(abs(residual - expected) < 1e-12)
        }
        #expect(abs(calibration.residuals.reduce(0, +)) < 1e-9)  // least squares with intercept: residuals sum to 0
        let ssRes = calibration.residuals.reduce(0) { $0 + $1 * $1 }
        let ssTot = points.reduce(0.0) { $0 + ($1.grams - meanG) * ($1.grams - meanG) }
        #expect(abs(calibration.rSquared - (1 - ssRes / ssTot)) < 1e-12)
        #expect(calibration.rSquared > 0.99 && calibration.rSquared < 1)
        #expect(calibration.grade == .good)
    }

    @Test("grades: good from R² 0.985, acceptable down to the minimum, refused below it")
    func grades() throws {
        #expect(CalibrationGrade(rSquared: 0.985) == .good)
        #expect(CalibrationGrade(rSquared: 0.9849) == .acceptable)
        #expect(CalibrationGrade(rSquared: 0.97) == .acceptable)
        // A bent set of points: R² about 0.980, the third point furthest off (+0.28 g).
        let bent = [point(0, 0), point(10, 1), point(20, 2.4), point(30, 3)]
        let calibration = try Calibration.fit(points: bent, device: pad, pressureRange: padRange)
        #expect(abs(calibration.rSquared - 0.97971) < 1e-4)
        #expect(calibration.grade == .acceptable)
        #expect(abs(calibration.largestResidual - 0.28) < 1e-9)
        let error = refusal(bent, minimumRSquared: 0.99)
        guard case .poorFit(let rSquared, let minimum, let worst) = error else {
            Issue.record("expected poorFit, got \(String(describing: error))")
            return
        }
        #expect(rSquared == calibration.rSquared)
        #expect(minimum == 0.99)
        #expect(worst == 3)
        let message = error!.description
        #expect(message.contains("straight line"))
        #expect(message.contains("0.990"))
        #expect(message.contains("0.980"))
        #expect(message.contains("point 3"))
    }

    @Test("refusals name the reason in a sentence")
    func refusals() throws {
        #expect(refusal([]) == .tooFewPoints(count: 0))
        #expect(refusal([point(10, 0)]) == .tooFewPoints(count: 1))
        #expect(refusal([point(10, 0), point(10, 5), point(10, 9)]) == .samePressure(pressure: 10))
        #expect(refusal([point(10, 5), point(20, 5)]) == .sameMass(grams: 5))
        #expect(refusal([point(10, 0), point(.nan, 5)]) == .notANumber(point: 2))
        #expect(refusal([point(10, 0), point(20, .infinity)]) == .notANumber(point: 2))
        #expect(refusal([point(10, 0), point(20, -3)]) == .negativeMass(point: 2, grams: -3))
        #expect(
            refusal([point(10, 10), point(20, 0)])
                == .heavierReadsLighter(heavier: 1, heavierPoint: point(10, 10), lighter: 2, lighterPoint: point(20, 0))
        )
        // One inverted pair among good points is named, though the line's slope is positive.
        let inverted = [point(0, 0), point(60, 5.67), point(55, 11.34), point(180, 17.01)]
        #expect(
            refusal(inverted)
                == .heavierReadsLighter(
                    heavier: 3,
                    heavierPoint: point(55, 11.34),
                    lighter: 2,
                    lighterPoint: point(60, 5.67)
                )
        )
        // Far from a line, refused at the default minimum of 0.97.
        guard case .poorFit(let rSquared, 0.97, _) = refusal([point(0, 0), point(10, 1), point(20, 2), point(30, 12)])
        else {
            Issue.record("a bent fit should be refused at the default minimum")
            return
        }
        #expect(rSquared < 0.97 && rSquared > 0)
        let messages = [
            CalibrationError.tooFewPoints(count: 1), .samePressure(pressure: 10), .sameMass(grams: 5),
            .heavierReadsLighter(heavier: 3, heavierPoint: point(55, 11.34), lighter: 2, lighterPoint: point(60, 5.67)),
            .notANumber(point: 2), .negativeMass(point: 2, grams: -3), .implausibleSlope(slope: -1e300),
        ].map(\.description)
        #expect(messages[0].contains("at least two points"))
        #expect(messages[1].contains("same pressure (10.0)"))
        #expect(messages[2].contains("same mass (5.000 g)"))
        #expect(messages[3].contains("heavier reference reads lighter"))
        #expect(messages[3].contains("point 3 (11.340 g) read pressure 55.0, lower than point 2 (5.670 g) at 60.0"))
        #expect(messages[6].contains("-1e+300 grams per unit"))
        #expect(messages[4].contains("point 2"))
        #expect(messages[5].contains("-3.000 g"))
        #expect(messages.allSatisfy { $0.hasSuffix(".") && !$0.contains("nan") })
    }

    @Test("a profile is refused on another device or pressure range, accepted after a firmware update")
    func checkApplies() throws {
        let calibration = try Calibration.fit(
            points: [point(10, 0), point(110, 50)],
            device: pad,
            pressureRange: padRange
        )
        try calibration.checkApplies(to: pad, pressureRange: padRange)
        var updated = pad
        updated.version = 0x200
        try calibration.checkApplies(to: updated, pressureRange: AxisInfo(minimum: 0, maximum: 255, fuzz: 2))

        let other = DeviceIdentity(bus: 0x18, vendor: 0x06cb, product: 0xcdab, version: 0x100, name: "SYNA Touchpad")
        #expect(throws: CalibrationError.otherDevice(calibrated: pad, found: other)) {
            try calibration.checkApplies(to: other, pressureRange: padRange)
        }
        var renamed = pad
        renamed.name = "ELAN Touchscreen"
        #expect(throws: CalibrationError.self) { try calibration.checkApplies(to: renamed, pressureRange: padRange) }
        let wider = AxisInfo(minimum: 0, maximum: 1023)
        #expect(throws: CalibrationError.otherPressureRange(calibrated: padRange, found: wider)) {
            try calibration.checkApplies(to: pad, pressureRange: wider)
        }
        let message = CalibrationError.otherDevice(calibrated: pad, found: other).description
        #expect(message.contains("0018:06cb:cdaa:0100"))
        #expect(message.contains("0018:06cb:cdab:0100"))
        #expect(message.contains("calibrate this device"))
    }

    @Test("Codable round trip keeps every field")
    func codable() throws {
        let points = [point(10, 0), point(30, 5.2), point(50, 9.7), point(70, 15.1)]
        let calibration = try Calibration.fit(points: points, device: pad, pressureRange: padRange)
        let data = try JSONEncoder().encode(calibration)
        let decoded = try JSONDecoder().decode(Calibration.self, from: data)
        #expect(decoded == calibration)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"grade\":\"good\""))
        #expect(text.contains("\"rSquared\""))
    }

    @Test(
        "a profile whose slope is not finite and positive, or whose full scale is absurd, is refused on decoding",
        arguments: ["-1e300", "0", "-0.5", "1e300", "100"]
    )
    func damagedProfileRefused(slope: String) throws {
        let calibration = try Calibration.fit(
            points: [point(10, 0), point(110, 50)],
            device: pad,
            pressureRange: padRange
        )
        let text = String(decoding: try JSONEncoder().encode(calibration), as: UTF8.self)
        let damaged = text.replacingOccurrences(of: "\"slope\":0.5", with: "\"slope\":" + slope)
        #expect(damaged != text)
        do {
            _ = try JSONDecoder().decode(Calibration.self, from: Data(damaged.utf8))
            Issue.record("slope \(slope) was accepted")
        } catch DecodingError.dataCorrupted(let context) {
            // 100 g per unit is finite and positive, but full scale (255 units) would be 25.5 kg.
            #expect(context.debugDescription.contains("slope") || context.debugDescription.contains("full scale"))
        }
        var stored = calibration
        stored.slope = Double(slope)!
        #expect(throws: CalibrationError.self) { try stored.validate() }
        try calibration.validate()
    }

    @Test("a tracker with a calibration reports grams from it, winning over the resolution; tare subtracts")
    func trackerUsesCalibration() throws {
        let range = AxisInfo(minimum: 0, maximum: 255, resolution: 100)
        let calibration = try Calibration.fit(
            points: [point(20, 0), point(120, 50)],
            device: pad,
            pressureRange: range
        )
        var tracker = WeightTracker(pressureRange: range, calibration: calibration)
        #expect(tracker.consume(frame(0, [(1, 70)]))[id: 1]?.grams == 25)
        tracker.tare(contact: 1)
        #expect(tracker.current[id: 1]?.grams == 0)
        #expect(tracker.consume(frame(0.1, [(1, 60)]))[id: 1]?.grams == -5)
        tracker.calibration = nil
        #expect(tracker.current[id: 1]?.grams == -0.1)  // back to the resolution: (60 - 70) / 100
    }
}
