import Foundation
import PlumometerTestSupport
import Testing

/// One weight per object (docs/quantities.md, "Settled values"): the bundled demo weighed through every command and
/// view (the text, JSON Lines and CSV stream, `replay --summary` in text and JSON, the plot's legend and table, the
/// live view's map and bars read off a pseudo-terminal, `weigh`'s answer and its summary) shows one number per
/// object; stable means stopped changing; tared things are not loads; and the verdict lines agree.
@Suite("One weight per object, in every command and view")
struct OneWeightScenarioTests {
    /// The demo cut after its last frame at or before `seconds`: three plums resting at 7 s, so that the end of every
    /// view is the same moment with every object on the pad.
    static func demo(cutAt seconds: Double? = nil) throws -> String {
        let directory = try CLI.temporaryDirectory()
        let full = directory.appendingPathComponent("demo.evemu").path
        let saved = try CLI.run(["demo", "--save", full, "-q"])
        try #require(saved.status == 0, "\(saved.stderr)")
        guard let seconds else { return full }
        let lines = try String(contentsOfFile: full, encoding: .utf8).split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        var lastReport = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("E:") {
            let fields = line.split(separator: " ")
            guard let time = Double(fields[1]), time <= seconds else { break }
            if fields[2...4] == ["0000", "0000", "0000"] { lastReport = index }
        }
        let cut = directory.appendingPathComponent("resting.evemu").path
        try (lines[...lastReport].joined(separator: "\n") + "\n").write(toFile: cut, atomically: true, encoding: .utf8)
        return cut
    }

    /// Every `#ID ... N.N g` pair a text shows, by id: `pattern` has the id and the grams as its two captures.
    static func grams(in text: String, _ pattern: String) throws -> [Int: String] {
        let regex = try NSRegularExpression(pattern: pattern)
        var found: [Int: String] = [:]
        let range = NSRange(text.startIndex..., in: text)
        for match in regex.matches(in: text, range: range) {
            guard let id = Range(match.range(at: 1), in: text).flatMap({ Int(text[$0]) }),
                let value = Range(match.range(at: 2), in: text).map({ String(text[$0]) })
            else { continue }
            found[id] = value
        }
        return found
    }

