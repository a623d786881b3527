import Foundation
import PlumometerCore
import PlumometerPictures
import PlumometerTestKit
import Testing

/// Two plums side by side on the 100 x 60 mm pad: 75 g on the left (stable), 100.0 g on the right (heaviest).
private let twoPlums = Reading(
    time: at(1),
    contacts: [
        contact(1, atMM: 20, 30, force: 0.3, grams: 75, rank: 2, stable: true),
        contact(2, atMM: 75, 30, force: 0.4, grams: 100, rank: 1, heaviest: true),
    ]
)

/// `line` without its ANSI SGR sequences: what the terminal shows.
private func visible(_ line: String) -> String {
    var out = ""
    var inEscape = false
    for character in line {
        if character == "\u{1B}" {
            inEscape = true
        } else if inEscape {
            if character == "m" { inEscape = false }
        } else {
            out.append(character)
        }
    }
    return out
}

@Suite("Pad map: the surface to scale in terminal cells, circles by force, labels, the heaviest")
struct PadMapTests {
    @Test("ASCII: the pad framed to scale, a circle per plum at its position, labels beside them in x order")
    func asciiScreen() throws {
        let map = try #require(PadMap(device: touchpad(), columns: 32, rows: 12, charset: .ascii, colour: false))
        #expect(
            map.render(twoPlums) == [
                "+------------------------------+",
                "|                              |",
                "|                              |",
                "|#1 30.0% 75.0 g=              |",
                "|    oooo            #####     |",
                "|   oooooo          #######    |",
                "|    oooo            #####     |",
                "|              #2 40.0% 100.0 g|",
                "|                              |",
                "|                              |",
                "+------------------------------+",
                "o contact  # heaviest  = stable",
            ]
        )
    }

    @Test("Unicode with colour: half blocks, the heaviest's cells and label yellow, nothing else coloured")
    func unicodeColourScreen() throws {
        let map = try #require(PadMap(device: touchpad(), columns: 32, rows: 12, charset: .unicode, colour: true))
        let lines = map.render(twoPlums)
        #expect(lines.count == 12)
        #expect(lines[3] == "│#1 30.0% 75.0 g=              │")
        #expect(lines[7] == "│              \u{1B}[1;33m#2 40.0% 100.0 g\u{1B}[0m│")
        #expect(lines[4] == "│    ▄██▄            \u{1B}[33m▄███▄\u{1B}[0m     │")
        #expect(lines[5] == "│   ██████          \u{1B}[33m███████\u{1B}[0m    │")
        #expect(lines[6] == "│    ▀██▀            \u{1B}[33m▀███▀\u{1B}[0m     │")
        #expect(lines[0] == "┌" + String(repeating: "─", count: 30) + "┐")
        #expect(lines[10] == "└" + String(repeating: "─", count: 30) + "┘")
        #expect(lines[11] == "█ contact  \u{1B}[33m█\u{1B}[0m heaviest  = stable")
        // Yellow only on the right half (the heaviest): the left plum's cells carry no escape.
        for line in lines.prefix(11) {
            let left = line.prefix(12)
            #expect(!left.contains("\u{1B}"))
        }
    }

    @Test("NO_COLOR: no escape at all, and the heaviest is told by its own fill character")
    func noColourMarksHeaviest() throws {
        let map = try #require(PadMap(device: touchpad(), columns: 32, rows: 12, charset: .unicode, colour: false))
        let lines = map.render(twoPlums)
        #expect(lines.allSatisfy { !$0.contains("\u{1B}") })
        #expect(lines[5] == "│   ██████          ▓▓▓▓▓▓▓    │")
        #expect(lines[11].hasPrefix("█ contact  ▓ heaviest"))
        // Move the mark to the other plum: the fills swap.
        var swapped = twoPlums
        swapped.contacts[0].heaviest = true
        swapped.contacts[1].heaviest = false
        let other = map.render(swapped)
        #expect(other.joined().filter { $0 == "▓" }.count == 14 + 1, "the 75 g circle's cells, and the legend's")
        #expect(!other[5].hasSuffix("▓▓▓▓▓▓▓    │"))
    }

    @Test("ASCII and Unicode draw the same scene in the same place; ASCII uses printable ASCII only")
    func charsets() throws {
        let ascii = try #require(PadMap(device: touchpad(), columns: 50, rows: 16, charset: .ascii, colour: false))
        let unicode = try #require(PadMap(device: touchpad(), columns: 50, rows: 16, charset: .unicode, colour: false))
        let asciiLines = ascii.render(twoPlums)
        let unicodeLines = unicode.render(twoPlums)
        #expect(asciiLines.count == unicodeLines.count)
        #expect(asciiLines.joined().unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7f })
        for (a, u) in zip(asciiLines, unicodeLines).dropLast() {
            #expect(a.count == u.count)
            // Labels sit in the same cells.
        }
        // Labels sit in the same cells, or a row apart where a circle's edge falls in a different half cell.
        for label in ["#1 30.0% 75.0 g=", "#2 40.0% 100.0 g"] {
            let asciiRow = try #require(asciiLines.firstIndex { $0.contains(label) }, "\(asciiLines)")
            let unicodeRow = try #require(unicodeLines.firstIndex { $0.contains(label) }, "\(unicodeLines)")
            #expect(abs(asciiRow - unicodeRow) <= 1)
            let column = { (line: String) in line.distance(from: line.startIndex, to: line.range(of: label)!.lowerBound)
            }
            #expect(column(asciiLines[asciiRow]) == column(unicodeLines[unicodeRow]))
        }
    }

    @Test("the aspect ratio is kept whatever the window: cells count 1 x 2, and the map fills one dimension")
    func aspectRatio() throws {
        for (columns, rows) in [(80, 24), (120, 40), (40, 40), (200, 20), (60, 12), (33, 50)] {
            let map = try #require(PadMap(device: touchpad(), columns: columns, rows: rows))
            let cells = try #require(map.surfaceCells)
            let lines = map.render(Reading(time: at(0), contacts: []))
            #expect(lines.count == cells.rows + 3)
            #expect(lines.allSatisfy { visible($0).count <= columns })
            #expect(lines[0].count == cells.columns + 2)
            let drawn = Double(cells.columns) / Double(2 * cells.rows)
            // 100 x 60 mm is 1.667 wide per tall; rounding one cell either way is all it may be off by.
            let tolerance = drawn * (1 / Double(cells.rows) + 1 / Double(cells.columns))
            #expect(abs(drawn - 100.0 / 60) <= tolerance, "\(columns)x\(rows): \(cells)")
            #expect(cells.columns == columns - 2 || cells.rows == rows - 3, "\(columns)x\(rows): \(cells)")
        }
        // Without resolutions the raw ranges are the shape: 4000 x 2400 units, the same 5:3.
        let noMM = try #require(PadMap(device: touchpad(resolution: 0), columns: 80, rows: 24))
        #expect(noMM.geometry.inMillimetres == false)
        #expect(noMM.render(Reading(time: at(0), contacts: [])).last?.hasSuffix("pad 4000×2400 units") == true)
    }

    @Test("a circle's area grows with its force, and the lightest contact still shows")
    func circleSizeFollowsForce() throws {
        let map = try #require(PadMap(device: touchpad(), columns: 82, rows: 40, charset: .ascii, colour: false))
        var areas: [Int] = []
        for force in [0.0, 0.01, 0.25, 1.0] {
            let lines = map.render(Reading(time: at(0), contacts: [contact(1, atMM: 50, 30, force: force)]))
            areas.append(lines.dropLast().joined().filter { $0 == "o" }.count)
        }
        #expect(areas[0] >= 1, "a feather still shows")
        #expect(areas[0] <= areas[1] && areas[1] < areas[2] && areas[2] < areas[3])
        // Area ~ force: a quarter of the force is about a quarter of the area (plus the minimum radius).
        let ratio = Double(areas[2]) / Double(areas[3])
        #expect(ratio > 0.22 && ratio < 0.4, "\(areas)")
    }

    @Test("forceScale auto-ranges the circles: 2% of a heavy pad's scale is a circle, not a dot; the legend says so")
    func forceScale() throws {
        let scene = Reading(time: at(0), contacts: [contact(1, atMM: 50, 30, force: 0.02)])
        let full = try #require(PadMap(device: touchpad(), columns: 82, rows: 40, charset: .ascii, colour: false))
        var ranged = full
        ranged.forceScale = 0.05
        let small = full.render(scene).dropLast().joined().filter { $0 == "o" }.count
        let large = ranged.render(scene).dropLast().joined().filter { $0 == "o" }.count
        #expect(large > 4 * small, "\(small) -> \(large)")
        #expect(ranged.render(scene).last?.contains("size ~ force (largest 5%)") == true)
        #expect(full.render(scene).last?.contains("size ~ force  pad") == true)
        // A force beyond the scale is drawn at the largest size, no larger.
        var beyond = scene
        beyond.contacts[0].force = 0.5
        #expect(ranged.render(beyond) != ranged.render(scene))
        var atScale = scene
        atScale.contacts[0].force = 0.05
        #expect(ranged.render(beyond).dropLast() == ranged.render(atScale).dropLast())
    }

    @Test(
        "labels: the contact's #id (never its rank), percent of full scale, grams when known, * when stable, > when saturated"
    )
    func labels() throws {
        let map = try #require(PadMap(device: touchpad(), columns: 80, rows: 24))
        #expect(map.label(of: contact(7, atMM: 0, 0, force: 0.45, rank: 2)) == "#7 45.0%")
        #expect(
            map.label(of: contact(417, atMM: 0, 0, force: 0.3, grams: 72.4, rank: 1, stable: true))
                == "#417 30.0% 72.4 g="
        )
        #expect(map.label(of: contact(9, atMM: 0, 0, force: 0.01, grams: 2.46, rank: 3)) == "#9 1.0% 2.5 g")
        var saturated = contact(1, atMM: 0, 0, force: 1, grams: 250, rank: 1)
        saturated.saturated = true
        #expect(map.label(of: saturated) == "#1 >100.0% 250.0 g")
        var ounces = map
        ounces.unit = .ounces
        #expect(ounces.label(of: contact(1, atMM: 0, 0, force: 0.3, grams: 56.7, rank: 1)) == "#1 30.0% 2.00 oz")
    }

    @Test("labels never overlap each other nor run off the pad; the ones that fit nowhere are counted")
    func labelsStayInside() throws {
        var random = SplitMix64(state: 7)
        for _ in 0..<200 {
            let count = Int(random.next() % 6) + 1
            let plums = (0..<count).map { index in
                contact(
                    index + 1,
                    atMM: Double(random.next() % 101),
                    Double(random.next() % 61),
                    force: Double(random.next() % 100) / 100,
                    grams: Double(random.next() % 240),
                    rank: index + 1,
                    heaviest: index == 0
                )
            }
            let columns = 20 + Int(random.next() % 60)
            let map = try #require(PadMap(device: touchpad(), columns: columns, rows: 8 + Int(random.next() % 20)))
            let lines = map.render(Reading(time: at(0), contacts: plums))
            let inside = lines.dropFirst().dropLast(2).map { String($0.dropFirst().dropLast()) }
            var missing = 0
            for plum in plums {
                let label = map.label(of: plum)
                let found = inside.reduce(0) { $0 + ($1.components(separatedBy: label).count - 1) }
                #expect(found <= 1)
                // A label with no room whole is the name alone (`#3`, not followed by its figures).
                let name = "#\(plum.id)"
                let alone = inside.contains { line in
                    line.components(separatedBy: name).dropFirst().contains { rest in
                        let next = Array(rest.prefix(2))
                        return next.isEmpty
                            || !(next[0].isNumber || (next[0] == " " && next.count > 1 && next[1].isNumber))
                    }
                }
                if found == 0 && !alone { missing += 1 }
            }
            let legend = visible(lines.last!)
            if missing == 0 {
                #expect(!legend.contains("unlabelled") || legend.count >= columns)
            } else if legend.count < columns - 1 {
                #expect(legend.contains("\(missing) unlabelled"), "\(lines.joined(separator: "\n"))")
            }
            #expect(lines.allSatisfy { visible($0).count <= columns })
        }
    }

    @Test("a window too small for a map gives the legend alone; a device without positions gives no map")
    func degenerate() throws {
        let tiny = try #require(PadMap(device: touchpad(), columns: 5, rows: 3, colour: false))
        #expect(tiny.surfaceCells == nil)
        #expect(tiny.render(twoPlums) == ["█ con"])
        // The pen tablet without its position axes: pressure alone.
        var noPositions = DeviceCatalogue.penTablet
        noPositions.axes[.x] = nil
        noPositions.axes[.y] = nil
        #expect(PadMap(device: noPositions, columns: 80, rows: 24) == nil)
        #expect(PadGeometry(device: noPositions) == nil)
    }

    @Test("a contact's position for the bars: millimetres from the left and top, or left/centre/right")
    func positionText() throws {
        let geometry = try #require(PadGeometry(device: touchpad()))
        #expect(geometry.positionText(x: 1680, y: 400) == "x 42 y 10 mm")
        #expect(geometry.positionText(x: nil, y: nil) == nil)
        let units = try #require(PadGeometry(device: touchpad(resolution: 0)))
        #expect(units.positionText(x: 100, y: 5) == "left")
        #expect(units.positionText(x: 2000, y: 5) == "centre")
        #expect(units.positionText(x: 3900, y: 5) == "right")
        #expect(units.positionText(x: 99_999, y: nil) == "right", "clamped to the surface")
    }
}
