/// The four guided steps of `plumometer probe`, in order.
public enum ProbeStep: Int, Hashable, Sendable, CaseIterable, Comparable {
    /// Rest one finger lightly and keep it still: the resting level, and whether the sensor holds it.
    case rest = 1
    /// Press harder without moving: a force sensor's value rises while the contact size changes little.
    case press
    /// Roll or flatten the finger without pressing harder: a contact-size sensor's value rises as much as in
    /// the press step, a force sensor's does not.
    case roll
    /// Lift the finger.
    case lift

    /// The instruction shown to the user, in plain words.
    public var instruction: String {
        switch self {
        case .rest: "Rest one finger lightly on the surface and keep it still."
        case .press: "Now press harder with the same finger, without moving it."
        case .roll:
            "Ease off to a light touch, then roll or flatten the finger so more of it touches, without pressing harder."
        case .lift: "Lift the finger."
        }
    }

    /// What the probe looks for in a recording at this step, in plain words (nobody is asked to do it).
    public var sought: String {
        switch self {
        case .rest: "a finger resting lightly and still"
        case .press: "the same finger pressing harder without moving"
        case .roll: "the finger easing off, then rolled or flattened without pressing harder"
        case .lift: "the finger lifting"
        }
    }

    /// A short name for progress lines and notes.
    public var name: String {
        switch self {
        case .rest: "rest lightly"
        case .press: "press harder"
        case .roll: "roll or flatten"
        case .lift: "lift"
        }
    }

    public static func < (lhs: ProbeStep, rhs: ProbeStep) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The durations, timeouts and thresholds of the probe, in seconds of kernel time and fractions.
///
/// docs/devices.md ("How plumometer probe decides") explains each number.
public struct ProbeConfiguration: Hashable, Sendable {
    /// How long step 1 waits for a finger before it times out.
    public var fingerTimeout: Double = 20
    /// How long the finger rests in step 1, from the touch.
    public var restDuration: Double = 3
    /// The start of step 1 left out of the resting figures: the finger is still settling.
    public var settle: Double = 0.5
    /// How long a detected change (the press of step 2, the roll of step 3) must hold before the step completes.
    public var hold: Double = 1
    /// How long steps 2 and 3 wait for their change before they time out and the probe moves on.
    public var stepTimeout: Double = 8
    /// How long step 4 waits for the lift.
    public var liftTimeout: Double = 10
    /// Whether the gestures come from a recording: nobody is prompted, the timeouts are the recording's own time,
    /// and the notes and advice say so ("the recording shows no ..."), never "timed out".
    public var fromRecording = false
    /// The rise over the resting level, as a fraction of the pressure axis' span, that counts as a press.
    public var riseThreshold: Double = 0.05
    /// The growth of touch major over its resting level (a fraction of it) that counts as flattening.
    public var flattenThreshold: Double = 0.10
    /// The movement of the contact, in millimetres (or 1 % of the axis span without a resolution), that counts
    /// as rolling.
    public var rollDistance: Double = 1.5
    /// A contact-size change smaller than this fraction of the resting size is "changes little".
    public var steadySize: Double = 0.15
    /// The correlation of pressure with contact size over steps 2 and 3 from which pressure follows size.
    public var followsSizeCorrelation: Double = 0.8
    /// Step 3's rise over step 2's from which pressure follows flattening as much as pressing.
    public var rollToPressRatio: Double = 0.5
    /// The loss of a resting level over step 1, as a fraction of it, from which the sensor decays.
    public var decayThreshold: Double = 0.15
    /// A spread of pressure below this fraction of the axis span (and at most 1 unit) is "constant".
    public var constantSpread: Double = 0.01
    /// The fewest samples under a finger the verdict needs.
    public var minimumSamples: Int = 10

    /// The defaults documented in docs/devices.md.
    public init() {}
}
