import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// Pens touch only when they touch: on a device that declares `BTN_TOUCH`, a sample with pressure but without
/// `BTN_TOUCH` (a pen hovering, or grazing below the driver's threshold) is no object, in a recording from its
/// first event on.
@Suite struct PenTouchTests {
    /// The Dell Canvas pen (Wacom ISD-V4): hovers from 0 s, touches at 6.597959 s (`BTN_TOUCH` 1, pressure 579),
    /// lifts at 7.786956 s (`BTN_TOUCH` 0).
    static var canvasPen: String? {
        Fixtures.sharedFixtures?.appendingPathComponent("wacom-isdv4-dell-canvas-pen/dell_canvas_pen.evemu").path
    }

    static func frames(_ arguments: [String], stdin: Data? = nil) throws -> [[String: Any]] {
        let result = try CLI.run(arguments, stdin: stdin)
        #expect(result.status == 0, "\(result.stderr)")
        return try CLI.jsonObjects(result).filter { $0.string("type") == "frame" }
    }

    /// The times of the frames with a contact.
    static func touchTimes(_ frames: [[String: Any]]) -> [Double] {
        frames.filter { !$0.objects("contacts").isEmpty }.compactMap { $0.number("time") }
    }

    @Test(.enabled(if: Fixtures.sharedFixtures != nil, "../shared/fixtures is absent"))
    func theCanvasPenHoveringWithPressureMakesNoObject() throws {
        let path = try #require(Self.canvasPen)
        let pristine = try Self.frames(["replay", "--fast", "-f", "jsonl", path])
        let touches = Self.touchTimes(pristine)
        #expect(touches.first == 6.597959 && touches.last.map { $0 < 7.786956 } == true)
        // The same pen reporting a light pressure while it hovers (as pens grazing below the touch threshold do):
        // an ABS_PRESSURE of 35 in every hover frame of its first 6.5 s, before its first BTN_TOUCH.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let fields = line.split(separator: " ")
            if line.hasPrefix("E: "), fields.count >= 5, fields[2] == "0000", fields[3] == "0000",
                let time = Double(fields[1]), time < 6.5
            {
                lines.append("E: \(fields[1]) 0003 0018 0035")
            }
            lines.append(String(line))
        }
        let hovering = try CLI.temporaryDirectory().appendingPathComponent("hovering-pen.evemu")
        try lines.joined(separator: "\n").write(to: hovering, atomically: true, encoding: .utf8)
        let frames = try Self.frames(["replay", "--fast", "-f", "jsonl", hovering.path])
        let hoverObjects = Self.touchTimes(frames).filter { $0 < 6.597959 }.count
        #expect(hoverObjects == 0, "hover samples made \(hoverObjects) frames with an object")
        #expect(Self.touchTimes(frames) == touches)
        // weigh of the hover alone finds nothing down.
        var hoverOnly = lines.prefix { line in
            !(line.hasPrefix("E: ") && (Double(line.split(separator: " ")[1]) ?? 0) >= 6.5)
        }
        hoverOnly.append("")
        let hoverFile = try CLI.temporaryDirectory().appendingPathComponent("hover-only.evemu")
        try hoverOnly.joined(separator: "\n").write(to: hoverFile, atomically: true, encoding: .utf8)
        let weighed = try CLI.run(["weigh", "--replay", hoverFile.path])
        #expect(weighed.status == 1)
        #expect(weighed.stderr.contains("nothing is down"), "\(weighed.stderr)")
    }

    @Test func aHoverSampleIsNeverMarkedHeaviest() throws {
        // A Wacom Intuos S pen: in proximity with pressure 300 for 0.3 s, then BTN_TOUCH with 2000, then lifted.
        var script = EventScript(startingAt: EventTime(microseconds: 1))
            .key(.btnToolPen, 1).abs(.x, 7000).abs(.y, 4000).abs(.pressure, 300).report(after: .milliseconds(10))
        for step in 1...30 { script = script.abs(.pressure, 300 + Int32(step % 2)).report(after: .milliseconds(10)) }
        script = script.key(.btnTouch, 1).abs(.pressure, 2000).report(after: .milliseconds(10))
            .abs(.pressure, 2010).report(after: .milliseconds(10))
            .key(.btnTouch, 0).abs(.pressure, 200).report(after: .milliseconds(10))
            .abs(.pressure, 150).report()
        let file = try CLI.temporaryDirectory().appendingPathComponent("pen.evemu")
        try EvemuWriter.recording(of: DeviceCatalogue.penTablet, events: script.events)
            .write(to: file, atomically: true, encoding: .utf8)
        let frames = try Self.frames(["replay", "--fast", "-f", "jsonl", file.path])
        let pressures = frames.map { $0.objects("contacts").compactMap { $0.int("pressure") } }
        #expect(pressures == [[2000], [2010], []], "only the touch: \(pressures)")
        #expect(frames.first?.number("time") == 0.310001)
    }
}
