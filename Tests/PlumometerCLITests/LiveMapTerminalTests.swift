import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// The live map on a pseudo-terminal, read by a real terminal emulator (pyte, through Tests/Scripts/live_screen.py):
/// labels where the contacts are, the heaviest in yellow, `m` to the bars and back, the map following the window.
@Suite(
    .enabled(
        if: Requirements.all
            || (try? ProcessRunner.run("/usr/bin/python3", ["-c", "import pyte"]).status) == 0,
        "python3-pyte is missing (scripts/install-deps.sh --test)"
    )
)
struct LiveMapTerminalTests {
    /// One recorded screen: its text lines and, per cell, the character, pyte's colour name and bold.
    struct Screen {
        var lines: [String]
        var cells: [[(character: String, colour: String, bold: Bool)]]
        var columns: Int { lines.first?.count ?? 0 }

        /// Where `text` starts on the screen (row, column), if it is there.
        func find(_ text: String) -> (row: Int, column: Int)? {
            ScreenText.occurrences(of: text, in: lines).first
        }
    }

    /// Runs `plumometer ARGS` on a `columns` x `rows` pty through the driver's `steps`; the screens it recorded.
    static func run(
        _ arguments: [String],
        columns: Int = 80,
        rows: Int = 24,
        steps: [String],
        environment: [String: String] = [:]
    ) throws -> (status: Int?, screens: [Screen]) {
        var options = ["--columns", "\(columns)", "--rows", "\(rows)"]
        for step in steps { options += ["--step", step] }
        let object = try LiveTerminal.drive(arguments, options: options, environment: environment)
        let screens = (object["screens"] as? [[String: Any]] ?? []).map { screen in
            Screen(
                lines: screen["lines"] as? [String] ?? [],
                cells: (screen["cells"] as? [[[Any]]] ?? []).map { row in
                    row.map { cell in
                        (cell[0] as? String ?? "", cell[1] as? String ?? "", (cell[2] as? NSNumber)?.boolValue ?? false)
                    }
                }
            )
        }
        return ((object["status"] as? NSNumber)?.intValue, screens)
    }

    /// The demo's frame number `sequence`, as `replay -f jsonl` writes it.
    static func demoFrame(_ sequence: Int) throws -> [String: Any] {
        let frames = try CLI.jsonObjects(try CLI.run(["demo", "--fast", "-f", "jsonl"]))
        return try #require(frames.first { $0.int("seq") == sequence })
    }

    /// The frame number on a screen's status line (`3 contacts  5.9 s  #270 ...`).
    static func sequence(on screen: Screen) throws -> Int {
        let status = try #require(screen.lines.last { $0.contains(" contacts ") }, "\(screen.lines)")
        let word = try #require(status.split(separator: " ").first { $0.hasPrefix("#") })
        return try #require(Int(word.dropFirst()))
    }

    /// A contact's label as the map writes it: its name (`#` and the JSON's `id`), percent and grams.
    static func label(_ contact: [String: Any]) -> String {
        let grams = contact.number("grams") ?? 0
        // One decimal, as every view writes grams (the JSON carries 2: the label rounds them once).
        let value = String(format: "%.1f", grams)
        let percent = String(format: "%.1f", contact.number("percent") ?? 0)
        return "#\(contact.int("id") ?? 0) \(percent)% \(value) g" + (contact.bool("stable") == true ? "=" : "")
    }

    @Test func labelsFollowTheContactsAndTheHeaviestIsYellow() throws {
        // At 5 to 7 s three plums rest still on the demo's pad; at 100 x 30 two of them close side by side.
        let (status, screens) = try Self.run(["demo"], columns: 100, rows: 30, steps: ["wait:6", "snap", "key:q"])
        #expect(status == 0)
        let screen = try #require(screens.first)
        let frame = try Self.demoFrame(try Self.sequence(on: screen))
        let contacts = frame.objects("contacts")
        try #require(contacts.count == 3, "\(frame)")
        var placed: [(x: Int, y: Int, row: Int, column: Int, heaviest: Bool)] = []
        for contact in contacts {
            let found = try #require(screen.find(Self.label(contact)), "\(Self.label(contact)) in \(screen.lines)")
            placed.append((contact.int("x")!, contact.int("y")!, found.row, found.column, contact.bool("heaviest")!))
        }
        // A label may sit left of its circle, so only the rightmost plum's label is sure to be the rightmost.
        #expect(placed.max { $0.x < $1.x }?.column == placed.map(\.column).max(), "left to right")
        #expect(placed.sorted { $0.y < $1.y }.map(\.row) == placed.map(\.row).sorted(), "top to bottom")
        // The heaviest: its label bold yellow (pyte names SGR 33 "brown"), its circle's cells yellow, the others not.
        let heaviest = try #require(placed.first { $0.heaviest })
        #expect(screen.cells[heaviest.row][heaviest.column].colour == "brown")
        #expect(screen.cells[heaviest.row][heaviest.column].bold)
        let yellowBlocks = screen.cells.enumerated().flatMap { row, cells in
            cells.enumerated().compactMap { column, cell in
                cell.colour == "brown" && "▀▄█".contains(cell.character) ? (row, column) : nil
            }
        }
        #expect(yellowBlocks.count >= 4, "a filled circle")
        let nearest = { (cell: (Int, Int)) -> Bool in
            let distance = { (label: (x: Int, y: Int, row: Int, column: Int, heaviest: Bool)) in
                abs(label.row - cell.0) * 2 + abs(label.column - cell.1)
            }
            return placed.min { distance($0) < distance($1) }?.heaviest == true
        }
        #expect(yellowBlocks.filter(nearest).count * 2 > yellowBlocks.count, "the yellow circle is the heaviest's")
        let white = screen.cells.joined().filter { $0.colour == "default" && "▀▄█".contains($0.character) }
        #expect(white.count >= 8, "the other plums are drawn too")
        #expect(screen.lines.contains { $0.contains("heaviest") && $0.contains("pad 120×80 mm") }, "the legend")
    }

