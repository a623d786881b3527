import Foundation
import FoundationXML
import PlumometerTestSupport
import Testing

/// `plumometer plot`: an SVG read back as XML, its series checked against the frames `replay` writes, and drawn by
/// a real renderer (`rsvg-convert`).
struct PlotCommandTests {
    /// 2023-11-14 in UTC.
    static let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// What a plot holds: its texts, and each series' title and points.
    final class Reader: NSObject, XMLParserDelegate {
        var texts: [(text: String, attributes: [String: String])] = []
        var series: [(title: String, points: [(Double, Double)])] = []
        private var inSeries = false
        private var points: [(Double, Double)] = []
        private var characters = ""
        private var attributes: [String: String] = [:]

        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String]
        ) {
            characters = ""
            if name == "polyline", attributes["class"] == "series" {
                inSeries = true
                points = (attributes["points"] ?? "").split(separator: " ").compactMap { pair in
                    let parts = pair.split(separator: ",").compactMap { Double($0) }
                    return parts.count == 2 ? (parts[0], parts[1]) : nil
                }
            }
            if name == "text" { self.attributes = attributes }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { characters += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" { texts.append((characters, attributes)) }
            if name == "title", inSeries { series.append((characters, points)) }
            if name == "polyline" { inSeries = false }
        }
    }

    static func read(_ svg: Data) throws -> Reader {
        let parser = XMLParser(data: svg)
        let reader = Reader()
        parser.delegate = reader
        #expect(parser.parse(), "the SVG is well-formed XML: \(String(describing: parser.parserError))")
        return reader
    }

    static func plot(_ arguments: [String], environment: [String: String] = epoch) throws -> (Data, ProcessResult) {
        let output = try CLI.temporaryDirectory().appendingPathComponent("plot.svg")
        let result = try CLI.run(["plot"] + arguments + ["-o", output.path], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return (try Data(contentsOf: output), result)
    }

    @Test func theSeriesAreTheReplayedContactsAtTheirValues() throws {
        let fixture = CLI.fixture("magic-trackpad-2.two-plums.evemu")
        let (svg, _) = try Self.plot([fixture])
        let reader = try Self.read(svg)
        #expect(reader.texts.contains { $0.text.contains("Magic Trackpad 2") && $0.text.contains("2023-11-14") })
        #expect(reader.texts.contains { $0.text.contains("magic-trackpad-2.two-plums.evemu") })
        let frames = try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", fixture]))
            .filter { $0.string("type") == "frame" }
        let contacts = frames.flatMap { $0.objects("contacts") }
        let ids = Set(contacts.compactMap { $0.int("id") })
        #expect(Set(reader.series.map(\.title)) == Set(ids.map { "#\($0)" }))
        // The value axis, read off its tick labels as a person would: pixel row to percent.
        let ticks = reader.texts.filter { $0.attributes["class"] == "ytick" }.compactMap { tick -> (Double, Double)? in
            guard let value = Double(tick.text), let y = tick.attributes["y"].flatMap(Double.init) else { return nil }
            return (y - 4, value)
        }
        try #require(ticks.count >= 2)
        let (y0, v0) = ticks.first!
        let (y1, v1) = ticks.last!
        let value = { (y: Double) in v0 + (y - y0) * (v1 - v0) / (y1 - y0) }
        for series in reader.series {
            let id = Int(series.title.dropFirst())!
            let percents = contacts.filter { $0.int("id") == id }.compactMap { $0.number("percent") }
            let drawn = series.points.map { value($0.1) }
            let step = abs(v1 - v0) / Double(ticks.count - 1)
            #expect(abs((drawn.max() ?? 0) - (percents.max() ?? -1)) < step / 10, "\(series.title)")
            #expect(abs((drawn.min() ?? 0) - (percents.min() ?? -1)) < step / 10, "\(series.title)")
        }
    }

    @Test func theSameDateGivesTheSameBytesAndStandardOutputWorks() throws {
        let fixture = CLI.fixture("grams-pad.one-object.evemu")
        let (first, _) = try Self.plot([fixture])
        let (second, _) = try Self.plot([fixture])
        #expect(first == second)
        let piped = try CLI.run(["plot", fixture, "-o", "-"], environment: Self.epoch)
        #expect(piped.status == 0)
        #expect(Data(piped.stdout.utf8) == first)
        #expect(piped.stdout.contains("2023-11-14"))
    }

    @Test func cropsAndUnits() throws {
        let fixture = CLI.fixture("grams-pad.one-object.evemu")
        let (_, whole) = try Self.plot([fixture])
        let (cropped, part) = try Self.plot([fixture, "--from", "0.5", "--to", "1"])
        let count = { (result: ProcessResult) in
            Int(result.stderr.split(separator: "(").last?.split(separator: " ").first ?? "") ?? -1
        }
        #expect(count(part) > 0 && count(part) < count(whole), "\(part.stderr) \(whole.stderr)")
        #expect(String(decoding: cropped, as: UTF8.self).contains("weight"))
        let (ounces, _) = try Self.plot([fixture, "--unit", "oz"])
        #expect(String(decoding: ounces, as: UTF8.self).contains("oz"))
    }

    @Test func usageErrors() throws {
        let fixture = CLI.fixture("grams-pad.one-object.evemu")
        let missing = try CLI.run(["plot", fixture])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("-o FILE"))
        let backwards = try CLI.run(["plot", fixture, "--from", "2", "--to", "1", "-o", "/dev/null"])
        #expect(backwards.status == 2)
        let negative = try CLI.run(["plot", fixture, "--from", "-1", "-o", "/dev/null"])
        #expect(negative.status == 2)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert") || Requirements.all))
    func aRealRendererDrawsIt() throws {
        let (svg, _) = try Self.plot([CLI.fixture("magic-trackpad-2.two-plums.evemu")])
        let directory = try CLI.temporaryDirectory()
        let input = directory.appendingPathComponent("in.svg")
        let output = directory.appendingPathComponent("out.png")
        try svg.write(to: input)
        let result = try ProcessRunner.run("/usr/bin/rsvg-convert", [input.path, "-o", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let png = [UInt8](try Data(contentsOf: output))
        try #require(png.count > 24)
        #expect(png.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1120, "the SVG's own width")
    }

    @Test func theDemoPlots() throws {
        let recording = try CLI.temporaryDirectory().appendingPathComponent("demo.evemu")
        #expect(try CLI.run(["demo", "--save", recording.path]).status == 0)
        let (svg, _) = try Self.plot([recording.path])
        #expect(try Self.read(svg).series.count == 4, "the demo's four plums")
    }

    @Test(
        .enabled(if: Fixtures.sharedFixtures != nil, "../shared/fixtures is absent"),
        arguments: SharedFixtureReplayTests.recordings
    )
    func everySharedRecordingPlotsUnderTwoMegabytes(path: String) throws {
        let (svg, _) = try Self.plot([path])
        #expect(svg.count < 2_000_000, "\(path)")
        #expect(!(try Self.read(svg).series.isEmpty), "\(path)")
    }
}
