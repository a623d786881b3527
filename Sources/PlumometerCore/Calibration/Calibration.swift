/// One reference point of a calibration: the pressure the pad reported while a known mass rested on it.
public struct CalibrationPoint: Codable, Sendable, Hashable {
    /// Pressure in device units (typically an average over a stable stretch).
    public var pressure: Double
    /// The known mass in grams: everything on the pad, or, on a carrier, what was added on it (0 for the carrier
    /// alone); see ``CalibrationBasis``.
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
    /// Fewer than three distinct pressures: a line always passes through two points exactly, so R² is 1 and says
    /// nothing about how straight the response is. Usable, but add a third weight to check it.
    case unchecked

    /// The R² from which a fit is graded good.
    public static let goodRSquared = 0.985
    /// The default smallest R² a fit may have at all.
    public static let acceptableRSquared = 0.97

    /// The grade of a fit that was not refused, with enough distinct points to judge it.
    public init(rSquared: Double) {
        self = rSquared >= Self.goodRSquared ? .good : .acceptable
    }

    /// The grade of a fit to points with `distinctPressures` different pressures: unchecked below three.
    public init(rSquared: Double, distinctPressures: Int) {
        self = distinctPressures < 3 ? .unchecked : Self(rSquared: rSquared)
    }
}

/// What the grams of a calibration's points stand for, and so what its intercept means.
///
/// A pad reports one pressure per contact for everything that contact carries. When the points' grams are all of it
/// (references placed directly on the pad, or a carrier whose own mass is known), the line fitted to them is the
/// pad's response, intercept included: a non-zero intercept is an offset the pad itself has (a threshold below which
/// it reads nothing, a bias). When the references are added on a carrier of unknown weight (a finger, a spoon), the
/// points' grams leave the carrier out: the fitted line's slope is still the pad's, but its intercept is minus the
/// carrier's weight, a property of the carrier and not of the pad. Kept as the pad's intercept, it would make every
/// object placed directly on the pad read light by the carrier's weight.
public enum CalibrationBasis: String, Codable, Sendable, Hashable {
    /// Each point's grams are everything on the pad: the fitted intercept is the pad's own offset and is kept.
    case direct
    /// Each point's grams were added on a carrier of unknown weight: the slope comes from the increments, the
    /// carrier's weight is minus the fitted intercept (``Calibration/carrierGrams``), and the pad's line goes through
    /// zero at pressure 0 (no force), as the kernel's pressure resolution does.
    case carrier
}

/// A straight-line fit of grams against raw pressure for one device: `grams = slope * pressure + intercept`.
///
/// Most pads declare no pressure resolution, so their pressure is in arbitrary units; a calibration made with a few
/// known masses (an empty reading and some coins) turns it into grams for anything on the pad. What the intercept
/// is depends on how the points were measured (``CalibrationBasis``): the offset the pad showed for references placed
/// directly on it, or zero when the references were added on a carrier of unknown weight, whose weight the fit
/// measures and reports (``carrierGrams``) instead of keeping it in the line. It is tied to the device's identity and
/// pressure range so that a stored calibration is refused on another device, whose units mean something else.
/// Two points always fit a line perfectly (graded ``CalibrationGrade/unchecked``); three or more are needed to see how
/// straight the response really is.
public struct Calibration: Codable, Sendable, Hashable {
    /// The heaviest load any touch device could bear: a fit (or a profile) whose full scale means more is refused,
    /// because its points cannot be right (a raw pressure from another device, grams typed as kilograms...).
    public static let maximumFullScaleGrams = 20_000.0

    /// The device the points were taken on.
    public var device: DeviceIdentity
    /// The pressure axis' range when the points were taken.
    public var pressureRange: AxisInfo
    /// Grams per pressure unit.
    public var slope: Double
    /// Grams at pressure 0 (not at the range minimum): the pad's offset measured with references placed directly
    /// on it, 0 after a calibration on a carrier (``CalibrationBasis``).
    public var intercept: Double
    /// The coefficient of determination: 1 means every point lies on the line.
    public var rSquared: Double
    /// The points the line was fitted to, in the order given.
    public var points: [CalibrationPoint]
    /// Per point, in grams: the known mass minus what the line predicts for its pressure.
    public var residuals: [Double]
    /// How straight the response is.
    public var grade: CalibrationGrade
    /// What the points' grams stand for: everything on the pad, or what was added on a carrier. A profile saved
    /// before this was kept reads as ``CalibrationBasis/direct`` (its intercept is used as it was saved).
    public var basis: CalibrationBasis
    /// With ``CalibrationBasis/carrier``: the carrier's own weight in grams as the fit measured it (minus the
    /// fitted line's intercept); nil otherwise. Negative when the pad reads nothing below some load, which only a
    /// reference placed directly on the pad can measure.
    public var carrierGrams: Double?
    /// True when the device's pressure is contact size (the calibration was asked for anyway): its "grams" map
    /// contact area, not weight, and whoever reads them must say so.
    public var measuresContactArea: Bool

