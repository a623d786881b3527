import PlumometerCore
import Testing

/// A profile is checked for sane values against its pressure range at both ends: `intercept -1000000` was accepted
/// (every reading about -999,928 g) and `-1e300` printed `-1e+300 g`.
struct CalibrationOffsetTests {
    static func calibration(slope: Double = 1, intercept: Double, minimum: Int32 = 0) -> Calibration {
        Calibration(
            device: DeviceIdentity(bus: 0x18, vendor: 0x6cb, product: 0xce37, version: 0x100, name: "Pad"),
            pressureRange: AxisInfo(minimum: minimum, maximum: 255),
            slope: slope,
            intercept: intercept,
            rSquared: 1,
            points: [CalibrationPoint(pressure: 0, grams: 0), CalibrationPoint(pressure: 100, grams: 100)],
            residuals: [0, 0],
            grade: .unchecked
        )
    }

    @Test(arguments: [-1_000_000.0, -1e300, -256])
    func anInterceptThatLeavesNoPositiveWeightIsRefused(intercept: Double) {
        #expect {
            try Self.calibration(intercept: intercept).validate()
        } throws: { error in
            guard case .implausibleOffset(_, let pressure, _) = error as? CalibrationError else { return false }
            return pressure == 255
        }
    }

    @Test func aReadingFarBelowZeroAtTheBottomOfTheRangeIsRefused() {
        // Full scale 255 g + 30,000 g = 30.3 kg would be refused as too heavy; a range reaching far below zero
        // with a plausible full scale is refused at its bottom end.
        let calibration = Self.calibration(slope: 0.1, intercept: 0, minimum: -300_000)
        #expect {
            try calibration.validate()
        } throws: { error in
            guard case .implausibleOffset(let grams, let pressure, _) = error as? CalibrationError else { return false }
            return pressure == -300_000 && grams == -30_000
        }
        let message = CalibrationError.implausibleOffset(grams: -1e300, pressure: 255, intercept: -1e300).description
        #expect(message.contains("-1e+300 g"), "\(message)")
        #expect(message.count < 400, "\(message)")
    }

    @Test(arguments: [0.0, -20, 35.5, -254])
    func aPlausibleOffsetIsKept(intercept: Double) throws {
        try Self.calibration(intercept: intercept).validate()
    }
}
