import Testing

@testable import PlumometerCLI

/// Options that exclude each other are declared in the command tables and refused by the parser, in the same words
/// as when each command checked them itself: a usage error (exit 2) before anything is opened or written.
@Suite struct ExclusiveOptionsTests {
    /// Every pair each command declares, with a command line that gives both and the sentence it gets.
    static let pairs: [(CommandSpec, [String], String)] = [
        (
            StreamCommand.spec, ["--profile", "p.json", "--no-profile"],
            "Give either --profile or --no-profile, not both."
        ),
        (
            ReplayCommand.spec, ["x", "--no-profile", "--profile", "p.json"],
            "Give either --profile or --no-profile, not both."
        ),
        (
            DemoCommand.spec, ["--profile", "p.json", "--no-profile"],
            "Give either --profile or --no-profile, not both."
        ),
        (
            WeighCommand.spec, ["--profile", "p.json", "--no-profile"],
            "Give either --profile or --no-profile, not both."
        ),
        (
            PlotCommand.spec, ["x", "-o", "x.svg", "--profile", "p.json", "--no-profile"],
            "Give either --profile or --no-profile, not both."
        ),
        (ReplayCommand.spec, ["x", "--speed", "2", "--fast"], "Give either --fast or --speed, not both."),
        (DemoCommand.spec, ["--fast", "--speed", "2"], "Give either --fast or --speed, not both."),
        (CalibrateCommand.spec, ["--no-save", "--save"], "Give either --save or --no-save, not both."),
        (
            CalibrateCommand.spec, ["--point", "0:0", "--reference", "1g"],
            "Give either --point (measured pairs) or --reference (guided), not both."
        ),
    ]

    @Test(arguments: 0..<pairs.count) func theParserRefusesBothInTheCommandsWords(index: Int) throws {
        let (spec, arguments, message) = Self.pairs[index]
        let parsed = try parse(arguments, as: spec)
        try parsed.checkValues()
        let error = expectUsageError { try parsed.checkExclusions() }
        #expect(error?.message == message)
        #expect(error?.command == spec.name)
    }

    @Test func oneOfAPairIsNoError() throws {
        try parse(["--profile", "p.json"], as: WeighCommand.spec).checkExclusions()
        try parse(["--fast"], as: DemoCommand.spec).checkExclusions()
        try parse(["--point", "0:0", "--point", "9:9", "--save"], as: CalibrateCommand.spec).checkExclusions()
    }

    @Test func aBadValueIsNamedBeforeThePair() throws {
        let parsed = try parse(["--fast", "--speed", "0"], as: DemoCommand.spec)
        let error = expectUsageError { try parsed.checkValues() }
        #expect(error?.message.hasPrefix("'0' is not a valid value for '--speed'") == true)
    }

    @Test func theBinaryExitsTwoWithTheSentenceAndWritesNothing() throws {
        let demo = try CLI.run(["demo", "--fast", "--speed", "3", "-f", "jsonl"])
        #expect(demo.status == 2)
        #expect(demo.stdout.isEmpty)
        #expect(demo.stderr == "plumometer: Give either --fast or --speed, not both.\nUsage: plumometer demo --help\n")
        let calibrate = try CLI.run(["calibrate", "--point", "0:0", "--point", "9:9", "--reference", "1g"])
        #expect(calibrate.status == 2)
        #expect(
            calibrate.stderr
                == "plumometer: Give either --point (measured pairs) or --reference (guided), not both.\n"
                + "Usage: plumometer calibrate --help\n"
        )
        // `--help` stays valid whatever else is on the line.
        #expect(try CLI.run(["weigh", "--profile", "p", "--no-profile", "--help"]).status == 0)
    }
}

/// Help and the manual page teach the pairs in the words of the usage error.
@Suite struct ExclusiveOptionsHelpTests {
    @Test func helpListsEachPairAfterTheOptions() {
        let help = HelpText.help(for: CalibrateCommand.spec)
        #expect(
            help.contains(
                "  -h, --help                Show help for this command and exit.\n\n"
                    + "  Give either --save or --no-save, not both.\n"
                    + "  Give either --point (measured pairs) or --reference (guided), not both.\n"
            ),
            "\(help)"
        )
        #expect(HelpText.help(for: ReplayCommand.spec).contains("  Give either --fast or --speed, not both.\n"))
        #expect(!HelpText.help(for: ListCommand.spec).contains("not both"))
        #expect(ManPage.render().contains(".PP\nGive either \\-\\-profile or \\-\\-no\\-profile, not both.\n"))
    }
}
