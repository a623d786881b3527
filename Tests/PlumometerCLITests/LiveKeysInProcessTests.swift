import PlumometerCLI
import PlumometerCore
import PlumometerSession
import PlumometerTestKit
import Testing

/// The live view's keys, resize, hang-up and job control, in-process: a whole `stream` (or `demo`) on the test kit's
/// runtime, with standard output a terminal, keys typed by the test on a ``TypedKeyboard``, signals sent to the
/// ``EmbeddedEventLoop`` and a live device emulated behind the device seam: what the bridge's poll loop does on a
/// real terminal, turn by turn, in milliseconds, through the seams alone.
@Suite
struct LiveKeysInProcessTests {
    /// A command run in-process on a terminal of 100 x 30: each step runs at a wait of the loop, in order, and is
    /// taken again at the next wait while it says it is not done. After each step the loop waits once more, as long
    /// as it asks to (a timed wait moves the clocks on: the live view redraws at most every 33 ms), so that what the
    /// step changed is on the screen before the next one. What standard output held before each step is kept.
    final class LiveRun {
        let clocks = ManualClocks()
        let loop: EmbeddedEventLoop
        let console = CapturingConsole(terminal: (columns: 100, rows: 30))
        let keyboard: TypedKeyboard
        let devices: ScriptedDevices
        let files = MemoryFiles([:], environment: ["LANG": "C.UTF-8", "XDG_CONFIG_HOME": "/nonexistent-config"])
        /// Standard output as it stood before each step, and at the end.
        private(set) var snapshots: [String] = []
        /// The timeout of the wait now (nil: until something happens).
        private(set) var timeout: Int64?

        init() {
            loop = EmbeddedEventLoop(clocks: clocks)
            keyboard = TypedKeyboard(loop: loop)
            devices = ScriptedDevices(loop: loop)
        }

        /// A step that is done at once.
        static func step(_ body: @escaping (LiveRun) -> Void) -> (LiveRun) -> Bool {
            { run in
                body(run)
                return true
            }
        }

        /// Runs `arguments`; returns the exit status.
        func run(_ arguments: [String], steps: [(LiveRun) -> Bool]) -> Int32 {
            var remaining = steps[...]
            var settling = false
            loop.onWait = { [unowned self] timeout in
                self.timeout = timeout
                if settling {
                    settling = false
                    // A timed wait lets the clocks move on; an untimed one has nothing left to draw.
                    if timeout != nil { return }
                }
                guard let step = remaining.first else { return }
                let before = console.written
                if step(self) {
                    snapshots.append(before)
                    remaining.removeFirst()
                    settling = true
                }
            }
            let runtime = Runtime.embedded(
                console: console,
                files: files,
                loop: loop,
                devices: devices,
                keyboard: keyboard
            )
            let status = Runtime.with(runtime) { CommandLineTool.run(arguments: arguments) }
            snapshots.append(console.written)
            return status
        }

        /// Whether every step was taken.
        var allStepsTaken: Bool { snapshots.count > 0 }

        /// What standard output gained from step `index` on, up to the next step (or the end).
        func written(byStep index: Int) -> Substring {
            snapshots[index + 1].dropFirst(snapshots[index].count)
        }

        /// The last screen drawn by step `index` (from its last cursor-home on, the terminal's line ends removed,
        /// lines ending in `\n`).
        func screen(afterStep index: Int) -> String {
            LiveRun.lastScreen(written(byStep: index))
        }

        static func lastScreen(_ text: Substring) -> String {
            let screen = text.components(separatedBy: "\u{1B}[H").last ?? ""
            return screen.replacingOccurrences(of: "\u{1B}[K", with: "").replacingOccurrences(of: "\u{1B}[J", with: "")
                .replacingOccurrences(of: "\r\n", with: "\n")
        }
    }

    /// Two objects on an emulated Magic Trackpad 2: pressure 120 and 60 of 253.
    static func twoObjects(_ pad: ScriptedDevice) -> (LiveRun) -> Bool {
        LiveRun.step { run in
            pad.feed(
                EventScript(startingAt: run.clocks.now)
                    .touch(slot: 0, id: 1, x: -2000, y: 0, pressure: 120)
                    .touch(slot: 1, id: 2, x: 2000, y: 0, pressure: 60).report()
            )
        }
    }

