import PlumometerCore
import PlumometerPictures
import PlumometerTestKit
import Testing

/// The cells (row, column inside the frame) of `lines` drawn as a circle: half and full blocks, the heaviest's `▓`.
private func circleCells(_ lines: [String]) -> Set<[Int]> {
    var cells: Set<[Int]> = []
    for (row, line) in lines.enumerated() {
        for (column, character) in line.enumerated() where "▀▄█▓".contains(character) { cells.insert([row, column]) }
    }
    return cells
}

/// Squared distance from the label at `row`, columns `columns`, to the nearest of `cells` (a cell 1 wide, 2 tall).
private func distance(row: Int, columns: ClosedRange<Int>, to cells: Set<[Int]>) -> Int {
    cells.map { cell in
        let dx = max(0, columns.lowerBound - cell[1], cell[1] - columns.upperBound)
        let dy = 2 * (cell[0] - row)
        return dx * dx + dy * dy
    }.min() ?? Int.max
}

/// Where `text` is on the screen, as a whole label (not inside a longer one).
private func find(_ text: String, in lines: [String]) -> (row: Int, columns: ClosedRange<Int>)? {
    let length = text.count
    let whole = ScreenText.occurrences(of: text, in: lines).first { place in
        let characters = Array(lines[place.row])
        let after = place.column + length
        return after >= characters.count || " │▀▄█▓".contains(characters[after])
    }
    return whole.map { ($0.row, $0.column...($0.column + length - 1)) }
}

/// Scenes a map is drawn for: the demo's three plums (two of them close side by side, whose labels once sat in the
/// gap between them), and seeded random ones of 1 to 8 contacts, some on the pad's edges.
private func scenes() -> [Reading] {
    let demo = Reading(
        time: at(6),
        contacts: [
            contact(417, atMM: 30, 40, force: 0.014, grams: 71, rank: 2, stable: true),
            contact(419, atMM: 52, 22, force: 0.012, grams: 85, rank: 1, heaviest: true, stable: true),
            contact(418, atMM: 70, 44, force: 0.010, grams: 58, rank: 3, stable: true),
        ]
    )
    var random = SplitMix64(state: 34)
    var result = [demo]
    for count in 1...8 {
        let contacts = (0..<count).map { index -> ContactReading in
            let edge = random.next() % 3 == 0
            let x = edge ? [0.0, 100][Int(random.next() % 2)] : Double(random.next() % 100)
            let y = Double(random.next() % 60)
            let force = 0.005 + Double(random.next() % 100) / 1000
            return contact(
                index + 1,
                atMM: x,
                y,
                force: force,
                grams: force * 250,
                rank: index + 1,
                stable: index % 2 == 0
            )
        }
        result.append(Reading(time: at(1), contacts: contacts))
    }
    return result
}

@Suite("Map labels belong to one circle at a glance, at every size")
struct MapLabelTests {
    static let sizes: [(columns: Int, rows: Int)] = [
        (40, 8), (40, 12), (48, 14), (60, 16), (79, 19), (99, 25), (120, 30), (160, 40), (200, 60), (299, 95),
    ]

    @Test(arguments: 0..<sizes.count)
    func labelsSitOnOrBesideTheirOwnCircle(_ index: Int) throws {
        let size = Self.sizes[index]
        for reading in scenes() {
            let scale = reading.contacts.map(\.force).max() ?? 1
            let map = try #require(
                PadMap(device: touchpad(), columns: size.columns, rows: size.rows, colour: false, forceScale: scale)
            )
            guard map.surfaceCells != nil else { continue }
            let lines = map.render(reading)
            let surface = Array(lines.dropLast())
            // Each circle alone, drawn by the same map: the cells that are that contact's.
            let own = Dictionary(
                uniqueKeysWithValues: reading.contacts.map { contact in
                    let alone = Reading(time: reading.time, contacts: [contact])
                    return (contact.id, circleCells(Array(map.render(alone).dropLast())))
                }
            )
            for contact in reading.contacts {
                let whole = map.label(of: contact)
                // Whole, else the name alone, else none (and the legend counts it).
                guard let label = find(whole, in: surface) ?? find("#\(contact.id)", in: surface) else {
                    #expect(
                        lines.last!.contains("unlabelled"),
                        "#\(contact.id) at \(size): \(lines.joined(separator: "\n"))"
                    )
                    continue
                }
                let mine = own[contact.id]!
                let rows = mine.map { $0[0] }
                let columns = mine.map { $0[1] }
                // On its circle, or on the row directly above or below it, across its columns.
                #expect(
                    label.row >= rows.min()! - 1 && label.row <= rows.max()! + 1
                        && label.columns.overlaps(columns.min()!...columns.max()!),
                    "#\(contact.id) at \(size): \(lines.joined(separator: "\n"))"
                )
                let near = distance(row: label.row, columns: label.columns, to: mine)
                for other in reading.contacts where other.id != contact.id {
                    #expect(
                        distance(row: label.row, columns: label.columns, to: own[other.id]!) > near,
                        "#\(contact.id)'s label is as near #\(other.id) at \(size): \(lines.joined(separator: "\n"))"
                    )
                }
            }
        }
    }

    @Test("the demo's two close plums at 100 x 30: each label on its own side, not in the gap")
    func theDemoAtOneHundredByThirty() throws {
        // The live view gives the map its width less one and its rows less the header and footer.
        let map = try #require(PadMap(device: touchpad(), columns: 99, rows: 23, colour: false, forceScale: 0.02))
        let lines = try #require(map.renderWhole(scenes()[0]))
        for contact in scenes()[0].contacts {
            #expect(find(map.label(of: contact), in: lines) != nil, "\(lines.joined(separator: "\n"))")
        }
    }

    @Test("a map too small to show every contact gives way to the bars")
    func aMapTooSmallGivesWay() throws {
        let tiny = try #require(PadMap(device: touchpad(), columns: 39, rows: 3, colour: false))
        #expect(tiny.renderWhole(scenes()[0]) == nil)
        #expect(tiny.render(scenes()[0]).count == 1, "render alone still draws what it can: the legend")
    }
}
