import PlumometerCore
import PlumometerOutput

/// The verdict of `plumometer probe` as text for people and as one JSON object.
enum ProbeText {
    /// The verdict, the static findings with their implications, the guided figures and what to do.
    static func text(_ result: ProbeResult) -> String {
        let description = result.description
        let classification = result.classification
        var lines = [
            "device:    \(description.name.forTerminalName) [\(description.identity.idString)] \(result.path.forTerminalName)",
            "verdict:   \(result.sensing.rawValue)" + (result.report.map { $0.conclusive ? "" : " (static)" } ?? ""),
        ]
        if classification.semiMultitouch {
            lines.append("           semi-multitouch: read as one contact with the pressure the pad reports")
        }
        lines.append("static:    \(classification.sensing.rawValue): \(classification.reason)")
        for finding in classification.findings {
            lines.append("  - \(finding.code.rawValue): \(finding.finding) -> \(finding.implication)")
        }
        if let report = result.report {
            lines.append("reasons:")
            lines += reasons(result).map { "  - " + $0 }
            lines.append("figures:")
            lines += figureLines(report.figures).map { "  " + $0 }
            if let decays = report.decays { lines.append("decays:    " + (decays ? "yes" : "no")) }
            for note in report.notes { lines.append("note:      " + note) }
        }
        lines.append("advice:    " + advice(result))
        return lines.joined(separator: "\n") + "\n"
    }

    /// One object: `verdict`, `reasons`, `device` (name, id, path) and the rest.
    static func json(_ result: ProbeResult) -> String {
        let description = result.description
        let classification = result.classification
        var fields = [
            "\"verdict\":" + JSONText.string(result.sensing.rawValue),
            "\"guided\":" + (result.report == nil ? "false" : "true"),
            "\"conclusive\":" + ((result.report?.conclusive ?? true) ? "true" : "false"),
            "\"reasons\":[" + reasons(result).map(JSONText.string).joined(separator: ",") + "]",
            "\"device\":{\"name\":" + JSONText.string(description.name) + ",\"id\":"
                + JSONText.string(description.identity.idString) + ",\"path\":" + JSONText.string(result.path) + "}",
            "\"static_verdict\":" + JSONText.string(classification.sensing.rawValue),
            "\"semi_mt\":" + (classification.semiMultitouch ? "true" : "false"),
            "\"findings\":" + findingsJSON(classification.findings),
        ]
        if let report = result.report {
            fields.append("\"decays\":" + JSONText.optional(report.decays) { $0 ? "true" : "false" })
            fields.append("\"figures\":" + figuresJSON(report.figures))
            fields.append("\"notes\":[" + report.notes.map(JSONText.string).joined(separator: ",") + "]")
        }
        fields.append("\"advice\":" + JSONText.string(advice(result)))
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    /// `[{"code":..,"finding":..,"implication":..}]`, as `list -f json` writes them too.
    static func findingsJSON(_ findings: [StaticFinding]) -> String {
        // One statement per part: Swift 6.0's type checker gives up on a `+` chain around a closure.
        let objects = findings.map { finding -> String in
            var object = "{\"code\":" + JSONText.string(finding.code.rawValue)
            object += ",\"finding\":" + JSONText.string(finding.finding)
            object += ",\"implication\":" + JSONText.string(finding.implication) + "}"
            return object
        }
        return "[" + objects.joined(separator: ",") + "]"
    }

    /// The guided reasons, or the static part's: the deciding reason and every finding's implication.
    static func reasons(_ result: ProbeResult) -> [String] {
        if let report = result.report, !report.reasons.isEmpty { return report.reasons }
        let classification = result.classification
        return [classification.reason] + classification.findings.map { "\($0.finding) -> \($0.implication)" }
    }

    /// What the user can do.
    static func advice(_ result: ProbeResult) -> String {
        if let report = result.report, !report.advice.isEmpty { return report.advice }
        switch result.classification.sensing {
        case .forceWithUnits:
            return "Readings are in grams already; calibrate ('plumometer calibrate') to check or refine them."
        case .force:
            return "Calibrate with reference weights ('plumometer calibrate') to read grams; run the guided "
                + "'plumometer probe' to confirm the sensor follows force."
        case .contactSize:
            return "Run the guided 'plumometer probe' to check; if it confirms contact size, percentages compare "
                + "contact sizes, not weights, and calibration cannot help."
        case .bogus:
            return "Nothing to do on this side: report the device (its 'plumometer record' or .desc) so the "
                + "driver's pressure axis can be fixed."
        case .none:
            return "Nothing: this device cannot weigh. 'plumometer list' shows which devices can."
        }
    }

    private static func figureLines(_ figures: ProbeFigures) -> [String] {
        var lines: [String] = []
        for step in [ProbeStep.rest, .press, .roll] {
            guard let seen = figures.steps[step] else { continue }
            var line = "step \(step.rawValue) (\(step.name)): \(seen.samples) samples"
            if let range = seen.pressureSeen { line += ", pressure \(range.lowerBound)..\(range.upperBound)" }
            if let level = seen.pressureLevel { line += " (level " + NumberText.fixed(level, 1) + ")" }
            if let size = seen.sizeSeen {
                line += ", size " + NumberText.fixed(size.lowerBound, 1) + ".." + NumberText.fixed(size.upperBound, 1)
            }
            lines.append(line)
        }
        func add(_ name: String, _ value: Double?, digits: Int = 3) {
            if let value { lines.append(name + ": " + NumberText.fixed(value, digits)) }
        }
        if let range = figures.pressureSeen { lines.append("pressure seen: \(range.lowerBound)..\(range.upperBound)") }
        add("press rise (of the span)", figures.pressRise)
        add("roll rise (of the span)", figures.rollRise)
        add("press size change", figures.pressSizeChange)
        add("roll size change", figures.rollSizeChange)
        add("correlation pressure/size (steps 2-3)", figures.correlation)
        add("resting decay", figures.restDecay)
        return lines
    }

    private static func figuresJSON(_ figures: ProbeFigures) -> String {
        func number(_ value: Double?) -> String { JSONText.optional(value) { NumberText.fixed($0, 4) } }
        func range(_ value: ClosedRange<Int32>?) -> String {
            JSONText.optional(value) { "[\($0.lowerBound),\($0.upperBound)]" }
        }
        let steps = [ProbeStep.rest, .press, .roll].compactMap { step -> String? in
            guard let seen = figures.steps[step] else { return nil }
            return "{\"step\":\(step.rawValue),\"samples\":\(seen.samples),\"pressure_seen\":"
                + range(seen.pressureSeen) + ",\"pressure_level\":" + number(seen.pressureLevel) + ",\"size_level\":"
                + number(seen.sizeLevel) + "}"
        }
        return "{\"pressure_seen\":" + range(figures.pressureSeen) + ",\"press_rise\":" + number(figures.pressRise)
            + ",\"roll_rise\":" + number(figures.rollRise) + ",\"press_size_change\":"
            + number(figures.pressSizeChange) + ",\"roll_size_change\":" + number(figures.rollSizeChange)
            + ",\"correlation\":" + number(figures.correlation) + ",\"rest_decay\":" + number(figures.restDecay)
            + ",\"decay_per_second\":" + number(figures.decayPerSecond) + ",\"steps\":[" + steps.joined(separator: ",")
            + "]}"
    }
}
