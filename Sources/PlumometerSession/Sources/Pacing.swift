/// How fast a recording plays: in real time, X times faster, or as fast as possible.
public struct Pacing {
    /// nil: as fast as possible.
    public var speed: Double?

    public init(speed: Double?) { self.speed = speed }
}

/// `value` microseconds as an Int64, clamped instead of trapping: user-supplied speeds and recorded times can
/// make any product huge.
public func clampedMicroseconds(_ value: Double) -> Int64 {
    guard value.isFinite else { return value > 0 ? Int64.max / 2 : 0 }
    return Int64(Swift.max(Swift.min(value, 4.0e18), -4.0e18))
}