    /// The first capture of the first match of `pattern` in `text`.
    static func first(in text: String, _ pattern: String) throws -> String? {
        let regex = try NSRegularExpression(pattern: pattern)
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    /// A number carried with 2 decimals agrees with one shown with 1 when it is within half a tenth of it.
    static func agrees(_ carried: Double?, _ shown: String?) -> Bool {
        guard let carried, let shown = shown.flatMap(Double.init) else { return false }
        return Swift.abs(carried - shown) <= 0.05 + 1e-9
    }

    @Test("three plums at rest: the stream, the summary, the plot and the live view show one number per object")
    func everyViewAtTheSameMoment() throws {
        let recording = try Self.demo(cutAt: 7.0)
        // The text stream's last line: the reference, one decimal per gram as every view writes it.
        let text = try CLI.run(["replay", "--fast", "-f", "text", recording])
        try #require(text.status == 0, "\(text.stderr)")
        let last = try #require(text.stdoutLines.last)
        let shown = try Self.grams(in: last, #"#(\d+) -?[\d.]+% (-?\d+\.\d) g"#)
        #expect(shown.keys.sorted() == [417, 418, 419], "\(last)")
        #expect(!last.contains("settling"))

        // JSON Lines and CSV: the last frame carries the same grams (2 decimals), every contact stable.
        let frames = try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", recording])).filter {
            $0.string("type") == "frame"
        }
        let frame = try #require(frames.last)
        for contact in frame.objects("contacts") {
            let id = try #require(contact.int("id"))
            #expect(contact.bool("stable") == true, "#\(id)")
            #expect(Self.agrees(contact.number("grams"), shown[id]), "#\(id): \(contact.number("grams") ?? -1)")
        }
        let csv = try CLI.run(["replay", "--fast", "-f", "csv", recording]).stdoutLines
        let header = try #require(csv.first).split(separator: ",").map(String.init)
        let idColumn = try #require(header.firstIndex(of: "id"))
        let gramsColumn = try #require(header.firstIndex(of: "grams"))
        let timeColumn = try #require(header.firstIndex(of: "time"))
        let lastTime = try #require(csv.last).split(separator: ",", omittingEmptySubsequences: false)[timeColumn]
        let rows = csv.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .filter { $0[timeColumn] == lastTime }
        #expect(rows.count == 3)
        for row in rows {
            let id = try #require(Int(row[idColumn]))
            #expect(Self.agrees(Double(row[gramsColumn]), shown[id]), "CSV #\(id): \(row[gramsColumn])")
        }

        // replay --summary: the text table and the JSON record.
        let table = try CLI.run(["replay", "--fast", "-f", "text", "--summary", recording])
        let settled = try Self.grams(in: table.stdout, #"#(\d+) +\S+ s +(?:-|\S+ s) +(-?\d+\.\d) ± "#)
        #expect(settled == shown, "summary table \(settled) against the lines \(shown)")
        let summary = try #require(
            try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", "--summary", recording])).last
        )
        #expect(summary.string("type") == "summary")
        for contact in summary.objects("contacts") {
            let id = try #require(contact.int("id"))
            let mean = (contact["settled"] as? [String: Any])?.number("mean")
            #expect(Self.agrees(mean, shown[id]), "summary record #\(id): \(mean ?? -1)")
        }

        // The plot: its legend and its table.
        let svg = try CLI.temporaryDirectory().appendingPathComponent("plot.svg").path
        let plot = try CLI.run(["plot", recording, "-o", svg, "-q"])
        try #require(plot.status == 0, "\(plot.stderr)")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(try Self.grams(in: picture, #"#(\d+) settled (-?\d+\.\d) g"#) == shown, "the legend")
        #expect(try Self.grams(in: picture, #"#(\d+)<[^#]*?>(-?\d+\.\d) ± "#) == shown, "the table")

        // The live view, read off a pseudo-terminal: the map's labels, then the bars.
        guard LiveTerminal.available else { return }
        let live = try LiveTerminal.run(
            ["replay", "--fast", recording],
            columns: 120,
            rows: 40,
            steps: ["until:end of recording", "snap", "key:m", "wait:0.3", "snap", "key:q"]
        )
        try #require(live.screens.count >= 2)
        let map = live.screens[0].text
        #expect(live.screens[0].showsMap)
        #expect(try Self.grams(in: map, #"#(\d+) -?[\d.]+% (-?\d+\.\d) g"#) == shown, "the map: \(map)")
        let bars = live.screens[1].text
        #expect(try Self.grams(in: bars, #"#(\d+) [█░]+ +-?[\d.]+% +(-?\d+\.\d) g"#) == shown, "the bars: \(bars)")
        let total = try #require(try Self.first(in: last, #"total (-?\d+\.\d) g"#))
        #expect(bars.contains("total \(total) g") && map.contains("total \(total) g"), "the footer's total")
    }

    @Test("weigh: its answer, its summary on stderr and the stream at the moment it answered show one number")
    func weighAgreesWithTheStream() throws {
        let recording = try Self.demo(cutAt: 7.0)
        let answer = try CLI.run(["weigh", "--replay", recording])
        try #require(answer.status == 0, "\(answer.stderr)")
        let weighed = try Self.grams(in: answer.stdout, #"#(\d+) +(-?\d+\.\d) g"#)
        #expect(weighed.keys.sorted() == [417, 418, 419])
        let summary = try Self.grams(in: answer.stderr, #"#(\d+) +\S+ s +(?:-|\S+ s) +(-?\d+\.\d) ± "#)
        #expect(summary == weighed, "weigh's summary \(summary) against its answer \(weighed)")
        let json = try #require(
            try CLI.jsonObjects(try CLI.run(["weigh", "--replay", recording, "-f", "jsonl"])).first
        )
        let time = try #require(json.number("time"))
        let stream = try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", recording])).filter {
            $0.string("type") == "frame" && ($0.number("time") ?? .infinity) <= time + 1e-9
        }
        let then = try #require(stream.last, "the stream's state when weigh answered")
        for contact in then.objects("contacts") {
            let id = try #require(contact.int("id"))
            #expect(Self.agrees(contact.number("grams"), weighed[id]), "#\(id) at \(time) s")
        }
    }

    @Test("weigh --objects 2 answers the settled weight, not a landing still decaying (#418: 57.7 g, never 59.4 g)")
    func objectsAnswerOnceSettled() throws {
        let recording = try Self.demo()
        let answer = try CLI.run(["weigh", "--replay", recording, "--objects", "2", "-q"])
        try #require(answer.status == 0, "\(answer.stderr)")
        let weighed = try Self.grams(in: answer.stdout, #"#(\d+) +(-?\d+\.\d) g"#)
        // What each settles to: its value at its last stable reading of the whole demo.
        let table = try CLI.run(["replay", "--fast", "-f", "text", "--summary", recording])
        let settled = try Self.grams(in: table.stdout, #"#(\d+) +\S+ s +(?:-|\S+ s) +(-?\d+\.\d) ± "#)
        for id in [417, 418] {
            let got = try #require(weighed[id].flatMap(Double.init), "\(answer.stdout)")
            let final = try #require(settled[id].flatMap(Double.init))
            #expect(Swift.abs(got - final) <= 0.3, "#\(id): weigh answered \(got) g, it settles at \(final) g")
        }
        #expect(Swift.abs((weighed[418].flatMap(Double.init) ?? 0) - 57.7) <= 0.3)
    }

    @Test("a tare and a carrier: the tared plum reads 0 within the noise, is out of the total, never the heaviest")
    func taredThingsAreNoLoads() throws {
        let recording = try Self.demo(cutAt: 7.0)
        let tared = try CLI.run(["weigh", "--replay", recording, "--tare", "-q"])
        try #require(tared.status == 0, "\(tared.stderr)")
        let weighed = try Self.grams(in: tared.stdout, #"#(\d+) +(-?\d+\.\d) g"#)
        let zero = try #require(weighed[417].flatMap(Double.init), "\(tared.stdout)")
        #expect(Swift.abs(zero) <= 0.6, "the tared plum reads \(zero) g")
        let total = try #require(try Self.first(in: tared.stdout, #"total +(-?\d+\.\d) g"#))
        let loads = (weighed[418].flatMap(Double.init) ?? 0) + (weighed[419].flatMap(Double.init) ?? 0)
        #expect(Swift.abs((Double(total) ?? 0) - loads) <= 0.1 + 1e-9, "total \(total) g, loads \(loads) g")
        #expect(!tared.stdout.contains("#417      \(weighed[417]!) g  heaviest"))
        for option in ["--tare", "--carrier"] {
            let frames = try CLI.jsonObjects(try CLI.run(["replay", "--fast", "-f", "jsonl", option, recording]))
                .filter { $0.string("type") == "frame" }
            #expect(frames.count > 100)
            for frame in frames {
                let contacts = frame.objects("contacts")
                let plum = try #require(contacts.first { $0.int("id") == 417 })
                guard Swift.abs(plum.number("grams") ?? 0) <= 2 else { continue }
                #expect(plum.bool("heaviest") == false, "\(option): the tared plum marked at \(frame.number("time")!)")
                let others = contacts.filter { $0.int("id") != 417 }.compactMap { $0.number("grams") }
                let sum = others.reduce(0, +)
                #expect(
                    Swift.abs((frame.number("total_grams") ?? .nan) - sum) <= 0.011 * Double(others.count + 1),
                    "\(option): total \(frame.number("total_grams") ?? .nan) at \(frame.number("time")!) s"
                )
            }
        }
    }

    @Test("the live view's t: every plum down at that moment reads 0, none is the heaviest, the total is 0")
    func liveTareLeavesNoHeaviest() throws {
        // Three plums rest from 4.5 s to 8.2 s; t at 6 s, the screen read a second later, in the bars (m) where the
        // heaviest is the words `* heaviest` and every plum has a line.
        let run = try LiveTerminal.run(
            ["demo", "--view", "bars"],
            steps: ["wait:6", "snap", "key:t", "wait:1", "snap", "key:q"]
        )
        try #require(run.screens.count >= 2)
        let before = run.screens[0].lines.filter { $0.contains("#41") }
        #expect(before.contains { $0.contains("heaviest") }, "a heaviest before the tare: \(before)")
        let after = run.screens[1]
        let plums = after.lines.filter { $0.range(of: #"#41[789] "#, options: .regularExpression) != nil }
        #expect(plums.count == 3, "\(after.lines)")
        for line in plums {
            let grams = try #require(try Self.first(in: line, #"(-?\d+\.\d) g"#).flatMap(Double.init), "\(line)")
            #expect(Swift.abs(grams) <= 0.6, "a tared plum reads 0 within the noise: \(line)")
            #expect(!line.contains("heaviest"), "a tared plum is never the heaviest: \(line)")
        }
        let total = try #require(try Self.first(in: after.statusLine, #"total (-?\d+\.\d) g"#), "\(after.statusLine)")
        #expect(total == "0.0", "the tared plums are out of the total: \(after.statusLine)")
    }

    @Test("a shared fixture with a force axis: the pen's peak reads the same in the summary and the plot")
    func sharedForceFixture() throws {
        guard let pen = Fixtures.shared("wacom-isdv4-dell-canvas-pen/dell_canvas_pen.evemu") else { return }
        let table = try CLI.run(["replay", "--fast", "-f", "text", "--summary", pen.path])
        try #require(table.status == 0, "\(table.stderr)")
        let peaks = try Self.grams(in: table.stdout, #"#(\d+) +\S+ s +(?:-|\S+ s) +peak (\d+\.\d)%"#)
        #expect(!peaks.isEmpty)
        let svg = try CLI.temporaryDirectory().appendingPathComponent("pen.svg").path
        #expect(try CLI.run(["plot", pen.path, "-o", svg, "-q"]).status == 0)
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(try Self.grams(in: picture, #"#(\d+) peak (\d+\.\d)%, never settled"#) == peaks)
    }

    @Test("a force sensor with a resolution: describe and probe say grams come from it, and nothing says otherwise")
    func oneVerdict() throws {
        guard let redrix = Fixtures.shared("elan-redrix-haptic-pressurepad/ELAN2703-04F3-323B.DERIVED.desc") else {
            return
        }
        for arguments in [["describe", redrix.path], ["probe", "--static", "--replay", redrix.path]] {
            let run = try CLI.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stdout.contains("reads grams without calibration"), "\(arguments)")
            #expect(!run.stdout.contains("calibrate for grams"), "\(arguments): \(run.stdout)")
            #expect(!run.stdout.contains("without a scale"), "\(arguments): \(run.stdout)")
        }
    }

    @Test("probe --replay reads a recording as a recording: no prompts, no timeouts, and it says so")
    func probeReadsARecording() throws {
        let recording = try Self.demo()
        let run = try CLI.run(["probe", "--replay", recording])
        #expect(run.status == 1, "the demo is no recording of the four gestures")
        for prompt in ["Rest one finger", "Now press harder", "Lift the finger", "timed out", "follow each"] {
            #expect(!run.stderr.contains(prompt) && !run.stdout.contains(prompt), "\(prompt)")
        }
        #expect(run.stderr.contains("looking in the recording for"))
        #expect(run.stdout.contains("Read from a recording"))
        #expect(run.stdout.contains("none in the recording within 8 s of its own time"))
    }
}
