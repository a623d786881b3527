import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession
import PlumometerTestKit
import Testing

/// Sessions run in-process on the test kit's embedded loop, capturing console and files in memory: the same sources,
/// consumers and `Session.run` as the tool's, in milliseconds. Each binds its runtime to its own task
/// (`Runtime.with`), so they run side by side.
@Suite
struct SessionTests {
    /// Milliseconds as an event time.
    static func t(_ milliseconds: Int64) -> EventTime { EventTime(microseconds: milliseconds * 1_000) }

    /// Three plums placed one by one on a pad that reads grams (0...6000, 1 unit a gram), resting 2 s, then a
    /// last event that says nothing new (the recording's end at 5.5 s).
    static let threePlums = EventScript(startingAt: t(1_000))
        .touch(slot: 0, id: 11, x: -3000, y: 2000, pressure: 120).report(after: .milliseconds(1_000))
        .touch(slot: 1, id: 12, x: 0, y: 2000, pressure: 80).report(after: .milliseconds(1_000))
        .touch(slot: 2, id: 13, x: 3000, y: 2000, pressure: 60).report(after: .milliseconds(2_500))
        .move(slot: 0, pressure: 120).report()
        .events

    static func recording(_ events: [RawEvent]) -> [UInt8] {
        Array(EvemuWriter.recording(of: DeviceCatalogue.appleSiliconTrackpad, events: events).utf8)
    }

    /// The runtime of one test: a recording at `/plums.evemu`, the console captured, the clock fixed.
    struct Scene {
        let console = CapturingConsole()
        let files: MemoryFiles
        let clocks = ManualClocks()
        let loop: EmbeddedEventLoop
        /// Live devices in memory, made ready on ``loop``.
        let devices: ScriptedDevices

        init(_ bytes: [UInt8]) {
            files = MemoryFiles(["/plums.evemu": bytes], environment: ["PLUMOMETER_WALL_CLOCK": "1767225600"])
            loop = EmbeddedEventLoop(clocks: clocks)
            devices = ScriptedDevices(loop: loop)
        }

        /// Runs `body` in this scene's runtime.
        func run<Result>(_ body: () throws -> Result) rethrows -> Result {
            try Runtime.with(.embedded(console: console, files: files, loop: loop, devices: devices), body)
        }

        /// The JSON Lines of a replay of `/plums.evemu` at `pacing`.
        func replay(
            pacing: Pacing = Pacing(speed: nil),
            settings: ReadingSettings = ReadingSettings()
        ) throws
            -> [Substring]
        {
            try run {
                let input = try RecordingFile.input("/plums.evemu", selector: nil)
                let output = LineOutput(formatter: JSONLinesFormatter(), sink: TextLineSink(console.standardOutput))
                let session = try Session(output: output, settings: settings)
                let source = try session.openReadings(.recording(input, pacing: pacing))
                try session.run(source)
                if let failure = source.failure { throw failure }
                return console.lines
            }
        }
    }

    @Test func aReplayWritesTheDeviceThenEveryReadingAndEndsWithThePlumsAtRest() throws {
        let scene = Scene(Self.recording(Self.threePlums))
        let lines = try scene.replay()
        let device = try #require(lines.first)
        #expect(device.hasPrefix(#"{"type":"device","#), "\(device)")
        #expect(device.contains(#""wall_time":"2026-01-01T00:00:00.000Z","device":"/plums.evemu""#), "\(device)")
        let last = try #require(lines.last)
        // Heaviest first by rank; grams from the axis' resolution; all three at rest by the end.
        #expect(last.contains(#""id":11"#) && last.contains(#""id":12"#) && last.contains(#""id":13"#))
        #expect(last.contains(#""total_grams":260.00"#), "\(last)")
        #expect(!last.contains(#""stable":false"#), "\(last)")
        // Three placements, the stability ticks between them, the last event: every frame numbered in order.
        let frames = lines.dropFirst()
        for (index, line) in frames.enumerated() {
            #expect(line.contains(#""seq":\#(index + 1),"#), "\(line)")
        }
        #expect(scene.loop.waits.allSatisfy { $0 == 0 }, "a fast replay never sleeps: \(scene.loop.waits)")
    }

    /// Real time on the embedded loop: the session sleeps until the next event or deadline in device time, and
    /// the lines are the fast replay's, byte for byte.
    @Test func aPacedReplaySleepsUntilEachEventAndWritesTheFastReplaysLines() throws {
        let fast = try Scene(Self.recording(Self.threePlums)).replay()
        let paced = Scene(Self.recording(Self.threePlums))
        let lines = try paced.replay(pacing: Pacing(speed: 1))
        #expect(lines == fast)
        let slept = paced.loop.waits.compactMap { $0 }.reduce(0, +)
        // 4.5 s of recording from the first event to the last, at speed 1.
        #expect(slept == 4_500_000, "\(paced.loop.waits)")
        let twice = Scene(Self.recording(Self.threePlums))
        #expect(try twice.replay(pacing: Pacing(speed: 2)) == fast)
        #expect(twice.loop.waits.compactMap { $0 }.reduce(0, +) == 2_250_000)
    }

