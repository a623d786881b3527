import PlumometerOutput

@testable import PlumometerCore

/// Hand-built devices, fits and probe reports for the golden reports of `describe`, `probe`, `list`, `weigh` and
/// `calibrate`: every value is written out here, so an expected line can be checked against them by eye.
enum ReportValues {
    /// A touchpad with a name that needs escaping on a terminal, two properties, keys, a misc code, a position axis
    /// with a resolution (millimetres), one without, and a force axis with 4 units per gram.
    static let describedPad = DeviceDescription(
        path: "/dev/input/event9",
        identity: DeviceIdentity(bus: 0x18, vendor: 0x6cb, product: 0xcd7d, version: 0x100, name: "Pad\u{1b}[31m X"),
        properties: [.buttonpad, .pointer],
        codes: [.key: [0x110, 0x145, 0x14a], .msc: [0x05], .abs: [0x00, 0x01, 0x18]],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 4000, fuzz: 8, resolution: 40),
            .y: AxisInfo(minimum: -10, maximum: 2990),
            .pressure: AxisInfo(minimum: 0, maximum: 2000, resolution: 4),
        ]
    )

    /// A device without a single absolute axis.
    static let bareDevice = DeviceDescription(
        path: "/dev/input/event4",
        identity: DeviceIdentity(bus: 0x3, vendor: 0x1, product: 0x2, version: 0x3, name: "Bare")
    )

    /// A guided report that did not conclude: every figure, one step without a size, notes.
    static let inconclusiveReport = ProbeReport(
        sensing: .force,
        conclusive: false,
        classification: DeviceClassification(
            sensing: .force,
            reason: "Its pressure axis has no resolution.",
            pressureAxis: .mtPressure,
            findings: [
                StaticFinding(
                    code: StaticFinding.Code(rawValue: "no-resolution"),
                    finding: "no units",
                    implication: "calibrate"
                )
            ]
        ),
        decays: true,
        reasons: ["pressure rose \"with\" the press"],
        figures: figures,
        advice: "",
        notes: ["Step 3 timed out.", "No roll."]
    )

    static var figures: ProbeFigures {
        var figures = ProbeFigures()
        figures.steps[.rest] = ProbeFigures.Step(
            samples: 40,
            pressureSeen: 10...30,
            pressureLevel: 20.25,
            sizeSeen: 1.5...2.25,
            sizeLevel: 2
        )
        figures.steps[.press] = ProbeFigures.Step(samples: 12, pressureSeen: 50...90, pressureLevel: 70)
        figures.pressureSeen = 10...90
        figures.pressRise = 0.123_456
        figures.pressSizeChange = -0.05
        figures.correlation = 0.987_65
        figures.restDecay = 0.01
        figures.decayPerSecond = 0.002_5
        return figures
    }

    /// Three points placed directly, with an offset: a good fit.
    static var directFit: Calibration {
        get throws {
            try Calibration.fit(
                points: [
                    CalibrationPoint(pressure: 100, grams: 4.5), CalibrationPoint(pressure: 1100, grams: 105),
                    CalibrationPoint(pressure: 2100, grams: 204),
                ],
                device: describedPad.identity,
                pressureRange: AxisInfo(minimum: 0, maximum: 4000),
                basis: .direct
            )
        }
    }

    /// Two references added on a carrier that reads lighter than nothing (-2.5 g), mapping contact area: unchecked.
    static var carrierFit: Calibration {
        get throws {
            var fit = try Calibration.fit(
                points: [CalibrationPoint(pressure: 500, grams: 15), CalibrationPoint(pressure: 900, grams: 25)],
                device: describedPad.identity,
                pressureRange: AxisInfo(minimum: 0, maximum: 4000),
                basis: .carrier
            )
            fit.measuresContactArea = true
            return fit
        }
    }

    /// Three contacts for `weigh`: the heaviest in grams, a carrier, and one saturated without grams.
    static let settled = Reading(
        time: EventTime(microseconds: 9_000_000),
        contacts: [
            ContactReading(
                id: 1204,
                slot: 0,
                x: 1,
                y: 2,
                pressure: 900,
                force: 0.3,
                percent: 30,
                ratio: 1,
                share: 0.5,
                rank: 1,
                heaviest: true,
                stable: true,
                saturated: false,
                grams: 72.04
            ),
            ContactReading(
                id: 7,
                slot: 1,
                x: 3,
                y: 4,
                pressure: 400,
                force: 0.1,
                percent: 10,
                ratio: 0.4,
                share: 0.3,
                rank: 2,
                heaviest: false,
                stable: true,
                saturated: false,
                grams: 35.456,
                carrier: true
            ),
            ContactReading(
                id: 8,
                slot: 2,
                x: 5,
                y: 6,
                pressure: 2000,
                force: 0.996,
                percent: 99.64,
                ratio: 0.2,
                share: 0.2,
                rank: 3,
                heaviest: false,
                stable: true,
                saturated: true,
                grams: nil
            ),
        ],
        totalGrams: 107.496
    )

    /// One usable device with a remapper's copy and a finding, and one skipped without a description.
    static let listed = [
        DeviceListEntry(
            node: "/dev/input/event9",
            name: describedPad.name,
            identity: describedPad.identity,
            kinds: ["touchpad"],
            description: describedPad,
            classification: inconclusiveReport.classification,
            remapper: DeviceListEntry.Remapper(
                relation: "cloned_as",
                node: "/dev/input/event21",
                explanation: "re-emitted as /dev/input/event21"
            ),
            usable: true,
            verdict: "usable",
            reason: nil
        ),
        DeviceListEntry(
            node: "/dev/input/event0",
            name: "Keys",
            identity: nil,
            kinds: [],
            description: nil,
            classification: nil,
            remapper: nil,
            usable: false,
            verdict: "skipped",
            reason: "a keyboard: never opened"
        ),
    ]
}
