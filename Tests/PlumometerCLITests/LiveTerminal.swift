import Foundation
import PlumometerTestSupport
import Testing

/// The live view run on a pseudo-terminal by Tests/Scripts/live_screen.py and read by a real terminal emulator
/// (pyte, with xterm's alternate screen): what the screen showed, and the state of the terminal and the process at
/// each snapshot, for the tests of how the view ends, stops and resumes.
enum LiveTerminal {
    /// Whether pyte is there to read the screen.
    static var available: Bool {
        Requirements.all || (try? ProcessRunner.run("/usr/bin/python3", ["-c", "import pyte"]).status) == 0
    }

    /// One snapshot of the terminal.
    struct Screen {
        var lines: [String]
        /// On the alternate screen (the live view's), not the main one (the shell's).
        var alternate: Bool
        var cursorHidden: Bool
        /// The terminal in line mode with echo, as a shell expects it; nil once it was closed.
        var lineMode: Bool?
        /// The program's state letter in /proc (`T`: stopped), nil once it has ended.
        var state: String?

        var text: String { lines.joined(separator: "\n") }
        /// The status line: the last line that is not blank.
        var statusLine: String { lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "" }
        /// The live map's frame is on screen.
        var showsMap: Bool { lines.contains { $0.hasPrefix("┌") } }
        /// The terminal is back as the shell left it: the main screen, the cursor shown, line mode.
        var isRestored: Bool { !alternate && !cursorHidden && lineMode == true }
    }

    /// How a run went: the exit status (nil when a signal ended it), seconds from start to exit, and the screens
    /// recorded at each `snap` step and once at the end.
    struct Run {
        var status: Int?
        var seconds: Double
        var screens: [Screen]
        var last: Screen? { screens.last }
    }

    /// Runs `plumometer ARGS` on a `columns` x `rows` pty through the driver's `steps`, as a shell runs a job (the
    /// terminal's foreground process group, not a session leader: only then does a SIGTSTP with its default action
    /// stop it).
    /// - Parameters:
    ///   - keyboard: stdin on the terminal too; false: stdin is /dev/null.
    ///   - wrapper: a program and its arguments that runs plumometer (`umockdev-run ... --`).
    static func run(
        _ arguments: [String],
        columns: Int = 80,
        rows: Int = 24,
        keyboard: Bool = true,
        wrapper: [String] = [],
        steps: [String]
    ) throws -> Run {
        var options = ["--job-control", "--columns", "\(columns)", "--rows", "\(rows)"]
        options += keyboard ? [] : ["--no-keyboard"]
        for step in steps { options += ["--step", step] }
        let object = try drive(arguments, options: options, wrapper: wrapper)
        let screens = (object["screens"] as? [[String: Any]] ?? []).map { screen in
            Screen(
                lines: screen["lines"] as? [String] ?? [],
                alternate: (screen["alternate"] as? NSNumber)?.boolValue ?? false,
                cursorHidden: (screen["cursor_hidden"] as? NSNumber)?.boolValue ?? false,
                lineMode: (screen["line_mode"] as? NSNumber)?.boolValue,
                state: screen["state"] as? String
            )
        }
        return Run(
            status: (object["status"] as? NSNumber)?.intValue,
            seconds: (object["seconds"] as? NSNumber)?.doubleValue ?? .infinity,
            screens: screens
        )
    }

    /// Runs Tests/Scripts/live_screen.py with its `options` on `plumometer ARGS` (through `wrapper`, when given) and
    /// returns the JSON object it prints: the one way every live-view test starts the driver, with the terminal's
    /// locale and colour settings fixed (`environment` adds to or overrides them).
    static func drive(
        _ arguments: [String],
        options: [String],
        wrapper: [String] = [],
        environment: [String: String] = [:]
    ) throws -> [String: Any] {
        let driver = Fixtures.script("live_screen.py").path
        // `swift test` sets NO_COLOR=1; empty means "not set" (no-color.org). Python would otherwise set
        // LC_CTYPE=C.UTF-8 for the program when the locale is C (PEP 538).
        let given = [
            "NO_COLOR": "", "TERM": "xterm", "LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": "",
            "PYTHONCOERCECLOCALE": "0",
        ].merging(environment) { $1 }
        let result = try ProcessRunner.run(
            "/usr/bin/python3",
            [driver] + options + ["--"] + wrapper + [try CLI.binary] + arguments,
            environment: given,
            timeout: 90
        )
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }
}
