/// One reference point of a calibration: the pressure the pad reported while a known mass rested on it.
public struct CalibrationPoint: Codable, Sendable, Hashable {
    /// Pressure in device units (typically an average over a stable stretch).
    public var pressure: Double
    /// The known mass in grams (0 for the empty reading).
    public var grams: Double

    public init(pressure: Double, grams: Double) {
        self.pressure = pressure
        self.grams = grams
    }
}

/// How well a straight line explains the calibration points, judged by R².
public enum CalibrationGrade: String, Codable, Sendable, Hashable {
    /// R² of at least ``goodRSquared``: the pad responds linearly over the calibrated range.
    case good
    /// R² below ``goodRSquared`` but at or above the threshold the fit was asked for (by default
    /// ``acceptableRSquared``): usable, but readings between and beyond the points are less certain.
    case acceptable

    /// The R² from which a fit is graded good.
    public static let goodRSquared = 0.985
    /// The default smallest R² a fit may have at all.
    public static let acceptableRSquared = 0.97

    /// The grade of a fit that was not refused.
    public init(rSquared: Double) {
        self = rSquared >= Self.goodRSquared ? .good : .acceptable
    }
}

/// A straight-line fit of grams against raw pressure for one device: `grams = slope * pressure + intercept`.
///
/// Most pads declare no pressure resolution, so their pressure is in arbitrary units; a calibration made with a few
/// known masses (an empty reading and some coins) turns it into grams. It is tied to the device's identity and
/// pressure range so that a stored calibration is refused on another device, whose units mean something else.
/// Two points always fit a line perfectly; three or more are needed to see how straight the response really is.
public struct Calibration: Codable, Sendable, Hashable {
    /// The device the points were taken on.
    public var device: DeviceIdentity
    /// The pressure axis' range when the points were taken.
    public var pressureRange: AxisInfo
    /// Grams per pressure unit.
    public var slope: Double
    /// Grams at pressure 0 (not at the range minimum).
    public var intercept: Double
    /// The coefficient of determination: 1 means every point lies on the line.
    public var rSquared: Double
    /// The points the line was fitted to, in the order given.
    public var points: [CalibrationPoint]
    /// Per point, in grams: the known mass minus what the line predicts for its pressure.
    public var residuals: [Double]
    /// How straight the response is.
    public var grade: CalibrationGrade

    /// Fits `grams = slope * pressure + intercept` by least squares.
    ///
    /// - Parameters:
    ///   - points: at least two points with distinct pressures and distinct masses.
    ///   - device: the identity of the device the points came from.
    ///   - pressureRange: the device's pressure axis range.
    ///   - minimumRSquared: fits with a smaller R² are refused.
    /// - Returns: the calibration, graded.
    /// - Throws: ``CalibrationError`` naming why the points cannot make a trustworthy calibration.
    public static func fit(
        points: [CalibrationPoint],
        device: DeviceIdentity,
        pressureRange: AxisInfo,
        minimumRSquared: Double = CalibrationGrade.acceptableRSquared
    ) throws(CalibrationError) -> Calibration {
        guard points.count >= 2 else { throw .tooFewPoints(count: points.count) }
        for (index, point) in points.enumerated() {
            guard point.pressure.isFinite, point.grams.isFinite else { throw .notANumber(point: index + 1) }
            guard point.grams >= 0 else { throw .negativeMass(point: index + 1, grams: point.grams) }
        }
        let count = Double(points.count)
        let meanPressure = points.reduce(0) { $0 + $1.pressure } / count
        let meanGrams = points.reduce(0) { $0 + $1.grams } / count
        var pressureSpread = 0.0
        var gramsSpread = 0.0
        var covariance = 0.0
        for point in points {
            let dp = point.pressure - meanPressure
            let dg = point.grams - meanGrams
            pressureSpread += dp * dp
            gramsSpread += dg * dg
            covariance += dp * dg
        }
        // Exact comparisons on purpose: equal inputs give exactly zero spread, and any real spread is usable.
        guard pressureSpread > 0, Set(points.map(\.pressure)).count >= 2 else {
            throw .samePressure(pressure: points[0].pressure)
        }
        guard gramsSpread > 0, Set(points.map(\.grams)).count >= 2 else {
            throw .sameMass(grams: points[0].grams)
        }
        let slope = covariance / pressureSpread
        guard slope > 0, slope.isFinite else { throw .heavierReadsLighter(slope: slope) }
        let intercept = meanGrams - slope * meanPressure
        let residuals = points.map { $0.grams - (slope * $0.pressure + intercept) }
        let residualSquares = residuals.reduce(0) { $0 + $1 * $1 }
        let rSquared = Swift.min(1, Swift.max(0, 1 - residualSquares / gramsSpread))
        guard rSquared >= minimumRSquared else {
            throw .poorFit(rSquared: rSquared, minimum: minimumRSquared, worstPoint: Self.worst(residuals))
        }
        return Calibration(
            device: device,
            pressureRange: pressureRange,
            slope: slope,
            intercept: intercept,
            rSquared: rSquared,
            points: points,
            residuals: residuals,
            grade: CalibrationGrade(rSquared: rSquared)
        )
    }

    /// Creates a calibration from stored values (use ``fit(points:device:pressureRange:minimumRSquared:)`` to make
    /// one from measurements).
    public init(
        device: DeviceIdentity,
        pressureRange: AxisInfo,
        slope: Double,
        intercept: Double,
        rSquared: Double,
        points: [CalibrationPoint],
        residuals: [Double],
        grade: CalibrationGrade
    ) {
        self.device = device
        self.pressureRange = pressureRange
        self.slope = slope
        self.intercept = intercept
        self.rSquared = rSquared
        self.points = points
        self.residuals = residuals
        self.grade = grade
    }

    /// Grams the line gives for a raw pressure.
    public func grams(forPressure pressure: Double) -> Double {
        slope * pressure + intercept
    }

    /// The largest residual by magnitude, in grams (0 without points).
    public var largestResidual: Double {
        residuals.reduce(0) { Swift.max($0, Swift.abs($1)) }
    }

    /// Checks that this calibration was made on `device` with the same pressure range.
    ///
    /// The device matches on bus, vendor, product and name; the firmware version may differ. The range matches on
    /// minimum, maximum and resolution (fuzz and flat do not change the units).
    /// - Throws: ``CalibrationError/otherDevice(calibrated:found:)`` or
    ///   ``CalibrationError/otherPressureRange(calibrated:found:)``.
    public func checkApplies(to device: DeviceIdentity, pressureRange: AxisInfo) throws(CalibrationError) {
        guard
            device.bus == self.device.bus, device.vendor == self.device.vendor,
            device.product == self.device.product, device.name == self.device.name
        else { throw .otherDevice(calibrated: self.device, found: device) }
        guard
            pressureRange.minimum == self.pressureRange.minimum, pressureRange.maximum == self.pressureRange.maximum,
            pressureRange.resolution == self.pressureRange.resolution
        else { throw .otherPressureRange(calibrated: self.pressureRange, found: pressureRange) }
    }

    /// The 1-based index of the point with the largest residual.
    private static func worst(_ residuals: [Double]) -> Int {
        var worst = 0
        for index in residuals.indices where Swift.abs(residuals[index]) > Swift.abs(residuals[worst]) {
            worst = index
        }
        return worst + 1
    }
}

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
    /// The fitted line says heavier masses read lower pressure (slope zero or negative).
    case heavierReadsLighter(slope: Double)
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
        case .heavierReadsLighter:
            return "Heavier calibration weights read lower pressure than lighter ones; check that each mass was "
                + "entered for the right reading and that the objects rested in the same place."
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
}
