import Foundation
import PlumometerTestSupport
import Testing

/// Ctrl-Z in the live view: the terminal is given back (main screen, cursor, line mode) before the process stops,
/// and SIGCONT (`fg`) takes it again and redraws it whole; Ctrl-C and q work after. Without a live view a SIGTSTP
/// stops the process as usual.
@Suite(.enabled(if: LiveTerminal.available, "python3-pyte is missing (scripts/install-deps.sh --test)"))
struct LiveSuspendTests {
    /// Stops the demo's live view with `stop` (the Ctrl-Z key or a SIGTSTP from elsewhere) and continues it.
    static func stopAndContinue(with stop: String, quit: String) throws -> LiveTerminal.Run {
        try LiveTerminal.run(
            ["demo"],
            steps: [
                "until:pad 120×80 mm", "wait:0.5", "snap", stop, "until-state:T", "wait:0.3", "snap", "signal:CONT",
                "wait:0.5", "snap", quit,
            ]
        )
    }

    /// The three screens: running, stopped, continued; then the end.
    static func checkStopAndContinue(_ run: LiveTerminal.Run) throws {
        #expect(run.status == 0)
        try #require(run.screens.count == 4, "\(run.screens.map(\.lines))")
        let (running, stopped, continued) = (run.screens[0], run.screens[1], run.screens[2])
        #expect(running.alternate && running.showsMap && running.lineMode == false)
        #expect(stopped.state == "T", "the process is stopped")
        #expect(stopped.isRestored, "the terminal was given back first")
        #expect(!stopped.showsMap, "the shell's screen, not the map: \(stopped.lines)")
        #expect(continued.state != "T" && continued.state != nil)
        #expect(continued.alternate && continued.cursorHidden && continued.lineMode == false, "raw again")
        #expect(continued.showsMap, "redrawn whole: \(continued.lines)")
        #expect(continued.statusLine.contains("[q]uit"))
        #expect(run.last?.isRestored == true)
    }

    @Test func ctrlZGivesTheTerminalBackAndContinuingRedrawsIt() throws {
        try Self.checkStopAndContinue(try Self.stopAndContinue(with: "ctrl:Z", quit: "key:q"))
    }

    @Test func aSIGTSTPFromElsewhereIsACtrlZAndCtrlCWorksAfter() throws {
        try Self.checkStopAndContinue(try Self.stopAndContinue(with: "signal:TSTP", quit: "ctrl:C"))
    }

    @Test func aStopDuringTheWaitAtTheEndComesBackToIt() throws {
        let run = try LiveTerminal.run(
            ["demo", "--fast"],
            steps: [
                "until:end of recording", "ctrl:Z", "until-state:T", "snap", "signal:CONT", "wait:0.5", "snap",
                "key:q",
            ]
        )
        #expect(run.status == 0)
        try #require(run.screens.count == 3)
        #expect(run.screens[0].state == "T" && run.screens[0].isRestored)
        #expect(run.screens[1].statusLine.contains("end of recording, q to quit"), "\(run.screens[1].lines)")
        #expect(run.screens[1].showsMap)
        #expect(run.last?.isRestored == true)
    }

    @Test func aPacedReplayGoesOnWhereItWasStoppedNotWhereItWouldBeByNow() throws {
        // Stopped for 2 s: after `fg` the demo (14.5 s, played in real time) goes on from where it was, so the
        // recording time in the footer moves by about the 0.5 s it ran, not by the 2 s it was stopped as well.
        let run = try LiveTerminal.run(
            ["demo"],
            steps: [
                "until:pad 120×80 mm", "wait:1", "snap", "ctrl:Z", "until-state:T", "wait:2", "signal:CONT", "wait:0.5",
                "snap", "key:q",
            ]
        )
        #expect(run.status == 0)
        try #require(run.screens.count == 3, "\(run.screens.map(\.lines))")
        let before = try #require(Self.recordingSeconds(run.screens[0].statusLine), "\(run.screens[0].lines)")
        let after = try #require(Self.recordingSeconds(run.screens[1].statusLine), "\(run.screens[1].lines)")
        #expect(after > before, "it plays on after the stop")
        #expect(after - before < 1.6, "from \(before) s to \(after) s: the 2 s stopped were played through")
    }

