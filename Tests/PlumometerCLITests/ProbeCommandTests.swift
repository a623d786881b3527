import Foundation
import PlumometerTestSupport
import Testing

/// `plumometer probe` through the binary: the four composed recordings of the gestures (Tests/Fixtures/Probe),
/// the static part on device descriptions, and the exit statuses.
@Suite struct ProbeCommandTests {
    static func probeFixture(_ name: String) -> String {
        Fixtures.projectFixtures.appendingPathComponent("Probe/" + name).path
    }

    static func object(_ result: ProcessResult) throws -> [String: Any] {
        try #require(try CLI.jsonObjects(result).first)
    }

    @Test(arguments: [
        ("probe-contact-size.evemu", "contact-size", false),
        ("probe-force.evemu", "force", false),
        ("probe-constant.evemu", "bogus", false),
        ("probe-decaying.evemu", "force", true),
    ])
    func eachRecordingGetsItsVerdict(file: String, verdict: String, decays: Bool) throws {
        let json = try CLI.run(["probe", "--replay", Self.probeFixture(file), "-f", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdoutLines.count == 1)
        let report = try Self.object(json)
        #expect(report.string("verdict") == verdict)
        #expect(report.bool("guided") == true)
        let reasons = try #require(report["reasons"] as? [String])
        #expect(!reasons.isEmpty)
        let device = try #require(report["device"] as? [String: Any])
        #expect(device.string("name")?.hasPrefix("Probe ") == true)
        #expect(device.string("id") == "0018:06cb:7e7e:0100")
        let figures = try #require(report["figures"] as? [String: Any])
        #expect(figures["pressure_seen"] is [Any])
        #expect((report["findings"] as? [[String: Any]])?.contains { $0.string("code") == "pressure-axis" } == true)
        if decays { #expect(report.bool("decays") == true) }
        #expect(report.string("advice")?.isEmpty == false)
        // A recording is read as one: no prompts, each step said as what is looked for in it, one line per step.
        #expect(json.stderr.contains("Step 1/4 (rest lightly): looking in the recording for a finger resting"))
        #expect(json.stderr.contains("Step 2/4 (press harder): looking in the recording for"))
        #expect(!json.stderr.contains("Rest one finger lightly") && !json.stderr.contains("Now press harder"))

        let text = try CLI.run(["probe", "--replay", Self.probeFixture(file)])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("verdict:   \(verdict)\n"))
        #expect(text.stdout.contains("reasons:\n  - " + reasons[0]))
        #expect(text.stdout.contains("advice:    "))
    }

    @Test func theForceRecordingOverridesTheStaticGuess() throws {
        let report = try Self.object(
            try CLI.run(["probe", "--replay", Self.probeFixture("probe-force.evemu"), "-f", "json"])
        )
        #expect(report.string("static_verdict") == "contact-size")
        #expect(report.string("verdict") == "force")
        let correlation = (report["figures"] as? [String: Any])?.number("press_rise") ?? 0
        #expect(correlation > 0.4)
    }

    @Test func staticOnlyOnARecordingSkipsTheGuidedPart() throws {
        let result = try CLI.run([
            "probe", "--replay", Self.probeFixture("probe-force.evemu"), "--static", "-f", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Self.object(result)
        #expect(report.bool("guided") == false)
        #expect(report.string("verdict") == "contact-size")
        #expect(!result.stderr.contains("Step 1/4"))
    }

    /// The static part of every project description agrees with the device line of a replay and with itself in
    /// both formats.
    @Test(arguments: [
        "apple-magic-trackpad-2-usb.desc", "pressure-pad.desc", "touchscreen-contact-size.desc", "pen-tablet.desc",
        "single-touch-touchpad.desc", "touchpad-no-pressure.desc", "protocol-a-touchscreen.desc",
    ])
    func staticPartOfADescriptionAgreesWithTheDeviceLine(file: String) throws {
        let path = Fixtures.projectFixtures.appendingPathComponent("Devices/" + file).path
        let result = try CLI.run(["probe", "--replay", path, "-f", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Self.object(result)
        #expect(report.bool("guided") == false)
        #expect(result.stderr.contains("holds no events: the static part only"))
        let verdict = try #require(report.string("verdict"))
        #expect(report.string("static_verdict") == verdict)
        let text = try CLI.run(["probe", "--replay", path])
        #expect(text.stdout.contains("verdict:   \(verdict)\n"))
        for finding in report["findings"] as? [[String: Any]] ?? [] {
            let code = try #require(finding.string("code"))
            #expect(text.stdout.contains("  - \(code): "), "\(code)")
        }
        guard verdict != "none" else { return }
        // The device line of a replay (an empty one: the description alone) says the same.
        let replay = try CLI.run(["replay", path, "-f", "jsonl"])
        let line = try CLI.jsonObjects(replay).first { $0.string("type") == "device" }
        #expect(line?.string("sensing") == verdict, "\(replay.stderr)")
    }

    @Test(.enabled(if: Fixtures.sharedFixtures != nil || Requirements.all, "no shared fixtures"))
    func theCypressSemiMultitouchPadIsOneContactEverywhere() throws {
        let file = try #require(
            Fixtures.shared("cypress-trackpad-semimt/CyPS2 Cypress Trackpad.two_finger_press.events")
        ).path
        let report = try Self.object(try CLI.run(["probe", "--replay", file, "--static", "-f", "json"]))
        #expect(report.bool("semi_mt") == true)
        #expect((report["findings"] as? [[String: Any]])?.first?.string("code") == "semi-mt")
        let text = try CLI.run(["probe", "--replay", file, "--static"])
        #expect(text.stdout.contains("semi-multitouch: read as one contact with the pressure the pad reports"))
        let replay = try CLI.run(["replay", file, "-f", "jsonl"])
        let records = try CLI.jsonObjects(replay)
        let device = try #require(records.first)
        #expect(device.bool("semi_mt") == true)
        #expect(device.string("sensing") == report.string("verdict"))
        let frames = records.filter { $0.string("type") == "frame" }
        #expect(!frames.isEmpty)
        // Two fingers press, but the pad reports a bounding box: one contact in every frame.
        #expect(frames.allSatisfy { $0.objects("contacts").count <= 1 })
        let textReplay = try CLI.run(["replay", file, "-f", "text"])
        #expect(
            textReplay.stdout.contains(", semi-MT: read as one contact, opened "),
            "\(textReplay.stdout.prefix(300))"
        )
    }

    @Test(.enabled(if: Fixtures.sharedFixtures != nil || Requirements.all, "no shared fixtures"))
    func theSynapticsPressurepadDescriptionAgreesWithTheDeviceLine() throws {
        // libinput's test description of this pad carries no INPUT_PROP_PRESSUREPAD bit (P: 05, pointer and
        // buttonpad; the test suite sets it elsewhere) and no ABS_MT_TOUCH_MAJOR: contact size is presumed, and
        // the missing size axis is said.
        let file = try #require(Fixtures.shared("synaptics-ce37-pressurepad-litest/SYNA2B31-06CB-CE37.desc")).path
        let report = try Self.object(try CLI.run(["probe", "--replay", file, "-f", "json"]))
        #expect(report.string("verdict") == "contact-size")
        let codes = (report["findings"] as? [[String: Any]])?.compactMap { $0.string("code") }
        #expect(codes == ["pressure-axis", "no-touch-major", "presumed-contact-size"])
        let replay = try CLI.jsonObjects(try CLI.run(["replay", file, "-f", "jsonl"])).first
        #expect(replay?.string("sensing") == report.string("verdict"))
    }

    @Test func aGuidedPartThatTimesOutWithoutAVerdictExitsOne() throws {
        // The force recording's device, with a finger that rests and never presses, then lifts late.
        let text = try String(contentsOfFile: Self.probeFixture("probe-force.evemu"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("E:") }
        let events = [
            "E: 10.000000 0003 002f 0000", "E: 10.000000 0003 0039 0001", "E: 10.000000 0003 0035 1500",
            "E: 10.000000 0003 0036 1000", "E: 10.000000 0003 0030 0012", "E: 10.000000 0003 003a 0050",
            "E: 10.000000 0001 014a 0001", "E: 10.000000 0000 0000 0000",
        ]
        var more: [String] = []
        for index in 1...120 {
            // Noise of 2 % of the range on the resting level (not a constant value), every 100 ms, for 12 s.
            let time = String(format: "%.6f", 10.0 + Double(index) / 10)
            more += ["E: \(time) 0003 003a \(String(format: "%04d", 50 + index % 6))", "E: \(time) 0000 0000 0000"]
        }
        more += ["E: 22.200000 0003 0039 -001", "E: 22.200000 0001 014a 0000", "E: 22.200000 0000 0000 0000"]
        lines = lines.filter { !$0.isEmpty } + (events + more).map { Substring($0) }
        let file = try CLI.temporaryDirectory().appendingPathComponent("still.evemu")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["probe", "--replay", file.path, "--step-timeout", "2", "-f", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        // On the recording's own time, said as such: never "timed out" for a file read in a moment.
        #expect(result.stderr.contains("Step 2 (press harder): none in the recording within 2 s of its own time"))
        #expect(result.stderr.contains("does not show the four gestures"))
        #expect(!result.stderr.contains("timed out"))
        let report = try Self.object(result)
        #expect(report.bool("conclusive") == false)
        #expect((report["notes"] as? [String])?.isEmpty == false)
    }

    @Test func usageErrors() throws {
        // -d with --replay chooses a device of the recording (RecordingDeviceChoiceTests): no usage error.
        let both = try CLI.run(["probe", "-d", "/dev/input/event0", "--replay", "x.evemu"])
        #expect(both.status == 1)
        #expect(!both.stderr.contains("Give either --device or --replay"))
        let timeout = try CLI.run(["probe", "--step-timeout", "0"])
        #expect(timeout.status == 2)
        let help = try CLI.run(["probe", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--step-timeout"))
    }
}
