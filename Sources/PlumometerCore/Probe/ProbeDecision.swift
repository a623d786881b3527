/// The decision rule of `plumometer probe`, from the samples of the four steps (docs/devices.md, "How
/// plumometer probe decides", has the same rule with its numbers).
///
/// In order:
/// 1. The description has no pressure axis (`none`) or a bogus one (empty, inverted or copied range): that is
///    the verdict, whatever the finger did.
/// 2. Fewer than `minimumSamples` samples under a finger: inconclusive, the static verdict stands.
/// 3. Every sample at the axis minimum (a PixArt pad read 0 under a finger), or a spread of at most
///    `constantSpread` of the span (and 1 unit) through every step, step 2 included (a still resting finger
///    alone may read constant): `bogus`.
/// 4. With a contact size (touch major) that changed by `flattenThreshold` or more: a correlation of pressure with
///    it of `followsSizeCorrelation` or more over steps 2 and 3 means the pressure follows contact area
///    (`contact-size`).
/// 5. A press rise of `riseThreshold` of the span or more, with a roll rise below `rollToPressRatio` of it, and
///    the contact size steady in step 2 (within `steadySize`) or uncorrelated (r below 0.5): `force`
///    (`force-grams` when the axis has a resolution).
/// 6. A roll rise of `riseThreshold` or more and at least `rollToPressRatio` of the press rise: the pressure
///    follows flattening as much as pressing (`contact-size`).
/// 7. Otherwise inconclusive (the user did not press harder, most likely): the static verdict stands.
/// Separately, a loss of `decayThreshold` or more of the resting level over step 1, with the contact size
/// steady, means the sensor does not hold a resting load (`decays`).
enum ProbeDecision {
    static func decide(
        description: DeviceDescription,
        classification: DeviceClassification,
        samples: [ProbeStep: [ProbeSample]],
        detections: [ProbeStep: EventTime],
        stepStarts: [ProbeStep: EventTime],
        finishedAt: EventTime,
        configuration: ProbeConfiguration,
        notes: [String]
    ) -> ProbeReport {
        let figures = ProbeFigureMaker(
            description: description,
            samples: samples,
            detections: detections,
            stepStarts: stepStarts,
            finishedAt: finishedAt,
            configuration: configuration
        ).figures
        let all = ProbeStep.allCases.flatMap { samples[$0] ?? [] }
        let axisName = classification.pressureAxis?.name ?? "the pressure axis"
        var report = ProbeReport(
            sensing: classification.sensing,
            conclusive: true,
            classification: classification,
            decays: nil,
            reasons: [],
            figures: figures,
            advice: "",
            // Said first, so the report never reads as if someone had been prompted.
            notes: (configuration.fromRecording
                ? ["Read from a recording: its gestures are judged on the recording's own time; nobody was prompted."]
                : []) + notes
        )
        var decayReason: String?
        func conclude(_ sensing: PressureSensing, _ reasons: [String]) -> ProbeReport {
            report.sensing = sensing
            report.reasons += reasons + (decayReason.map { [$0] } ?? [])
            report.advice = advice(for: sensing, decays: report.decays, figures: figures)
            return report
        }
        func inconclusive(_ reason: String) -> ProbeReport {
            report.conclusive = false
            var made = conclude(
                classification.sensing,
                [reason, "The description alone says \(classification.sensing.rawValue): \(classification.reason)"]
            )
            made.advice =
                (configuration.fromRecording
                    ? "Record the four gestures again (`plumometer record`, doing each step of `plumometer probe`) "
                        + "and probe that recording, or probe the device itself; until then the description's verdict "
                        + "stands. "
                    : "Run `plumometer probe` again and follow each step; until then the description's verdict stands. ")
                + made.advice
            return made
        }

        guard classification.sensing != .none, classification.sensing != .bogus, let range = description.pressureRange
        else {
            return conclude(classification.sensing, [classification.reason])
        }
        guard all.count >= configuration.minimumSamples, let seen = figures.pressureSeen else {
            return inconclusive(
                "Only \(all.count) sample\(all.count == 1 ? "" : "s") under a finger (at least "
                    + "\(configuration.minimumSamples) are needed): the probe cannot decide."
            )
        }
        if all.allSatisfy({ $0.pressure <= range.minimum }) {
            return conclude(
                .bogus,
                [
                    "\(axisName) read \(range.minimum), its minimum, in all \(all.count) samples under a finger: it "
                        + "is declared but carries no pressure."
                ]
            )
        }
        let span = Swift.max(1, range.span)
        let spread = Double(seen.upperBound) - Double(seen.lowerBound)
        if !(samples[.press] ?? []).isEmpty, spread <= Swift.max(1, configuration.constantSpread * span) {
            return conclude(
                .bogus,
                [
                    "\(axisName) stayed within \(seen.lowerBound)..\(seen.upperBound) through every step (at most "
                        + "\(ProbeAnalyzer.percent(configuration.constantSpread)) of its range "
                        + "\(range.minimum)..\(range.maximum)): a constant value carries no pressure."
                ]
            )
        }
        report.decays = decays(figures, samples: samples, configuration: configuration)
        if let decay = figures.restDecay, let rate = figures.decayPerSecond {
            decayReason =
                report.decays == true
                ? "Under a resting finger it lost \(ProbeAnalyzer.percent(decay)) of its level over step 1 "
                    + "(\(ProbeAnalyzer.percent(rate)) per second) while the contact stayed the same: the sensor "
                    + "does not hold a resting load."
                : "Under a resting finger it held its level (\(ProbeAnalyzer.percent(decay)) lost over step 1)."
        }
        guard let pressRise = figures.pressRise, let rollRise = figures.rollRise else {
            return inconclusive("The probe ended before steps 2 and 3 collected samples.")
        }
        let rises =
            "pressing harder moved it \(ProbeAnalyzer.signedPercent(pressRise)) of its range over the resting "
            + "level, flattening \(ProbeAnalyzer.signedPercent(rollRise))"
        let sizeChanges = [figures.pressSizeChange, figures.rollSizeChange].compactMap { $0.map(abs) }
        let sizeVaried = (sizeChanges.max() ?? 0) >= configuration.flattenThreshold
        if sizeVaried, let r = figures.correlation, r >= configuration.followsSizeCorrelation {
            return conclude(
                .contactSize,
                [
                    "\(axisName) follows the contact size: their correlation over steps 2 and 3 is "
                        + "\(DecimalText.fixed(r, digits: 2)) (from \(DecimalText.fixed(configuration.followsSizeCorrelation, digits: 2)) on, "
                        + "pressure is contact area); \(rises)."
                ] + contradiction(classification, .contactSize)
            )
        }
        let pressed = pressRise >= configuration.riseThreshold
        let rollFollows = rollRise >= configuration.rollToPressRatio * pressRise
        let steadySize = figures.pressSizeChange.map { abs($0) < configuration.steadySize } ?? true
        let uncorrelated = (figures.correlation ?? 0) < 0.5
        if pressed, !rollFollows, steadySize || uncorrelated {
            let sizeClause =
                figures.pressSizeChange.map { " while the contact size changed \(ProbeAnalyzer.signedPercent($0))" }
                ?? " (the device reports no contact size)"
            let sensing: PressureSensing = range.resolution > 0 ? .forceWithUnits : .force
            return conclude(
                sensing,
                ["\(axisName) follows force: \(rises)\(sizeClause)."] + contradiction(classification, sensing)
            )
        }
        if rollRise >= configuration.riseThreshold, rollFollows {
            return conclude(
                .contactSize,
                ["\(axisName) follows flattening as much as pressing: \(rises)."]
                    + contradiction(classification, .contactSize)
            )
        }
        return inconclusive(
            "Neither force nor contact size explains the steps: \(rises) (a press counts from "
                + "\(ProbeAnalyzer.percent(configuration.riseThreshold)))."
        )
    }

