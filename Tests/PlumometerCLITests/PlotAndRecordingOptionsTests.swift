import Foundation
import PlumometerTestSupport
import Testing

/// `plot` writes SVG only and takes `--no-profile`; `--desc` wherever a recording is read; `--unit lb`.
@Suite struct PlotAndRecordingOptionsTests {
    static let twoPlums = CLI.fixture("magic-trackpad-2.two-plums.evemu")

    @Test(arguments: ["x.png", "x.pdf", "x"])
    func plotRefusesAnotherFormatThanSVG(_ name: String) throws {
        let directory = try CLI.temporaryDirectory()
        let output = directory.appendingPathComponent(name)
        let result = try CLI.run(["plot", Self.twoPlums, "-o", output.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("plot writes SVG, not what '\(name)' is named for: give -o FILE.svg"))
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing written")
        let svg = try CLI.run(["plot", Self.twoPlums, "-o", directory.appendingPathComponent("x.SVG").path])
        #expect(svg.status == 0, "\(svg.stderr)")
    }

    @Test func plotWithoutTheSavedProfile() throws {
        let (environment, profile) = try ProfileNoticeTests.demoProfile()
        let demo = try GuidedCalibrationOneContactTests.demoRecording()
        let directory = try CLI.temporaryDirectory()
        let with = try CLI.run(
            ["plot", demo, "-o", directory.appendingPathComponent("a.svg").path],
            environment: environment
        )
        #expect(with.status == 0 && with.stderr.contains("calibration profile \(profile)"), "\(with.stderr)")
        let without = try CLI.run(
            ["plot", demo, "--no-profile", "-o", directory.appendingPathComponent("b.svg").path],
            environment: environment
        )
        #expect(without.status == 0, "\(without.stderr)")
        #expect(!without.stderr.contains("calibration profile"), "\(without.stderr)")
        let a = try String(contentsOf: directory.appendingPathComponent("a.svg"), encoding: .utf8)
        let b = try String(contentsOf: directory.appendingPathComponent("b.svg"), encoding: .utf8)
        #expect(a != b, "the profile's grams (2 g a unit) are not the axis' (1 g a unit)")
        let both = try CLI.run(["plot", demo, "--no-profile", "--profile", profile, "-o", "c.svg"])
        #expect(both.status == 2)
    }

    @Test func descWhereverARecordingIsRead() throws {
        let directory = try CLI.temporaryDirectory()
        let text = try String(contentsOfFile: Self.twoPlums, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let description = directory.appendingPathComponent("pad.desc").path
        let events = directory.appendingPathComponent("session.ev").path
        try (lines.filter { !$0.hasPrefix("E:") }.joined(separator: "\n") + "\n").write(
            toFile: description,
            atomically: true,
            encoding: .utf8
        )
        try (lines.filter { $0.hasPrefix("E:") }.joined(separator: "\n") + "\n").write(
            toFile: events,
            atomically: true,
            encoding: .utf8
        )
        let commands: [[String]] = [
            ["probe", "--replay", events, "-f", "json"],
            ["weigh", "--replay", events, "--timeout", "5"],
            ["calibrate", "--replay", events, "--point", "0:0", "--point", "100:100", "--no-save"],
        ]
        for command in commands {
            let without = try CLI.run(command)
            #expect(without.status == 1 && without.stderr.contains("--desc FILE"), "\(command): \(without.stderr)")
            let with = try CLI.run(command + ["--desc", description])
            #expect(!with.stderr.contains("no device description"), "\(command): \(with.stderr)")
            #expect(with.status != 2, "\(command): \(with.stderr)")
        }
        let probe = try CLI.run(["probe", "--replay", events, "--desc", description, "-f", "json"])
        #expect(try CLI.jsonObjects(probe).first?.string("verdict") != nil, "\(probe.stderr)")
        let alone = try CLI.run(["weigh", "--desc", description])
        #expect(alone.status == 2 && alone.stderr.contains("give --replay FILE too"), "\(alone.stderr)")
    }

    @Test func poundsBesideGramsOuncesAndCarats() throws {
        let grams = try CLI.run(["demo", "--fast", "-f", "text"])
        let pounds = try CLI.run(["demo", "--fast", "-f", "text", "--unit", "lb"])
        #expect(pounds.status == 0, "\(pounds.stderr)")
        // 213.7 g in all, 6.3 s in: 0.471 lb (213.7 / 453.59237).
        #expect(grams.stdout.contains("total 21"), "\(grams.stdout.suffix(200))")
        let last = try #require(pounds.stdoutLines.last { $0.contains("total") })
        #expect(last.hasSuffix(" lb"), "\(last)")
        let total = try #require(Double(last.split(separator: " ").dropLast().last ?? ""))
        let gramsTotal = try #require(
            Double(grams.stdoutLines.last { $0.contains("total") }?.split(separator: " ").dropLast().last ?? "")
        )
        #expect(abs(total - gramsTotal / 453.59237) < 0.001, "\(total) lb for \(gramsTotal) g")
        let weigh = try CLI.run([
            "weigh", "--replay", try GuidedCalibrationOneContactTests.demoRecording(), "--unit", "lb",
        ])
        #expect(weigh.status == 0 && weigh.stdout.contains(" lb"), "\(weigh.stdout) \(weigh.stderr)")
    }
}
