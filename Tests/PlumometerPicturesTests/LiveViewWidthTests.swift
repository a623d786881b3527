import Foundation
import PlumometerCore
import PlumometerOutput
import PlumometerPictures
import Testing

/// The live view's two views at 40, 50 and 80 columns, as the binary draws them (the renderer with the map as its
/// body, or the bars with their position column): every contact named `#id` in both, the map's labels with percent
/// and grams, and the heaviest marked (and coloured) at every width.
@Suite("Live view at 40, 50 and 80 columns: one name per contact, the heaviest marked at every width")
struct LiveViewWidthTests {
    /// Three plums at rest on the 100 x 60 mm pad, weighed by the axis resolution (4 units a gram): #417 71.2 g,
    /// #418 57.7 g, #419 84.8 g the heaviest.
    static let plums = Reading(
        time: at(6),
        contacts: [
            contact(417, atMM: 25, 22, force: 0.2848, grams: 71.2, rank: 2, stable: true),
            contact(418, atMM: 50, 44, force: 0.2308, grams: 57.7, rank: 3, stable: true),
            contact(419, atMM: 78, 18, force: 0.3392, grams: 84.8, rank: 1, heaviest: true, stable: true),
        ]
    )

    static let record = DeviceRecord(
        path: "plums.evemu",
        description: touchpad(),
        time: at(0),
        classification: DeviceClassification(
            sensing: .forceWithUnits,
            reason: "A force sensor.",
            pressureAxis: .mtPressure
        ),
        gramsSource: .resolution(4)
    )

