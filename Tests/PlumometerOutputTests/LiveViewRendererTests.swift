import PlumometerCore
import Testing

@testable import PlumometerOutput

/// Golden screens of the live view: exact lines for given content and terminal sizes, with and without colour.
@Suite struct LiveViewRendererTests {
    static let reason = "Its pressure axis is a force sensor with a resolution."
    static let keys = "[t]are [c]lear [k]carrier [q]uit   bar: "

    /// The force pad reading two contacts: #17 the heaviest (half of full scale, 3000 g), #18 saturated.
    static let twoContacts = LiveViewContent(
        record: OutputTestValues.record(),
        reading: OutputTestValues.twoContacts,
        sequence: 3
    )

    static func bar(_ filled: Int, of width: Int) -> String {
        String(repeating: "\u{2588}", count: filled) + String(repeating: "\u{2591}", count: width - filled)
    }

    @Test func aWideTerminalWithoutColour() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        // The widest tail is #18's (54 columns), so every bar is 100 - 1 - 7 - 54 = 38 wide; the scale grows to
        // 100% for a force of 0.500049, and #18's 0.25 fills 9.5 → 10 of 38.
        #expect(
            renderer.lines(Self.twoContacts, columns: 100, rows: 24) == [
                "plumometer  Force Pad  /dev/input/event7",
                Self.reason + " Grams from the axis resolution (1/g).",
                "",
                "   #17 " + Self.bar(19, of: 38) + "  50.0%   3000.0 g  stable    * heaviest",
                "   #18 " + Self.bar(10, of: 38) + "  25.0%  settling  SATURATED (weight is at least this)",
                "",
                "2 contacts  0.0 s  #3   " + Self.keys + "100% of full scale",
            ]
        )
        #expect(renderer.barScale == 1)
    }

    @Test func theScreenRedrawsInPlace() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        let content = LiveViewContent()
        #expect(
            renderer.screen(content, columns: 80, rows: 24)
                == "\u{1B}[Hplumometer  waiting for a device\u{1B}[K\r\n\u{1B}[K\r\n"
                + "  Nothing on the surface. Place objects; only conductive ones (fingers, coins,\u{1B}[K\r\n"
                + "  fruit) register.\u{1B}[K\r\n\u{1B}[K\r\n" + Self.keys + "1% of full scale\u{1B}[K\u{1B}[J"
        )
        #expect(LiveViewRenderer.enterScreen == "\u{1B}[?1049h\u{1B}[?25l")
        #expect(LiveViewRenderer.leaveScreen == "\u{1B}[?25h\u{1B}[?1049l")
    }

    @Test func colourMarksTheHeaviestInYellowAndNO_COLORInText() {
        var renderer = LiveViewRenderer(unit: .grams, colour: true)
        let lines = renderer.lines(Self.twoContacts, columns: 100, rows: 24)
        #expect(
            lines == [
                "\u{1B}[1mplumometer\u{1B}[0m  Force Pad  /dev/input/event7",
                "\u{1B}[2m" + Self.reason + " Grams from the axis resolution (1/g).\u{1B}[0m",
                "",
                "   #17 \u{1B}[33m" + Self.bar(19, of: 38) + "\u{1B}[0m  50.0%   3000.0 g  stable  "
                    + "\u{1B}[1;33m  heaviest\u{1B}[0m",
                "   #18 " + Self.bar(10, of: 38)
                    + "  25.0%  settling\u{1B}[31m  SATURATED (weight is at least this)\u{1B}[0m",
                "",
                "\u{1B}[2m2 contacts  0.0 s  #3   " + Self.keys + "100% of full scale\u{1B}[0m",
            ]
        )
        var plain = LiveViewRenderer(unit: .grams, colour: false)
        let text = plain.screen(Self.twoContacts, columns: 100, rows: 24)
        #expect(!text.contains("\u{1B}[3") && !text.contains("\u{1B}[1m") && !text.contains("\u{1B}[2m"))
        #expect(text.contains("* heaviest"), "without colour the heaviest is marked in text")
    }

    @Test func aNarrowTerminalDropsTheBarsButKeepsTheMarks() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        // 40 columns leave no room for a bar beside a 54-column tail: the compact layout (names as wide as the
        // widest, single spaces, `SATURATED` alone) keeps every mark, the heaviest's first; the note is wrapped.
        #expect(
            renderer.lines(Self.twoContacts, columns: 40, rows: 24) == [
                // The title is cut after a whole word, never inside one.
                "plumometer  Force Pad ...",
                // The note wraps at words instead of being cut.
                "Its pressure axis is a force sensor",
                "with a resolution. Grams from the axis",
                "resolution (1/g).",
                "",
                "#17  50.0% 3000.0 g stable   * heaviest",
                "#18  25.0% settling SATURATED",
                "",
                // The keys are abbreviated, not cut: [q]uit stays whole.
                "2 contacts  0.0 s   [t][c][k] [q]uit",
            ]
        )
        var tiny = LiveViewRenderer(unit: .grams, colour: false)
        let lines = tiny.lines(Self.twoContacts, columns: 5, rows: 24)
        #expect(lines.allSatisfy { $0.count <= 19 }, "a width under 20 is drawn as 20: \(lines)")
        #expect(lines[0] == "plumometer  Force P")
    }

    @Test func atFortyColumnsTheLeastNeededMarksGoFirstAndTheHeaviestStays() {
        var contact = OutputTestValues.contact(
            65535,
            pressure: 6000,
            force: 1,
            ratio: 1,
            share: 1,
            rank: 1,
            heaviest: true,
            saturated: true,
            grams: 6000
        )
        contact.carrier = true
        let content = LiveViewContent(reading: Reading(time: EventTime(microseconds: 1), contacts: [contact]))
        // The whole compact line is 59 columns: the state goes (50), then the carrier (42), then the weight (33).
        var plain = LiveViewRenderer(unit: .grams, colour: false)
        #expect(plain.lines(content, columns: 40, rows: 24)[2] == "#65535 100.0% * heaviest SATURATED")
        #expect(plain.lines(content, columns: 52, rows: 24)[2] == "#65535 100.0% 6000.0 g carrier * heaviest SATURATED")
        var coloured = LiveViewRenderer(unit: .grams, colour: true)
        #expect(
            coloured.lines(content, columns: 40, rows: 24)[2]
                == "#65535 100.0%\u{1B}[1;33m heaviest\u{1B}[0m\u{1B}[31m SATURATED\u{1B}[0m"
        )
    }

    @Test func aShortTerminalShowsTheHeaviestAndCountsTheRest() {
        var reading = OutputTestValues.twoContacts
        reading.contacts.append(
            OutputTestValues.contact(19, slot: 2, pressure: 600, force: 0.1, ratio: 0.2, share: 0.1, rank: 3)
        )
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        // Four rows: too few for the blank rows, so header (one line while waiting for a device) and status leave
        // two: the three contacts go on one line, each its name and weight (percent without grams), `*` after the
        // heaviest.
        let lines = renderer.lines(LiveViewContent(reading: reading, sequence: 9), columns: 120, rows: 4)
        #expect(
            lines == [
                "plumometer  waiting for a device",
                "#17 3000.0 g *  #18 25.0%       #19 10.0%",
                "3 contacts  0.0 s  #9   " + Self.keys + "100% of full scale",
            ]
        )
        // Too narrow for two to a line: the heaviest, and how many more there are.
        var narrow = LiveViewRenderer(unit: .grams, colour: false)
        let counted = narrow.lines(LiveViewContent(reading: reading, sequence: 9), columns: 26, rows: 4)
        #expect(counted.count == 4 && counted[1].hasPrefix("#17 ") && counted[2] == "  ... and 2 more...", "\(counted)")
        let tallEnough = renderer.lines(LiveViewContent(reading: reading, sequence: 9), columns: 80, rows: 8)
        #expect(tallEnough.filter { $0.hasPrefix("   #") }.count == 3)
    }

    @Test("from 40 x 10 up, every object shows with its name and weight: 16 of them two to a line at 40 x 10")
    func everyObjectShowsOnASmallTerminal() {
        for count in [1, 3, 8, 12, 16] {
            var contacts: [ContactReading] = []
            for index in 0..<count {
                let step = Double(index + 1)
                contacts.append(
                    OutputTestValues.contact(
                        100 + index,
                        slot: index,
                        pressure: Int32(100 * (index + 1)),
                        force: 0.01 * step,
                        ratio: 1,
                        share: 1,
                        rank: count - index,
                        heaviest: index == count - 1,
                        grams: 10 * step
                    )
                )
            }
            let content = LiveViewContent(
                record: OutputTestValues.record(),
                reading: Reading(time: EventTime(microseconds: 1), contacts: contacts),
                sequence: 7
            )
            for (columns, rows) in [(40, 10), (40, 12), (60, 16), (300, 100)] {
                var renderer = LiveViewRenderer(unit: .grams, colour: false)
                let lines = renderer.lines(content, columns: columns, rows: rows)
                #expect(lines.count <= rows, "\(count) at \(columns) x \(rows): \(lines)")
                #expect(lines.allSatisfy { $0.count < columns }, "\(count) at \(columns) x \(rows): \(lines)")
                for contact in contacts {
                    let weight: String = NumberText.fixed(contact.grams ?? 0, 1) + " g"
                    let name = "#\(contact.id) "
                    #expect(
                        lines.contains { (line: String) -> Bool in line.contains(name) && line.contains(weight) },
                        "#\(contact.id) \(weight), \(count) at \(columns) x \(rows): \(lines.joined(separator: "\n"))"
                    )
                }
                #expect(lines.last?.hasSuffix("[q]uit") == true || lines.last?.contains("[q]uit   ") == true)
            }
        }
    }

    @Test func barsAutoRangeUpwardsOnlyIn125Steps() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        func screen(force: Double) -> [String] {
            let reading = Reading(
                time: EventTime(microseconds: 1_000_000),
                contacts: [
                    OutputTestValues.contact(
                        1,
                        pressure: 1,
                        force: force,
                        ratio: 1,
                        share: 1,
                        rank: 1,
                        heaviest: true
                    )
                ]
            )
            return renderer.lines(LiveViewContent(reading: reading, sequence: 1), columns: 100, rows: 24)
        }
        // 100 columns, a tail of 7 + 10 + 12: bars are 60 wide (100 - 1 - 7 - 29 = 63, at most 60).
        #expect(screen(force: 0.015)[2] == "    #1 " + Self.bar(45, of: 60) + "   1.5%  settling  * heaviest")
        #expect(renderer.barScale == 0.02)
        #expect(screen(force: 0.3)[2] == "    #1 " + Self.bar(36, of: 60) + "  30.0%  settling  * heaviest")
        #expect(renderer.barScale == 0.5)
        let lighter = screen(force: 0.01)
        #expect(lighter[2] == "    #1 " + Self.bar(1, of: 60) + "   1.0%  settling  * heaviest", "no jump back")
        #expect(lighter.last?.hasSuffix("bar: 50% of full scale") == true)
        #expect(screen(force: 2)[2].contains(Self.bar(60, of: 60)) && renderer.barScale == 1, "capped at full scale")
        let steps = sequence(first: 0.001) { $0 < 1 ? LiveViewRenderer.nextScale(after: $0) : nil }
        #expect(Array(steps) == [0.001, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1])
    }

    @Test func waitingRemovedResyncAndStatus() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        let removed = LiveViewContent(record: OutputTestValues.record(), removedPath: "/dev/input/event7")
        #expect(
            renderer.lines(removed, columns: 100, rows: 24)[3]
                == "  /dev/input/event7 was removed; waiting for it to come back."
        )
        let resync = LiveViewContent(
            record: OutputTestValues.record(grams: .calibration("/p.json")),
            reading: OutputTestValues.emptyResync,
            sequence: 4,
            status: "tared"
        )
        #expect(
            renderer.lines(resync, columns: 200, rows: 24) == [
                "plumometer  Force Pad  /dev/input/event7",
                "force-grams: grams from the calibration profile /p.json (date made unknown).",
                "",
                "  Nothing on the surface. Place objects; only conductive ones (fingers, coins, fruit) register.",
                "",
                "0 contacts  0.0 s  #4   resynchronised   tared   " + Self.keys + "1% of full scale",
            ]
        )
        let noGrams = LiveViewContent(record: OutputTestValues.record(grams: .none))
        #expect(renderer.lines(noGrams, columns: 100, rows: 24)[1] == Self.reason)
    }

    @Test func unitsAndEscapedNames() {
        var description = OutputTestValues.forcePad
        description.identity.name = "Pad\u{1B}]0;owned\u{07}"
        var content = Self.twoContacts
        content.record = OutputTestValues.record(description, path: "x\u{9B}.evemu")
        var renderer = LiveViewRenderer(unit: .ounces, colour: false)
        let lines = renderer.lines(content, columns: 100, rows: 24)
        #expect(lines[0] == "plumometer  Pad\\x1b]0;owned\\x07  x\\x9b.evemu")
        #expect(lines[3].hasSuffix("  50.0%  105.82 oz  stable    * heaviest"), "\(lines[3])")
    }
}
