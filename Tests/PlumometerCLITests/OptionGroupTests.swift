import PlumometerCore
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
}
