import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestSupport
import Testing

/// `plumometer probe`'s analyzer on the four composed recordings of its gestures (Tests/Fixtures/Probe), read by
/// the recording reader and decoded as a live device would be, with the deadline loop a consumer runs.
@Suite("Probe on composed recordings")
struct ProbeRecordingTests {
    /// Everything a run produced.
    struct Run {
        var report: ProbeReport
        var events: [ProbeEvent]
        var started: [ProbeStep] {
            events.compactMap { if case .started(let step) = $0 { step } else { nil } }
        }
        var timeouts: [ProbeStep] {
            events.compactMap { if case .timedOut(let step, _) = $0 { step } else { nil } }
        }
    }

    /// Reads `name`, feeds every frame to a probe, ticking at its deadlines between frames as FrameConsumer does,
    /// and ticks past the end until the probe is over.
    static func run(_ name: String) throws -> Run {
        let url = Fixtures.projectFixtures.appendingPathComponent("Probe").appendingPathComponent(name)
        let recording = try RecordingReader.read(text: try Paths.text(url), fileName: name)
        let device = recording.devices[0]
        var decoder = ContactDecoder(device: device.description)
        var analyzer = ProbeAnalyzer(description: device.description)
        var produced: [ProbeEvent] = []
        var source = device.events
        while let event = try source.next() {
            guard let frame = decoder.consume(event) else { continue }
            while let deadline = analyzer.nextDeadline, deadline <= frame.time {
                produced += analyzer.tick(now: deadline)
            }
            produced += analyzer.consume(frame)
        }
        while let deadline = analyzer.nextDeadline {
            produced += analyzer.tick(now: deadline)
        }
        let report = try #require(analyzer.report)
        #expect(produced.last == .finished(report))
        return Run(report: report, events: produced)
    }

    @Test func pressureThatIsAMultipleOfTouchMajorIsContactSize() throws {
        let run = try Self.run("probe-contact-size.evemu")
        #expect(run.report.sensing == .contactSize)
        #expect(run.report.conclusive)
        #expect(run.started == [.rest, .press, .roll, .lift])
        #expect(run.timeouts.isEmpty)
        let r = try #require(run.report.figures.correlation)
        #expect(r > 0.99)
        #expect(run.report.reasons.first?.contains("follows the contact size") == true)
        #expect(run.report.advice.hasPrefix("Nothing will make it weigh"))
        #expect(run.report.figures.steps[.press]?.sizeSeen == 11...14)
        #expect(run.report.figures.pressureSeen == 50...85)
    }

    @Test func aStillFingerEndsStepOneOnATick() throws {
        // probe-contact-size has no frame from 10.2 s to 13.5 s: step 2 starts at 13.0 s all the same.
        let run = try Self.run("probe-contact-size.evemu")
        #expect(run.report.figures.steps[.rest]?.samples == 1)
        let progress = run.events.compactMap { event -> Double? in
            if case .progress(.rest, let fraction) = event { fraction } else { nil }
        }
        // The deadlines include every tenth of the step, so a still finger still shows its progress.
        #expect(progress == (0...10).map { Double($0) / 10 })
    }

    @Test func pressureThatSweepsWhileTouchMajorStaysIsForce() throws {
        let run = try Self.run("probe-force.evemu")
        #expect(run.report.sensing == .force)
        #expect(run.report.conclusive)
        #expect(run.started == [.rest, .press, .roll, .lift])
        #expect(run.report.figures.correlation == nil)  // touch major never changed
        #expect(run.report.figures.pressSizeChange == 0)
        let rise = try #require(run.report.figures.pressRise)
        #expect(rise > 0.4)
        #expect(abs(try #require(run.report.figures.rollRise)) < 0.05)
        #expect(run.report.decays == false)
        // The description alone guessed contact size; the guided part overrides it and says so.
        #expect(run.report.classification.sensing == .contactSize)
        #expect(run.report.reasons.contains { $0.contains("the finger says otherwise") })
        #expect(run.report.advice.contains("plumometer calibrate"))
    }

    @Test func aConstantPressureIsBogus() throws {
        let run = try Self.run("probe-constant.evemu")
        #expect(run.report.sensing == .bogus)
        #expect(run.report.conclusive)
        #expect(run.report.figures.pressureSeen == 40...40)
        #expect(run.report.reasons.first?.contains("stayed within 40..40") == true)
        #expect(run.report.advice.hasPrefix("Report the device"))
        // The press never came, and the finger lifted while step 2 waited for it.
        #expect(run.report.notes == ["The finger lifted during step 2 (press harder); the probe ended early."])
        #expect(run.started == [.rest, .press])
    }

    @Test func aDecayingRestingLoadIsForceThatDecays() throws {
        let run = try Self.run("probe-decaying.evemu")
        #expect(run.report.sensing == .force)
        #expect(run.report.classification.sensing == .force)  // INPUT_PROP_PRESSUREPAD
        #expect(run.report.decays == true)
        let decay = try #require(run.report.figures.restDecay)
        #expect(decay > 0.3 && decay < 0.45)
        let rate = try #require(run.report.figures.decayPerSecond)
        #expect(rate > 0.1 && rate < 0.25)
        #expect(run.report.reasons.contains { $0.contains("does not hold a resting load") })
        #expect(run.report.advice.contains("fades by about"))
    }
}
