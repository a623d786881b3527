import Foundation
import PlumometerTestSupport
import Testing

/// The live view on a pseudo-terminal (pyte, through Tests/Scripts/live_screen.py) from 40 x 10 to 300 x 100, with
/// the demo's three plums at rest (its recording cut while they are, so its held last frame shows them): every size shows each plum's name and weight, the key hints whole with `[q]uit`,
/// and no line wider than the window or cut inside a word.
@Suite(
    .enabled(
        if: Requirements.all
            || (try? ProcessRunner.run("/usr/bin/python3", ["-c", "import pyte"]).status) == 0,
        "python3-pyte is missing (scripts/install-deps.sh --test)"
    )
)
struct LiveTerminalSizeTests {
    static let sizes: [(columns: Int, rows: Int)] = [(100, 30), (40, 10), (40, 12), (60, 16), (80, 24), (300, 100)]

    /// The demo's recording cut at 7 s, while its three plums #417, #418 and #419 rest on the pad (3.6 s to 8.2 s):
    /// its last frame stays on screen at the end whatever the machine's load.
    static func threePlums() throws -> String {
        let directory = try CLI.temporaryDirectory()
        let whole = directory.appendingPathComponent("demo.evemu")
        #expect(try CLI.run(["demo", "--save", whole.path, "-f", "jsonl"]).status == 0)
        let lines = try String(contentsOf: whole, encoding: .utf8).split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        let kept = lines.filter { line in
            guard line.hasPrefix("E: "), let time = Double(line.split(separator: " ")[1]) else { return true }
            return time <= 7
        }
        let cut = directory.appendingPathComponent("three-plums.evemu")
        try kept.joined(separator: "\n").write(to: cut, atomically: true, encoding: .utf8)
        return cut.path
    }

    @Test func everySizeShowsEachPlumAndTheKeys() throws {
        // Live first (the keys offered), then `t` (a note joins the line), then the end of the recording, its last
        // frame held, at every size. `until` returns as soon as #419's label is read, which may be the frame's first
        // rows only (a pseudo-terminal passes a 10 KB frame in pieces): the snap waits for the rest of it.
        var steps = ["until:#419", "wait:0.1", "snap", "key:t", "wait:0.3", "snap", "until:end of recording"]
        for size in Self.sizes { steps += ["resize:\(size.columns)x\(size.rows)", "wait:0.3", "snap"] }
        steps += ["key:q"]
        let (status, screens) = try LiveMapTerminalTests.run(
            ["replay", "--speed", "4", try Self.threePlums()],
            columns: 100,
            rows: 30,
            steps: steps
        )
        #expect(status == 0)
        try #require(screens.count >= Self.sizes.count + 2)
        let sized = Array(zip([Self.sizes[0], Self.sizes[0]] + Self.sizes, screens))
        for (size, screen) in sized {
            let lines = screen.lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
            let shown = lines.filter { !$0.isEmpty }
            #expect(lines.count <= size.rows, "\(size): \(lines.count) lines")
            // Never the last column: the terminal must not wrap.
            #expect(lines.allSatisfy { $0.count < size.columns }, "\(size): \(lines)")
            for id in [417, 418, 419] {
                // The name and, on the same line after it, a weight: a map label or a bar's line.
                #expect(
                    lines.contains { line in
                        guard let name = line.range(of: "#\(id) ") else { return false }
                        return line[name.upperBound...].contains(" g")
                    },
                    "#\(id) at \(size): \(shown.joined(separator: "\n"))"
                )
            }
            let status = try #require(shown.last, "\(size)")
            // Live, `[q]uit`; at the end, `q to quit` (or `[q]uit` when that is shortened).
            #expect(status.contains("[q]uit") || status.contains("q to quit"), "\(size): \(status)")
            // The status line ends on a whole part: the keys, or the scale with its figure.
            let endings = ["[q]uit", "[m]ap", "% of full scale", "%"]
            #expect(endings.contains { status.hasSuffix($0) }, "\(size): cut inside a word: \(status)")
        }
        // Live, the keys are offered; after `t` the note joins the line and the keys stay whole.
        let live = try #require(screens[0].lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(live.contains("[t]are [c]lear [k]carrier [m]ap [q]uit"), "\(live)")
        let tared = try #require(screens[1].lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(tared.contains("tared") && tared.contains("[q]uit"), "\(tared)")
        // At the end, the last frame held: what is offered is said to the last size.
        let ended = try #require(screens[2].lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(ended.contains("end of recording"), "\(ended)")
    }
}
