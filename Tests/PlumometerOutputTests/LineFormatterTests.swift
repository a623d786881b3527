import PlumometerCore
import Testing

@testable import PlumometerOutput

/// Golden lines: the exact text each line format gives for hand-built readings and devices (see
/// docs/output-format.md for the schema these lines follow).
@Suite struct JSONLinesFormatterTests {
    let format = JSONLinesFormatter()

    @Test func aFrameWithTwoContactsGramsAndNoGrams() {
        #expect(
            format.frame(OutputTestValues.twoContacts, sequence: 3, device: "/dev/input/event7")
                == "{\"type\":\"frame\",\"time\":12.500000,\"seq\":3,\"device\":\"/dev/input/event7\",\"resync\":false,"
                + "\"contacts\":[{\"id\":17,\"slot\":0,\"x\":100,\"y\":-200,\"x_mm\":null,\"y_mm\":null,\"pressure\":3000,\"force\":0.5000,"
                + "\"percent\":50.0,\"ratio\":1.0000,\"share\":0.6667,\"rank\":1,\"heaviest\":true,\"stable\":true,"
                + "\"saturated\":false,\"grams\":3000.00},{\"id\":18,\"slot\":1,\"x\":null,\"y\":null,\"x_mm\":null,"
                + "\"y_mm\":null,\"pressure\":1500,"
                + "\"force\":0.2500,\"percent\":25.0,\"ratio\":0.5000,\"share\":0.3333,\"rank\":2,\"heaviest\":false,"
                + "\"stable\":false,\"saturated\":true,\"grams\":null}]}\n"
        )
    }

    @Test func aResyncWithNothingOnTheSurface() {
        #expect(
            format.frame(OutputTestValues.emptyResync, sequence: 4, device: "demo.evemu")
                == "{\"type\":\"frame\",\"time\":12.600001,\"seq\":4,\"device\":\"demo.evemu\",\"resync\":true,"
                + "\"contacts\":[]}\n"
        )
    }

    @Test func aDeviceWithGramsFromItsResolution() {
        #expect(
            format.device(OutputTestValues.record())
                == "{\"type\":\"device\",\"time\":1350451575.023449,\"device\":\"/dev/input/event7\","
                + "\"name\":\"Force Pad\",\"id\":\"001c:05ac:0342:0001\",\"slots\":16,\"pressure\":{\"axis\":"
                + "\"ABS_MT_PRESSURE\",\"min\":0,\"max\":6000,\"resolution\":1},\"position\":{\"x\":{\"axis\":"
                + "\"ABS_MT_POSITION_X\",\"min\":-3678,\"max\":3934,\"resolution\":0},\"y\":{\"axis\":"
                + "\"ABS_MT_POSITION_Y\",\"min\":-2479,\"max\":2586,\"resolution\":0}},\"force_sensor\":true,"
                + "\"sensing\":\"force-grams\",\"grams_from\":\"resolution\",\"schema\":1}\n"
        )
    }

    @Test func aDeviceWithGramsFromACalibrationProfile() {
        let record = OutputTestValues.record(grams: .calibration("/home/a \"b\"/pad.json"))
        let line = format.device(record) ?? ""
        #expect(
            line.hasSuffix(
                ",\"grams_from\":\"calibration\",\"profile\":\"/home/a \\\"b\\\"/pad.json\",\"schema\":1}\n"
            ),
            "\(line)"
        )
    }

    @Test func aContactSizeScreenOnProtocolAWithoutGrams() {
        let record = OutputTestValues.record(
            OutputTestValues.anonymousScreen,
            classification: DeviceClassification(sensing: .contactSize, reason: "Contact size.", pressureAxis: nil),
            grams: .none
        )
        #expect(
            format.device(record)
                == "{\"type\":\"device\",\"time\":1350451575.023449,\"device\":\"/dev/input/event3\","
                + "\"name\":\"Screen\",\"id\":\"0018:04f3:2a1c:0100\",\"slots\":null,\"pressure\":{\"axis\":"
                + "\"ABS_MT_PRESSURE\",\"min\":0,\"max\":255,\"resolution\":0},\"position\":{\"x\":{\"axis\":"
                + "\"ABS_MT_POSITION_X\",\"min\":0,\"max\":4095,\"resolution\":0},\"y\":{\"axis\":"
                + "\"ABS_MT_POSITION_Y\",\"min\":0,\"max\":4095,\"resolution\":0}},\"force_sensor\":false,"
                + "\"sensing\":\"contact-size\",\"grams_from\":null,\"schema\":1}\n"
        )
    }

    @Test func aSingleTouchDeviceWithoutPressure() {
        let record = OutputTestValues.record(
            OutputTestValues.plainMouse,
            classification: DeviceClassification(sensing: .none, reason: "No pressure axis."),
            grams: .none
        )
        #expect(
            format.device(record)
                == "{\"type\":\"device\",\"time\":1350451575.023449,\"device\":\"/dev/input/event2\","
                + "\"name\":\"Touch Mouse\",\"id\":\"0003:046d:c52b:0111\",\"slots\":1,\"pressure\":null,"
                + "\"position\":{\"x\":{\"axis\":\"ABS_X\",\"min\":0,\"max\":1000,\"resolution\":0},"
                + "\"y\":{\"axis\":\"ABS_Y\",\"min\":0,\"max\":1000,\"resolution\":0}},\"force_sensor\":null,\"sensing\":\"none\",\"grams_from\":null,\"schema\":1}\n"
        )
    }

    @Test func controlCharactersInNamesAndPathsAreEscaped() {
        var description = OutputTestValues.forcePad
        description.identity.name = "Evil\u{1B}]0;pwned\u{07}\tPad\u{7F}\\"
        let line = format.device(OutputTestValues.record(description, path: "a\nb\r.evemu")) ?? ""
        #expect(
            line.contains(",\"device\":\"a\\nb\\r.evemu\",\"name\":\"Evil\\u001b]0;pwned\\u0007\\tPad\\u007f\\\\\",")
        )
        let frame =
            format.frame(OutputTestValues.emptyResync, sequence: 1, device: "\u{1B}[2J\"q\".evemu") ?? ""
        #expect(frame.contains(",\"device\":\"\\u001b[2J\\\"q\\\".evemu\","), "\(frame)")
        #expect(!line.dropLast().contains("\n") && !frame.dropLast().contains("\n"), "one line each")
    }

    @Test func removed() {
        #expect(
            format.removed(path: "/dev/input/event7", time: EventTime(microseconds: 13_000_000))
                == "{\"type\":\"removed\",\"time\":13.000000,\"device\":\"/dev/input/event7\"}\n"
        )
        #expect(format.header() == nil)
    }
}

