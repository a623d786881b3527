/// A contact's run: the values since its anchor, restarted when the value moves beyond the stability tolerance or
/// still trends, and judged stable once it has lasted the stability window (``TrackerConfiguration``).
extension WeightTracker {
    /// Smooths a contact's raw pressure at `time` into its value, within the pressure range.
    func smooth(_ contact: inout TrackedContact, at time: EventTime) {
        let smoothed = contact.filter.update(
            Double(contact.rawPressure),
            at: time,
            smoothing: configuration.smoothing,
            fullScale: pressureRange.span
        )
        contact.value = clampedPressure(smoothed)
    }

    /// Smooths a contact's new raw pressure at `time`, extends or restarts its run and judges it.
    func advance(_ contact: inout TrackedContact, at time: EventTime) {
        smooth(&contact, at: time)
        if Swift.abs(contact.value - contact.anchorPressure) > stabilityTolerancePressure || time < contact.anchorTime {
            restartRun(&contact, at: time)
        } else {
            contact.window.add(contact.value, at: time)
        }
        judge(&contact, at: time)
    }

    /// Begins a contact's run anew at `time` from its value now: the anchor moved.
    func restartRun(_ contact: inout TrackedContact, at time: EventTime) {
        contact.anchorPressure = contact.value
        contact.anchorTime = time
        contact.window.restart(contact.value, at: time)
    }

    /// Judges whether `contact` is stable at kernel time `time` and updates its settled value.
    ///
    /// Stable means stopped changing: the run (the values since the anchor) has lasted
    /// the stability window within the tolerance, and its least-squares trend would move the value by no more than
    /// its noise over one window (``TrackerConfiguration/trendNoiseFloor``). A run that has lasted the window but
    /// still trends (an object's landing decaying, a creep) begins anew here, so the decay it held is never part of
    /// a settled value; it can be stable one window later, once it has stopped changing.
    func judge(_ contact: inout TrackedContact, at time: EventTime) {
        let window = configuration.stabilityWindow
        guard time >= contact.anchorTime, time.seconds(since: contact.anchorTime) >= window else {
            contact.stable = false
            return
        }
        if window > 0 {
            let trend = contact.window.trend
            let noise = Swift.max(trend.scatter, configuration.trendNoiseFloor)
            if Swift.abs(trend.slope) * window > noise {
                restartRun(&contact, at: time)
                contact.stable = false
                return
            }
        }
        contact.settledPressure = contact.window.mean ?? contact.value
        contact.stable = true
    }
}