    /// A recording that has not arrived (a FIFO without a writer): the session waits on its descriptor, and a stop
    /// signal ends the wait with nothing begun.
    @Test func aStopSignalEndsTheWaitForARecordingThatHasNotArrived() throws {
        let scene = Scene([])
        let input = RecordingInput(Silent(), selector: nil)
        var begun = false
        // Unowned: the loop holds this handler (a strong capture would be a cycle, a leak LeakSanitizer reports).
        scene.loop.onWait = { [unowned loop = scene.loop] timeout in
            if timeout == nil { loop.signalStop() }
        }
        let session = try scene.run {
            let session = try Session()
            let source = RecordingSource(input, pacing: Pacing(speed: nil), loop: session.loop) { _, _ in
                begun = true
                return nil
            }
            try session.run(source)
            return session
        }
        #expect(session.stoppedBySignal)
        #expect(!begun)
        #expect(scene.loop.watchedDescriptors == [Silent.descriptor])
    }

    /// A recording that stops arriving half-way (a live `evemu-record` piped in, then quiet): what came is played
    /// and written, the session waits on the input, and a stop signal ends the wait.
    @Test func aStopSignalWhileARecordingIsArrivingKeepsWhatWasPlayed() throws {
        // The description and the first two frames (each ends with its SYN_REPORT line).
        let text = String(decoding: Self.recording(Self.threePlums), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let reports = lines.indices.filter { lines[$0].hasPrefix("E:") && lines[$0].hasSuffix("0000 0000 0000") }
        lines = Array(lines[...reports[1]])
        let scene = Scene([])
        let input = RecordingInput(Trickle(Array((lines.joined(separator: "\n") + "\n").utf8)), selector: nil)
        let output = LineOutput(formatter: JSONLinesFormatter(), sink: TextLineSink(scene.console.standardOutput))
        // Unowned: the loop holds this handler (a strong capture would be a cycle, a leak LeakSanitizer reports).
        scene.loop.onWait = { [unowned loop = scene.loop] timeout in
            if timeout == nil { loop.signalStop() }
        }
        let session = try scene.run {
            let session = try Session(output: output)
            try session.run(try session.openReadings(.recording(input, pacing: Pacing(speed: nil))))
            return session
        }
        #expect(session.stoppedBySignal)
        #expect(scene.console.lines.first?.hasPrefix(#"{"type":"device""#) == true)
        // The device, the first plum, the first plum at rest half a second later (a deadline before the next
        // frame), the second plum: and nothing after what arrived.
        #expect(scene.console.lines.count == 4, "\(scene.console.written)")
        #expect(scene.console.lines.last?.contains(#""id":12"#) == true)
        #expect(scene.loop.watchedDescriptors == [Silent.descriptor])
    }

    /// `--duration` and weigh's live timeout: a run ends when its time on the monotonic clock is up, and says so.
    @Test func aLimitedSourceEndsTheRunWhenItsTimeIsUp() throws {
        let scene = Scene([])
        let (session, limited) = try scene.run {
            let session = try Session()
            let limited = LimitedSource(WatchesOnly(), duration: 2_500_000)
            try session.run(limited)
            return (session, limited)
        }
        #expect(limited.expired)
        #expect(!session.stoppedBySignal)
        #expect(scene.loop.waits == [2_500_000])
    }

    /// Weighs `/plums.evemu` as `weigh --replay` does: the consumer built once the device and its first event are
    /// known.
    static func weigh(start: TareStart, wait: WeighingWait = WeighingWait()) throws -> Weighing? {
        let input = try RecordingFile.input("/plums.evemu", selector: nil)
        let session = try Session()
        var weighing: Weighing?
        let source = try session.open(.recording(input, pacing: Pacing(speed: nil)), for: .reading(ProfileLookup())) {
            device in
            let made = Weighing(device, start: start, wait: wait)
            weighing = made
            return try made.begin(timeout: 30) ? nil : made
        }
        try session.run(source)
        return weighing
    }

    /// Weigh's consumer: three plums placed a second apart are one weighing, answered once all rest and no object
    /// arrived for the settle time; the answer is in grams, heaviest first.
    @Test func weighingAnswersWithEveryPlumOnceTheSceneSettles() throws {
        let scene = Scene(Self.recording(Self.threePlums))
        let weighing = try scene.run { try Self.weigh(start: TareStart(tare: false, carrier: false)) }
        let result = try #require(weighing?.result)
        #expect(result.contacts.sorted { $0.rank < $1.rank }.map(\.id) == [11, 12, 13])
        #expect(result.totalGrams == 260)
        #expect(result.contacts.allSatisfy { $0.stable })
        #expect(scene.console.errors.contains("weighing what /plums.evemu shows once it rests still"))
    }

    /// `--tare` where reading starts: the first plum is zeroed, and the weighing waits for something else to rest.
    @Test func weighingWithATareAnswersWithWhatCameAfterIt() throws {
        let scene = Scene(Self.recording(Self.threePlums))
        let weighing = try scene.run {
            try Self.weigh(start: TareStart(tare: true, carrier: false), wait: WeighingWait(objects: 2))
        }
        let result = try #require(weighing?.result)
        let grams = Dictionary(uniqueKeysWithValues: result.contacts.map { ($0.id, $0.grams ?? -1) })
        #expect(grams == [11: 0, 12: 80, 13: 60])
    }

    /// A malformed line ends the recording: everything before it was played into the consumer, and the failure
    /// names the file and line.
    @Test func aMalformedLineEndsTheRecordingAfterEverythingBeforeIt() throws {
        var bytes = Self.recording(Array(Self.threePlums.prefix(8)))
        bytes += Array("E: not an event\n".utf8)
        let scene = Scene(bytes)
        #expect(throws: RecordingError.self) { _ = try scene.replay() }
        #expect(scene.console.lines.count >= 2, "the device and the first frame before the bad line")
        #expect(scene.console.lines.dropFirst().first?.contains(#""id":11"#) == true)
    }

    /// The guided calibration as a session's consumer: a carrier, then two references added on it one after the
    /// other (100 g, then 200 g more), captured once each rests.
    @Test func theGuidedCalibrationCapturesEachReferenceOnceItRests() throws {
        let events = EventScript(startingAt: Self.t(1_000))
            .touch(slot: 0, id: 5, x: 0, y: 2000, pressure: 50).report(after: .milliseconds(1_000))
            .move(slot: 0, pressure: 150).report(after: .milliseconds(1_000))
            .move(slot: 0, pressure: 250).report(after: .milliseconds(1_000))
            .move(slot: 0, pressure: 250).report()
            .events
        let scene = Scene(Self.recording(events))
        var guide: GuidedCalibration?
        try scene.run {
            let input = try RecordingFile.input("/plums.evemu", selector: nil)
            let session = try Session()
            let source = RecordingSource(input, pacing: Pacing(speed: nil), loop: session.loop) { device, _ in
                let made = GuidedCalibration(
                    references: [("100 g", 100), ("200 g", 200)],
                    carrier: nil,
                    pressureRange: try #require(device.description.pressureRange)
                )
                guide = made
                return made
            }
            try session.run(source)
        }
        let captured = try #require(guide)
        #expect(captured.isDone, "\(scene.console.errors)")
        #expect(captured.points.map(\.grams) == [0, 100, 300])
        #expect(captured.points.map(\.pressure) == [50, 150, 250])
        #expect(scene.console.errors.contains("captured: pressure 150.0 for 100.00 g"))
        #expect(scene.console.errors.contains("captured: pressure 250.0 for 300.00 g"))
    }

    /// The bundled-demo path: a recording in memory is read in chunks like a file, one device picked.
    @Test func aRecordingInMemoryIsReadInChunks() throws {
        let bytes = Self.recording(Self.threePlums)
        let input = MemoryInput(bytes, name: "memory")
        var buffer = [UInt8](repeating: 0, count: 100)
        var total = 0
        var reads = 0
        while case .bytes(let count) = try buffer.withUnsafeMutableBytes({ try input.read(into: $0) }) {
            total += count
            reads += 1
        }
        #expect(total == bytes.count)
        #expect(reads == (bytes.count + 99) / 100)
    }
}

/// An input that never has anything (a FIFO nobody writes to).
final class Silent: ByteInput {
    static let descriptor: Int32 = 42
    var name: String { "fifo" }
    var fileDescriptor: Int32 { Self.descriptor }
    var isTerminal: Bool { false }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> ByteRead { .wouldBlock }
    func peek(_ count: Int) -> [UInt8]? { nil }
}

/// An input that gives its bytes, then nothing more (a writer that went quiet without closing).
final class Trickle: ByteInput {
    private var bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var name: String { "pipe" }
    var fileDescriptor: Int32 { Silent.descriptor }
    var isTerminal: Bool { false }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> ByteRead {
        guard !bytes.isEmpty else { return .wouldBlock }
        let count = Swift.min(buffer.count, bytes.count)
        buffer.copyBytes(from: bytes[..<count])
        bytes.removeFirst(count)
        return .bytes(count)
    }
    func peek(_ count: Int) -> [UInt8]? { nil }
}