    /// A sentence when the probe contradicts the description's verdict.
    static func contradiction(_ classification: DeviceClassification, _ sensing: PressureSensing) -> [String] {
        guard classification.sensing != sensing else { return [] }
        return ["The description alone suggested \(classification.sensing.rawValue); the finger says otherwise."]
    }

    /// Whether the resting level decayed with the contact size steady; nil when step 1 could not show it.
    static func decays(
        _ figures: ProbeFigures,
        samples: [ProbeStep: [ProbeSample]],
        configuration: ProbeConfiguration
    ) -> Bool? {
        guard let decay = figures.restDecay else { return nil }
        guard decay >= configuration.decayThreshold else { return false }
        let rest = ProbeFigureMaker.settled(samples[.rest] ?? [], configuration: configuration)
        let (early, late) = ProbeFigureMaker.quarters(rest)
        if let before = ProbeStatistics.median(early.compactMap(\.size)),
            let after = ProbeStatistics.median(late.compactMap(\.size)),
            abs(after - before) >= configuration.steadySize * Swift.max(1, before)
        {
            return false
        }
        return true
    }

    /// What the user can do.
    static func advice(for sensing: PressureSensing, decays: Bool?, figures: ProbeFigures) -> String {
        var text: String
        switch sensing {
        case .forceWithUnits: text = "Nothing to do: it reads grams as it is."
        case .force: text = "Calibrate it with a known weight (`plumometer calibrate`) to read grams."
        case .contactSize:
            text = "Nothing will make it weigh: it can only compare how much of each object touches it."
        case .bogus:
            text =
                "Report the device (docs/devices.md), with `plumometer record` of these steps and this report: a "
                + "libinput quirk or a kernel fix may follow."
        case .none: text = "Nothing: it has no pressure axis. Choose another device (`plumometer list`)."
        }
        if decays == true, sensing == .force || sensing == .forceWithUnits, let rate = figures.decayPerSecond {
            text +=
                " Read objects right after placing them: a resting load fades by about "
                + "\(ProbeAnalyzer.percent(rate)) per second."
        }
        return text
    }
}
