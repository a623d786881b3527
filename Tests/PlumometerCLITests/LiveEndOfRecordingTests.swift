import Foundation
import PlumometerTestSupport
import Testing

/// The end of a recording in the live view: its last frame stays on screen, `end of recording, q to quit`, until q
/// (or Ctrl-C, SIGTERM, SIGHUP), but only while someone can press it: without a keyboard, after its end of file
/// (Ctrl-D, or `script` whose input ended) or a hang-up the view ends with the recording as before.
@Suite(.enabled(if: LiveTerminal.available, "python3-pyte is missing (scripts/install-deps.sh --test)"))
struct LiveEndOfRecordingTests {
    /// The frame number on a status line (`2 contacts  14.5 s  #1447   ...`).
    static func sequence(_ line: String) -> Int? {
        line.split(separator: " ").first { $0.hasPrefix("#") }.flatMap { Int($0.dropFirst()) }
    }

    @Test func theLastFrameStaysUntilQ() throws {
        let run = try LiveTerminal.run(
            ["demo", "--fast"],
            steps: ["until:end of recording", "snap", "wait:1.5", "snap", "key:q"]
        )
        #expect(run.status == 0)
        try #require(run.screens.count == 3)
        let held = run.screens[0]
        #expect(held.alternate && held.state != nil, "still running, on the live view's screen")
        #expect(held.statusLine.contains("end of recording, q to quit"), "\(held.lines)")
        #expect(!held.statusLine.contains("[t]are"), "taring would change nothing now")
        #expect(held.showsMap, "the demo's pad has positions: the map, as during the run")
        let frames = try CLI.jsonObjects(try CLI.run(["demo", "--fast", "-f", "jsonl"])).filter {
            $0.string("type") == "frame"
        }
        #expect(Self.sequence(held.statusLine) == frames.last?.int("seq"), "the last frame: \(held.statusLine)")
        let later = run.screens[1]
        #expect(later.lines == held.lines && later.alternate && later.state != nil, "1.5 s later it is still there")
        let after = try #require(run.last)
        #expect(after.isRestored, "q gives the terminal back as it was")
        #expect(after.state == nil)
    }

    @Test func theViewKeyStillWorksAndTheTareKeysDoNothing() throws {
        let run = try LiveTerminal.run(
            ["demo", "--fast"],
            steps: ["until:end of recording", "key:m", "wait:0.3", "snap", "key:t", "wait:0.3", "snap", "key:Q"]
        )
        #expect(run.status == 0)
        try #require(run.screens.count == 3)
        #expect(!run.screens[0].showsMap, "m: the bars")
        #expect(run.screens[0].statusLine.contains("end of recording, q to quit"))
        #expect(run.screens[1].lines == run.screens[0].lines, "t changed nothing: \(run.screens[1].statusLine)")
        #expect(run.last?.isRestored == true, "Q quits too")
    }

    @Test(arguments: ["ctrl:C", "signal:TERM", "signal:HUP", "ctrl:D"])
    func theWaitEndsOn(_ step: String) throws {
        let run = try LiveTerminal.run(["demo", "--fast"], steps: ["until:end of recording", step])
        #expect(run.status == 0, "\(step)")
        #expect(run.seconds < 8, "\(step) ended it (\(run.seconds) s)")
        #expect(run.last?.isRestored == true, "\(step)")
    }

    @Test func withoutAKeyboardTheViewEndsWithTheRecording() throws {
        let run = try LiveTerminal.run(["demo", "--fast"], keyboard: false, steps: ["wait:4"])
        #expect(run.status == 0)
        #expect(run.seconds < 4, "nothing waited for a key (\(run.seconds) s)")
        let after = try #require(run.last)
        #expect(!after.alternate && !after.cursorHidden)
    }

    @Test func aTerminalThatHangsUpEndsTheWait() throws {
        let run = try LiveTerminal.run(["demo", "--fast"], steps: ["until:end of recording", "snap", "hangup"])
        #expect(run.screens.first?.statusLine.contains("end of recording") == true)
        // Writing to a terminal that has gone fails (status 1, as for a hang-up during the run); it must not wait
        // for the harness' SIGTERM 10 s later.
        #expect(run.status != nil)
        #expect(run.seconds < 8, "\(run.seconds) s")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script") || Requirements.all))
    func scriptWithItsInputAtItsEndDoesNotWait() throws {
        // `script` turns the end of its own input into a Ctrl-D for the program (before raw mode it reads as a NUL),
        // before or during the wait at the end: either way the view ends.
        let started = Date()
        let result = try LiveViewTests.onTerminal(["demo", "--fast"])
        #expect(result.status == 0 && !result.timedOut, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(result.stdout.contains("\u{1B}[?25h\u{1B}[?1049l"), "the terminal is restored")
    }
}
