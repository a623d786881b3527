/// The figures that led to a probe verdict.
public struct ProbeFigures: Hashable, Sendable {
    /// What one step saw.
    public struct Step: Hashable, Sendable {
        /// Samples under the finger in this step.
        public var samples: Int = 0
        /// The lowest and highest pressure seen, nil without samples.
        public var pressureSeen: ClosedRange<Int32>?
        /// The step's level: the median pressure once its change held (the whole settled rest for step 1).
        public var pressureLevel: Double?
        /// The lowest and highest contact size (touch major, × minor when known), nil without touch major.
        public var sizeSeen: ClosedRange<Double>?
        /// The median contact size over the same part as `pressureLevel`.
        public var sizeLevel: Double?
    }

    /// Steps 1 to 3 (step 4 collects nothing).
    public var steps: [ProbeStep: Step] = [:]
    /// The pressure range seen under the finger over the whole probe.
    public var pressureSeen: ClosedRange<Int32>?
    /// Step 2's level over step 1's, as a fraction of the pressure axis' span.
    public var pressRise: Double?
    /// Step 3's level over step 1's, as a fraction of the pressure axis' span.
    public var rollRise: Double?
    /// Step 2's contact size over step 1's, as a fraction of the resting size.
    public var pressSizeChange: Double?
    /// Step 3's contact size over step 1's, as a fraction of the resting size.
    public var rollSizeChange: Double?
    /// Pearson's correlation of pressure with contact size within step 2, nil when either is constant.
    public var pressCorrelation: Double?
    /// The same within step 3.
    public var rollCorrelation: Double?
    /// The same over steps 2 and 3 together: the figure the verdict uses.
    public var correlation: Double?
    /// The fraction of the resting level lost over step 1 (first quarter to last quarter of the settled rest).
    public var restDecay: Double?
    /// `restDecay` per second.
    public var decayPerSecond: Double?

    /// Empty figures.
    public init() {}
}

/// The verdict of `plumometer probe`.
public struct ProbeReport: Hashable, Sendable {
    /// What the pressure axis measures, as `plumometer list` spells it.
    public var sensing: PressureSensing
    /// False when the guided part could not decide: `sensing` is then the static verdict.
    public var conclusive: Bool
    /// The verdict from the description alone, with its findings.
    public var classification: DeviceClassification
    /// Whether the sensor loses a resting load (nil when step 1 did not show it).
    public var decays: Bool?
    /// Why, in sentences with the figures.
    public var reasons: [String]
    /// The figures.
    public var figures: ProbeFigures
    /// What the user can do: calibrate, nothing, report the device.
    public var advice: String
    /// Timeouts and early ends, in the order they happened.
    public var notes: [String]

    /// Creates a report.
    public init(
        sensing: PressureSensing,
        conclusive: Bool,
        classification: DeviceClassification,
        decays: Bool?,
        reasons: [String],
        figures: ProbeFigures,
        advice: String,
        notes: [String]
    ) {
        self.sensing = sensing
        self.conclusive = conclusive
        self.classification = classification
        self.decays = decays
        self.reasons = reasons
        self.figures = figures
        self.advice = advice
        self.notes = notes
    }
}
