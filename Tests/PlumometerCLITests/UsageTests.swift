import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `--help`, `--version` and usage errors: exit 2 for a bad command line, never for a valid one.
@Suite struct UsageTests {
    @Test func helpTeachesCommandsAndExitStatus() throws {
        let result = try CLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        for section in ["OVERVIEW:", "USAGE: plumometer", "COMMANDS:", "EXIT STATUS:", "EXAMPLES:"] {
            #expect(result.stdout.contains(section), "missing \(section)")
        }
        for command in ["stream", "list", "replay", "record", "calibrate", "demo", "completions", "help", "version"] {
            #expect(result.stdout.contains("  \(command)"), "command \(command) not listed")
        }
        // `-h`, `help` and `--help` are one command; `--help COMMAND` is that command's help.
        #expect(try CLI.run(["-h"]).stdout == result.stdout)
        #expect(try CLI.run(["help"]).stdout == result.stdout)
        #expect(try CLI.run(["--help", "replay"]).stdout == CLI.run(["replay", "--help"]).stdout)
    }

    @Test(arguments: ["stream", "list", "replay", "record", "calibrate", "demo", "completions", "help", "version"])
    func everyCommandHasHelp(command: String) throws {
        let result = try CLI.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: plumometer \(command)"))
        #expect(result.stdout.contains("OPTIONS:"))
        #expect(result.stdout.contains("--help"))
        let viaHelp = try CLI.run(["help", command])
        #expect(viaHelp.stdout == result.stdout)
    }

    @Test("--help says what the text format's marks mean, and help calibrate lists the coins --reference accepts")
    func helpExplainsMarksAndCoins() throws {
        let replay = try CLI.run(["replay", "--help"]).stdout.split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.joined(separator: " ")
        #expect(replay.contains("'=' once stable"), "\(replay)")
        let calibrate = try CLI.run(["help", "calibrate"]).stdout.split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.joined(separator: " ")
        for coin in ["us-quarter 5.67 g", "1-euro 7.5 g", "100-yen 4.8 g", "loonie", "toonie", "1-yen 1 g"] {
            #expect(calibrate.contains(coin), "\(coin) in \(calibrate)")
        }
    }

    @Test func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("plumometer "))
        #expect(try CLI.run(["-V"]).stdout == result.stdout)
        #expect(try CLI.run(["version"]).stdout == result.stdout)
        let extra = try CLI.run(["version", "now"])
        #expect(extra.status == 2)
        #expect(extra.stderr.contains("Unexpected argument 'now'."))
    }

    @Test func helpOfAnUnknownCommandSuggestsTheClosest() throws {
        let result = try CLI.run(["help", "replya"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Unknown command 'replya'. Did you mean 'replay'?"))
        #expect(result.stderr.contains("Usage: plumometer --help"))
    }

    @Test func unknownOptionSuggestsTheClosestOne() throws {
        let result = try CLI.run(["replay", "--formt", "jsonl", CLI.fixture("magic-trackpad-2.two-plums.evemu")])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        // Usage errors look like runtime errors (`plumometer: ...`), then say where help is.
        #expect(
            result.stderr == "plumometer: Unknown option '--formt'. Did you mean '--format'?\n"
                + "Usage: plumometer replay --help\n",
            "\(result.stderr)"
        )
    }

    @Test func unknownOptionOfTheDefaultCommand() throws {
        let result = try CLI.run(["--devcie", "/dev/input/event3"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Did you mean '--device'?"))
    }

    @Test func unknownCommandSuggestsTheClosestOne() throws {
        let result = try CLI.run(["strem"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Unknown command 'strem'. Did you mean 'stream'?"))
    }

    @Test func badValuesAreUsageErrors() throws {
        let file = CLI.fixture("magic-trackpad-2.two-plums.evemu")
        let cases: [([String], String)] = [
            (["replay", "--fast", "--format", "xml", file], "'xml' is not a valid value for '--format'"),
            (["replay", "--fast", "--interval", "soon", file], "'soon' is not a valid value for '--interval'"),
            (["replay", "--fast", "--max-contacts", "0", file], "'0' is not a valid value for '--max-contacts'"),
            (["replay", "--speed", "-2", file], "'-2' is not a valid value for '--speed'"),
            (["replay", "--fast", "--speed", "2", file], "either --fast or --speed"),
            (["replay"], "Missing FILE"),
            (["replay", file, "extra"], "Unexpected argument 'extra'"),
            (["replay", "--format"], "needs a value"),
            (["calibrate", "--replay", file], "Nothing to calibrate with"),
            (["calibrate", "--replay", file, "--point", "12"], "'12' is not a point"),
        ]
        for (arguments, message) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}

/// Found in review: numbers out of any range, getopt forms through the binary, help on help.
extension UsageTests {
    static let gramsPad = CLI.fixture("grams-pad.one-object.evemu")

    @Test(.tags(.foundInReview)) func hugeOrTinyNumbersAreUsageErrorsNotCrashes() throws {
        let cases: [[String]] = [
            ["demo", "--speed", "1e300"],
            ["replay", "--speed", "1e-300", Self.gramsPad],
            ["replay", "--fast", "--interval", "99999999999999999", Self.gramsPad],
            ["record", "--duration", "1e300"],
            ["calibrate", "--replay", Self.gramsPad, "--point", "0:0", "--point", "1:1", "--min-r2", "5"],
            ["replay", "--fast", "--max-contacts", "99999999999999999999", Self.gramsPad],
        ]
        for arguments in cases {
            let result = try CLI.run(arguments, timeout: 20)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.signal == nil)
            #expect(result.stderr.contains("is not a valid value"), "\(arguments): \(result.stderr)")
        }
    }

    @Test(.tags(.foundInReview)) func getoptStyleShortOptions() throws {
        let bundled = try CLI.run(["replay", "-qf", "text", "--fast", Self.gramsPad])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(bundled.stderr.isEmpty, "-q took effect")
        #expect(bundled.stdout.hasPrefix("# "), "-f text took effect")
        let attached = try CLI.run(["replay", "-fcsv", "--fast", Self.gramsPad])
        #expect(attached.status == 0)
        #expect(attached.stdout.hasPrefix("time,seq,"))
        let unknown = try CLI.run(["replay", "-qz", Self.gramsPad])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Unknown option '-z' in '-qz'."))
    }

    @Test(.tags(.foundInReview), arguments: ["help", "version"])
    func helpOnHelpAndVersion(topic: String) throws {
        let result = try CLI.run(["help", topic])
        #expect(result.status == 0)
        #expect(result.stdout.contains("OVERVIEW:"))
    }
}