@Suite struct CSVFormatterTests {
    let format = CSVFormatter()

    @Test func theHeaderNamesEveryColumn() {
        #expect(
            format.header()
                == "time,seq,device,id,slot,x,y,pressure,force,percent,ratio,share,rank,heaviest,stable,saturated,grams,"
                + "resync,type,name,x_mm,y_mm,total_grams\n"
        )
    }

    @Test func oneRowPerContact() {
        #expect(
            format.frame(OutputTestValues.twoContacts, sequence: 3, device: "/dev/input/event7")
                == "12.500000,3,/dev/input/event7,17,0,100,-200,3000,0.5000,50.0,1.0000,0.6667,1,true,true,false,3000.00,"
                + "false,frame,,,,\n"
                + "12.500000,3,/dev/input/event7,18,1,,,1500,0.2500,25.0,0.5000,0.3333,2,false,false,true,,false,frame,"
                + ",,,\n"
        )
    }

    @Test func anEmptyFrameIsOneRowWithEmptyContactColumns() {
        let row = format.frame(OutputTestValues.emptyResync, sequence: 4, device: "demo.evemu")
        // The 14 contact columns, id to grams, are empty.
        #expect(row == "12.600001,4,demo.evemu," + String(repeating: ",", count: 13) + ",true,frame,,,,\n")
        #expect(row?.split(separator: ",", omittingEmptySubsequences: false).count == CSVFormatter.columns.count)
    }

    @Test func fieldsWithCommasQuotesOrLineBreaksAreQuoted() {
        let row = format.frame(OutputTestValues.emptyResync, sequence: 1, device: "my \"pad\", v2\n.evemu") ?? ""
        #expect(
            row == "12.600001,1,\"my \"\"pad\"\", v2\n.evemu\"," + String(repeating: ",", count: 13)
                + ",true,frame,,,,\n"
        )
        #expect(CSVFormatter.field("plain") == "plain")
        #expect(CSVFormatter.field("a\rb") == "\"a\rb\"")
        // ESC and BEL from a device name reach no terminal raw (a CSV is `cat` as often as parsed).
        #expect(CSVFormatter.field("a\u{1B}[2J\u{07}b") == "a\\x1b[2J\\x07b")
    }

    @Test func devicesAndRemovalsAreRowsOfTheirOwnType() {
        #expect(
            format.device(OutputTestValues.record())
                == "1350451575.023449,,/dev/input/event7" + String(repeating: ",", count: 16) + "device,Force Pad,,,\n"
        )
        #expect(
            format.removed(path: "/dev/input/event7", time: .zero)
                == "0.000000,,/dev/input/event7" + String(repeating: ",", count: 16) + "removed,,,,\n"
        )
    }
}

