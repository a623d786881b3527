public import PlumometerCore

/// What `probe` prints: the device, and the guided report when there was a guided part.
public struct ProbeResult: Sendable {
    public let description: DeviceDescription
    /// The device's node, or the name a recording gives it.
    public let path: String
    public let report: ProbeReport?

    public init(description: DeviceDescription, path: String, report: ProbeReport?) {
        self.description = description
        self.path = path
        self.report = report
    }

    /// The static classification (the report's own when there is one).
    public var classification: DeviceClassification {
        report?.classification ?? DeviceClassifier.classify(description)
    }

    /// The verdict: the guided one, or the static one.
    public var sensing: PressureSensing { report?.sensing ?? classification.sensing }
}

/// The verdict of `plumometer probe` as text for people and as one JSON object.
public enum ProbeText {
    /// The verdict, the static findings with their implications, the guided figures and what to do.
    public static func text(_ result: ProbeResult) -> String {
        let description = result.description
        let classification = result.classification
        let name = description.name.forTerminalName
        let qualifier = result.report.map { $0.conclusive ? "" : " (static)" } ?? ""
        var lines = [
            "device:    \(name) [\(description.identity.idString)] \(result.path.forTerminalName)",
            "verdict:   \(result.sensing.rawValue)\(qualifier)",
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
            lines += reasons(result).map { "  - \($0)" }
            lines.append("figures:")
            lines += figureLines(report.figures).map { "  \($0)" }
            if let decays = report.decays { lines.append("decays:    \(decays ? "yes" : "no")") }
            for note in report.notes { lines.append("note:      \(note)") }
        }
        lines.append("advice:    \(advice(result))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One object: `verdict`, `reasons`, `device` (name, id, path) and the rest.
    public static func json(_ result: ProbeResult) -> String {
        let description = result.description
        let classification = result.classification
        let device = [
            "\"name\":\(JSONText.string(description.name))",
            "\"id\":\(JSONText.string(description.identity.idString))",
            "\"path\":\(JSONText.string(result.path))",
        ]
        var fields = [
            "\"verdict\":\(JSONText.string(result.sensing.rawValue))",
            "\"guided\":\(result.report != nil)",
            "\"conclusive\":\(result.report?.conclusive ?? true)",
            "\"reasons\":\(stringArray(reasons(result)))",
            "\"device\":{\(device.joined(separator: ","))}",
            "\"static_verdict\":\(JSONText.string(classification.sensing.rawValue))",
            "\"semi_mt\":\(classification.semiMultitouch)",
            "\"findings\":\(findingsJSON(classification.findings))",
        ]
        if let report = result.report {
            fields.append("\"decays\":\(JSONText.optional(report.decays) { "\($0)" })")
            fields.append("\"figures\":\(figuresJSON(report.figures))")
            fields.append("\"notes\":\(stringArray(report.notes))")
        }
        fields.append("\"advice\":\(JSONText.string(advice(result)))")
        return "{\(fields.joined(separator: ","))}\n"
    }

    /// `[{"code":..,"finding":..,"implication":..}]`, as `list -f json` writes them too.
    public static func findingsJSON(_ findings: [StaticFinding]) -> String {
        let objects = findings.map { finding in
            "{\"code\":\(JSONText.string(finding.code.rawValue)),\"finding\":\(JSONText.string(finding.finding)),"
                + "\"implication\":\(JSONText.string(finding.implication))}"
        }
        return "[\(objects.joined(separator: ","))]"
    }

    /// `["a","b"]`: each string as a JSON literal.
    static func stringArray(_ strings: [String]) -> String {
        "[\(strings.map(JSONText.string).joined(separator: ","))]"
    }

    /// The guided reasons, or the static part's: the deciding reason and every finding's implication.
    public static func reasons(_ result: ProbeResult) -> [String] {
        if let report = result.report, !report.reasons.isEmpty { return report.reasons }
        let classification = result.classification
        return [classification.reason] + classification.findings.map { "\($0.finding) -> \($0.implication)" }
    }

    /// What the user can do.
    public static func advice(_ result: ProbeResult) -> String {
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
            if let level = seen.pressureLevel { line += " (level \(NumberText.fixed(level, 1)))" }
            if let size = seen.sizeSeen {
                line += ", size \(NumberText.fixed(size.lowerBound, 1))..\(NumberText.fixed(size.upperBound, 1))"
            }
            lines.append(line)
        }
        func add(_ name: String, _ value: Double?, digits: Int = 3) {
            if let value { lines.append("\(name): \(NumberText.fixed(value, digits))") }
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
            let fields = [
                "\"step\":\(step.rawValue)",
                "\"samples\":\(seen.samples)",
                "\"pressure_seen\":\(range(seen.pressureSeen))",
                "\"pressure_level\":\(number(seen.pressureLevel))",
                "\"size_level\":\(number(seen.sizeLevel))",
            ]
            return "{\(fields.joined(separator: ","))}"
        }
        let fields = [
            "\"pressure_seen\":\(range(figures.pressureSeen))",
            "\"press_rise\":\(number(figures.pressRise))",
            "\"roll_rise\":\(number(figures.rollRise))",
            "\"press_size_change\":\(number(figures.pressSizeChange))",
            "\"roll_size_change\":\(number(figures.rollSizeChange))",
            "\"correlation\":\(number(figures.correlation))",
            "\"rest_decay\":\(number(figures.restDecay))",
            "\"decay_per_second\":\(number(figures.decayPerSecond))",
            "\"steps\":[\(steps.joined(separator: ","))]",
        ]
        return "{\(fields.joined(separator: ","))}"
    }
}
