import Foundation
import PlumometerTestSupport
import Testing

/// The live view on a pseudo-terminal (pyte, through Tests/Scripts/live_screen.py) from 40 x 10 to 300 x 100, with
/// the demo's three plums at rest: every size shows each plum's name and weight, the key hints whole with `[q]uit`,
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

    @Test func everySizeShowsEachPlumAndTheKeys() throws {
        // The demo's plums #417, #418 and #419 all rest on the pad from 3.6 s to 8.2 s.
        var steps = ["wait:4.5", "snap"]
        for size in Self.sizes.dropFirst() { steps += ["resize:\(size.columns)x\(size.rows)", "wait:0.3", "snap"] }
        steps += ["key:t", "wait:0.3", "snap", "key:q"]
        let (status, screens) = try LiveMapTerminalTests.run(["demo"], columns: 100, rows: 30, steps: steps)
        #expect(status == 0)
        try #require(screens.count >= Self.sizes.count + 1)
        let sized = Array(zip(Self.sizes + [Self.sizes.last!], screens))
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
            #expect(status.contains("[q]uit"), "\(size): \(status)")
            // The status line ends on a whole part: the keys, or the scale with its figure.
            let endings = ["[q]uit", "% of full scale", "%"]
            #expect(endings.contains { status.hasSuffix($0) }, "\(size): cut inside a word: \(status)")
        }
        // After `t` the note joins the line and the keys stay whole.
        let tared = try #require(
            screens[Self.sizes.count].lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        )
        #expect(tared.contains("[q]uit"), "\(tared)")
    }
}