    @Test func mSwitchesToTheBarsWithPositionsAndBackInEitherCase() throws {
        let (_, screens) = try Self.run(
            ["demo"],
            steps: ["wait:5", "snap", "key:M", "wait:0.3", "snap", "key:m", "wait:0.3", "snap", "key:Q"]
        )
        try #require(screens.count >= 3)
        #expect(screens[0].lines.contains { $0.contains("┌") }, "the map first")
        let bars = screens[1]
        #expect(!bars.lines.contains { $0.contains("┌") })
        #expect(bars.lines.contains { $0.contains("#417") && $0.contains(" mm ") }, "\(bars.lines)")
        #expect(screens[2].lines.contains { $0.contains("┌") }, "back to the map")
        #expect(screens[2].lines.contains { $0.contains("[m]ap [q]uit") }, "\(screens[2].lines)")
    }

    @Test func theMapFollowsTheWindow() throws {
        // 56 x 20: the narrowest window in which every label of the demo's three plums fits whole beside its circle
        // (at 50 x 18 the view gives way to the bars, as LiveTerminalSizeTests checks).
        let (_, screens) = try Self.run(["demo"], steps: ["wait:5", "snap", "resize:56x20", "snap", "key:q"])
        try #require(screens.count >= 2)
        let wide = try #require(screens[0].find("┐"))
        let narrow = try #require(screens[1].find("┐"))
        #expect(narrow.column < wide.column)
        #expect(narrow.column <= 54, "inside the 56 columns, one left free")
        let corner = try #require(screens[1].find("└"))
        #expect(corner.row < 20)
        #expect(screens[1].lines.contains { $0.contains("#419 ") && $0.contains("% ") }, "labels at the new size")
    }

    @Test func asciiWithoutUTF8OrOnADumbTerminalAndNoColourMarksTheHeaviest() throws {
        for environment in [["LANG": "C"], ["TERM": "dumb"]] {
            let (_, screens) = try Self.run(["demo"], steps: ["wait:5", "snap", "key:q"], environment: environment)
            let screen = try #require(screens.first)
            #expect(screen.lines.contains { $0.hasPrefix("+---") }, "\(environment): \(screen.lines)")
            #expect(!screen.lines.joined().contains("█"), "\(environment)")
            #expect(screen.lines.joined().contains("o"))
        }
        let (_, screens) = try Self.run(["demo"], steps: ["wait:5", "snap", "key:q"], environment: ["NO_COLOR": "1"])
        let screen = try #require(screens.first)
        #expect(screen.lines.joined().contains("▓"), "the heaviest's own fill without colour")
        #expect(!screen.cells.joined().contains { $0.colour == "brown" })
    }

    @Test func mShowsTheSameNamesInBothViews() throws {
        let (_, screens) = try Self.run(["demo"], steps: ["wait:6", "snap", "key:m", "wait:0.3", "snap", "key:q"])
        try #require(screens.count >= 2)
        let names = { (screen: Screen) in
            Set(
                screen.lines.joined(separator: " ").split(separator: " ").filter { $0.hasPrefix("#4") }.map(String.init)
            )
        }
        #expect(names(screens[0]) == ["#417", "#418", "#419"], "\(screens[0].lines)")
        #expect(names(screens[1]) == ["#417", "#418", "#419"], "\(screens[1].lines)")
    }

    /// The bars at 50 and 40 columns: the heaviest's line still says so, the word in bold yellow.
    @Test(arguments: [50, 40])
    func theBarsMarkTheHeaviestOnANarrowTerminal(columns: Int) throws {
        let (_, screens) = try Self.run(
            ["demo", "--view", "bars"],
            columns: columns,
            steps: ["wait:6", "snap", "key:q"]
        )
        let screen = try #require(screens.first)
        let mark = try #require(screen.find("heaviest"), "\(screen.lines)")
        #expect(screen.lines[mark.row].hasPrefix("#419 "), "\(screen.lines)")
        #expect(screen.cells[mark.row][mark.column].colour == "brown")
        #expect(screen.cells[mark.row][mark.column].bold)
        #expect(screen.lines[mark.row].contains("stable"))
    }

    @Test func barsWhenAsked() throws {
        let (_, screens) = try Self.run(["demo", "--view", "bars"], steps: ["wait:5", "snap", "key:q"])
        let screen = try #require(screens.first)
        #expect(!screen.lines.contains { $0.contains("┌") })
        #expect(screen.lines.contains { $0.contains("#419") && $0.contains("heaviest") })
    }
}
