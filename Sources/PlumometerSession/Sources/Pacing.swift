/// How fast a recording plays: in real time, X times faster, or as fast as possible.
public struct Pacing {
    /// nil: as fast as possible.
    public var speed: Double?

    public init(speed: Double?) { self.speed = speed }
}
