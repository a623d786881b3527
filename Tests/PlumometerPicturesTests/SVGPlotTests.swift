import Foundation
import PlumometerCore
import PlumometerPictures
import PlumometerTestKit
import Testing

/// The plot of the three-plum scene, rendered.
func threePlumsSVG() -> String {
    var plot = SVGPlot(device: touchpad())
    threePlums { plot.add($0) }
    return plot.render(
        title: "plumometer plot",
        device: "Synthetic PressurePad",
        file: "three-plums.evemu",
        date: "2026-12-01",
        source: "grams from the device's own units (its pressure axis's resolution: 4 per gram)"
    )
}

/// One contact's reading at `seconds` with `value` grams (force = value / 250), for signal tests.
private func single(_ seconds: Double, _ value: Double, id: Int = 1, stable: Bool = false) -> Reading {
    Reading(
        time: at(seconds),
        contacts: [
            contact(id, atMM: 50, 30, force: value / 250, grams: value, heaviest: true, stable: stable)
        ]
    )
}

@Suite("SVG plot: a self-contained picture of a recording, bounded whatever its length")
struct SVGPlotTests {
    @Test("the three plums: well-formed SVG 1.1, one line per contact, lifts, the resync, the surface and title")
    func threePlumsStructure() throws {
        let document = try SVGDocument(threePlumsSVG())
        #expect(document.root.name == "svg")
        #expect(document.root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(document.root.attributes["version"] == "1.1")
        #expect(document.root.attributes["viewBox"]?.hasPrefix("0 0 ") == true)
        let series = document.all("polyline", class: "series")
        let names = document.all("title").filter { $0.path.last == "polyline" }.map(\.text)
        #expect(names == ["#11", "#12", "#13"])
        #expect(series.count == 3)
        #expect(Set(series.compactMap { $0.attributes["stroke"] }).count == 3, "distinct colours")
        #expect(document.all("circle", class: "lift").count == 2, "#12 and #13 lifted; #11 still down at the end")
        #expect(document.all("line", class: "resync").count == 1)
        #expect(document.all("rect", class: "stable").count >= 3)
        #expect(document.all("circle", class: "final").count == 3)
        #expect(document.all("polyline", class: "track").count == 3, "each plum rolled a little as it landed")
        #expect(!document.all("polyline", class: "heaviest").isEmpty)
        let texts = document.all("text").map(\.text)
        #expect(texts.contains("plumometer plot"))
        #expect(texts.contains { $0.contains("Synthetic PressurePad") && $0.contains("three-plums.evemu") })
        #expect(texts.contains { $0.contains("2026-12-01") })
        #expect(texts.contains("weight (g)"))
        #expect(texts.contains("time (s)"))
        // Nothing outside the file: no links, no images, no style sheets.
        #expect(document.elements.allSatisfy { !$0.attributes.keys.contains { $0.contains("href") } })
        #expect(document.all("image").isEmpty && document.all("style").isEmpty)
        // The summary beside the surface: #11 settled at 72 g, #12 at 95 g, #13 at 48 g (within the noise).
        let cells = document.all("text", class: "summary-cell").map(\.text)
        #expect(cells.contains { $0.hasPrefix("72.0 ± 0.") && $0.hasSuffix(" g") }, "\(cells)")
    }

