public import PlumometerCore
import PlumometerOutput

/// The guided calibration as a consumer of frames: the core's ``CalibrationGuide`` (one contact, followed from the
/// carrier to the last reference) with its prompts and captures on stderr.
public final class GuidedCalibration: FrameConsumer {
    private var guide: CalibrationGuide
    /// Why the guide refused the session, once it did: nothing may be saved then.
    public private(set) var failure: CalibrationGuideError?

    public init(
        references: [(label: String, grams: Double)],
        carrier: (label: String, grams: Double)?,
        pressureRange: AxisInfo
    ) {
        guide = CalibrationGuide(references: references, carrier: carrier, pressureRange: pressureRange)
    }

    public var points: [CalibrationPoint] { guide.points }
    public var isDone: Bool { guide.isDone }
    /// The error for an input that ended before every step was captured.
    public var incomplete: CalibrationGuideError { guide.incomplete }

    public func prompt() -> String { guide.prompt }

    public func consume(_ frame: ContactFrame) throws -> Bool {
        try observe { () throws(CalibrationGuideError) in try guide.consume(frame) }
    }

    public func tick(now: EventTime) throws -> Bool {
        try observe { () throws(CalibrationGuideError) in try guide.tick(now: now) }
    }

    public var nextDeadline: EventTime? { guide.nextDeadline }

    /// Runs one step of the guide; says what was captured and what comes next. A refusal stops reading.
    private func observe(
        _ step: () throws(CalibrationGuideError) -> CalibrationPoint?
    ) throws -> Bool {
        guard failure == nil, !guide.isDone else { return true }
        let point: CalibrationPoint?
        do throws(CalibrationGuideError) {
            point = try step()
        } catch {
            failure = error
            return true
        }
        guard let point else { return false }
        Diagnostics.writeError(
            "  captured: pressure " + NumberText.fixed(point.pressure, 1) + " for " + NumberText.fixed(point.grams, 2)
                + " g\n"
        )
        if !guide.isDone { Diagnostics.writeError(guide.prompt + "\n") }
        return guide.isDone
    }
}