    /// The recording time in the footer (`  3.4 s  #123`).
    static func recordingSeconds(_ status: String) -> Double? {
        let words = status.split(separator: " ")
        guard let index = words.firstIndex(where: { $0.hasPrefix("#") }), index >= 2, words[index - 1] == "s" else {
            return nil
        }
        return Double(words[index - 2])
    }

    @Test func aSIGSTOPFromElsewhereLeavesTheViewAsItWasOnContinuing() throws {
        // Nothing can run before a SIGSTOP, so the terminal stays the view's; SIGCONT clears and redraws it, still on
        // the alternate screen (entering it twice would lose the main screen's cursor).
        let run = try LiveTerminal.run(
            ["demo"],
            steps: ["until:pad 120×80 mm", "signal:STOP", "until-state:T", "signal:CONT", "wait:0.5", "snap", "key:q"]
        )
        #expect(run.status == 0)
        let continued = try #require(run.screens.first)
        #expect(continued.showsMap && continued.alternate && continued.cursorHidden && continued.lineMode == false)
        #expect(run.last?.isRestored == true)
    }

    @Test func withoutAKeyboardTheScreenIsGivenBackToo() throws {
        // Standard input is not a terminal (no keys, no raw mode), but the view still owns the screen.
        let run = try LiveTerminal.run(
            ["demo"],
            keyboard: false,
            steps: [
                "until:pad 120×80 mm", "signal:TSTP", "until-state:T", "snap", "signal:CONT", "wait:0.5", "snap",
                "signal:INT",
            ]
        )
        #expect(run.status == 0)
        try #require(run.screens.count == 3)
        #expect(run.screens[0].state == "T" && !run.screens[0].alternate && !run.screens[0].cursorHidden)
        #expect(run.screens[1].alternate && run.screens[1].showsMap, "\(run.screens[1].lines)")
        #expect(run.last.map { !$0.alternate && !$0.cursorHidden } == true)
    }

    @Test(.enabled(if: Umockdev.isAvailable, "umockdev is missing"))
    func aLiveDeviceToo() throws {
        // `stream` on an emulated device, at rest: its output thread was started before the keys were attached, and a
        // stop still reaches the loop, which gives the terminal back first. The job is umockdev-run and plumometer.
        let node = "/dev/input/event7"
        let device = try EmulatedDevice(
            try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc"),
            node: node,
            label: "live-suspend"
        )
        let run = try LiveTerminal.run(
            ["stream", "--device", node],
            wrapper: try device.umockdevCommand(),
            steps: [
                "until:[q]uit", "ctrl:Z", "until-state:T", "snap", "signal:CONT", "wait:0.5", "snap", "key:q",
            ]
        )
        #expect(run.status == 0)
        try #require(run.screens.count == 3)
        #expect(run.screens[0].state == "T" && run.screens[0].isRestored, "\(run.screens[0].lines)")
        #expect(run.screens[1].alternate && run.screens[1].lineMode == false, "\(run.screens[1].lines)")
        #expect(run.screens[1].statusLine.contains("[q]uit"), "\(run.screens[1].lines)")
        #expect(run.last?.isRestored == true)
    }

    @Test func withoutALiveViewASIGTSTPStopsTheProcessAsUsual() throws {
        // JSON Lines on the terminal: no live view, so nothing to give back and the stop is the default one.
        let run = try LiveTerminal.run(
            ["demo", "-f", "jsonl"],
            steps: [
                "until:\"type\":\"frame\"", "signal:TSTP", "until-state:T", "snap", "signal:CONT", "wait:0.3", "snap",
            ]
                + ["signal:INT"]
        )
        try #require(run.screens.count == 3)
        #expect(run.screens[0].state == "T", "SIGTSTP stopped it")
        #expect(run.screens[1].state != "T" && run.screens[1].state != nil, "SIGCONT continued it")
        #expect(run.status == 0)
    }
}
