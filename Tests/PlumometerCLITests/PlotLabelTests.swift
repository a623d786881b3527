import Foundation
import PlumometerTestSupport
import Testing

/// What `plumometer plot` says each contact was: its settled value, or its peak when it never settled (said as
/// such), saturation on the trace and in the legend, and where the values come from.
struct PlotLabelTests {
    /// A recording of the hand-written pen tablet (`ABS_PRESSURE` 0..4095, Tests/Fixtures/Devices/pen-tablet.desc):
    /// the pen lands at 10%, presses up to full scale in 0.3 s, wavers between 95% and 100% for 1.5 s (never resting
    /// within 1% for 0.5 s), comes back down to 10% and lifts.
    static func pressedPen() throws -> String {
        let description = try String(
            contentsOf: Fixtures.projectFixtures.appendingPathComponent("Devices/pen-tablet.desc"),
            encoding: .utf8
        )
        var lines = [description.trimmingCharacters(in: .newlines)]
        var time = 1.0
        func frame(_ events: [(type: Int, code: Int, value: Int)]) {
            for event in events {
                lines.append(String(format: "E: %.6f %04x %04x %d", time, event.type, event.code, event.value))
            }
            lines.append(String(format: "E: %.6f 0000 0000 0", time))
            time += 0.01
        }
        let pressure = 0x18
        frame([(1, 0x140, 1), (1, 0x14a, 1), (3, 0, 7600), (3, 1, 4750), (3, pressure, 410)])
        for step in 1...30 { frame([(3, pressure, 410 + (4095 - 410) * step / 30)]) }
        for step in 0..<150 { frame([(3, pressure, [4095, 3890, 4060, 3950, 4095, 3900][step % 6])]) }
        for step in 1...10 { frame([(3, pressure, 3900 - (3900 - 410) * step / 10)]) }
        frame([(3, pressure, 0), (1, 0x14a, 0), (1, 0x140, 0)])
        let file = try CLI.temporaryDirectory().appendingPathComponent("pressed-pen.evemu")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The plot of `arguments` as text, and its texts with their attributes.
    static func plot(_ arguments: [String]) throws -> (svg: String, reader: PlotCommandTests.Reader) {
        let (data, _) = try PlotCommandTests.plot(arguments)
        return (String(decoding: data, as: UTF8.self), try PlotCommandTests.read(data))
    }

    /// The contacts of `recording`'s frames, as `replay -f jsonl` writes them.
    static func contacts(_ recording: String) throws -> [[String: Any]] {
        try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", recording]))
            .filter { $0.string("type") == "frame" }.flatMap { $0.objects("contacts") }
    }

    /// Checks the plot of a pen that pressed to full scale and never settled: labelled with its peak, said as such,
    /// never with its value at lift-off; the saturated stretch drawn over in red and named in the legend.
    static func expectPeakAndSaturation(_ recording: String) throws {
        let contacts = try contacts(recording)
        try #require(!contacts.isEmpty)
        try #require(contacts.allSatisfy { $0.bool("stable") == false }, "the pen never rests")
        try #require(contacts.contains { $0.bool("saturated") == true }, "it reached full scale")
        let id = try #require(contacts.first?.int("id"))
        let peak = try #require(contacts.compactMap { $0.number("percent") }.max())
        let lastPercent = try #require(contacts.last?.number("percent"))
        let (svg, reader) = try plot([recording])
        let legend = reader.texts.filter { $0.attributes["class"] == "legend-contact" }.map(\.text)
        let expected = "#\(id) peak " + String(format: "%.1f", peak) + "%, never settled, saturated"
        #expect(legend == [expected], "\(legend)")
        #expect(!legend.joined().contains(String(format: " %.1f%%", lastPercent)), "not the value at lift-off")
        // The surface panel labels it the same way.
        #expect(reader.texts.contains { $0.text == expected && $0.attributes["font-weight"] == "bold" })
        #expect(svg.contains("<polyline class=\"saturated\""), "saturation drawn on the trace")
        #expect(reader.texts.contains { $0.text == "saturated (at least this)" }, "and named in the legend")
        // The summary table beside it: a peak, not a dash.
        let cells = reader.texts.filter { $0.attributes["class"] == "summary-cell" }.map(\.text)
        #expect(cells.contains("peak " + String(format: "%.1f", peak) + "%"), "\(cells)")
        let source = reader.texts.first { $0.attributes["id"] == "source" }?.text ?? ""
        #expect(source.hasPrefix("percent of full scale"), "\(source)")
    }

    @Test func aPenPressedToFullScaleIsLabelledWithItsPeakAndSaturation() throws {
        try Self.expectPeakAndSaturation(try Self.pressedPen())
    }

    @Test(.enabled(if: Fixtures.sharedFixtures != nil, "../shared/fixtures is absent"))
    func theDellCanvasPenIsLabelledWithItsPeakAndSaturation() throws {
        let shared = try #require(Fixtures.sharedFixtures)
        try Self.expectPeakAndSaturation(
            shared.appendingPathComponent("wacom-isdv4-dell-canvas-pen/dell_canvas_pen.evemu").path
        )
    }

    @Test func settledContactsAreLabelledAsSettledAndGramsSayWhereTheyComeFrom() throws {
        let recording = CLI.fixture("grams-pad.one-object.evemu")
        let contacts = try Self.contacts(recording)
        let settled = try #require(contacts.last { $0.bool("stable") == true })
        let (svg, reader) = try Self.plot([recording])
        let legend = reader.texts.filter { $0.attributes["class"] == "legend-contact" }.map(\.text)
        let id = try #require(settled.int("id"))
        #expect(legend.first?.hasPrefix("#\(id) settled ") == true, "\(legend)")
        #expect(!legend.joined().contains("saturated") && !svg.contains("class=\"saturated\""))
        let source = reader.texts.first { $0.attributes["id"] == "source" }?.text ?? ""
        #expect(source.hasPrefix("grams from the device's own units"), "\(source)")
        #expect(source.contains("per gram"), "\(source)")

        // With a calibration profile the source is the profile, by name.
        let profile = try CLI.temporaryDirectory().appendingPathComponent("pad.json")
        let made = try CLI.run(
            [
                "calibrate", "--replay", recording, "--point", "0:0", "--point", "100:50", "--point", "200:100", "-o",
                profile.path,
            ]
        )
        try #require(made.status == 0, "\(made.stderr)")
        let (_, calibrated) = try Self.plot([recording, "--profile", profile.path])
        let named = calibrated.texts.first { $0.attributes["id"] == "source" }?.text ?? ""
        #expect(named.hasPrefix("grams from the calibration profile ") && named.contains("pad.json"), "\(named)")
    }
}
