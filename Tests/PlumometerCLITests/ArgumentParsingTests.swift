import PlumometerCore
import PlumometerSession
import Testing

@testable import PlumometerCLI

/// The parser and the typed options, without the binary: getopt forms, repeats, values converted when read, usage
/// errors that name the command they came from, and the tables' own consistency.
@Suite struct ArgumentParsingTests {
    @Test func getoptBundlesAttachedValuesAndEquals() throws {
        let bundled = try parse(["-qf", "text", "--fast", "x.evemu"], as: ReplayCommand.spec)
        #expect(bundled.flag(.quiet))
        #expect(bundled.flag(PacingOptions.fast))
        #expect(try bundled.value(of: ReadingOptions.format) == .text)
        #expect(bundled.positionals == ["x.evemu"])
        let attached = try parse(["-fjsonl", "x"], as: ReplayCommand.spec)
        #expect(try attached.value(of: ReadingOptions.format) == .jsonl)
        #expect(!attached.flag(.quiet))
        let equals = try parse(["--format=csv", "--unit=oz", "x"], as: ReplayCommand.spec)
        #expect(try equals.value(of: ReadingOptions.format) == .csv)
        #expect(try equals.value(of: ReadingOptions.unit) == .ounces)
        let ended = try parse(["--", "-f"], as: ReplayCommand.spec)
        #expect(ended.positionals == ["-f"])
        #expect(try ended.value(of: ReadingOptions.format) == nil)
    }

    @Test func listHasItsOwnFormats() throws {
        let parsed = try parse(["-af", "json"], as: ListCommand.spec)
        #expect(try parsed.value(of: ListCommand.Options.format) == .json)
        #expect(parsed.flag(ListCommand.Options.all))
        #expect(throws: UsageError.self) { try parse(["-f", "jsonl"], as: ListCommand.spec) }
    }

    @Test func repeatsAreKeptOrRefused() throws {
        let same = try parse(["-f", "text", "--format", "text", "x"], as: ReplayCommand.spec)
        #expect(try same.value(of: ReadingOptions.format) == .text)
        let error = expectUsageError {
            try parse(["-f", "text", "-f", "csv", "x"], as: ReplayCommand.spec)
        }
        #expect(error?.message == "Option '--format' was given twice.")
        #expect(error?.command == "replay")
        let points = try parse(["--point", "0:0", "--point", "100:5g"], as: CalibrateCommand.spec)
        #expect(
            try points.values(of: CalibrationInput.Options.point) == [
                CalibrationPoint(pressure: 0, grams: 0), CalibrationPoint(pressure: 100, grams: 5),
            ]
        )
    }

    @Test func valuesAreCheckedWhenReadAndErrorsNameTheParsedCommand() throws {
        let parsed = try parse(["--interval", "soon"], as: DemoCommand.spec)
        let error = expectUsageError { try parsed.readingSettings() }
        #expect(error?.command == "demo")
        #expect(
            error?.message
                == "'soon' is not a valid value for '--interval'; expected a whole number from 0 to 86400000."
        )
        let speed = try parse(["--speed", "0", "x"], as: ReplayCommand.spec)
        #expect(throws: UsageError.self) { try Pacing(speed) }
        // Exclusive options are the parser's (after the values): no command reads a pair it cannot use.
        let both = try parse(["--speed", "2", "--fast", "x"], as: ReplayCommand.spec)
        let conflict = expectUsageError { try both.checkExclusions() }
        #expect(conflict?.command == "replay")
        #expect(conflict?.message == "Give either --fast or --speed, not both.")
        #expect(try Pacing(parse(["--speed", "2.5"], as: DemoCommand.spec)).speed == 2.5)
        #expect(try Pacing(parse(["--fast"], as: DemoCommand.spec)).speed == nil)
        let settings = try parse(["--interval", "100", "--max-contacts", "2", "--tare"], as: DemoCommand.spec)
            .readingSettings()
        #expect(settings.interval == 100_000)
        #expect(settings.maxContacts == 2)
        #expect(settings.tareAtStart)
        #expect(!settings.smooth)
    }

    @Test func helpIsValidWhateverElseIsMissing() throws {
        let parsed = try parse(["--interval", "soon", "--help"], as: ReplayCommand.spec)
        #expect(parsed.flag(.help))
        let missing = expectUsageError { try parse([], as: ReplayCommand.spec) }
        #expect(missing?.message.hasPrefix("Missing FILE") == true)
    }

    @Test func unknownOptionsSuggestTheClosest() {
        let long = expectUsageError { try parse(["--formt", "x"], as: ReplayCommand.spec) }
        #expect(long?.message == "Unknown option '--formt'. Did you mean '--format'?")
        let short = expectUsageError { try parse(["-qx"], as: ReplayCommand.spec) }
        #expect(short?.message == "Unknown option '-x' in '-qx'.")
    }

    @Test func theRegistryResolvesEveryForm() throws {
        #expect(try CommandRegistry.resolve([]).0 == StreamCommand.self)
        #expect(try CommandRegistry.resolve(["-f", "jsonl"]).1 == ["-f", "jsonl"])
        #expect(try CommandRegistry.resolve(["--help", "replay"]).0 == HelpCommand.self)
        #expect(try CommandRegistry.resolve(["-V"]).0 == VersionCommand.self)
        #expect(try CommandRegistry.resolve(["demo", "--fast"]).0 == DemoCommand.self)
        let error = expectUsageError { try CommandRegistry.resolve(["strem"]) }
        #expect(error?.message == "Unknown command 'strem'. Did you mean 'stream'?")
    }

    /// A table with two options of one name, or one letter used twice, would parse one of them silently.
    @Test func everyTableIsUnambiguous() {
        let names = CommandRegistry.specs.map(\.name)
        #expect(Set(names).count == names.count)
        for spec in CommandRegistry.specs {
            let long = spec.options.map(\.name)
            #expect(Set(long).count == long.count, "\(spec.name): \(long)")
            let short = spec.options.compactMap(\.short)
            #expect(Set(short).count == short.count, "\(spec.name): \(short)")
        }
    }

    @Test func troffEscapes() {
        #expect(ManPage.escape(".start-with-dot \\") == "\\&.start\\-with\\-dot \\e")
        #expect(ManPage.escape("'quoted'") == "\\&'quoted'")
        #expect(ManPage.escape("R\u{B2} >= 0.97") == "R\\[u00B2] >= 0.97")
        #expect(ManPage.escape("a 'b' c") == "a 'b' c")
    }
}

/// The ``UsageError`` that `body` throws, as `#expect(throws: UsageError.self)` returns it from swift-testing 6.1 on
/// (6.0's, Debian 13's, returns nothing); an issue is recorded when `body` throws something else or nothing.
func expectUsageError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Any
) -> UsageError? {
    do {
        _ = try body()
    } catch let error as UsageError {
        return error
    } catch {
        Issue.record("expected a UsageError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    Issue.record("expected a UsageError, nothing was thrown", sourceLocation: sourceLocation)
    return nil
}