    @Test("each contact is labelled with what it was: settled, or its peak when it never settled; saturation marked")
    func labelsSayWhatEachContactWas() throws {
        var plot = SVGPlot(device: touchpad())
        // #1 rests at 72 g; #2, a pen, presses to full scale (250 g) and wavers there, never resting, and is at 27 g
        // when it lifts.
        for step in 0...300 {
            let time = Double(step) / 100
            var pen = contact(2, atMM: 70, 30, force: 0, grams: nil)
            let value = step < 30 ? 27 + 223 * Double(step) / 30 : step < 280 ? [250, 240, 249, 238][step % 4] : 27
            pen.force = value / 250
            pen.percent = value / 2.5
            pen.grams = value
            pen.saturated = value >= 245
            var contacts = [contact(1, atMM: 20, 30, force: 0.288, grams: 72, stable: step >= 60), pen]
            if step == 300 { contacts.removeLast() }
            plot.add(Reading(time: at(time), contacts: contacts))
        }
        let text = plot.render(title: "t", device: "d", file: "f", date: "2026-12-01", source: "grams from somewhere")
        let document = try SVGDocument(text)
        let legend = document.all("text", class: "legend-contact").map(\.text)
        // Written as every view writes grams (one decimal), never rounded to whole grams.
        #expect(legend == ["#1 settled 72.0 g", "#2 peak 250.0 g, never settled, saturated"])
        #expect(document.all("text").contains { $0.text == "saturated (at least this)" })
        let saturated = document.all("polyline", class: "saturated")
        #expect(!saturated.isEmpty)
        // The red stretch lies at the top of the value axis, where the pen was at full scale.
        let ys = saturated.flatMap { ($0.attributes["points"] ?? "").split(separator: " ") }
            .compactMap { Double($0.split(separator: ",").last ?? "") }
        let tick = try #require(document.all("text", class: "ytick").first { $0.text == "200" })
        let y200 = try #require(tick.attributes["y"].flatMap(Double.init)) - 4
        #expect(!ys.isEmpty && ys.allSatisfy { $0 < y200 }, "above 200 g: \(ys)")
        #expect(document.all("text").contains { $0.text == "grams from somewhere" })
        // Without saturation there is no red, and no saturation in the legend.
        var calm = SVGPlot(device: touchpad())
        calm.add(Reading(time: at(0), contacts: [contact(1, atMM: 20, 30, force: 0.288, grams: 72)]))
        let plain = try SVGDocument(calm.render(title: "t", device: "d", file: "f", date: "2026-12-01"))
        #expect(plain.all("polyline", class: "saturated").isEmpty)
        #expect(!plain.all("text").contains { $0.text.contains("saturated") })
        #expect(plain.all("text", class: "legend-contact").map(\.text) == ["#1 peak 72.0 g, never settled"])
        // The table beside the surface is the text summary's table: the same cell, to the tenth of a gram.
        #expect(plain.all("text", class: "summary-cell").map(\.text).contains("peak 72.0 g"))
        var summarizer = SessionSummarizer()
        summarizer.consume(Reading(time: at(0), contacts: [contact(1, atMM: 20, 30, force: 0.288, grams: 72)]))
        #expect(SummaryTable.lines(summarizer.summary())[1].hasSuffix(" peak 72.0 g      0.0 s"))
    }

    @Test("ticks are 1-2-5 steps with units; the value axis starts at zero and covers the heaviest value")
    func axes() throws {
        let document = try SVGDocument(threePlumsSVG())
        let values = document.all("text", class: "ytick").compactMap { Double($0.text) }
        #expect(values == [0, 20, 40, 60, 80, 100])
        let times = document.all("text", class: "xtick").compactMap { Double($0.text) }
        #expect(times == [0, 2, 4, 6, 8, 10, 12])
    }

    @Test("each line is the readings fed in: every value lies in its column's envelope, spikes survive")
    func seriesMatchReadings() throws {
        var plot = SVGPlot(device: touchpad())
        var fed: [(time: Double, value: Double)] = []
        // 100 s at 1 kHz: a slow wave from 10 to 90 g, and one 1 ms spike to 240 g at 33.3 s.
        for step in 0..<100_000 {
            let time = Double(step) / 1000
            var value = 50 + 40 * sin(2 * Double.pi * time / 7)
            if step == 33_300 { value = 240 }
            fed.append((time, value))
            plot.add(single(time, value))
        }
        let document = try SVGDocument(plot.render(title: "t", device: "d", file: "f", date: "today"))
        let line = try #require(document.all("polyline", class: "series").first)
        let points = SVGDocument.points(line)
        let value = document.valueOfY()
        let seconds = document.secondsOfX()
        // The axis end is the first tick above the spike; the spike's pixel is there.
        let top = points.map { value($0.y) }.max()!
        let bottom = points.map { value($0.y) }.min()!
        #expect(abs(top - 240) < 0.5, "the 1 ms spike survives decimation to ~1000 columns")
        #expect(abs(bottom - 10) < 0.5)
        // Group the points by column and check that every fed value lies within its column's envelope.
        var envelope: [Double: (low: Double, high: Double)] = [:]
        for point in points {
            let current = envelope[point.x] ?? (.infinity, -.infinity)
            envelope[point.x] = (Swift.min(current.low, value(point.y)), Swift.max(current.high, value(point.y)))
        }
        let columns = envelope.keys.sorted()
        #expect(columns.count > 400, "horizontal runs merge, but a wave keeps most columns")
        for sample in stride(from: 0, to: fed.count, by: 37) {
            let (time, fedValue) = fed[sample]
            // The columns either side of the reading's time (a bucket is about 1.5 px wide).
            let near = columns.filter { abs(seconds($0) - time) <= 0.2 }
            let low = near.map { envelope[$0]!.low }.min() ?? .infinity
            let high = near.map { envelope[$0]!.high }.max() ?? -.infinity
            #expect(low - 0.5 <= fedValue && fedValue <= high + 0.5, "t=\(time) v=\(fedValue) in [\(low), \(high)]")
        }
    }

