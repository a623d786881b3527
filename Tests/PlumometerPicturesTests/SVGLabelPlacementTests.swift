import Foundation
import PlumometerCore
import PlumometerOutput
import PlumometerPictures
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// A box read off the picture: a label's rect, or the box a tick text takes.
///
/// Not the renderer's own `SVGBox`: this check reads the finished SVG independently of the layout code it checks,
/// so a fault in that code's geometry cannot hide from it.
struct PictureBox: CustomStringConvertible {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var right: Double { x + width }
    var bottom: Double { y + height }
    var description: String { "(\(x), \(y), \(width) x \(height))" }

    func overlaps(_ other: PictureBox) -> Bool {
        x < other.right && other.x < right && y < other.bottom && other.y < bottom
    }
}

/// What is wrong with the surface panel's labels of `svg`, read as a renderer reads it: every contact with a
/// circle has a label (or the panel says how many were left out), each label's text sits in its box, every box
/// lies inside the picture and left of the summary table, and no box overlaps another box or a tick text.
func labelProblems(_ svg: String) throws -> [String] {
    let document = try SVGDocument(svg)
    let number = { (element: SVGDocument.Element, name: String) in Double(element.attributes[name] ?? "") ?? .nan }
    let width = number(document.root, "width")
    let height = number(document.root, "height")
    let boxes = document.all("rect", class: "padlabel-box").map {
        PictureBox(x: number($0, "x"), y: number($0, "y"), width: number($0, "width"), height: number($0, "height"))
    }
    let texts = document.all("text", class: "padlabel")
    var problems: [String] = []
    let circles = document.all("circle", class: "final").count
    let leftOut = document.all("text").contains { $0.text.hasSuffix("labels left out: see the table") }
    if texts.count != circles && !leftOut { problems.append("\(circles) circles but \(texts.count) labels") }
    if texts.count != boxes.count { problems.append("\(texts.count) labels but \(boxes.count) boxes") }
    let tableLeft = document.all("text", class: "summary-cell").map { number($0, "x") }.min() ?? width
    for (text, box) in zip(texts, boxes) {
        let x = number(text, "x")
        let y = number(text, "y")
        // The text's own width, from the font's advances, as the layout measures it.
        if !(x >= box.x && y - 12 >= box.y && y + 3 <= box.bottom && x <= box.right) {
            problems.append("\(text.text) at (\(x), \(y)) is not in its box \(box)")
        }
        if box.x < 0 || box.y < 0 || box.right > width || box.bottom > height {
            problems.append("\(text.text) \(box) leaves the \(width) x \(height) picture")
        }
        if box.right > tableLeft { problems.append("\(text.text) \(box) runs into the table at x \(tableLeft)") }
    }
    for (first, one) in boxes.enumerated() {
        for (second, other) in boxes.enumerated() where second > first && one.overlaps(other) {
            problems.append("\(texts[first].text) \(one) overlaps \(texts[second].text) \(other)")
        }
    }
    // Tick texts: the surface's ticks are drawn centred under or right-aligned beside their point, about 7.3
    // pixels a digit at 12 pixels.
    for tick in document.all("text", class: "padtick") {
        let tickWidth = Double(tick.text.count) * 7.3
        let anchor = tick.attributes["text-anchor"]
        let left = number(tick, "x") - (anchor == "middle" ? tickWidth / 2 : anchor == "end" ? tickWidth : 0)
        let box = PictureBox(x: left, y: number(tick, "y") - 11, width: tickWidth, height: 14)
        for (index, one) in boxes.enumerated() where one.overlaps(box) {
            problems.append("\(texts[index].text) \(one) covers the tick \(tick.text) \(box)")
        }
    }
    return problems
}

/// A pad of `width` x `height` mm at 40 units a millimetre, pressure 0...1000.
private func pad(width: Int32, height: Int32) -> DeviceDescription {
    DeviceCatalogue.syntheticPressurePad(width: width, height: height, unitsPerGram: 0, slots: 16)
}

