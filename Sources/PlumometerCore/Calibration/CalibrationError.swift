/// Why a calibration was refused.
public enum CalibrationError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Fewer than two points.
    case tooFewPoints(count: Int)
    /// A point (1-based) has a pressure or mass that is not a finite number.
    case notANumber(point: Int)
    /// A point (1-based) has a negative mass.
    case negativeMass(point: Int, grams: Double)
    /// Every point read the same pressure: the pad did not respond to the weights.
    case samePressure(pressure: Double)
    /// Every point has the same mass, so there is nothing to fit.
    case sameMass(grams: Double)
    /// A heavier mass (point `heavier`, 1-based) read a lower pressure than a lighter one (point `lighter`).
    case heavierReadsLighter(heavier: Int, heavierPoint: CalibrationPoint, lighter: Int, lighterPoint: CalibrationPoint)
    /// The line's slope (grams per unit) is not a finite, positive number, or its intercept is not finite.
    case implausibleSlope(slope: Double)
    /// The line says full scale (pressure `pressure`) is `grams`: more than any touch device bears.
    case implausibleFullScale(grams: Double, pressure: Int32)
    /// The line reads `grams` at `pressure`, an end of the device's pressure range: below what the empty pad can
    /// read (``Calibration/maximumFullScaleGrams`` under zero), or nothing above zero anywhere in the range.
    case implausibleOffset(grams: Double, pressure: Int32, intercept: Double)
    /// The points are too far from a straight line.
    case poorFit(rSquared: Double, minimum: Double, worstPoint: Int)
    /// The calibration was made on another device.
    case otherDevice(calibrated: DeviceIdentity, found: DeviceIdentity)
    /// The device's pressure range differs from the one the calibration was made with.
    case otherPressureRange(calibrated: AxisInfo, found: AxisInfo)

    public var description: String {
        switch self {
        case .tooFewPoints(let count):
            return "A calibration needs at least two points (an empty reading and one known weight); got \(count)."
        case .notANumber(let point):
            return "Calibration point \(point) has a pressure or mass that is not a number."
        case .negativeMass(let point, let grams):
            return "Calibration point \(point) has a negative mass (\(DecimalText.fixed(grams, digits: 3)) g); "
                + "masses are 0 for the empty pad or the weight of the objects."
        case .samePressure(let pressure):
            return "Every calibration point read the same pressure (\(DecimalText.fixed(pressure, digits: 1))), "
                + "so the pad did not respond to the weights; use heavier objects or check that they make contact."
        case .sameMass(let grams):
            return "Every calibration point has the same mass (\(DecimalText.fixed(grams, digits: 3)) g); "
                + "add a point with a different weight, for example the empty pad."
        case .heavierReadsLighter(let heavier, let heavierPoint, let lighter, let lighterPoint):
            return "The heavier reference reads lighter: point \(heavier) (\(Self.mass(heavierPoint.grams))) read "
                + "pressure \(DecimalText.fixed(heavierPoint.pressure, digits: 1)), lower than point \(lighter) "
                + "(\(Self.mass(lighterPoint.grams))) at \(DecimalText.fixed(lighterPoint.pressure, digits: 1)); "
                + "check that each mass was entered for the right reading and that the objects rested in the same place."
        case .implausibleSlope(let slope):
            return "The calibration line's slope is \(Self.number(slope)) grams per unit; grams must grow with "
                + "pressure by a finite, positive amount, so this line cannot be used. Calibrate the device again."
        case .implausibleFullScale(let grams, let pressure):
            return "The calibration line says full scale (pressure \(pressure)) means \(Self.mass(grams)), more than "
                + "any touch device could bear (\(Self.mass(Calibration.maximumFullScaleGrams))); check that each raw "
                + "pressure comes from this device (the JSON `pressure` field) and each mass is in grams."
        case .implausibleOffset(let grams, let pressure, let intercept):
            return "The calibration line reads \(Self.mass(grams)) at pressure \(pressure), an end of the device's "
                + "pressure range (its intercept is \(Self.mass(intercept))); a touch device's readings lie between "
                + "about -\(Self.mass(Calibration.maximumFullScaleGrams)) and a full scale above zero, so this line "
                + "is no calibration of it."
        case .poorFit(let rSquared, let minimum, let worstPoint):
            return "The calibration points do not lie on a straight line (R² \(DecimalText.fixed(rSquared, digits: 3))"
                + ", below \(DecimalText.fixed(minimum, digits: 3))); point \(worstPoint) is furthest off. "
                + "Repeat it with the weight resting still in the middle of the pad."
        case .otherDevice(let calibrated, let found):
            return "This calibration was made on \"\(calibrated.name)\" (\(calibrated.idString)), not on "
                + "\"\(found.name)\" (\(found.idString)); calibrate this device instead."
        case .otherPressureRange(let calibrated, let found):
            return "This calibration was made for pressures \(calibrated.minimum)...\(calibrated.maximum) "
                + "(resolution \(calibrated.resolution)), but the device now reports \(found.minimum)..."
                + "\(found.maximum) (resolution \(found.resolution)); calibrate it again."
        }
    }

    /// A mass in the unit that reads best: grams, kilograms or tonnes.
    static func mass(_ grams: Double) -> String {
        let size = Swift.abs(grams)
        // Beyond a thousand tonnes (a damaged file): Swift's own notation, not hundreds of digits.
        if !(size < 1e9) { return number(grams) + " g" }
        if size >= 1_000_000 { return DecimalText.fixed(grams / 1_000_000, digits: 2) + " t" }
        if size >= 1000 { return DecimalText.fixed(grams / 1000, digits: 2) + " kg" }
        return DecimalText.fixed(grams, digits: 3) + " g"
    }

    /// A number for a message: fixed-point when it is of a readable size, else Swift's own notation (`-1e+300`).
    static func number(_ value: Double) -> String {
        guard value.isFinite, Swift.abs(value) < 1e9, Swift.abs(value) >= 1e-6 || value == 0 else {
            return value.isFinite ? String(value) : DecimalText.fixed(value, digits: 0)
        }
        return DecimalText.fixed(value, digits: 6)
    }
}
