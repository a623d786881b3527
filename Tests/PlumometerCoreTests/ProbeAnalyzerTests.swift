import PlumometerCore
import Testing

/// The probe's state machine and decision rule on synthetic gestures (the composed recordings are tested in
/// PlumometerRecordingTests).
@Suite("Probe analyzer")
struct ProbeAnalyzerTests {
    /// A touchpad with pressure 0..255, optional touch major, positions of 30 units/mm.
    ///
    /// A literal, not a catalogue device: the tests vary its pressure range, touch major and properties.
    static func pad(
        pressure: AxisInfo = AxisInfo(minimum: 0, maximum: 255),
        touchMajor: Bool = true,
        properties: Set<InputProperty> = [.pointer, .buttonpad]
    ) -> DeviceDescription {
        var axes: [AbsoluteAxis: AxisInfo] = [
            .x: AxisInfo(minimum: 0, maximum: 3000, resolution: 30),
            .y: AxisInfo(minimum: 0, maximum: 2000, resolution: 30),
            .mtSlot: AxisInfo(minimum: 0, maximum: 4),
            .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535),
            .mtPositionX: AxisInfo(minimum: 0, maximum: 3000, resolution: 30),
            .mtPositionY: AxisInfo(minimum: 0, maximum: 2000, resolution: 30),
            .mtPressure: pressure,
        ]
        if touchMajor { axes[.mtTouchMajor] = AxisInfo(minimum: 0, maximum: 40) }
        return DeviceDescription(
            path: "synthetic",
            identity: DeviceIdentity(bus: 0x18, vendor: 0x6cb, product: 1, version: 1, name: "Synthetic Pad"),
            properties: properties,
            codes: [.key: [KeyCode.btnToolFinger.rawValue, KeyCode.btnTouch.rawValue]],
            axes: axes
        )
    }

    /// What the finger does at `t` seconds: (pressure, touch major, x), or nil when lifted.
    typealias Gesture = @Sendable (Double) -> (pressure: Double, major: Double?, x: Double)?

    /// Feeds a sample every 20 ms from 0 to `duration` s, ticking at deadlines between samples and after the end.
    static func run(
        _ device: DeviceDescription,
        duration: Double = 12,
        _ gesture: Gesture
    ) -> (analyzer: ProbeAnalyzer, events: [ProbeEvent]) {
        var analyzer = ProbeAnalyzer(description: device)
        var events = analyzer.begin(at: .zero)
        var step = 0
        while !analyzer.isFinished {
            let time = EventTime(microseconds: Int64(step) * 20_000)
            step += 1
            while let deadline = analyzer.nextDeadline, deadline <= time { events += analyzer.tick(now: deadline) }
            if analyzer.isFinished || time.seconds > duration { break }
            let state = gesture(time.seconds)
            let sample = state.map {
                ProbeSample(
                    time: time,
                    pressure: Int32($0.pressure.rounded()),
                    touchMajor: $0.major.map { Int32($0.rounded()) },
                    x: Int32($0.x.rounded()),
                    y: 1000
                )
            }
            events += analyzer.consume(sample, touching: state != nil, at: time)
        }
        while let deadline = analyzer.nextDeadline { events += analyzer.tick(now: deadline) }
        return (analyzer, events)
    }

    static func ramp(_ t: Double, _ start: Double, _ end: Double) -> Double {
        min(1, max(0, (t - start) / (end - start)))
    }

    /// Touch at 0.5 s; press 3.8-4.2 s (held to 5.8 s); ease off by 6.0 s; roll 6.2-6.6 s; lift at `lift`.
    static func press(_ t: Double) -> Double { ramp(t, 3.8, 4.2) - ramp(t, 5.8, 6.0) }
    static func roll(_ t: Double) -> Double { ramp(t, 6.2, 6.6) }

    static let force: Gesture = { t in
        t < 0.5 || t >= 9.5
            ? nil : (60 + 100 * press(t) + (t * 10).truncatingRemainder(dividingBy: 2), 12, 1500 + 90 * roll(t))
    }

    @Test func theStepsComeInOrderWithProgressAndAForceVerdict() throws {
        let (analyzer, events) = Self.run(Self.pad(), Self.force)
        let report = try #require(analyzer.report)
        #expect(report.sensing == .force)
        #expect(report.conclusive)
        let started = events.compactMap { if case .started(let step) = $0 { step } else { nil } }
        #expect(started == [.rest, .press, .roll, .lift])
        for step in [ProbeStep.rest, .press, .roll] {
            let fractions = events.compactMap { event -> Double? in
                if case .progress(step, let fraction) = event { fraction } else { nil }
            }
            #expect(fractions == fractions.sorted(), "\(step)")
            #expect(fractions.last == 1, "\(step)")
            #expect(fractions.count <= 11)
        }
        #expect(analyzer.samples[.lift] == nil)
        #expect(report.notes.isEmpty)
    }

    @Test func aForceSensorStaysForceWhenPressingAlsoFlattensTheFinger() throws {
        // Pressing hard flattens a real finger too (touch major +25 %), but rolling flattens it more without
        // raising the force: the size changes too much in step 2 for "steady", yet pressure does not follow it.
        let gesture: Gesture = { t in
            t < 0.5 || t >= 9.5
                ? nil
                : (60 + 100 * Self.press(t), 12 + 3 * Self.press(t) + 6 * Self.roll(t), 1500 + 90 * Self.roll(t))
        }
        let report = try #require(Self.run(Self.pad(), gesture).analyzer.report)
        #expect(report.sensing == .force)
        #expect(try #require(report.figures.pressSizeChange) >= 0.15)
        #expect(try #require(report.figures.correlation) < 0.5)
    }

    @Test func withoutTouchMajorPressingDecidesForce() throws {
        let gesture: Gesture = { t in Self.force(t).map { ($0.pressure, nil, $0.x) } }
        let report = try #require(Self.run(Self.pad(touchMajor: false), gesture).analyzer.report)
        #expect(report.sensing == .force)
        #expect(report.figures.correlation == nil)
        #expect(report.reasons.contains { $0.contains("reports no contact size") })
        #expect(report.classification.findingCodes.contains(.noTouchMajor))
    }

    @Test func withoutTouchMajorRollingAsMuchAsPressingIsContactSize() throws {
        // A contact-size pad without ABS_MT_TOUCH_MAJOR: rolling spreads the finger and raises pressure too.
        let gesture: Gesture = { t in
            t < 0.5 || t >= 9.5 ? nil : (60 + 30 * Self.press(t) + 35 * Self.roll(t), nil, 1500 + 90 * Self.roll(t))
        }
        let report = try #require(Self.run(Self.pad(touchMajor: false), gesture).analyzer.report)
        #expect(report.sensing == .contactSize)
        #expect(report.reasons.first?.contains("follows flattening as much as pressing") == true)
        #expect(report.reasons.last?.hasPrefix("Under a resting finger it held its level") == true)
    }

    @Test func aResolutionMakesForceGrams() throws {
        let report = try #require(
            Self.run(Self.pad(pressure: AxisInfo(minimum: 0, maximum: 255, resolution: 2)), Self.force).analyzer.report
        )
        #expect(report.sensing == .forceWithUnits)
        #expect(report.advice.hasPrefix("Nothing to do"))
    }

    @Test func noFingerTimesOutStepOne() throws {
        var analyzer = ProbeAnalyzer(description: Self.pad())
        #expect(analyzer.begin(at: EventTime(microseconds: 1_000_000)) == [.started(.rest)])
        #expect(analyzer.nextDeadline == EventTime(microseconds: 21_000_000))
        #expect(analyzer.tick(now: EventTime(microseconds: 20_999_999)).isEmpty)
        let events = analyzer.tick(now: EventTime(microseconds: 21_000_000))
        guard case .timedOut(.rest, let note) = events.first else {
            Issue.record("expected a timeout, got \(events)")
            return
        }
        #expect(note.contains("20 s"))
        let report = try #require(analyzer.report)
        #expect(!report.conclusive)
        #expect(report.sensing == .contactSize)  // the static verdict stands
        #expect(report.advice.hasPrefix("Run `plumometer probe` again"))
        #expect(analyzer.nextDeadline == nil)
    }

    @Test func aTouchAfterTheFingerTimeoutComesTooLate() throws {
        var analyzer = ProbeAnalyzer(description: Self.pad())
        _ = analyzer.begin(at: .zero)
        let late = EventTime(microseconds: 25_000_000)
        let events = analyzer.consume(ProbeSample(time: late, pressure: 60), touching: true, at: late)
        #expect(events.count == 2)
        #expect(analyzer.isFinished)
        #expect(analyzer.samples.isEmpty)
    }

    @Test func aPressThatNeverComesTimesOutAndTheProbeMovesOn() throws {
        // The finger rests and rolls but never presses harder; then stays down past the lift timeout.
        let gesture: Gesture = { t in
            t < 0.5
                ? nil : (60 + 3 * (t * 10).truncatingRemainder(dividingBy: 3), 12, 1500 + 90 * Self.ramp(t, 12, 12.4))
        }
        let (analyzer, events) = Self.run(Self.pad(), duration: 40, gesture)
        let timeouts = events.compactMap { if case .timedOut(let step, _) = $0 { step } else { nil } }
        #expect(timeouts == [.press, .lift])
        let report = try #require(analyzer.report)
        #expect(report.notes.first?.hasPrefix("Step 2 (press harder) timed out after 8 s") == true)
        #expect(report.notes.last?.hasPrefix("Step 4 (lift) timed out after 10 s") == true)
        #expect(!report.conclusive)
        #expect(report.reasons.first?.hasPrefix("Neither force nor contact size explains the steps") == true)
    }

    @Test func aStaticallyBogusAxisStaysBogus() throws {
        let report = try #require(
            Self.run(Self.pad(pressure: AxisInfo(minimum: 0, maximum: 0)), Self.force).analyzer.report
        )
        #expect(report.sensing == .bogus)
        #expect(report.reasons.first?.contains("empty range") == true)
    }

    @Test func zeroUnderAFingerIsBogus() throws {
        // The PixArt pad before its quirk: pressure declared, 0 under a resting finger.
        let gesture: Gesture = { t in t < 0.5 || t >= 9.5 ? nil : (0, 10 + 4 * Self.press(t), 1500) }
        let report = try #require(Self.run(Self.pad(), gesture).analyzer.report)
        #expect(report.sensing == .bogus)
        #expect(report.reasons.first?.contains("read 0, its minimum") == true)
    }

    @Test func tooFewSamplesCannotDecide() throws {
        let gesture: Gesture = { t in t > 0.5 && t < 0.6 ? (60, 12, 1500) : nil }
        let report = try #require(Self.run(Self.pad(), gesture).analyzer.report)
        #expect(!report.conclusive)
        #expect(report.reasons.first?.hasPrefix("Only 4 samples under a finger") == true)
    }

    @Test func aLiftDuringRestIsTooShortToDecide() throws {
        let gesture: Gesture = { t in t > 0.5 && t < 1.0 ? (60, 12, 1500) : nil }
        let (analyzer, _) = Self.run(Self.pad(), gesture)
        let report = try #require(analyzer.report)
        #expect(!report.conclusive)
        #expect(report.notes == ["The finger lifted during step 1 (rest lightly); the probe ended early."])
        #expect(report.reasons.first == "The probe ended before steps 2 and 3 collected samples.")
        #expect(report.sensing == .contactSize)
    }

    @Test func aSemiMultitouchPadIsReadAsOneContact() throws {
        var analyzer = ProbeAnalyzer(description: Self.pad(properties: [.buttonpad, .semiMT]))
        #expect(analyzer.classification.semiMultitouch)
        let frame = ContactFrame(
            time: EventTime(microseconds: 10),
            contacts: [
                ContactSample(id: 1, slot: 0, x: 1000, y: 500, pressure: 30),
                ContactSample(id: 2, slot: 1, x: 2000, y: 900, pressure: 45),
            ]
        )
        _ = analyzer.consume(frame)
        #expect(analyzer.samples[.rest] == [ProbeSample(time: frame.time, pressure: 45, x: 1500, y: 700)])
    }
}
