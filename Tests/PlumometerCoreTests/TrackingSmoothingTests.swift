import PlumometerCore
import Testing

@Suite("Tracking: smoothing of reported values")
struct TrackingSmoothingTests {
    @Test("smoothing is off by default")
    func offByDefault() throws {
        #expect(TrackerConfiguration().smoothing == .none)
        var tracker = WeightTracker(pressureRange: range1000)
        _ = tracker.consume(frame(0, [(1, 0)]))
        #expect(tracker.consume(frame(0.01, [(1, 1000)]))[id: 1]?.force == 1)
    }

    @Test("exponential smoothing moves alpha of the way each frame; the raw pressure is kept")
    func exponential() throws {
        var configuration = TrackerConfiguration()
        configuration.smoothing = .exponential(alpha: 0.5)
        var tracker = WeightTracker(
            pressureRange: AxisInfo(minimum: 0, maximum: 1000, resolution: 10),
            configuration: configuration
        )
        _ = tracker.consume(frame(0, [(1, 0)]))
        var reading = tracker.consume(frame(0.01, [(1, 1000)]))
        #expect(reading[id: 1]?.force == 0.5)
        #expect(reading[id: 1]?.grams == 50)  // grams come from the smoothed value too
        #expect(reading[id: 1]?.pressure == 1000)
        reading = tracker.consume(frame(0.02, [(1, 1000)]))
        #expect(reading[id: 1]?.force == 0.75)
    }

    @Test("each contact has its own filter, dropped when it ends")
    func perContact() throws {
        var configuration = TrackerConfiguration()
        configuration.smoothing = .exponential(alpha: 0.5)
        var tracker = WeightTracker(pressureRange: range1000, configuration: configuration)
        _ = tracker.consume(frame(0, [(1, 0), (2, 800)]))
        let reading = tracker.consume(frame(0.01, [(1, 400), (2, 800)]))
        #expect(reading[id: 1]?.force == 0.2)
        #expect(reading[id: 2]?.force == 0.8)
    }

    @Test("one-euro: lags a step, converges, never overshoots, and a larger beta follows faster")
    func oneEuro() throws {
        func run(beta: Double) -> [Double] {
            var configuration = TrackerConfiguration()
            configuration.smoothing = .oneEuro(minCutoff: 1, beta: beta, derivativeCutoff: 1)
            // The filter itself is under test: a stable contact would report its settled mean instead.
            configuration.stabilityWindow = 100
            var tracker = WeightTracker(pressureRange: range1000, configuration: configuration)
            _ = tracker.consume(frame(0, [(1, 0)]))
            return (1...300).map { step in tracker.consume(frame(Double(step) * 0.01, [(1, 1000)]))[id: 1]!.force }
        }
        let calm = run(beta: 0)
        let quick = run(beta: 50)
        #expect(calm[0] > 0 && calm[0] < 0.1)  // cut-off 1 Hz over 10 ms: about 6% of the step
        #expect(zip(calm, calm.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(calm.allSatisfy { $0 <= 1 })
        #expect(calm[299] > 0.99)
        #expect(quick[0] > calm[0])
        #expect(quick[9] > calm[9])
    }

    @Test("one-euro: a second frame with the same kernel time keeps the estimate")
    func oneEuroSameTime() throws {
        var configuration = TrackerConfiguration()
        configuration.smoothing = .oneEuro()
        var tracker = WeightTracker(pressureRange: range1000, configuration: configuration)
        _ = tracker.consume(frame(0, [(1, 0)]))
        let first = try #require(tracker.consume(frame(0.1, [(1, 1000)]))[id: 1]?.force)
        let again = try #require(tracker.consume(frame(0.1, [(1, 1000)]))[id: 1]?.force)
        #expect(first == again)
        #expect(first.isFinite)
    }

    @Test("out-of-range exponential alphas are clamped, never frozen or NaN", arguments: [-1.0, 0.0, 5.0, .nan])
    func alphaClamped(alpha: Double) throws {
        var configuration = TrackerConfiguration()
        configuration.smoothing = .exponential(alpha: alpha)
        var tracker = WeightTracker(pressureRange: range1000, configuration: configuration)
        _ = tracker.consume(frame(0, [(1, 0)]))
        let force = try #require(tracker.consume(frame(0.01, [(1, 1000)]))[id: 1]?.force)
        #expect(force > 0 && force <= 1)
    }
}
