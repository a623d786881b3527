/// The time the kernel stamped on an input event, kept as whole microseconds.
///
/// Readings are stamped with the device's clock (normally `CLOCK_MONOTONIC`), never the wall clock, so
/// that tracking is deterministic and a replayed recording produces the same readings as the live device.
public struct EventTime: Hashable, Comparable, Sendable, Codable {
    /// Microseconds since the clock's epoch.
    public var microseconds: Int64

    /// Creates a time from whole microseconds.
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// Creates a time from the kernel's `(tv_sec, tv_usec)` pair.
    public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds &* 1_000_000 &+ microseconds
    }

    /// The time in seconds, for display.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// Zero: the start of a recording whose times are relative.
    public static let zero = EventTime(microseconds: 0)

    public static func < (lhs: EventTime, rhs: EventTime) -> Bool { lhs.microseconds < rhs.microseconds }

    /// The time `interval` seconds later.
    public func adding(seconds interval: Double) -> EventTime {
        EventTime(microseconds: microseconds &+ Int64((interval * 1_000_000).rounded()))
    }

    /// Seconds elapsed from `earlier` to this time (negative if `earlier` is later).
    public func seconds(since earlier: EventTime) -> Double {
        Double(microseconds &- earlier.microseconds) / 1_000_000
    }
}
