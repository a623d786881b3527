import PlumometerCore
import Testing

@testable import PlumometerOutput

/// The additions of the weighing work, as golden lines: `total_grams` per frame (only when grams are known), the
/// carrier mark, and a calibration profile named with the date it was made in every output.
@Suite struct TotalsCarrierAndProfileLineTests {
    /// One carrier at 250.5 g and an object at -1.25 g (below its tare): a total of 249.25 g.
    static let withTotal = Reading(
        time: EventTime(microseconds: 3_000_000),
        contacts: [
            ContactReading(
                id: 4,
                slot: 0,
                x: 10,
                y: 20,
                pressure: 400,
                force: 0.04,
                percent: 4,
                ratio: 1,
                share: 1,
                rank: 1,
                heaviest: true,
                stable: true,
                saturated: false,
                grams: 250.5,
                carrier: true
            ),
            ContactReading(
                id: 5,
                slot: 1,
                x: 30,
                y: 40,
                pressure: 90,
                force: -0.0002,
                percent: -0.02,
                ratio: 0,
                share: 0,
                rank: 2,
                heaviest: false,
                stable: false,
                saturated: false,
                grams: -1.25
            ),
        ],
        totalGrams: 249.25
    )

    static func profileRecord() -> DeviceRecord {
        var record = OutputTestValues.record(grams: .calibration("/cfg/pad.json"))
        record.profileMade = "2026-12-01T10:02:03Z"
        return record
    }

    @Test func jsonFramesCarryTheTotalOnlyWhenGramsAreKnown() {
        let line = JSONLinesFormatter().frame(Self.withTotal, sequence: 1, device: "d") ?? ""
        #expect(line.hasSuffix("\"grams\":-1.25}],\"total_grams\":249.25}\n"), "\(line)")
        let without = JSONLinesFormatter().frame(OutputTestValues.twoContacts, sequence: 1, device: "d") ?? ""
        #expect(!without.contains("total_grams"))
        var empty = OutputTestValues.emptyResync
        empty.totalGrams = 0
        #expect(
            JSONLinesFormatter().frame(empty, sequence: 1, device: "d")?.hasSuffix("[],\"total_grams\":0.00}\n") == true
        )
    }

    @Test func textShowsTheCarrierNegativeGramsAndTheTotal() {
        #expect(
            TextFormatter().frame(Self.withTotal, sequence: 1, device: "d")
                == "3.000000  #4 4.0% 250.5 g *heaviest* [carrier] =  #5 0.0% -1.3 g  (0.00x)  total 249.3 g\n"
        )
        #expect(
            TextFormatter().frame(OutputTestValues.twoContacts, sequence: 1, device: "d")?.contains("total") == false
        )
    }

    @Test func theProfileIsNamedWithItsDateInTheHeadersAndTheDeviceRecord() {
        let record = Self.profileRecord()
        #expect(
            TextFormatter().device(record)
                == "# /dev/input/event7: Force Pad [001c:05ac:0342:0001], ABS_MT_PRESSURE 0..6000, grams from the "
                + "calibration profile /cfg/pad.json (made 2026-12-01T10:02:03Z), force-grams\n"
        )
        #expect(
            JSONLinesFormatter().device(record)?.hasSuffix(
                ",\"grams_from\":\"calibration\",\"profile\":\"/cfg/pad.json\",\"profile_made\":\"2026-12-01T10:02:03Z\","
                    + "\"schema\":1}\n"
            ) == true
        )
    }

    @Test func theLiveViewNamesTheProfileAndShowsTheTotalAndTheCarrierKey() {
        var renderer = LiveViewRenderer(unit: .grams, colour: false)
        let content = LiveViewContent(record: Self.profileRecord(), reading: Self.withTotal, sequence: 9)
        let lines = renderer.lines(content, columns: 160, rows: 24)
        #expect(
            lines[1] == "force-grams: grams from the calibration profile /cfg/pad.json (made 2026-12-01T10:02:03Z)."
        )
        #expect(lines[3].contains("250.5 g  stable    carrier  * heaviest"), "\(lines[3])")
        #expect(lines[4].contains("-1.3 g  settling"), "\(lines[4])")
        #expect(
            lines.last?.hasPrefix(
                "2 contacts  0.0 s  #9   total 249.3 g  [t]are [c]lear [k]carrier [q]uit"
            )
                == true,
            "\(lines.last ?? "")"
        )
    }
}