@Suite struct TextFormatterTests {
    @Test func aFrameInEachUnit() {
        let reading = OutputTestValues.twoContacts
        #expect(
            TextFormatter().frame(reading, sequence: 3, device: "x")
                == "12.500000  #17 50.0% 3000.0 g *heaviest* =  #18 25.0%  (0.50x) !saturated\n"
        )
        #expect(
            TextFormatter(unit: .ounces).frame(reading, sequence: 3, device: "x")
                == "12.500000  #17 50.0% 105.82 oz *heaviest* =  #18 25.0%  (0.50x) !saturated\n"
        )
        #expect(
            TextFormatter(unit: .carats).frame(reading, sequence: 3, device: "x")
                == "12.500000  #17 50.0% 15000.0 ct *heaviest* =  #18 25.0%  (0.50x) !saturated\n"
        )
    }

    @Test func aResyncWithNothingOnTheSurface() {
        #expect(
            TextFormatter().frame(OutputTestValues.emptyResync, sequence: 4, device: "x")
                == "12.600001  [resync]  (no contacts)\n"
        )
    }

    @Test func devices() {
        #expect(
            TextFormatter().device(OutputTestValues.record())
                == "# /dev/input/event7: Force Pad [001c:05ac:0342:0001], ABS_MT_PRESSURE 0..6000 (1/g), force-grams\n"
        )
        let screen = OutputTestValues.record(
            OutputTestValues.anonymousScreen,
            classification: DeviceClassification(sensing: .contactSize, reason: "Contact size."),
            grams: .none
        )
        #expect(
            TextFormatter().device(screen)
                == "# /dev/input/event3: Screen [0018:04f3:2a1c:0100], ABS_MT_PRESSURE 0..255, contact-size "
                + "(contact area, not weight: this device's pressure grows with how much of each object touches it, "
                + "so its figures compare contact areas)\n"
        )
        let mouse = OutputTestValues.record(
            OutputTestValues.plainMouse,
            classification: DeviceClassification(sensing: .none, reason: "No pressure axis."),
            grams: .none
        )
        #expect(TextFormatter().device(mouse) == "# /dev/input/event2: Touch Mouse [0003:046d:c52b:0111], none\n")
    }

    @Test func controlCharactersInNamesAndPathsBecomeVisibleEscapes() {
        var description = OutputTestValues.forcePad
        description.identity.name = "Evil\u{1B}]0;pwned\u{07}Pad\u{9B}"
        let line = TextFormatter().device(OutputTestValues.record(description, path: "/tmp/\u{1B}[2J.evemu"))
        #expect(
            line
                == "# /tmp/\\x1b[2J.evemu: Evil\\x1b]0;pwned\\x07Pad\\x9b [001c:05ac:0342:0001], "
                + "ABS_MT_PRESSURE 0..6000 (1/g), force-grams\n"
        )
    }

    @Test func removed() {
        #expect(
            TextFormatter().removed(path: "/dev/input/event7", time: EventTime(microseconds: 13_000_000))
                == "13.000000  /dev/input/event7 removed\n"
        )
        #expect(TextFormatter().header() == nil)
    }
}

/// What the terminal shows of text from devices and recordings.
@Suite struct TerminalTextTests {
    @Test func controlCharactersBecomeEscapesAndTheRestIsKept() {
        #expect("plain ü ✓ 🍑".forTerminal == "plain ü ✓ 🍑")
        #expect("tab\tand\nnewline".forTerminal == "tab\tand\nnewline", "tab and newline are kept")
        #expect("\u{0}\u{1B}[31m\u{7F}\u{80}\u{9F}\u{A0}".forTerminal == "\\x00\\x1b[31m\\x7f\\x80\\x9f\u{A0}")
        #expect("\r".forTerminal == "\\x0d")
    }

    @Test func jsonStringsEscapeTheirOwnWay() {
        #expect(JSONText.string("a\"b\\c\n\r\t\u{1}\u{7F}ü") == "\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u007fü\"")
        #expect(JSONText.optional(Int?.none) { String($0) } == "null")
        #expect(JSONText.optional(7) { String($0) } == "7")
    }
}
