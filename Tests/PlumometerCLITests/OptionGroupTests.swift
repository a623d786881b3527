import PlumometerCore
import PlumometerSession
import PlumometerTestKit
import Testing

@testable import PlumometerCLI

/// Option groups are values made from a command line that check themselves, in the words the commands used.
@Suite struct OptionGroupTests {
    @Test func aReadingSelectionRefusesADescWithoutARecording() throws {
        for spec in [WeighCommand.spec, ProbeCommand.spec] {
            let options = spec.name == "weigh" ? WeighCommand.Options.selection : ProbeCommand.Options.selection
            let alone = try parse(["--desc", "pad.desc"], as: spec)
            let error = expectUsageError { try ReadingSelection(alone, options) }
            #expect(
                error?.message == "--desc describes the device of a --replay FILE of events; give --replay FILE too."
            )
            #expect(error?.command == spec.name)
            let both = try ReadingSelection(
                parse(["--replay", "s.ev", "--desc", "pad.desc", "-d", "2"], as: spec),
                options
            )
            #expect(both.replay == "s.ev" && both.description == "pad.desc" && both.device == "2")
            let device = try ReadingSelection(parse(["-d", "/dev/input/event7"], as: spec), options)
            #expect(device.device == "/dev/input/event7" && device.replay == nil && device.description == nil)
        }
    }

    @Test func aCalibrationInputNeedsSomethingToCalibrateWith() throws {
        let nothing = try parse(["--min-r2", "0.9"], as: CalibrateCommand.spec)
        #expect(
            expectUsageError { try CalibrationInput(nothing) }?.message
                == "Nothing to calibrate with: give two or more --point RAW:GRAMS, or --reference weights to place one by one."
        )
        let carrierAlone = try parse(["--direct-reference", "5g", "--point", "0:0"], as: CalibrateCommand.spec)
        #expect(
            expectUsageError { try CalibrationInput(carrierAlone) }?.message
                == "--direct-reference is the carrier of a guided calibration: give --reference weights to add on it."
        )
        let points = try CalibrationInput(parse(["--point", "0:0", "--point", "10:5g"], as: CalibrateCommand.spec))
        #expect(!points.isGuided && points.basis == .direct && points.minimumRSquared == 0.97)
        let guided = try CalibrationInput(
            parse(["--reference", "5g", "--reference", "10g"], as: CalibrateCommand.spec)
        )
        #expect(guided.isGuided && guided.basis == .carrier && guided.references.map(\.grams) == [5, 10])
        let direct = try CalibrationInput(
            parse(["--reference", "5g", "--direct-reference", "2g", "--min-r2", "0.5"], as: CalibrateCommand.spec)
        )
        #expect(direct.basis == .direct && direct.carrier?.grams == 2 && direct.minimumRSquared == 0.5)
    }

    @Test func aProfileOfARecordingIsSavedOnlyWhenAskedFor() throws {
        let identity = DeviceIdentity(bus: 3, vendor: 1, product: 2, version: 0, name: "Pad")
        func destination(_ arguments: [String], fromRecording: Bool) throws -> String? {
            try ProfileOutput(parse(arguments, as: CalibrateCommand.spec))
                .destination(for: identity, fromRecording: fromRecording)
        }
        #expect(try destination([], fromRecording: true) == nil)
        #expect(try destination(["--no-save"], fromRecording: false) == nil)
        #expect(try destination(["-o", "p.json", "--no-save"], fromRecording: true) == nil)
        #expect(try destination(["-o", "p.json"], fromRecording: true) == "p.json")
        #expect(
            try destination(["--save"], fromRecording: true)?.hasSuffix("/plumometer/0003-0001-0002-pad.json") == true
        )
        #expect(try destination([], fromRecording: false)?.hasSuffix("/plumometer/0003-0001-0002-pad.json") == true)
    }

    @Test func aPlotRequestNeedsAnSVGAndAWindowInOrder() throws {
        func request(_ arguments: [String]) throws -> PlotRequest {
            let parsed = try parse(["rec.evemu"] + arguments, as: PlotCommand.spec)
            return try Runtime.with(.embedded(console: CapturingConsole())) { try PlotRequest(parsed) }
        }
        #expect(expectUsageError { try request([]) }?.message == "Name the SVG to write with -o FILE.")
        #expect(
            expectUsageError { try request(["-o", "out/a.PNG"]) }?.message
                == "plot writes SVG, not what 'a.PNG' is named for: give -o FILE.svg, and convert it if you need "
                + "another format (rsvg-convert FILE.svg -o FILE.png)."
        )
        #expect(
            expectUsageError { try request(["-o", "a.svg", "--from", "3", "--to", "1"]) }?.message
                == "--to must not be before --from."
        )
        let window = try request(["-o", "A.SVG", "--from", "1.5", "--to", "1.5"])
        #expect(window.destination == "A.SVG" && window.from == 1.5 && window.to == 1.5)
        #expect(try request(["-o", "-"]).from == 0)
    }

    @Test func aStreamOutputRotatesAFileOnly() throws {
        func output(_ arguments: [String]) throws(UsageError) -> StreamOutput {
            try StreamOutput(parse(arguments, as: StreamCommand.spec))
        }
        #expect(
            expectUsageError { try output(["--max-size", "1M"]) }?.message
                == "--max-size rotates the file of -o FILE; give -o FILE (stdout is no file)."
        )
        #expect(expectUsageError { try output(["-o", "-", "--max-size", "1M"]) } != nil)
        #expect(
            expectUsageError { try output(["-o", "log", "--keep", "2"]) }?.message
                == "--keep says how many rotated files --max-size keeps; give --max-size too."
        )
        let rotated = try output(["-o", "log", "--max-size", "8K", "--count", "5", "--timestamps", "wall"]).settings
        #expect(rotated.file == "log" && rotated.frameLimit == 5 && rotated.wallTimestamps)
        #expect(rotated.rotation?.maximumSize == 8192 && rotated.rotation?.keep == 3)
    }
}
