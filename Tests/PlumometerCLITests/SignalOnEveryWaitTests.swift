import Foundation
import PlumometerTestSupport
import Testing

/// SIGINT and SIGTERM end every command wherever it waits, outside the poll loop too: opening a FIFO nobody reads
/// (`stream -o`, `plot -o`, `demo --save`, and `record -o` after its device opened), writing to a reader that stalled (`plot -o -`), reading a
/// recording that has not arrived (`replay`, `describe`, `plot`, `probe`, `weigh`, `calibrate --replay`); SIGHUP (the
/// terminal closed) ends every wait for a recording too. Status 0, as for any stop, but where the command's help says
/// a stop before its answer fails (`weigh`, `calibrate`, `plot`: 1), and the FIFO is left a FIFO. Driven by
/// Tests/Scripts/stop_anywhere.py.
@Suite(.serialized)
struct SignalOnEveryWaitTests {
    static let recording = CLI.fixture("grams-pad.calibration.evemu")

    /// Runs the driver script and parses the JSON object it prints.
    static func stop(
        _ arguments: [String],
        signal: String,
        stdout: String = "read",
        stdin: String? = nil
    ) throws -> [String: Any] {
        let script = Fixtures.script("stop_anywhere.py").path
        var environment: [String: String] = [:]
        environment["XDG_CONFIG_HOME"] = try CLI.temporaryDirectory().path
        environment["PLUMOMETER_WALL_CLOCK"] = "1767225600"
        let input = stdin.map { ["--stdin", $0] } ?? []
        let result = try ProcessRunner.run(
            "/usr/bin/python3",
            [script, try CLI.binary, signal, stdout] + input + ["--"] + arguments,
            environment: environment,
            timeout: 60
        )
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "driver said: \(result.stdout) \(result.stderr)")
    }

    static func expectStopped(
        _ result: [String: Any],
        _ what: String,
        status: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            result["exited_before_signal"] as? Bool == false,
            "\(what) did not wait: \(result)",
            sourceLocation: sourceLocation
        )
        #expect(result["status"] as? Int == status, "\(what): \(result)", sourceLocation: sourceLocation)
        let seconds = result["seconds"] as? Double
        // 100 ms when the machine is idle; the bound leaves room for a loaded test machine.
        #expect(
            seconds.map { $0 < 2 } == true,
            "\(what) took \(String(describing: seconds)) s",
            sourceLocation: sourceLocation
        )
    }

    static let fifoOutputs: [[String]] = [
        ["stream", "-d", "/dev/input/event-none", "-o", "{fifo}"],
        ["plot", recording, "-o", "{fifo}"],
        ["demo", "--save", "{fifo}"],
    ]

    @Test(.tags(.foundByFaultInjection), arguments: fifoOutputs, ["INT", "TERM"])
    func aStopSignalEndsTheWaitForTheReaderOfAFIFO(arguments: [String], signal: String) throws {
        let result = try Self.stop(arguments, signal: signal)
        Self.expectStopped(result, arguments.joined(separator: " "))
        #expect(result["fifo"] as? String == "fifo", "the FIFO was replaced: \(result)")
    }

    /// Each reader of a recording, and its status when stopped before the recording described its device.
    static let fifoInputs: [([String], Int)] = [
        (["replay", "{fifo}"], 0),
        (["describe", "{fifo}"], 0),
        (["plot", "{fifo}", "-o", "{dir}/plot.svg"], 1),
        (["probe", "--replay", "{fifo}"], 0),
        // Their help: a stop before a stable reading (a fit) exits 1, and so does one before any data.
        (["weigh", "--replay", "{fifo}"], 1),
        (["calibrate", "--replay", "{fifo}", "--point", "0:0", "--point", "100:100"], 1),
    ]

    @Test(.tags(.foundByFaultInjection), arguments: fifoInputs, ["INT", "TERM", "HUP"])
    func aStopSignalEndsAReplayWaitingForAWriter(input: ([String], Int), signal: String) throws {
        let result = try Self.stop(input.0, signal: signal)
        Self.expectStopped(result, input.0.joined(separator: " ") + " (SIG\(signal))", status: input.1)
        #expect((result["stderr"] as? String)?.contains("plumometer: ") == true, "\(result)")
    }

    /// `-` with the description arrived and the events not yet: the wait is in the middle of the recording.
    @Test(.tags(.foundByFaultInjection), arguments: [("probe", 0), ("weigh", 1)], ["INT", "HUP"])
    func aStopSignalEndsAReplayWaitingForEvents(command: (String, Int), signal: String) throws {
        let (command, status) = command
        let head = try String(contentsOfFile: Self.recording, encoding: .utf8)
        let description = String(head[..<(head.range(of: "\nE:")?.lowerBound ?? head.endIndex)]) + "\n"
        let file = try CLI.temporaryDirectory().appendingPathComponent("head.evemu")
        try Data(description.utf8).write(to: file)
        let result = try Self.stop([command, "--replay", "-"], signal: signal, stdin: file.path)
        Self.expectStopped(result, "\(command) --replay - (SIG\(signal))", status: status)
    }

    /// An SVG larger than the pipe's buffer, to a reader that never reads.
    @Test(.tags(.foundByFaultInjection), arguments: ["INT", "TERM"])
    func aStopSignalEndsAPlotWrittenToAStalledPipe(signal: String) throws {
        let result = try Self.stop(["plot", Self.recording, "-o", "-"], signal: signal, stdout: "stalled")
        Self.expectStopped(result, "plot -o - into a stalled pipe")
    }

    /// Expected-small inputs that are FIFOs are refused at once, without waiting for a writer.
    @Test(.tags(.foundByFaultInjection))
    func aFIFOGivenAsProfileOrDescriptionIsRefusedAtOnce() throws {
        let directory = try CLI.temporaryDirectory()
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let events = directory.appendingPathComponent("bare.events")
        try Data("E: 0.000000 0000 0000 0000\n".utf8).write(to: events)
        for arguments in [
            ["replay", "--fast", "--profile", fifo, Self.recording],
            ["replay", "--fast", "--desc", fifo, events.path],
            ["weigh", "--replay", Self.recording, "--profile", fifo],
        ] {
            let result = try CLI.run(arguments, timeout: 10)
            #expect(!result.timedOut, "\(arguments) waited")
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\(fifo) is a FIFO, not a regular file"), "\(arguments): \(result.stderr)")
        }
    }

    /// `record -o FIFO` on an emulated device (Tests/Scripts/fifo_device.py, which sends SIGTERM after 1 s): the
    /// device opens, the wait for the FIFO's reader hears the signal, status 0, the FIFO left a FIFO.
    @Test(.tags(.foundByFaultInjection), .enabled(if: Umockdev.isAvailable, "umockdev is not installed"))
    func aStopSignalEndsRecordWaitingForTheReaderOfAFIFO() throws {
        let node = "/dev/input/event9"
        let device = try EmulatedDevice(
            try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc"),
            node: node,
            udevProperties: [:],
            label: "record-fifo"
        )
        let fifo = device.directory.appendingPathComponent("recording.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let result = try device.runFed(
            try CLI.binary,
            ["record", "-d", node, "-o", fifo],
            events: nil,
            timed: false,
            hold: 1,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 60
        )
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 20, "record waited on after the signal")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }
}