    /// Fits `grams = slope * pressure + intercept` by least squares.
    ///
    /// With ``CalibrationBasis/carrier`` the same line is fitted to the masses added on the carrier: its slope is
    /// the pad's, minus its intercept is the carrier's weight (``carrierGrams``), and the calibration's intercept is
    /// 0, so that anything placed directly on the pad reads its own weight. R², the grade and the residuals are the
    /// fitted line's in both cases.
    ///
    /// - Parameters:
    ///   - points: at least two points with distinct pressures and distinct masses.
    ///   - device: the identity of the device the points came from.
    ///   - pressureRange: the device's pressure axis range.
    ///   - minimumRSquared: fits with a smaller R² are refused.
    ///   - basis: what the points' grams stand for (default: everything on the pad).
    /// - Returns: the calibration, graded.
    /// - Throws: ``CalibrationError`` naming why the points cannot make a trustworthy calibration.
    public static func fit(
        points: [CalibrationPoint],
        device: DeviceIdentity,
        pressureRange: AxisInfo,
        minimumRSquared: Double = CalibrationGrade.acceptableRSquared,
        basis: CalibrationBasis = .direct
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
        try checkOrder(points)
        let slope = covariance / pressureSpread
        let fitted = meanGrams - slope * meanPressure
        // On a carrier the line's intercept is the carrier's (negated weight), not the pad's: the pad keeps 0.
        let intercept = basis == .carrier ? 0 : fitted
        try checkPlausible(slope: slope, intercept: intercept, pressureRange: pressureRange)
        let residuals = points.map { $0.grams - (slope * $0.pressure + fitted) }
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
            grade: CalibrationGrade(rSquared: rSquared, distinctPressures: Set(points.map(\.pressure)).count),
            basis: basis,
            carrierGrams: basis == .carrier ? -fitted : nil
        )
    }

    /// Checks that a stored calibration (a profile) can be used: a finite, positive slope, a finite intercept, a
    /// full scale above zero and of at most ``maximumFullScaleGrams``, and no reading in the pressure range below
    /// minus that. Decoding runs it, so a damaged profile is never applied.
    /// - Throws: ``CalibrationError/implausibleSlope(slope:)``,
    ///   ``CalibrationError/implausibleFullScale(grams:pressure:)`` or
    ///   ``CalibrationError/implausibleOffset(grams:pressure:intercept:)``.
    public func validate() throws(CalibrationError) {
        try Self.checkPlausible(slope: slope, intercept: intercept, pressureRange: pressureRange)
    }

    /// The keys of a profile's JSON. `basis`, `carrierGrams` and `contactArea` came later: a profile without them
    /// is a direct calibration of a device taken to measure force.
    enum CodingKeys: String, CodingKey {
        case device, pressureRange, slope, intercept, rSquared, points, residuals, grade, basis, carrierGrams
        case measuresContactArea = "contactArea"
    }

    /// Decodes a profile and refuses one that ``validate()`` refuses (`DecodingError.dataCorrupted` with the reason).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            device: try container.decode(DeviceIdentity.self, forKey: .device),
            pressureRange: try container.decode(AxisInfo.self, forKey: .pressureRange),
            slope: try container.decode(Double.self, forKey: .slope),
            intercept: try container.decode(Double.self, forKey: .intercept),
            rSquared: try container.decode(Double.self, forKey: .rSquared),
            points: try container.decode([CalibrationPoint].self, forKey: .points),
            residuals: try container.decode([Double].self, forKey: .residuals),
            grade: try container.decode(CalibrationGrade.self, forKey: .grade),
            basis: try container.decodeIfPresent(CalibrationBasis.self, forKey: .basis) ?? .direct,
            carrierGrams: try container.decodeIfPresent(Double.self, forKey: .carrierGrams),
            measuresContactArea: try container.decodeIfPresent(Bool.self, forKey: .measuresContactArea) ?? false
        )
        do {
            try validate()
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [CodingKeys.slope], debugDescription: error.description)
            )
        }
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
        grade: CalibrationGrade,
        basis: CalibrationBasis = .direct,
        carrierGrams: Double? = nil,
        measuresContactArea: Bool = false
    ) {
        self.basis = basis
        self.carrierGrams = carrierGrams
        self.measuresContactArea = measuresContactArea
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

    /// Refuses points where a heavier mass read a lower pressure than a lighter one, naming the first such pair.
    private static func checkOrder(_ points: [CalibrationPoint]) throws(CalibrationError) {
        for heavier in points.indices {
            for lighter in points.indices where points[lighter].grams < points[heavier].grams {
                guard points[heavier].pressure < points[lighter].pressure else { continue }
                throw .heavierReadsLighter(
                    heavier: heavier + 1,
                    heavierPoint: points[heavier],
                    lighter: lighter + 1,
                    lighterPoint: points[lighter]
                )
            }
        }
    }

    /// Refuses a line that cannot describe a touch device: a slope that is not finite and positive, or a full
    /// scale beyond ``maximumFullScaleGrams``.
    private static func checkPlausible(
        slope: Double,
        intercept: Double,
        pressureRange: AxisInfo
    ) throws(CalibrationError) {
        guard slope.isFinite, slope > 0, intercept.isFinite else { throw .implausibleSlope(slope: slope) }
        let fullScale = slope * Double(pressureRange.maximum) + intercept
        guard fullScale.isFinite, fullScale <= maximumFullScaleGrams else {
            throw .implausibleFullScale(grams: fullScale, pressure: pressureRange.maximum)
        }
        // The other end, and the range as a whole: an empty pad reads a few grams off zero, never tonnes below it
        // (`intercept -1000000` read every weight as about -999,928 g), and some pressure must read a weight.
        let bottom = slope * Double(pressureRange.minimum) + intercept
        guard fullScale > 0 else {
            throw .implausibleOffset(grams: fullScale, pressure: pressureRange.maximum, intercept: intercept)
        }
        guard bottom.isFinite, bottom >= -maximumFullScaleGrams else {
            throw .implausibleOffset(grams: bottom, pressure: pressureRange.minimum, intercept: intercept)
        }
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