    @Test("a million frames of three contacts: under 2 MB, and memory bounded by columns, not by frames")
    func sizeBound() throws {
        var plot = SVGPlot(device: touchpad())
        var random = SplitMix64(state: 1)
        var reading = Reading(
            time: at(0),
            contacts: [
                contact(1, atMM: 20, 30, force: 0.3, grams: 75, rank: 2),
                contact(2, atMM: 50, 30, force: 0.4, grams: 100, rank: 1, heaviest: true),
                contact(3, atMM: 80, 30, force: 0.2, grams: 50, rank: 3),
            ]
        )
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for step in 0..<1_000_000 {
                reading.time = EventTime(microseconds: Int64(step) * 1000)
                for index in 0..<3 {
                    // Noise every frame: the worst case for decimation (no flat runs to merge).
                    reading.contacts[index].grams = Double(50 + 25 * index) + Double(random.next() % 100) / 10
                    reading.contacts[index].stable = step % 5000 > 2000
                    reading.contacts[index].x = Int32(800 + index * 1200) + Int32(random.next() % 400)
                }
                plot.add(reading)
            }
        }
        let svg = plot.render(title: "long", device: "d", file: "f", date: "today")
        #expect(svg.utf8.count < 2_000_000, "\(svg.utf8.count) bytes")
        let document = try SVGDocument(svg)
        #expect(document.all("polyline", class: "series").count == 3)
        #expect(document.all("text").contains { $0.text == "time (min)" }, "1000 s is shown in minutes")
        print("1M frames: \(elapsed), \(svg.utf8.count) bytes")
    }

    @Test("grams unknown: the axis is percent of full scale")
    func percentAxis() throws {
        var plot = SVGPlot(device: touchpad())
        for step in 0..<100 {
            plot.add(Reading(time: at(Double(step) / 10), contacts: [contact(1, atMM: 50, 30, force: 0.42)]))
        }
        let document = try SVGDocument(plot.render(title: "t", device: "d", file: "f", date: "x"))
        #expect(document.all("text").contains { $0.text == "force (% of full scale)" })
        let points = SVGDocument.points(try #require(document.all("polyline", class: "series").first))
        let value = document.valueOfY()
        #expect(points.allSatisfy { abs(value($0.y) - 42) < 0.1 })
        #expect(points.count == 2, "a flat line is its two ends")
    }

    @Test("text is escaped: a device name with markup and control characters leaves the file well-formed")
    func escaping() throws {
        var plot = SVGPlot(device: touchpad())
        plot.add(single(0, 10))
        let name = "Evil <pad> & \"co\" 'x' \u{01}\u{7}"
        let svg = plot.render(title: "t</title>", device: name, file: "a&b.evemu", date: "d")
        let document = try SVGDocument(svg)
        #expect(document.all("title").first?.text == "t</title>: a&b.evemu")
        #expect(document.all("text").contains { $0.text.hasPrefix("Evil <pad> & \"co\" 'x' \u{FFFD}\u{FFFD}") })
    }

    @Test("many short contacts: at most 200 drawn, the rest counted; an id back after lifting is a new line")
    func manyContacts() throws {
        var plot = SVGPlot(device: touchpad())
        for index in 0..<250 {
            plot.add(single(Double(index), 20, id: index))
            plot.add(Reading(time: at(Double(index) + 0.5), contacts: []))
        }
        plot.add(single(300, 20, id: 0))
        let document = try SVGDocument(plot.render(title: "t", device: "d", file: "f", date: "x"))
        #expect(document.all("polyline", class: "series").count == SVGPlot.maximumSeries)
        #expect(document.all("text").contains { $0.text.contains("51 more contacts not drawn") })
        #expect(document.all("circle", class: "lift").count == SVGPlot.maximumSeries)
    }

    @Test("a device without positions: no surface panel, the summary takes its place")
    func noSurface() throws {
        var plot = SVGPlot(device: nil)
        plot.add(single(0, 10))
        plot.add(single(1, 10, stable: true))
        let document = try SVGDocument(plot.render(title: "t", device: "d", file: "f", date: "x"))
        #expect(document.elements.allSatisfy { $0.attributes["id"] != "pad" })
        #expect(document.all("text", class: "summary-cell").map(\.text).first == "#1")
    }

    @Test("no readings at all still make a well-formed picture with empty panels")
    func empty() throws {
        let document = try SVGDocument(
            SVGPlot(device: touchpad()).render(title: "t", device: "d", file: "f", date: "x")
        )
        #expect(document.all("polyline", class: "series").isEmpty)
        #expect(document.all("text").contains { $0.text.hasPrefix("0.00 s, 0 readings") })
    }
}