/// `count` contacts on the edge of a `width` x `height` mm pad: the corners first, then spread along the edges;
/// or, `clustered`, packed in the top left corner 6 mm apart. None settles, so every label is the long kind
/// (`#7 peak 12.3%, never settled`).
private func edgeScene(count: Int, width: Double, height: Double, clustered: Bool) -> SVGPlot {
    var plot = SVGPlot(device: pad(width: Int32(width), height: Int32(height)))
    var places: [(Double, Double)] = []
    if clustered {
        for index in 0..<count { places.append((Double(index % 4) * 6, Double(index / 4) * 6)) }
    } else {
        places = [(0, 0), (width, height), (width, 0), (0, height)]
        let perimeter = 2 * (width + height)
        var index = 0
        while places.count < count {
            // Round the edge, from the top left, a step that never lands on a corner twice.
            var along = (Double(index) + 0.5) * perimeter / Double(count - 3)
            index += 1
            along = along.truncatingRemainder(dividingBy: perimeter)
            if along < width {
                places.append((along, 0))
            } else if along < width + height {
                places.append((width, along - width))
            } else if along < 2 * width + height {
                places.append((2 * width + height - along, height))
            } else {
                places.append((0, perimeter - along))
            }
        }
    }
    for step in 0..<20 {
        let contacts = places.prefix(count).enumerated().map { index, place in
            // Forces from 2% to 60%, so circles differ in size; a small wobble, so none settles.
            let force = 0.02 + 0.58 * Double((index * 7) % count) / Double(count) + (step % 2 == 0 ? 0.01 : 0)
            return ContactReading(
                id: 100 + index,
                slot: index,
                x: Int32(place.0 * 40),
                y: Int32(place.1 * 40),
                pressure: Int32(force * 1000),
                force: force,
                percent: force * 100,
                ratio: 1,
                share: 1,
                rank: index + 1,
                heaviest: false,
                stable: false,
                saturated: false,
                grams: nil
            )
        }
        plot.add(Reading(time: at(Double(step) * 0.05), contacts: contacts))
    }
    return plot
}

@Suite("The surface panel's labels: inside the picture, each in its box, none over another")
struct SVGLabelPlacementTests {
    /// Landscape and portrait pads, 1 to 16 contacts on the edges or packed in a corner.
    static let scenes: [(count: Int, width: Double, height: Double, clustered: Bool)] = (1...16).flatMap { count in
        [(count, 100.0, 60.0, false), (count, 60.0, 110.0, false), (count, 160.0, 40.0, true), (count, 40, 90, true)]
    }

    @Test(arguments: 0..<scenes.count)
    func syntheticScene(_ index: Int) throws {
        let scene = Self.scenes[index]
        let plot = edgeScene(count: scene.count, width: scene.width, height: scene.height, clustered: scene.clustered)
        let svg = plot.render(title: "t", device: "d", file: "f", date: "2026-12-06")
        let problems = try labelProblems(svg)
        #expect(problems.isEmpty, "\(scene): \(problems.joined(separator: "\n"))")
        // Up to 16 contacts every contact is labelled: whole, or by its name where a crowd leaves no room.
        let document = try SVGDocument(svg)
        let labels = document.all("text", class: "padlabel").map(\.text)
        #expect(labels.count == scene.count)
        #expect(labels.allSatisfy { $0.contains("never settled") || $0.allSatisfy { "#0123456789".contains($0) } })
        if !scene.clustered { #expect(labels.allSatisfy { $0.contains("never settled") }, "\(labels)") }
    }

    @Test("a picture writes kilograms as every other view does: four decimals, a tenth of a gram")
    func kilogramLabel() {
        #expect(WeightUnit.kilograms.label(grams: 1234.5) == "1.2345 kg")
        #expect(WeightUnit.kilograms.label(grams: 1234.5) == WeightUnit.kilograms.format(grams: 1234.5))
    }

    @Test("a label beside its circle has no leader line; one placed further out has one, from its circle's edge")
    func leaderLines() throws {
        let one = try SVGDocument(
            edgeScene(count: 1, width: 100, height: 60, clustered: false).render(
                title: "t",
                device: "d",
                file: "f",
                date: "2026-12-06"
            )
        )
        #expect(one.all("line", class: "leader").isEmpty)
        let crowded = try SVGDocument(
            edgeScene(count: 16, width: 40, height: 90, clustered: true).render(
                title: "t",
                device: "d",
                file: "f",
                date: "2026-12-06"
            )
        )
        #expect(!crowded.all("line", class: "leader").isEmpty)
    }
}

/// Where `rsvg-convert` (Debian's librsvg2-bin) is, if installed.
private let rsvgConvert = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// The pixels of `svg`'s labels, as rsvg-convert draws them, that lie outside every label box
/// (Tests/Scripts/label_ink.py), and how many pixels it inked.
func labelInkOutsideBoxes(_ svg: String, name: String) throws -> (inked: Int, outside: Int, examples: String) {
    let directory = try Scratch.directory("label-ink")
    let file = directory.appendingPathComponent(name + ".svg")
    try svg.write(to: file, atomically: true, encoding: .utf8)
    let script = Fixtures.script("label_ink.py").path
    let result = try ProcessRunner.run(
        "/usr/bin/python3",
        [script, file.path, directory.appendingPathComponent(name + ".png").path],
        timeout: 120
    )
    #expect(result.status == 0, "\(result.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    return (
        (object["inked"] as? Int) ?? 0, (object["outside"] as? Int) ?? -1,
        String(describing: object["examples"] ?? "")
    )
}