    /// The screen's lines as the terminal shows them (cursor and clearing codes removed; SGR kept when `colour`).
    static func screen(columns: Int, rows: Int = 20, map: Bool, colour: Bool) -> [String] {
        var renderer = LiveViewRenderer(unit: .grams, colour: colour)
        let geometry = PadGeometry(device: touchpad())!
        renderer.position = { geometry.positionText(x: $0.x, y: $0.y) }
        renderer.growScale(for: plums.contacts)
        let scale = renderer.scale
        let text = renderer.screen(
            LiveViewContent(record: record, reading: plums, sequence: 600),
            columns: columns,
            rows: rows
        ) { columns, rows in
            guard map else { return nil }
            return PadMap(
                geometry: geometry,
                columns: columns,
                rows: rows,
                charset: .unicode,
                colour: colour,
                forceScale: scale
            ).render(plums)
        }
        return
            text
            .replacingOccurrences(of: "\u{1B}[H", with: "")
            .replacingOccurrences(of: "\u{1B}[J", with: "")
            .components(separatedBy: "\u{1B}[K\r\n")
            .map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }
    }

    /// The bars keep every contact's name, percent, weight and state down to 40 columns, and the heaviest's mark: at
    /// 80 the whole line with the position column, at 50 a narrower bar and single spaces, at 40 no bar.
    @Test func theBarsAt80And50And40ColumnsWithoutColour() {
        #expect(
            Self.screen(columns: 80, map: false, colour: false) == [
                "plumometer  Synthetic PressurePad  plums.evemu",
                "A force sensor. Grams from the axis resolution (4/g).",
                "",
                "  #417 ██████████░░░░░░░░  28.5%     71.2 g  x 25 y 22 mm  stable  ",
                "  #418 ████████░░░░░░░░░░  23.1%     57.7 g  x 50 y 44 mm  stable  ",
                "  #419 ████████████░░░░░░  33.9%     84.8 g  x 78 y 18 mm  stable    * heaviest",
                "",
                "3 contacts  6.0 s  #600   [t]are [c]lear [k]carrier [m]ap [q]uit   scale 50%",
            ]
        )
        #expect(
            Self.screen(columns: 50, map: false, colour: false) == [
                "plumometer  Synthetic PressurePad  plums.evemu",
                "A force sensor. Grams from the axis resolution",
                "(4/g).",
                "",
                "#417 ██████░░░░ 28.5% 71.2 g stable  ",
                "#418 █████░░░░░ 23.1% 57.7 g stable  ",
                "#419 ███████░░░ 33.9% 84.8 g stable   * heaviest",
                "",
                "3 contacts  6.0 s   [t][c][k][m] [q]uit",
            ]
        )
        #expect(
            Self.screen(columns: 40, map: false, colour: false) == [
                "plumometer  Synthetic PressurePad ...",
                "A force sensor. Grams from the axis",
                "resolution (4/g).",
                "",
                "#417  28.5% 71.2 g stable  ",
                "#418  23.1% 57.7 g stable  ",
                "#419  33.9% 84.8 g stable   * heaviest",
                "",
                "3 contacts  6.0 s   [t][c][k][m] [q]uit",
            ]
        )
    }

    /// With colour the heaviest's mark is the word in bold yellow, and its bar yellow while there is a bar.
    @Test func theHeaviestStaysYellowAt80And50And40Columns() {
        #expect(
            Self.screen(columns: 80, map: false, colour: true)[5]
                == "  #419 \u{1B}[33m██████████████░░░░░░\u{1B}[0m  33.9%     84.8 g  x 78 y 18 mm  stable  \u{1B}[1;33m  heaviest\u{1B}[0m"
        )
        #expect(
            Self.screen(columns: 50, map: false, colour: true)[6]
                == "#419 \u{1B}[33m████████░░░░\u{1B}[0m 33.9% 84.8 g stable  \u{1B}[1;33m heaviest\u{1B}[0m"
        )
        #expect(
            Self.screen(columns: 40, map: false, colour: true)[6]
                == "#419  33.9% 84.8 g stable  \u{1B}[1;33m heaviest\u{1B}[0m"
        )
    }

    /// The map names each contact as the bars do (`#id`), with its percent of full scale and its grams; at 40
    /// columns too.
    @Test func theMapAt40ColumnsNamesContactsAsTheBarsDo() {
        #expect(
            Self.screen(columns: 40, map: true, colour: false) == [
                "plumometer  Synthetic PressurePad ...",
                "A force sensor. Grams from the axis",
                "resolution (4/g).",
                "",
                "┌─────────────────────────────────────┐",
                "│                   #419 33.9% 84.8 g=│",
                "│#417 28.5% 71.2 g=       ▓▓▓▓▓▓▓     │",
                "│      ▄█████▄           ▓▓▓▓▓▓▓▓▓    │",
                "│     ████████▄          ▓▓▓▓▓▓▓▓▓    │",
                "│     ████████▀           ▓▓▓▓▓▓▓▓    │",
                "│      ▀█████▀             ▓▓▓▓▓      │",
                "│                ▄███▄                │",
                "│               ███████               │",
                "│               ███████               │",
                "│               ▀█████▀               │",
                "│         #418 23.1% 57.7 g=          │",
                "└─────────────────────────────────────┘",
                "█ contact  ▓ heaviest  = stable",
                "",
                "3 contacts  6.0 s   [t][c][k][m] [q]uit",
            ]
        )
    }

    /// At every width both views name the same contacts with the same weight (one rule per unit: `84.8 g` in the
    /// map as in the bars, never `85 g`), and on a colour terminal the heaviest's label (map) and mark (bars) are
    /// bold yellow.
    @Test(arguments: [40, 50, 80])
    func bothViewsNameTheContactsAlike(columns: Int) {
        let map = Self.screen(columns: columns, map: true, colour: false).joined(separator: "\n")
        let bars = Self.screen(columns: columns, map: false, colour: false).joined(separator: "\n")
        let labels = [("#417", "71.2 g"), ("#418", "57.7 g"), ("#419", "84.8 g")]
        for (name, grams) in labels {
            let percent = name == "#417" ? "28.5%" : name == "#418" ? "23.1%" : "33.9%"
            #expect(map.contains("\(name) \(percent) \(grams)="), "\(columns): \(map)")
            #expect(bars.contains(name + " "), "\(columns): \(bars)")
            #expect(bars.contains(" \(grams) "), "\(columns): the bars show \(name) as the map does: \(bars)")
        }
        #expect(!map.contains("#1") && !map.contains("#2 ") && !map.contains("#3 "), "no rank as a name")
        let colourMap = Self.screen(columns: columns, map: true, colour: true).joined()
        #expect(colourMap.contains("\u{1B}[1;33m#419 33.9% 84.8 g=\u{1B}[0m"))
        let colourBars = Self.screen(columns: columns, map: false, colour: true).joined()
        #expect(colourBars.contains("\u{1B}[1;33m") && colourBars.contains("heaviest\u{1B}[0m"))
    }
}