    static func type(_ keys: String) -> (LiveRun) -> Bool { LiveRun.step { $0.keyboard.type(keys) } }

    /// The bars of a screen: `#1 ███░░░  47.4%  ...`, as (id, percent text).
    static func bars(_ screen: String) -> [(id: String, percent: String)] {
        screen.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let id = words.first, id.hasPrefix("#"), words.count > 2, words[2].hasSuffix("%") else { return nil }
            return (String(id), String(words[2]))
        }
    }

    @Test func theKeysTareRefuseACarrierClearSwitchTheViewAndQuit() throws {
        let live = LiveRun()
        let pad = live.devices.add("/dev/input/event7", DeviceCatalogue.magicTrackpad2)
        let status = live.run(
            ["stream", "-d", "/dev/input/event7"],
            steps: [
                Self.twoObjects(pad), Self.type("m"), Self.type("t"), Self.type("K"), Self.type("c"), Self.type("q"),
            ]
        )
        #expect(status == 0, "\(live.console.errors)")
        #expect(live.devices.opened == ["/dev/input/event7"])
        let first = live.screen(afterStep: 0)
        #expect(first.contains("┌") && Self.bars(first).isEmpty, "the map first, for a pad with positions:\n\(first)")
        let bars = live.screen(afterStep: 1)
        #expect(!bars.contains("┌"), "m: the bars instead of the map:\n\(bars)")
        #expect(Self.bars(bars).map(\.percent) == ["47.4%", "23.7%"], "\(bars)")
        let tared = live.screen(afterStep: 2)
        #expect(Self.bars(tared).map(\.percent) == ["0.0%", "0.0%"], "t: both at zero:\n\(tared)")
        #expect(tared.contains("tared"))
        let carrier = live.screen(afterStep: 3)
        #expect(carrier.contains("carrier: put exactly one contact down (2 are down)"), "\(carrier)")
        #expect(Self.bars(carrier).map(\.percent) == ["0.0%", "0.0%"], "a refused carrier changes nothing")
        let cleared = live.screen(afterStep: 4)
        #expect(cleared.contains("tare cleared"), "\(cleared)")
        #expect(Self.bars(cleared).map(\.percent) == ["47.4%", "23.7%"], "c: the tare is gone:\n\(cleared)")
        #expect(live.written(byStep: 5).hasSuffix("\u{1B}[?25h\u{1B}[?1049l"), "q: the terminal is given back")
        #expect(!live.keyboard.isRaw, "and the keyboard's mode too")
        #expect(live.console.latestStateWriters == 1, "a live device's lines in latest-state mode")
    }

    @Test func aResizeRedrawsToTheNewSize() throws {
        let live = LiveRun()
        let pad = live.devices.add("/dev/input/event7", DeviceCatalogue.magicTrackpad2)
        let status = live.run(
            ["stream", "-d", "/dev/input/event7"],
            steps: [
                Self.twoObjects(pad),
                { run in
                    // Once everything is drawn and nothing is due (an untimed wait): nothing but the resize redraws.
                    guard run.timeout == nil else { return false }
                    run.console.resizeTerminal(columns: 60, rows: 20)
                    run.loop.signalResize()
                    return true
                },
                Self.type("q"),
            ]
        )
        #expect(status == 0, "\(live.console.errors)")
        let widest = { (screen: String) in screen.split(separator: "\n").map(\.count).max() ?? 0 }
        let before = live.screen(afterStep: 0)
        #expect(widest(before) > 60, "\(before)")
        let after = live.screen(afterStep: 1)
        #expect(after.contains("┌"), "redrawn after the resize:\n\(after)")
        #expect(widest(after) <= 60 && after.split(separator: "\n").count <= 20, "to the new size:\n\(after)")
    }

    @Test func aHangUpEndsTheHoldAtTheEndOfARecording() throws {
        let live = LiveRun()
        var held = false
        let status = live.run(
            ["demo", "--fast"],
            steps: [
                { run in
                    // Every wait until the last frame is held: then the terminal closes.
                    guard run.console.written.contains("end of recording, q to quit") else { return false }
                    held = true
                    run.loop.signalHangup()
                    return true
                }
            ]
        )
        #expect(held, "the last frame was held")
        #expect(status == 0, "SIGHUP ends the hold as q does: \(live.console.errors)")
        #expect(live.console.written.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
        #expect(!live.keyboard.isRaw)
    }

    @Test func ctrlZGivesTheScreenBackAndFgTakesItAgain() throws {
        let live = LiveRun()
        let pad = live.devices.add("/dev/input/event7", DeviceCatalogue.magicTrackpad2)
        var whileStopped: (raw: Bool, output: String)?
        let status = live.run(
            ["stream", "-d", "/dev/input/event7"],
            steps: [
                Self.twoObjects(pad),
                LiveRun.step { run in
                    run.loop.signalSuspend { whileStopped = (run.keyboard.isRaw, run.console.written) }
                },
                Self.type("q"),
            ]
        )
        #expect(status == 0, "\(live.console.errors)")
        let stopped = try #require(whileStopped, "the suspend reached the view")
        #expect(!stopped.raw, "the keyboard's mode given back before the stop")
        #expect(stopped.output.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"), "the user's screen given back before the stop")
        let resumed = live.snapshots[2].dropFirst(stopped.output.count)
        #expect(resumed.hasPrefix("\u{1B}[?1049h\u{1B}[?25l"), "fg: the live view's screen taken again")
        #expect(Self.bars(LiveRun.lastScreen(resumed)).isEmpty && resumed.contains("┌"), "and redrawn")
        #expect(live.keyboard.isRaw == false, "q restored it at the end")
    }

    @Test func aHangUpReopensTheStreamsDevice() throws {
        let live = LiveRun()
        let pad = live.devices.add("/dev/input/event7", DeviceCatalogue.magicTrackpad2)
        let status = live.run(
            ["stream", "-d", "/dev/input/event7", "-f", "jsonl"],
            steps: [
                Self.twoObjects(pad), LiveRun.step { $0.loop.signalHangup() }, LiveRun.step { $0.loop.signalStop() },
            ]
        )
        #expect(status == 0, "\(live.console.errors)")
        #expect(live.devices.opened == ["/dev/input/event7", "/dev/input/event7"], "opened again on SIGHUP")
        #expect(live.console.errors.contains("SIGHUP: reopening /dev/input/event7"), "\(live.console.errors)")
        let devices = live.console.lines.filter { $0.contains(#""type":"device""#) }
        #expect(devices.count == 2, "a device record for each open")
    }
}

/// `stream -o FILE` in-process: the file is opened through the runtime's files (the seam's `appendOutput`), not the
/// disk, and appended to as the real one is: an earlier run's cut line stays on its own.
@Suite
struct StreamOutputInProcessTests {
    @Test func theOutputFileIsAppendedThroughTheFilesSeam() throws {
        let live = LiveKeysInProcessTests.LiveRun()
        let pad = live.devices.add("/dev/input/event7", DeviceCatalogue.magicTrackpad2)
        live.files.files["/var/log/plums.jsonl"] = Array("{\"cut\":".utf8)
        let status = live.run(
            ["stream", "-d", "/dev/input/event7", "-o", "/var/log/plums.jsonl"],
            steps: [
                LiveKeysInProcessTests.twoObjects(pad), LiveKeysInProcessTests.LiveRun.step { $0.loop.signalStop() },
            ]
        )
        #expect(status == 0, "\(live.console.errors)")
        #expect(live.console.written.isEmpty, "nothing on standard output")
        let lines = String(decoding: live.files.files["/var/log/plums.jsonl"] ?? [], as: UTF8.self)
            .split(separator: "\n")
        try #require(lines.count >= 3, "\(lines)")
        #expect(lines[0] == "{\"cut\":", "the cut line stays on its own")
        #expect(lines[1].contains(#""type":"device""#))
        #expect(lines.dropFirst(2).contains { $0.contains(#""type":"frame""#) && $0.contains(#""id":2"#) })
    }
}
