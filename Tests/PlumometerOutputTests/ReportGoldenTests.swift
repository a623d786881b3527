import PlumometerCore
import Testing

@testable import PlumometerOutput

/// Golden reports: the exact bytes `describe` prints for hand-built devices (``ReportValues``), in both formats.
@Suite struct DescribeTextGoldenTests {
    @Test func aPadWithPropertiesKeysCodesAndUnits() {
        #expect(
            DescribeText.text(ReportValues.describedPad, path: "/dev/input/event9")
                == #"""
                device:      Pad\x1b[31m X
                path:        /dev/input/event9
                id:          0018:06cb:cd7d:0100 (bus 0x0018, vendor 0x06cb, product 0xcd7d, version 0x0100)
                properties:  INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD
                contacts:    single touch
                axes:
                  ABS_X               0 ..    4000  fuzz 8  flat 0  resolution 40 units/mm (100.0 mm)
                  ABS_Y             -10 ..    2990  fuzz 0  flat 0  resolution 0 (not declared: no millimetres)
                  ABS_PRESSURE        0 ..    2000  fuzz 0  flat 0  resolution 4 units/g (full scale 500.0 g)
                keys:        BTN_LEFT BTN_TOOL_FINGER BTN_TOUCH
                EV_MSC:      MSC_TIMESTAMP
                verdict:     force-grams: ABS_PRESSURE has a resolution of 4 units per gram, so this touchpad \#
                measures force in known units and reads grams without calibration.
                  - pressure-axis: ABS_PRESSURE 0..2000, resolution 4 per gram -> full scale is about 500 g
                  - pressure-resolution: ABS_PRESSURE has a resolution of 4 per gram -> force in known units: grams \#
                without calibration
                advice:      Readings are in grams already; calibrate ('plumometer calibrate') to check or refine \#
                them.
                """# + "\n"
        )
        #expect(
            DescribeText.json(ReportValues.describedPad, path: "/dev/input/event9")
                == #"{"device":{"name":"Pad\u001b[31m X","id":"0018:06cb:cd7d:0100","path":"/dev/input/event9","#
                + #""bus":24,"vendor":1739,"product":52605,"version":256},"properties":["INPUT_PROP_POINTER","#
                + #""INPUT_PROP_BUTTONPAD"],"protocol":"single","slots":1,"axes":[{"axis":"ABS_X","code":0,"min":0,"#
                + #""max":4000,"fuzz":8,"flat":0,"resolution":40,"unit":"mm","size":100.00},{"axis":"ABS_Y","#
                + #""code":1,"min":-10,"max":2990,"fuzz":0,"flat":0,"resolution":0,"unit":"mm","size":null},"#
                + #"{"axis":"ABS_PRESSURE","code":24,"min":0,"max":2000,"fuzz":0,"flat":0,"resolution":4,"unit":"g","#
                + #""size":500.00}],"keys":["BTN_LEFT","BTN_TOOL_FINGER","BTN_TOUCH"],"#
                + #""codes":{"EV_MSC":["MSC_TIMESTAMP"]},"verdict":"force-grams","#
                + #""reasons":["ABS_PRESSURE has a resolution of 4 units per gram,"#
                + #" so this touchpad measures force in known units and reads grams without calibration.","#
                + #""ABS_PRESSURE 0..2000, resolution 4 per gram -> full scale is about 500 g","#
                + #""ABS_PRESSURE has a resolution of 4 per gram -> force in known units: grams without calibration"],"force_sensor":true,"semi_mt":false,"findings":[{"code":"pressure-axis","finding":"ABS_PRESSURE 0..2000, resolution 4 per gram","implication":"full scale is about 500 g"},{"code":"pressure-resolution","finding":"ABS_PRESSURE has a resolution of 4 per gram","implication":"force in known units: grams without calibration"}],"advice":"Readings are in grams already; calibrate ('plumometer calibrate') to check or refine them."}"#
        )
    }

    @Test func aDeviceWithoutAxes() {
        #expect(
            DescribeText.text(ReportValues.bareDevice, path: "bare.evemu")
                == #"""
                device:      Bare
                path:        bare.evemu
                id:          0003:0001:0002:0003 (bus 0x0003, vendor 0x0001, product 0x0002, version 0x0003)
                properties:  none
                contacts:    none (no absolute axes)
                axes:        none
                keys:        none
                verdict:     none: Device reports no pressure axis (neither ABS_MT_PRESSURE nor ABS_PRESSURE), so \#
                there is nothing to weigh with.
                  - no-pressure-axis: neither ABS_MT_PRESSURE nor ABS_PRESSURE is declared -> nothing to weigh with
                advice:      Nothing: this device cannot weigh. 'plumometer list' shows which devices can.
                """# + "\n"
        )
        #expect(
            DescribeText.json(ReportValues.bareDevice, path: "bare.evemu")
                == #"{"device":{"name":"Bare","id":"0003:0001:0002:0003","path":"bare.evemu","bus":3,"vendor":1,"#
                + #""product":2,"version":3},"properties":[],"protocol":"single","slots":1,"axes":[],"keys":[],"#
                + #""codes":{},"verdict":"none","#
                + #""reasons":["Device reports no pressure axis (neither ABS_MT_PRESSURE nor ABS_PRESSURE),"#
                + #" so there is nothing to weigh with.","#
                + #""neither ABS_MT_PRESSURE nor ABS_PRESSURE is declared -> nothing to weigh with"],"#
                + #""force_sensor":null,"semi_mt":false,"findings":[{"code":"no-pressure-axis","#
                + #""finding":"neither ABS_MT_PRESSURE nor ABS_PRESSURE is declared","#
                + #""implication":"nothing to weigh with"}],"#
                + #""advice":"Nothing: this device cannot weigh. 'plumometer list' shows which devices can."}"#
        )
    }

    @Test func severalDevicesAreOneArrayOrOneBlockEach() {
        let one = (description: ReportValues.bareDevice, path: "bare.evemu")
        let two = (description: ReportValues.describedPad, path: "/dev/input/event9")
        // One device is the object alone, as `probe -f json`; several are an array; none is an empty array.
        #expect(DescribeText.json([one]) == DescribeText.json(one.description, path: one.path) + "\n")
        #expect(
            DescribeText.json([one, two])
                == "[" + DescribeText.json(one.description, path: one.path) + ","
                + DescribeText.json(two.description, path: two.path) + "]\n"
        )
        #expect(DescribeText.json([]) == "[]\n")
        // Text: one block after the other, a blank line between.
        #expect(
            DescribeText.text([one, two])
                == DescribeText.text(one.description, path: one.path) + "\n"
                + DescribeText.text(two.description, path: two.path)
        )
    }
}

/// Golden reports: the exact bytes `probe` prints, with a guided report that did not conclude and without one.
@Suite struct ProbeTextGoldenTests {
    @Test func anInconclusiveGuidedReportWithEveryFigure() {
        let result = ProbeResult(
            description: ReportValues.describedPad,
            path: "rec.evemu",
            report: ReportValues.inconclusiveReport
        )
        #expect(
            ProbeText.text(result)
                == #"""
                device:    Pad\x1b[31m X [0018:06cb:cd7d:0100] rec.evemu
                verdict:   force (static)
                static:    force: Its pressure axis has no resolution.
                  - no-resolution: no units -> calibrate
                reasons:
                  - pressure rose "with" the press
                figures:
                  step 1 (rest lightly): 40 samples, pressure 10..30 (level 20.3), size 1.5..2.3
                  step 2 (press harder): 12 samples, pressure 50..90 (level 70.0)
                  pressure seen: 10..90
                  press rise (of the span): 0.123
                  press size change: -0.050
                  correlation pressure/size (steps 2-3): 0.988
                  resting decay: 0.010
                decays:    yes
                note:      Step 3 timed out.
                note:      No roll.
                advice:    Calibrate with reference weights ('plumometer calibrate') to read grams; run the guided \#
                'plumometer probe' to confirm the sensor follows force.
                """# + "\n"
        )
        #expect(
            ProbeText.json(result)
                == #"{"verdict":"force","guided":true,"conclusive":false,"#
                + #""reasons":["pressure rose \"with\" the press"],"device":{"name":"Pad\u001b[31m X","#
                + #""id":"0018:06cb:cd7d:0100","path":"rec.evemu"},"static_verdict":"force","semi_mt":false,"#
                + #""findings":[{"code":"no-resolution","finding":"no units","implication":"calibrate"}],"#
                + #""decays":true,"figures":{"pressure_seen":[10,90],"press_rise":0.1235,"roll_rise":null,"#
                + #""press_size_change":-0.0500,"roll_size_change":null,"correlation":0.9877,"rest_decay":0.0100,"#
                + #""decay_per_second":0.0025,"steps":[{"step":1,"samples":40,"pressure_seen":[10,30],"#
                + #""pressure_level":20.2500,"size_level":2.0000},{"step":2,"samples":12,"pressure_seen":[50,90],"#
                + #""pressure_level":70.0000,"size_level":null}]},"notes":["Step 3 timed out.","No roll."],"#
                + #""advice":"Calibrate with reference weights ('plumometer calibrate') to read grams; run the guided 'plumometer probe' to confirm the sensor follows force."}"#
                + "\n"
        )
    }

    @Test func theStaticPartAlone() {
        let result = ProbeResult(description: ReportValues.describedPad, path: "/dev/input/event9", report: nil)
        #expect(
            ProbeText.text(result)
                == #"""
                device:    Pad\x1b[31m X [0018:06cb:cd7d:0100] /dev/input/event9
                verdict:   force-grams
                static:    force-grams: ABS_PRESSURE has a resolution of 4 units per gram, so this touchpad \#
                measures force in known units and reads grams without calibration.
                  - pressure-axis: ABS_PRESSURE 0..2000, resolution 4 per gram -> full scale is about 500 g
                  - pressure-resolution: ABS_PRESSURE has a resolution of 4 per gram -> force in known units: grams \#
                without calibration
                advice:    Readings are in grams already; calibrate ('plumometer calibrate') to check or refine \#
                them.
                """# + "\n"
        )
        #expect(
            ProbeText.json(result)
                == #"{"verdict":"force-grams","guided":false,"conclusive":true,"#
                + #""reasons":["ABS_PRESSURE has a resolution of 4 units per gram,"#
                + #" so this touchpad measures force in known units and reads grams without calibration.","#
                + #""ABS_PRESSURE 0..2000, resolution 4 per gram -> full scale is about 500 g","#
                + #""ABS_PRESSURE has a resolution of 4 per gram -> force in known units: grams without calibration"],"device":{"name":"Pad\u001b[31m X","id":"0018:06cb:cd7d:0100","path":"/dev/input/event9"},"static_verdict":"force-grams","semi_mt":false,"findings":[{"code":"pressure-axis","finding":"ABS_PRESSURE 0..2000, resolution 4 per gram","implication":"full scale is about 500 g"},{"code":"pressure-resolution","finding":"ABS_PRESSURE has a resolution of 4 per gram","implication":"force in known units: grams without calibration"}],"advice":"Readings are in grams already; calibrate ('plumometer calibrate') to check or refine them."}"#
                + "\n"
        )
    }
}

/// Golden reports: the exact bytes `list` prints for a usable device with a remapper and a skipped one.
@Suite struct DeviceListTextGoldenTests {
    @Test func aUsableDeviceAndASkippedOne() {
        #expect(
            DeviceListText.text(ReportValues.listed)
                == #"""
                /dev/input/event9  Pad\x1b[31m X
                  id:        0018:06cb:cd7d:0100
                  kind:      touchpad
                  slots:     1
                  pressure:  ABS_PRESSURE 0..2000, resolution 4
                  sensing:   force
                             Its pressure axis has no resolution.
                  findings:
                    - no-resolution: no units -> calibrate
                  remapper:  re-emitted as /dev/input/event21
                  verdict:   usable

                /dev/input/event0  Keys
                  sensing:   none
                  verdict:   skipped: a keyboard: never opened

                """# + "\n"
        )
        #expect(
            DeviceListText.json(ReportValues.listed)
                == #"[{"node":"/dev/input/event9","name":"Pad\u001b[31m X","id":"0018:06cb:cd7d:0100","#
                + #""kinds":["touchpad"],"slots":1,"pressure":{"axis":"ABS_PRESSURE","min":0,"max":2000,"#
                + #""resolution":4},"sensing":"force","force_sensor":true,"semi_mt":false,"#
                + #""findings":[{"code":"no-resolution","finding":"no units","implication":"calibrate"}],"#
                + #""remapper":{"cloned_as":"/dev/input/event21"},"usable":true,"verdict":"usable","#
                + #""reason":"Its pressure axis has no resolution."},{"node":"/dev/input/event0","name":"Keys","#
                + #""id":null,"kinds":[],"slots":null,"pressure":null,"sensing":"none","force_sensor":null,"#
                + #""semi_mt":null,"findings":[],"remapper":null,"usable":false,"verdict":"skipped","#
                + #""reason":"a keyboard: never opened"}]"# + "\n"
        )
        #expect(DeviceListText.json([]) == "[]\n")
        #expect(DeviceListText.text([]) == "")
    }
}

/// Golden reports: the exact bytes of `weigh`'s text answer and of `calibrate`'s fit.
@Suite struct WeighAndCalibrationGoldenTests {
    @Test func weighsHeaviestFirstWithTheTotalAndTheNotice() {
        #expect(
            WeighAnswer.text(ReportValues.settled, unit: .grams)
                == #"""
                #1204     72.0 g  heaviest
                #7        35.5 g  carrier
                #8         99.6%  saturated (the weight is at least this)
                total    107.5 g
                """# + "\n"
        )
        #expect(
            WeighAnswer.text(ReportValues.settled, unit: .ounces, notice: "contact area, not weight")
                == #"""
                #1204    2.54 oz  heaviest
                #7       1.25 oz  carrier
                #8         99.6%  saturated (the weight is at least this)
                total    3.79 oz
                (contact area, not weight)
                """# + "\n"
        )
    }

    @Test func aDirectFitSaved() throws {
        let fit = try ReportValues.directFit
        #expect(
            CalibrationReport.text(fit, savedPath: "/p/x.json")
                == #"""
                device:     Pad\x1b[31m X [0018:06cb:cd7d:0100]
                fit:        grams = 0.099750 * pressure - 5.225
                offset:     the intercept, what the pad reads at pressure 0, measured with references placed \#
                directly on it
                R²:         0.99998 (good)
                points:
                  pressure     100.0  grams     4.500  residual -0.250 g
                  pressure    1100.0  grams   105.000  residual 0.500 g
                  pressure    2100.0  grams   204.000  residual -0.250 g
                saved:      /p/x.json
                """# + "\n"
        )
        #expect(
            CalibrationReport.json(fit, savedPath: "/p/x.json")
                == #"{"device":"Pad\u001b[31m X","id":"0018:06cb:cd7d:0100","slope":0.099750,"intercept":-5.2250,"#
                + #""r2":0.999981,"grade":"good","basis":"direct","carrier_grams":null,"contact_area":false,"#
                + #""points":[{"pressure":100.00,"grams":4.500},{"pressure":1100.00,"grams":105.000},"#
                + #"{"pressure":2100.00,"grams":204.000}],"residuals":[-0.2500,0.5000,-0.2500],"#
                + #""profile":"/p/x.json"}"# + "\n"
        )
    }

    @Test func aCarrierLighterThanNothingOnAContactAreaPadNotSaved() throws {
        let fit = try ReportValues.carrierFit
        #expect(
            CalibrationReport.text(fit, savedPath: nil, notSaved: "a recording")
                == #"""
                device:     Pad\x1b[31m X [0018:06cb:cd7d:0100]
                fit:        grams = 0.025000 * pressure + 0.000
                carrier:    -2.500 g, the carrier's own weight (where the references' line crosses pressure 0); the \#
                profile leaves it out: pressure 0 reads 0 g, and anything placed directly on the pad reads its own \#
                weight
                note:       a carrier lighter than nothing: this pad reads nothing below some load, so light \#
                objects placed directly read light; --direct-reference MASS measures that offset
                measures:   contact area, not weight: this device's pressure grows with how much of each object \#
                touches it, so its figures compare contact areas (--allow-contact-size)
                R²:         1.00000 (unchecked)
                points:     (grams added on the carrier)
                  pressure     500.0  grams    15.000  residual 0.000 g
                  pressure     900.0  grams    25.000  residual 0.000 g
                note:       two points always fit a line; add a third reference weight to check it
                saved:      no (a recording)
                """# + "\n"
        )
        #expect(
            CalibrationReport.json(fit, savedPath: nil)
                == #"{"device":"Pad\u001b[31m X","id":"0018:06cb:cd7d:0100","slope":0.025000,"intercept":0.0000,"#
                + #""r2":1.000000,"grade":"unchecked","basis":"carrier","carrier_grams":-2.5000,"contact_area":true,"#
                + #""points":[{"pressure":500.00,"grams":15.000},{"pressure":900.00,"grams":25.000}],"#
                + #""residuals":[0.0000,0.0000],"profile":null}"# + "\n"
        )
    }
}

/// The date in `plot`'s title: the UTC day of an instant, the last microsecond of a day still that day.
@Suite struct PlotDateTests {
    @Test func theUTCDayOfAnInstant() {
        #expect(UTCTime.day(microseconds: 1_767_225_600_000_000) == "2026-01-01")
        #expect(UTCTime.day(microseconds: 1_767_225_599_999_999) == "2025-12-31")
        #expect(UTCTime.day(microseconds: -1) == "1969-12-31")
    }
}
