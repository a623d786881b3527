/// The few statistics the probe needs, over plain arrays.
enum ProbeStatistics {
    /// The median of `values`, nil when empty.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The median of values that each hold for a while: a device sends a value only when it changes, so a
    /// pressure held for a second may be one sample against a hundred of the ramp before it. Each value weighs
    /// the time until the next sample (the last one until `end`, at least a microsecond).
    static func timeWeightedMedian(_ samples: [(time: EventTime, value: Double)], until end: EventTime) -> Double? {
        guard !samples.isEmpty else { return nil }
        var weighted: [(value: Double, weight: Double)] = []
        for (index, sample) in samples.enumerated() {
            let next = index + 1 < samples.count ? samples[index + 1].time : Swift.max(end, sample.time)
            weighted.append((sample.value, Swift.max(1e-6, next.seconds(since: sample.time))))
        }
        weighted.sort { $0.value < $1.value }
        let half = weighted.reduce(0) { $0 + $1.weight } / 2
        var total = 0.0
        for entry in weighted {
            total += entry.weight
            if total >= half { return entry.value }
        }
        return weighted.last?.value
    }

    /// Pearson's correlation coefficient of `xs` and `ys`, nil when either does not vary or there are fewer than
    /// three pairs.
    static func correlation(_ xs: [Double], _ ys: [Double]) -> Double? {
        let count = Swift.min(xs.count, ys.count)
        guard count >= 3 else { return nil }
        let meanX = xs.prefix(count).reduce(0, +) / Double(count)
        let meanY = ys.prefix(count).reduce(0, +) / Double(count)
        var covariance = 0.0
        var varianceX = 0.0
        var varianceY = 0.0
        for index in 0..<count {
            let dx = xs[index] - meanX
            let dy = ys[index] - meanY
            covariance += dx * dy
            varianceX += dx * dx
            varianceY += dy * dy
        }
        guard varianceX > 0, varianceY > 0 else { return nil }
        return covariance / (varianceX * varianceY).squareRoot()
    }
}
