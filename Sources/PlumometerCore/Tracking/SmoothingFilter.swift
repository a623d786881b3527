/// The per-contact state of the configured ``Smoothing``.
///
/// Kept inside the tracker's per-contact record so that it is dropped with the contact: a new contact never starts
/// from an old contact's smoothed value.
struct SmoothingFilter: Sendable, Hashable {
    private var value: Double?
    private var speed: Double = 0
    private var lastTime: EventTime?

    /// Feeds one sample and returns the smoothed value.
    ///
    /// - Parameters:
    ///   - sample: the new raw value (pressure units).
    ///   - time: the kernel time of the sample.
    ///   - smoothing: the rule to apply; passed on every call so a configuration change takes effect at once.
    ///   - fullScale: pressure units per full scale, so that the 1€ `beta` does not depend on the device's units.
    /// - Returns: the value to report.
    mutating func update(_ sample: Double, at time: EventTime, smoothing: Smoothing, fullScale: Double) -> Double {
        defer { lastTime = time }
        guard let previous = value else {
            value = sample
            return sample
        }
        let next: Double
        switch smoothing {
        case .none:
            next = sample
        case .exponential(let alpha):
            let weight = alpha.isNaN ? 1 : Swift.min(Swift.max(alpha, 0.01), 1)
            next = previous + weight * (sample - previous)
        case .oneEuro(let minCutoff, let beta, let derivativeCutoff):
            // Two frames with the same kernel stamp give the filter no time to follow; keep the estimate.
            guard let before = lastTime, time > before else { return previous }
            let elapsed = time.seconds(since: before)
            let scale = fullScale > 0 ? fullScale : 1
            let rawSpeed = (sample - previous) / scale / elapsed
            speed += Self.weight(cutoff: derivativeCutoff, elapsed: elapsed) * (rawSpeed - speed)
            let cutoff = minCutoff + Swift.max(0, beta.isNaN ? 0 : beta) * Swift.abs(speed)
            next = previous + Self.weight(cutoff: cutoff, elapsed: elapsed) * (sample - previous)
        }
        value = next
        return next
    }

    /// The smoothing factor of a first-order low-pass filter with cut-off `cutoff` hertz over `elapsed` seconds.
    private static func weight(cutoff: Double, elapsed: Double) -> Double {
        guard cutoff.isFinite, cutoff > 0 else { return cutoff.isInfinite ? 1 : 0 }
        let product = 2 * Double.pi * cutoff * elapsed
        return product / (1 + product)
    }
}
