/// One reading of the probed finger: what the analyzer keeps of a contact.
public struct ProbeSample: Hashable, Sendable {
    /// The kernel time of the frame.
    public var time: EventTime
    /// Raw pressure in device units.
    public var pressure: Int32
    /// `ABS_MT_TOUCH_MAJOR`, when the device reports it.
    public var touchMajor: Int32?
    /// `ABS_MT_TOUCH_MINOR`, when the device reports it.
    public var touchMinor: Int32?
    /// Position in device units.
    public var x: Int32?
    /// Position in device units.
    public var y: Int32?

    /// Creates a sample.
    public init(
        time: EventTime,
        pressure: Int32,
        touchMajor: Int32? = nil,
        touchMinor: Int32? = nil,
        x: Int32? = nil,
        y: Int32? = nil
    ) {
        self.time = time
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
        self.x = x
        self.y = y
    }

    /// The contact's size: major × minor when both are known, else major.
    public var size: Double? {
        guard let touchMajor else { return nil }
        return Double(touchMajor) * Double(touchMinor ?? 1)
    }
}

/// What the probe tells its caller: a step to show, progress, a timeout, the end.
public enum ProbeEvent: Hashable, Sendable {
    /// A step begins: show its instruction.
    case started(ProbeStep)
    /// The step's progress, 0 to 1, in tenths.
    case progress(ProbeStep, Double)
    /// The step ended without what it waited for; the note says what happened. The probe moves on.
    case timedOut(ProbeStep, String)
    /// The probe is over.
    case finished(ProbeReport)
}
