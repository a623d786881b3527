/// Computes ``ProbeFigures`` from the samples of each step.
struct ProbeFigureMaker {
    let description: DeviceDescription
    let samples: [ProbeStep: [ProbeSample]]
    let detections: [ProbeStep: EventTime]
    /// When steps 2 to 4 began (step 1 begins with its first sample).
    let stepStarts: [ProbeStep: EventTime]
    let finishedAt: EventTime
    let configuration: ProbeConfiguration

    /// The samples of step 1 that its level is taken from: from the settling time on, starting with the last value
    /// before it (which still holds at the settling time when the finger is still).
    static func settledForLevel(
        _ rest: [ProbeSample],
        from start: EventTime,
        configuration: ProbeConfiguration
    ) -> [ProbeSample] {
        let settleAt = start.adding(seconds: configuration.settle)
        let before = rest.last { $0.time <= settleAt }.map { sample -> ProbeSample in
            var moved = sample
            moved.time = settleAt
            return moved
        }
        return (before.map { [$0] } ?? []) + rest.filter { $0.time > settleAt }
    }

    /// When `step` ended: the next step's start, or the end of the probe.
    func end(of step: ProbeStep) -> EventTime {
        ProbeStep(rawValue: step.rawValue + 1).flatMap { stepStarts[$0] } ?? finishedAt
    }

    /// The samples of step 1 after the settling time (all of them when none is that late).
    static func settled(_ rest: [ProbeSample], configuration: ProbeConfiguration) -> [ProbeSample] {
        guard let start = rest.first?.time else { return [] }
        let settled = rest.filter { $0.time.seconds(since: start) >= configuration.settle }
        return settled.isEmpty ? rest : settled
    }

    /// The samples in the first and in the last quarter of the time `samples` span.
    static func quarters(_ samples: [ProbeSample]) -> (early: [ProbeSample], late: [ProbeSample]) {
        guard let first = samples.first?.time, let last = samples.last?.time else { return ([], []) }
        let quarter = last.seconds(since: first) / 4
        return (
            samples.filter { $0.time.seconds(since: first) <= quarter },
            samples.filter { last.seconds(since: $0.time) <= quarter }
        )
    }

    /// The part of a step its level is taken from: the settled rest, the samples from the detection on, or the
    /// second half of a step whose change was never detected.
    func levelPart(_ step: ProbeStep) -> [ProbeSample] {
        let all = samples[step] ?? []
        guard let first = all.first else { return [] }
        if step == .rest { return Self.settledForLevel(all, from: first.time, configuration: configuration) }
        if let detected = detections[step] { return all.filter { $0.time >= detected } }
        let start = stepStarts[step] ?? first.time
        let middle = start.adding(seconds: end(of: step).seconds(since: start) / 2)
        let late = all.filter { $0.time >= middle }
        return late.isEmpty ? Array(all.suffix(1)) : late
    }

    /// The time-weighted median of `value` over the level part of `step`.
    func level(_ step: ProbeStep, _ value: (ProbeSample) -> Double?) -> Double? {
        let part = levelPart(step).compactMap { sample in value(sample).map { (sample.time, $0) } }
        return ProbeStatistics.timeWeightedMedian(part, until: end(of: step))
    }

    var figures: ProbeFigures {
        var figures = ProbeFigures()
        let span = Swift.max(1, description.pressureRange?.span ?? 0)
        for step in [ProbeStep.rest, .press, .roll] {
            let all = samples[step] ?? []
            var entry = ProbeFigures.Step()
            entry.samples = all.count
            if let low = all.map(\.pressure).min(), let high = all.map(\.pressure).max() {
                entry.pressureSeen = low...high
            }
            let sizes = all.compactMap(\.size)
            if let low = sizes.min(), let high = sizes.max() { entry.sizeSeen = low...high }
            entry.pressureLevel = level(step) { Double($0.pressure) }
            entry.sizeLevel = level(step, \.size)
            figures.steps[step] = entry
        }
        let everything = ProbeStep.allCases.flatMap { samples[$0] ?? [] }
        if let low = everything.map(\.pressure).min(), let high = everything.map(\.pressure).max() {
            figures.pressureSeen = low...high
        }
        let rest = figures.steps[.rest]
        func rise(_ step: ProbeStep) -> Double? {
            guard let level = figures.steps[step]?.pressureLevel, let base = rest?.pressureLevel else { return nil }
            return (level - base) / span
        }
        func sizeChange(_ step: ProbeStep) -> Double? {
            guard let level = figures.steps[step]?.sizeLevel, let base = rest?.sizeLevel else { return nil }
            return (level - base) / Swift.max(1, base)
        }
        figures.pressRise = rise(.press)
        figures.rollRise = rise(.roll)
        figures.pressSizeChange = sizeChange(.press)
        figures.rollSizeChange = sizeChange(.roll)
        func correlation(_ steps: [ProbeStep]) -> Double? {
            let pairs = steps.flatMap { samples[$0] ?? [] }.compactMap { sample in
                sample.size.map { (Double(sample.pressure), $0) }
            }
            return ProbeStatistics.correlation(pairs.map(\.0), pairs.map(\.1))
        }
        figures.pressCorrelation = correlation([.press])
        figures.rollCorrelation = correlation([.roll])
        figures.correlation = correlation([.press, .roll])
        let settledRest = Self.settled(samples[.rest] ?? [], configuration: configuration)
        let (early, late) = Self.quarters(settledRest)
        if settledRest.count >= 4, let first = settledRest.first?.time, let last = settledRest.last?.time,
            last > first,
            let before = ProbeStatistics.median(early.map { Double($0.pressure) }),
            let after = ProbeStatistics.median(late.map { Double($0.pressure) })
        {
            let minimum = Double(description.pressureRange?.minimum ?? 0)
            let decay = Swift.max(0, before - after) / Swift.max(1, before - minimum)
            figures.restDecay = decay
            // The quarters' centres are three quarters of the settled rest apart.
            figures.decayPerSecond = decay / (0.75 * last.seconds(since: first))
        }
        return figures
    }
}
