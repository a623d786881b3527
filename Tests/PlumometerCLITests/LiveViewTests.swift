import Foundation
import PlumometerTestSupport
import Testing

/// The live view, on a real pseudo-terminal (util-linux `script`), as a person would see it.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") || Requirements.all,
        "util-linux script is missing"
    )
)
struct LiveViewTests {
    /// Runs `plumometer ARGS` with its stdin and stdout on a pseudo-terminal; `keys` are typed into it.
    static func onTerminal(
        _ arguments: [String],
        keys: String? = nil,
        environment: [String: String] = [:]
    ) throws -> ProcessResult {
        let command = ([try CLI.binary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        // `swift test` sets NO_COLOR=1 for its tests; an empty NO_COLOR means "not set" (no-color.org).
        var environment = ["NO_COLOR": ""].merging(environment) { _, given in given }
        environment["TERM"] = "xterm"
        environment["COLUMNS"] = "100"
        return try ProcessRunner.run(
            "/usr/bin/script",
            ["-qec", command, "/dev/null"],
            environment: environment,
            stdin: keys.map { Data($0.utf8) },
            timeout: 60
        )
    }

    @Test func barsTheHeaviestInYellowAndRestoresTheTerminal() throws {
        let result = try Self.onTerminal(["demo", "--speed", "8", "--view", "bars"])
        #expect(result.status == 0, "\(result.stderr)")
        let screen = result.stdout
        #expect(screen.contains("\u{1B}[?1049h"), "switches to the alternate screen")
        #expect(screen.hasSuffix("\u{1B}[?25h\u{1B}[?1049l") || screen.contains("\u{1B}[?25h\u{1B}[?1049l"), "and back")
        #expect(screen.contains("\u{1B}[H"), "redraws in place")
        #expect(screen.contains("\u{2588}"), "bars")
        #expect(screen.contains("\u{1B}[33m"), "the heaviest bar is yellow")
        #expect(screen.contains("heaviest"))
        #expect(screen.contains(" g "), "grams are known on this device")
        #expect(screen.contains("[t]are"))
        #expect(!screen.contains("{\"type\""), "no JSON on a terminal by default")
    }

    @Test func noColourWithNO_COLOR() throws {
        let result = try Self.onTerminal(["demo", "--speed", "8", "--view", "bars"], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\u{1B}[33m"))
        #expect(!result.stdout.contains("\u{1B}[1m"))
        #expect(result.stdout.contains("* heaviest"), "the heaviest is still marked, in text")
    }

    @Test func qQuitsAtOnce() throws {
        let started = Date()
        let result = try Self.onTerminal(["demo"], keys: "q")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 10, "the demo lasts 14.5 s; q ends it")
        #expect(result.stdout.contains("\u{1B}[?1049l"), "the terminal is restored")
    }

    @Test func anExplicitFormatWinsOverTheTerminal() throws {
        let result = try Self.onTerminal(["demo", "--fast", "--format", "jsonl"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("{\"type\":\"device\""))
        #expect(!result.stdout.contains("\u{1B}[?1049h"))
    }

    @Test func unitsInTextOutput() throws {
        let ounces = try CLI.run(["demo", "--fast", "-f", "text", "--unit", "oz"])
        #expect(ounces.status == 0)
        #expect(ounces.stdout.contains(" oz "))
        #expect(!ounces.stdout.contains(" g "))
        let json = try CLI.jsonObjects(try CLI.run(["demo", "--fast", "-f", "jsonl", "--unit", "oz"]))
        let grams = json.flatMap { $0.objects("contacts") }.compactMap { $0.number("grams") }
        #expect(grams.contains { $0 > 50 }, "JSON stays in grams whatever --unit says")
    }
}
