import Foundation
import PlumometerCore
import PlumometerTestSupport
import Testing

@testable import PlumometerCLI

/// `plumometer completions bash|zsh|fish`: scripts that the shells accept, that complete what the tables hold
/// (commands, each command's options, formats, units, coin names, files, device nodes), and that cannot forget an
/// option, since every option of every table is looked for in each of them.
@Suite struct CompletionTests {
    static func script(_ shell: String) throws -> URL {
        let result = try CLI.run(["completions", shell])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let file = try CLI.temporaryDirectory().appendingPathComponent("plumometer.\(shell)")
        try result.stdout.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// What bash's `_plumometer` offers for `words`, the last being the word under the cursor; under umockdev
    /// with `testbed`, so that /dev/input holds its nodes.
    static func bash(_ words: [String], testbed: String? = nil) throws -> [String] {
        let script = try Self.script("bash")
        let body = """
            source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _plumometer
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try Self.run("/bin/bash", ["-c", body, "bash", script.path] + words, testbed: testbed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdoutLines.filter { !$0.isEmpty }
    }

    /// What fish offers for the command line `line` (`complete -C`).
    static func fish(_ line: String, testbed: String? = nil) throws -> [String] {
        let fish = try #require(Tool.path("fish"), "fish is not installed")
        let script = try Self.script("fish")
        let arguments = ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script.path, line]
        let result = try Self.run(fish, arguments, testbed: testbed)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdoutLines.filter { !$0.isEmpty }.map { String($0.split(separator: "\t").first ?? "") }
    }

    /// What zsh's completion functions hand to `_arguments`, `_describe` and `compadd` for `words` (the last one
    /// under the cursor), with those stubbed to print their arguments: the specs exactly as zsh parsed the script.
    static func zsh(_ words: [String], function: String = "_plumometer", testbed: String? = nil) throws -> [String] {
        let zsh = try #require(Tool.path("zsh"), "zsh is not installed")
        let probe = try CLI.temporaryDirectory().appendingPathComponent("probe.zsh")
        try """
        compdef() { : }
        _arguments() { print -rl -- "$@" }
        _describe() { print -rl -- "${(@P)4}" }
        _wanted() { shift 3; "$@" }
        compadd() { print -rl -- "${(@P)2}" }
        _message() { print -r -- "message: $*" }
        source $1
        function=$2
        shift 2
        words=("$@")
        CURRENT=$#
        PREFIX=$words[-1]
        $function
        """.write(to: probe, atomically: true, encoding: .utf8)
        let arguments = ["-f", probe.path, try Self.script("zsh").path, function] + words
        let result = try Self.run(zsh, arguments, testbed: testbed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdoutLines.filter { !$0.isEmpty }
    }

    /// Runs `program arguments`, under umockdev with the `testbed` record (a `.umockdev` file) when one is given.
    static func run(_ program: String, _ arguments: [String], testbed: String?) throws -> ProcessResult {
        guard let testbed else { return try ProcessRunner.run(program, arguments) }
        let runner = try #require(Umockdev.runner, "umockdev-run is not installed")
        return try ProcessRunner.run(runner.path, ["-d", testbed, "--", program] + arguments)
    }

    static var testbed: String { Fixtures.projectFixtures.appendingPathComponent("Testbeds/mixed.umockdev").path }
    static let testbedNodes = (5...9).map { "/dev/input/event\($0)" }

    @Test func bashCompletesCommandsOptionsAndValues() throws {
        #expect(try Self.bash(["plumometer", ""]) == CommandRegistry.specs.map(\.name))
        #expect(try Self.bash(["plumometer", "re"]) == ["replay", "record"])
        let replay = try Self.bash(["plumometer", "replay", "--"])
        #expect(replay == ReplayCommand.spec.options.map { "--" + $0.name })
        #expect(try Self.bash(["plumometer", "replay", "--format", ""]) == ["text", "jsonl", "csv", "live"])
        #expect(try Self.bash(["plumometer", "replay", "--unit", "=", "o"]) == ["oz"])
        #expect(try Self.bash(["plumometer", "list", "-f", ""]) == ["text", "json"])
        // A line that starts with an option is the default command's.
        #expect(try Self.bash(["plumometer", "-f", "j"]) == ["jsonl"])
        #expect(try Self.bash(["plumometer", "--gr"]) == ["--grab"])
        #expect(try Self.bash(["plumometer", "calibrate", "--reference", "us-q"]) == ["us-quarter"])
        #expect(try Self.bash(["plumometer", "calibrate", "--reference", ""]) == ReferenceWeight.all.map(\.name))
        #expect(try Self.bash(["plumometer", "help", "ver"]) == ["version"])
        #expect(try Self.bash(["plumometer", "completions", "z"]) == ["zsh"])
        #expect(try Self.bash(["plumometer", "replay", "--speed", ""]).isEmpty)
    }

    @Test func bashCompletesFilesForFileArguments() throws {
        let directory = try CLI.temporaryDirectory()
        let recording = directory.appendingPathComponent("session.evemu")
        try "".write(to: recording, atomically: true, encoding: .utf8)
        #expect(try Self.bash(["plumometer", "replay", directory.path + "/se"]) == [recording.path])
        #expect(try Self.bash(["plumometer", "demo", "--save", directory.path + "/s"]) == [recording.path])
    }

    @Test(.enabled(if: Umockdev.isAvailable, "umockdev is not installed"))
    func bashAndFishCompleteDeviceNodes() throws {
        #expect(try Self.bash(["plumometer", "-d", ""], testbed: Self.testbed) == Self.testbedNodes)
        #expect(
            try Self.bash(["plumometer", "record", "--device", "/dev/input/event"], testbed: Self.testbed)
                == Self.testbedNodes
        )
        if Tool.path("fish") != nil || Requirements.all {
            #expect(try Self.fish("plumometer calibrate -d /dev/input/", testbed: Self.testbed) == Self.testbedNodes)
        }
    }

    @Test(.enabled(if: Tool.path("fish") != nil || Requirements.all, "fish is not installed"))
    func fishAcceptsTheScriptAndCompletes() throws {
        let fish = try #require(Tool.path("fish"))
        let check = try ProcessRunner.run(fish, ["--no-execute", try Self.script("fish").path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        #expect(try Self.fish("plumometer ") == CommandRegistry.specs.map(\.name).sorted())
        #expect(try Self.fish("plumometer replay --format ") == ["csv", "jsonl", "live", "text"])
        #expect(try Self.fish("plumometer list --format ") == ["json", "text"])
        #expect(try Self.fish("plumometer -f j") == ["jsonl"])
        #expect(try Self.fish("plumometer calibrate --reference 1-eu") == ["1-euro", "1-euro-cent"])
        let replay = Set(try Self.fish("plumometer replay --"))
        #expect(replay == Set(ReplayCommand.spec.options.map { "--" + $0.name }))
    }

    @Test(.enabled(if: Tool.path("zsh") != nil || Requirements.all, "zsh is not installed"))
    func zshAcceptsTheScript() throws {
        let zsh = try #require(Tool.path("zsh"))
        let script = try Self.script("zsh")
        let check = try ProcessRunner.run(zsh, ["-n", script.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.hasPrefix("#compdef plumometer\n"))
        #expect(try Self.zsh(["plumometer", ""]) == CommandRegistry.specs.map { $0.name + ":" + $0.summary })
        let replay = try Self.zsh(["plumometer", "replay", "--f"])
        #expect(replay.contains("(-f --format)-f+[Output format]:FORMAT:(text jsonl csv live)"))
        #expect(replay.contains("(-f --format)--format=[Output format]:FORMAT:(text jsonl csv live)"))
        #expect(
            replay.contains(
                "--desc=[The evemu device description for a FILE that holds only events (default: a .desc beside it)]:FILE:_files"
            )
        )
        #expect(replay.contains("1:FILE:_files"))
        #expect(Set(replay.compactMap(Self.longOption)) == Set(ReplayCommand.spec.options.map(\.name)))
        let calibrate = try Self.zsh(["plumometer", "calibrate", "--reference", ""])
        #expect(calibrate.contains { $0.hasPrefix("*--point=[") && $0.hasSuffix(":RAW\\:GRAMS: ") })
        let coins = ":MASS:(" + ReferenceWeight.all.map(\.name).joined(separator: " ") + ")"
        #expect(calibrate.contains { $0.hasPrefix("*--reference=[") && $0.hasSuffix(coins) })
        // A line that starts with an option is the default command's, with --version beside it.
        let top = try Self.zsh(["plumometer", "-f", ""])
        #expect(top.contains("(-V --version)--version[Show the version]"))
        #expect(top.contains("--grab[Grab the device (EVIOCGRAB) so no other program sees its events]"))
        #expect(
            try Self.zsh(["plumometer", "help", ""]).contains(
                "::COMMAND:(" + CommandRegistry.specs.map(\.name).joined(separator: " ") + ")"
            )
        )
        #expect(try Self.zsh(["plumometer", "bogus", ""]) == ["message: unknown command: bogus"])
    }

    @Test(.enabled(if: (Tool.path("zsh") != nil && Umockdev.isAvailable) || Requirements.all, "needs zsh and umockdev"))
    func zshCompletesDeviceNodes() throws {
        #expect(try Self.zsh([], function: "_plumometer_devices", testbed: Self.testbed) == Self.testbedNodes)
    }

    /// `format` from an `_arguments` spec such as `(-f --format)--format=[...]:FORMAT:(...)` or `--grab[...]`.
    static func longOption(_ spec: String) -> String? {
        guard let start = spec.range(of: "--") else { return nil }
        let name = spec[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
        return spec[..<start.lowerBound].contains("[") || name.isEmpty ? nil : String(name)
    }

    /// A new option cannot be forgotten: each script names every option of every command, in its own syntax.
    @Test func everyScriptHoldsEveryCommandAndOption() throws {
        let bash = try String(contentsOf: try Self.script("bash"), encoding: .utf8)
        let zsh = try String(contentsOf: try Self.script("zsh"), encoding: .utf8)
        let fish = try String(contentsOf: try Self.script("fish"), encoding: .utf8)
        for spec in CommandRegistry.specs {
            #expect(bash.contains("\n        \(spec.name))\n"), "bash: \(spec.name)")
            #expect(zsh.contains("\n        \(spec.name)) _plumometer_\(spec.name) ;;"), "zsh: \(spec.name)")
            #expect(fish.contains("-a \(spec.name) -d "), "fish: \(spec.name)")
            let bashBlock = try #require(
                block(of: spec.name, in: bash, from: "\n        \(spec.name))\n", to: "\n            ;;")
            )
            let zshBlock = try #require(
                block(of: spec.name, in: zsh, from: "\n_plumometer_\(spec.name)() {", to: "\n}")
            )
            let bashWords = words(bashBlock)
            let zshWords = words(zshBlock)
            for option in spec.options {
                #expect(bashWords.contains("--\(option.name)"), "bash: \(spec.name) --\(option.name)")
                #expect(zshWords.contains("--\(option.name)"), "zsh: \(spec.name) --\(option.name)")
                #expect(
                    fish.contains(
                        "'__plumometer_using \(spec.name)'" + (option.short.map { " -s \($0)" } ?? "")
                            + " -l \(option.name) "
                    ),
                    "fish: \(spec.name) --\(option.name)"
                )
            }
        }
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let result = try CLI.run(["completions", "bsh"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains(
                "'bsh' is not a shell plumometer completes; choose one of bash, zsh, fish. Did you mean 'bash'?"
            )
        )
        #expect(try CLI.run(["completions"]).status == 2)
    }

    /// The words of `text`: runs of letters, digits and dashes.
    private func words(_ text: String) -> Set<String> {
        Set(text.split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init))
    }

    private func block(of name: String, in text: String, from start: String, to end: String) -> String? {
        guard let open = text.range(of: start), let close = text.range(of: end, range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.lowerBound..<close.upperBound])
    }
}
