import PlumometerCore
import Testing

/// Feeds `frames` to `guide`, ticking at its deadlines in between as the CLI's loop does; returns the captures, or
/// the error that stopped it.
func drive(
    _ guide: inout CalibrationGuide,
    _ frames: [ContactFrame],
    until end: EventTime? = nil
) -> (captured: [CalibrationPoint], error: CalibrationGuideError?) {
    var captured: [CalibrationPoint] = []
    do {
        for next in frames {
            while let deadline = guide.nextDeadline, deadline < next.time {
                if let point = try guide.tick(now: deadline) { captured.append(point) }
            }
            if let point = try guide.consume(next) { captured.append(point) }
        }
        if let end {
            while let deadline = guide.nextDeadline, deadline <= end {
                if let point = try guide.tick(now: deadline) { captured.append(point) }
            }
        }
    } catch {
        return (captured, error)
    }
    return (captured, nil)
}

/// `(seconds, contacts)` rows every 10 ms from `start` for `seconds`, each contact at a fixed pressure.
func resting(_ start: Double, _ seconds: Double, _ contacts: [(Int, Int32)]) -> [ContactFrame] {
    (0..<Int(seconds * 100)).map { frame(start + Double($0) * 0.01, contacts.map { ($0.0, Int32?($0.1)) }) }
}

@Suite("Calibration: the guided flow follows one contact")
struct CalibrationGuideTests {
    let references: [(label: String, grams: Double)] = [("270g", 270), ("270g", 270)]

    @Test("carrier, then each reference on it: three points, the carrier's settled pressure at 0 g")
    func happyPath() throws {
        var guide = CalibrationGuide(references: references, pressureRange: gramsRange)
        #expect(guide.steps.map(\.grams) == [0, 270, 540])
        #expect(guide.prompt.hasPrefix("Step 1/3: place the carrier"))
        let frames = resting(0, 1, [(1, 150)]) + resting(1, 1, [(1, 420)]) + resting(2, 1, [(1, 690)])
        let result = drive(&guide, frames, until: at(4))
        #expect(result.error == nil)
        #expect(result.captured == [point(150, 0), point(420, 270), point(690, 540)])
        #expect(guide.isDone)
        #expect(guide.followedID == 1)
        #expect(guide.nextDeadline == nil)
        let calibration = try Calibration.fit(points: guide.points, device: pad, pressureRange: gramsRange)
        #expect(calibration.slope == 1)
        #expect(calibration.grade == .good)
    }

    @Test("the prompt names the next reference and the total on the carrier")
    func prompts() throws {
        var guide = CalibrationGuide(references: [("us-quarter", 5.67)], pressureRange: gramsRange)
        _ = drive(&guide, resting(0, 1, [(1, 150)]))
        #expect(guide.prompt == "Step 2/2: add us-quarter on the carrier (total 5.67 g) and keep still.")
        #expect(guide.incomplete.description.contains("Only 1 of 2 steps"))
    }

    @Test("a reference put down beside the carrier is refused, and nothing more is captured")
    func contactElsewhere() throws {
        // The issue: three separate plums graded 'good' because every contact was summed.
        var guide = CalibrationGuide(
            references: [("us-quarter", 5.67), ("us-quarter", 5.67)],
            pressureRange: gramsRange
        )
        let frames =
            resting(0, 1, [(1, 60)]) + resting(1, 1, [(1, 60), (2, 84)]) + resting(2, 1, [(1, 60), (2, 84), (3, 70)])
        let result = drive(&guide, frames)
        #expect(result.captured == [point(60, 0)])
        #expect(result.error == .contactAdded(step: 2, of: 3, label: "us-quarter"))
        #expect(result.error?.description.contains("put each reference on the carrier") == true)
        #expect(throws: CalibrationGuideError.contactAdded(step: 2, of: 3, label: "us-quarter")) {
            try guide.consume(frame(5, [(1, 70)]))
        }
        #expect(guide.points.count == 1)
    }

    @Test("the carrier lifted between references is refused with what to do")
    func carrierLifted() throws {
        var guide = CalibrationGuide(references: references, pressureRange: gramsRange)
        let frames =
            resting(0, 1, [(1, 150)]) + resting(1, 1, [(1, 420)]) + [frame(2, [])] + resting(2.1, 1, [(7, 690)])
        let result = drive(&guide, frames)
        #expect(result.captured.count == 2)
        #expect(result.error == .followedLifted(step: 3, of: 3, label: "270g"))
        #expect(result.error?.description.contains("keep the carrier down") == true)
        #expect(guide.failure == result.error)
        #expect(guide.nextDeadline == nil)
    }

    @Test("several contacts resting at the first step are refused; one still settling is waited for")
    func severalAtFirstStep() throws {
        var guide = CalibrationGuide(references: references, pressureRange: gramsRange)
        let result = drive(&guide, resting(0, 1, [(1, 150), (2, 90)]))
        #expect(result.error == .severalContacts(count: 2))
        #expect(result.captured.isEmpty)

        // A finger brushing the pad while the carrier settles, gone before anything is stable: fine.
        var patient = CalibrationGuide(references: references, pressureRange: gramsRange)
        let brushed = resting(0, 0.2, [(1, 150), (2, 90)]) + resting(0.2, 1, [(1, 150)])
        let ok = drive(&patient, brushed)
        #expect(ok.error == nil)
        #expect(ok.captured == [point(150, 0)])
    }

    @Test("a rise smaller than twice the stability tolerance is not a reference")
    func smallRiseIgnored() throws {
        var guide = CalibrationGuide(references: references, pressureRange: gramsRange)
        #expect(guide.minimumRise == 4)  // 2 g tolerance at 1 unit per gram
        let result = drive(&guide, resting(0, 1, [(1, 150)]) + resting(1, 1, [(1, 153)]), until: at(3))
        #expect(result.error == nil)
        #expect(result.captured == [point(150, 0)])
    }

    @Test("the captured pressure is the followed contact's settled mean, not one noisy frame")
    func settledCapture() throws {
        var guide = CalibrationGuide(references: [("10g", 10)], pressureRange: gramsRange)
        var frames: [ContactFrame] = []
        for step in 0..<100 { frames.append(frame(Double(step) * 0.01, [(1, step % 2 == 0 ? 100 : 101)])) }
        let result = drive(&guide, frames)
        let first = try #require(result.captured.first)
        // Stable at 0.5 s: frames 0...50, 26 at 100 and 25 at 101.
        let expected: Double = (26.0 * 100 + 25.0 * 101) / 51
        #expect(first.pressure == expected)
    }
}
