/// How the reported value of each contact is smoothed before it is shown.
///
/// Smoothing only ever changes what is reported (force, percent, grams and the values derived from them); the raw
/// `pressure` of a ``ContactReading`` is always the device's own number, so a recording or a log stays truthful.
public enum Smoothing: Sendable, Hashable {
    /// No smoothing: every frame is reported as the device sent it. The default, because the kernel's `fuzz`
    /// filter already drops the smallest jitter and a scale should not lag.
    case none
    /// Exponential moving average per frame: `value += alpha * (sample - value)`.
    ///
    /// `alpha` is the weight of the newest sample, clamped into `0.01...1` (1 is no smoothing, small values are
    /// smoother and slower). Not-a-number means no smoothing.
    case exponential(alpha: Double = 0.3)
    /// The 1€ filter (Casiez, Roussel and Vogel, CHI 2012): heavy smoothing while the value rests, little lag while
    /// it moves, with time taken from the kernel's event stamps.
    ///
    /// - `minCutoff`: the cut-off frequency in hertz while the value is still (lower is smoother).
    /// - `beta`: how much the cut-off rises with speed, per full scale per second (higher follows faster).
    /// - `derivativeCutoff`: the cut-off frequency in hertz used to smooth the speed estimate itself.
    case oneEuro(minCutoff: Double = 1.0, beta: Double = 5.0, derivativeCutoff: Double = 1.0)
}

/// The tunable rules of a ``WeightTracker``: the heaviest mark, stability, saturation, smoothing and the carrier.
///
/// Fractions "of full scale" are fractions of the pressure axis' declared range (`maximum - minimum`), which is the
/// same unit as a contact's `force`, so 0.01 is one percentage point.
public struct TrackerConfiguration: Sendable, Hashable {
    /// How far another contact must press harder than the holder of the heaviest mark, as a fraction of the holder's
    /// value, before the mark moves to it: 3% is 0.2 g on a 7 g coin and 30 g on a 1 kg load, so coins, fruit and
    /// kilogram loads work with the same default. Never less than the noise the tracker has seen on the two contacts
    /// (their spread while resting, at least the axis' `fuzz`), never more than ``heaviestMarginCap``.
    public var heaviestMargin: Double = 0.03
    /// The largest the margin may be, as a fraction of the holder's value, whatever the noise: with the default
    /// (10%) a contact that leads by more than 10% of the holder's value for ``heaviestHold`` always takes the mark.
    public var heaviestMarginCap: Double = 0.1
    /// How long (seconds of kernel time) a contact must keep its lead before the mark moves to it, so the spike of
    /// an object landing does not take the mark from a heavier one.
    public var heaviestHold: Double = 0.1
    /// How far (a fraction of full scale) a contact's value may wander and still count as resting, when no grams
    /// are known.
    public var stabilityTolerance: Double = 0.01
    /// How far (grams) a contact's value may wander and still count as resting, when grams are known (from the axis
    /// resolution or a calibration).
    public var stabilityToleranceGrams: Double = 2
    /// How long (seconds of kernel time) a value must stay within the tolerance before it is reported stable.
    public var stabilityWindow: Double = 0.5
    /// The least noise (device pressure units) a trend is measured against: a value whose least-squares trend would
    /// move it by more than its noise (the scatter about the trend, at least this) over ``stabilityWindow`` is still
    /// changing (decaying, creeping) and is not stable, however small its spread. One unit: the step of an integer
    /// axis, below which a value held between two integers (or still under the kernel's `fuzz` filter) cannot be
    /// told from one that moved.
    public var trendNoiseFloor: Double = 1
    /// The fraction of full scale at or above which a raw pressure is flagged saturated (the weight may be more).
    public var saturationThreshold: Double = 0.98
    /// How reported values are smoothed; off by default.
    public var smoothing: Smoothing = .none
    /// How far (millimetres) from where the carrier lifted a new contact may begin and still be the carrier.
    public var carrierRadius: Double = 5
    /// The same distance in device units, used when the position axes declare no resolution (5 mm on a touchpad
    /// of typical resolution, 40 to 100 units per millimetre, is 200 to 500 units).
    public var carrierRadiusUnits: Double = 300

    /// The defaults described on each property.
    public init() {}
}