/// The rendered labels stay in their boxes: what the text-box test proves of the boxes holds of the pixels.
@Suite(
    "Plot labels as rsvg-convert draws them",
    .enabled(if: rsvgConvert != nil || Requirements.all, "needs rsvg-convert (apt-get install librsvg2-bin)")
)
struct SVGLabelInkTests {
    @Test(arguments: [(16, 40.0, 90.0, true), (16, 100.0, 60.0, false), (9, 60.0, 110.0, false)])
    func everyLabelPixelIsInsideItsBox(count: Int, width: Double, height: Double, clustered: Bool) throws {
        let plot = edgeScene(count: count, width: width, height: height, clustered: clustered)
        let svg = plot.render(title: "t", device: "d", file: "f", date: "2026-12-06")
        let ink = try labelInkOutsideBoxes(svg, name: "scene-\(count)-\(Int(width))x\(Int(height))")
        #expect(ink.inked > 100 * count, "the labels are drawn")
        #expect(ink.outside == 0, "\(ink.outside) pixels outside the boxes, e.g. \(ink.examples)")
    }

    @Test(.enabled(if: Fixtures.shared("nexus4-touchscreen/n4.events") != nil, "../shared/fixtures is absent"))
    func theNexus4sTwelveLabelsStayInTheirBoxes() throws {
        let tool = try #require(BuiltProducts.url(named: "plumometer"))
        let recording = try #require(Fixtures.shared("nexus4-touchscreen/n4.events"))
        let output = try Scratch.directory("labels").appendingPathComponent("n4.svg")
        let result = try ProcessRunner.run(tool.path, ["plot", recording.path, "-o", output.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOf: output, encoding: .utf8)
        #expect(try labelProblems(svg).isEmpty)
        let ink = try labelInkOutsideBoxes(svg, name: "n4")
        #expect(ink.inked > 1000)
        #expect(ink.outside == 0, "\(ink.outside) pixels outside the boxes, e.g. \(ink.examples)")
    }
}

/// The shared fixtures' recordings, each plotted by the built tool.
@Suite(.enabled(if: Fixtures.sharedFixtures != nil, "../shared/fixtures is absent"))
struct SharedFixtureLabelTests {
    static var recordings: [String] {
        guard let root = Fixtures.sharedFixtures,
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { ["evemu", "events"].contains($0.pathExtension) }.map(\.path)
            .sorted()
    }

    @Test(arguments: recordings)
    func labelsStayInsideAndApart(path: String) throws {
        let tool = try #require(BuiltProducts.url(named: "plumometer"))
        let output = try Scratch.directory("labels").appendingPathComponent("plot.svg")
        let result = try ProcessRunner.run(tool.path, ["plot", path, "-o", output.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOf: output, encoding: .utf8)
        let problems = try labelProblems(svg)
        #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "\n"))")
    }
}
