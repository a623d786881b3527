public import PlumometerCore

/// What `plumometer calibrate` prints about a fit: lines for people (`text`) or one JSON object (`json`).
public enum CalibrationReport {
    /// The fit, line by line: the device, the line through the points, the carrier or the offset, R², each point
    /// with its residual, and where the profile was saved.
    /// - Parameters:
    ///   - calibration: the fit.
    ///   - savedPath: where the profile went (`-` for standard output), nil when it was not saved.
    ///   - notSaved: why it was not saved, in the `saved: no (...)` line.
    /// - Returns: the lines, each ending in a newline.
    public static func text(_ calibration: Calibration, savedPath: String?, notSaved: String = "--no-save") -> String {
        let sign = calibration.intercept < 0 ? "-" : "+"
        let slope = NumberText.fixed(calibration.slope, 6)
        let intercept = NumberText.fixed(Swift.abs(calibration.intercept), 3)
        var lines = [
            "device:     \(calibration.device.name.forTerminalName) [\(calibration.device.idString)]",
            "fit:        grams = \(slope) * pressure \(sign) \(intercept)",
        ]
        if let carrier = calibration.carrierGrams {
            lines.append(
                "carrier:    \(NumberText.fixed(carrier, 3)) g, the carrier's own weight (where the references' line "
                    + "crosses pressure 0); the profile leaves it out: pressure 0 reads 0 g, and anything placed "
                    + "directly on the pad reads its own weight"
            )
            if carrier < -Swift.max(calibration.largestResidual, 0.005) {
                lines.append(
                    "note:       a carrier lighter than nothing: this pad reads nothing below some load, so light "
                        + "objects placed directly read light; --direct-reference MASS measures that offset"
                )
            }
        } else {
            lines.append(
                "offset:     the intercept, what the pad reads at pressure 0, measured with references placed "
                    + "directly on it"
            )
        }
        if calibration.measuresContactArea {
            lines.append("measures:   \(DeviceRecord.contactAreaNotice) (--allow-contact-size)")
        }
        lines.append("R\u{B2}:         \(NumberText.fixed(calibration.rSquared, 5)) (\(calibration.grade.rawValue))")
        lines.append(calibration.basis == .carrier ? "points:     (grams added on the carrier)" : "points:")
        for (point, residual) in zip(calibration.points, calibration.residuals) {
            let pressure = NumberText.padLeft(NumberText.fixed(point.pressure, 1), 9)
            let grams = NumberText.padLeft(NumberText.fixed(point.grams, 3), 9)
            lines.append("  pressure \(pressure)  grams \(grams)  residual \(NumberText.fixed(residual, 3)) g")
        }
        if calibration.grade == .unchecked {
            lines.append("note:       two points always fit a line; add a third reference weight to check it")
        }
        lines.append(savedPath.map { "saved:      \($0)" } ?? "saved:      no (\(notSaved))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The fit as one JSON object on one line: `device`, `id`, `slope`, `intercept`, `r2`, `grade`, `basis`,
    /// `carrier_grams`, `contact_area`, `points`, `residuals` and `profile` (the path saved to, or null).
    public static func json(_ calibration: Calibration, savedPath: String?) -> String {
        let points = calibration.points.map { point in
            "{\"pressure\":\(NumberText.fixed(point.pressure, 2)),\"grams\":\(NumberText.fixed(point.grams, 3))}"
        }
        let residuals = calibration.residuals.map { NumberText.fixed($0, 4) }
        let fields = [
            "\"device\":\(JSONText.string(calibration.device.name))",
            "\"id\":\(JSONText.string(calibration.device.idString))",
            "\"slope\":\(NumberText.fixed(calibration.slope, 6))",
            "\"intercept\":\(NumberText.fixed(calibration.intercept, 4))",
            "\"r2\":\(NumberText.fixed(calibration.rSquared, 6))",
            "\"grade\":\(JSONText.string(calibration.grade.rawValue))",
            "\"basis\":\(JSONText.string(calibration.basis.rawValue))",
            "\"carrier_grams\":\(JSONText.optional(calibration.carrierGrams) { NumberText.fixed($0, 4) })",
            "\"contact_area\":\(calibration.measuresContactArea)",
            "\"points\":[\(points.joined(separator: ","))]",
            "\"residuals\":[\(residuals.joined(separator: ","))]",
            "\"profile\":\(JSONText.optional(savedPath, JSONText.string))",
        ]
        return "{\(fields.joined(separator: ","))}\n"
    }
}
