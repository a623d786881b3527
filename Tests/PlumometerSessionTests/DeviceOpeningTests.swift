import PlumometerCore
import PlumometerOutput
import PlumometerRecording
import PlumometerSession
import PlumometerTestKit
import Testing

/// The one way a device reaches a consumer (`Session.open`): every source (a recording, an emulated live device)
/// hands every consumer (the reading pipeline, weigh, the guided calibration and probe, describe and record) one
/// ``OpenedDevice`` made by one preparation; `--tare` and `--carrier` follow one rule (``TareStart``).
@Suite
struct DeviceOpeningTests {
    typealias Scene = SessionTests.Scene

    static func t(_ milliseconds: Int64) -> EventTime { SessionTests.t(milliseconds) }

    /// Two plums resting where reading starts (11: 120 g, 12: 80 g), a third (13: 60 g) placed a second later, then
    /// a last event 2.5 s on: as a recording, its first frame holds the two.
    static let twoThenOne = EventScript(startingAt: t(1_000))
        .touch(slot: 0, id: 11, x: -3000, y: 2000, pressure: 120)
        .touch(slot: 1, id: 12, x: 0, y: 2000, pressure: 80).report(after: .milliseconds(1_000))
        .touch(slot: 2, id: 13, x: 3000, y: 2000, pressure: 60).report(after: .milliseconds(2_500))
        .move(slot: 0, pressure: 120).report()
        .events

    /// The same scene on a live device: the two plums rest on it when it is opened (its initial frame), the third
    /// arrives a second later.
    static func twoThenOneLive(in scene: Scene) {
        let resting: [[AbsoluteAxis: Int32]] = [
            [.mtTrackingID: 11, .mtPositionX: -3000, .mtPositionY: 2000, .mtPressure: 120],
            [.mtTrackingID: 12, .mtPositionX: 0, .mtPositionY: 2000, .mtPressure: 80],
        ]
        let state = DeviceState(
            slots: resting + Array(repeating: [.mtTrackingID: -1], count: 14),
            currentSlot: 1,
            keysDown: [.btnTouch],
            time: t(1_000)
        )
        let pad = scene.devices.add(livePath, DeviceCatalogue.appleSiliconTrackpad, state: state)
        let third = EventScript(startingAt: t(2_000)).touch(slot: 2, id: 13, x: 3000, y: 2000, pressure: 60).report()
        // The third arrives a second after the open; once everything has settled (nothing more is due), the run
        // ends, as a live device's consumer waits while nothing moves.
        var fed = false
        scene.loop.onWait = { [unowned loop = scene.loop, clocks = scene.clocks] timeout in
            if !fed, timeout.map({ clocks.now.microseconds + $0 >= t(2_000).microseconds }) ?? true {
                clocks.now = t(2_000)
                pad.feed(third)
                fed = true
            } else if fed, timeout == nil {
                loop.finish()
            }
        }
    }

    /// The node of the live device.
    static let livePath = "/dev/input/event5"

    /// Every consumer of a command, built in `begin` from the device it is handed.
    enum Consumer: CaseIterable {
        case readings, weigh, calibrate, probe, describe

        var use: DeviceUse {
            switch self {
            case .readings, .weigh: .reading(ProfileLookup())
            case .calibrate: .calibrating
            case .probe, .describe: .inspecting
            }
        }

        func make(_ device: OpenedDevice, in session: Session) throws -> (any FrameConsumer)? {
            switch self {
            case .readings:
                return try session.pipeline(for: device)
            case .weigh:
                let weighing = Weighing(device, start: TareStart())
                return try weighing.begin(timeout: 30) ? nil : weighing
            case .calibrate:
                let range = try #require(device.description.pressureRange)
                return GuidedCalibration(references: [("100 g", 100)], carrier: nil, pressureRange: range)
            case .probe:
                let probe = GuidedProbe(description: device.description, configuration: ProbeConfiguration())
                probe.begin(at: device.start)
                return probe
            case .describe:
                return nil
            }
        }
    }

    /// Opens `/plums.evemu` for `consumer` as its command does, and runs it.
    /// - Returns: the device it was handed (nil when none was), and the lines the session's output wrote.
    static func open(
        _ consumer: Consumer,
        in scene: Scene,
        settings: ReadingSettings = ReadingSettings()
    ) throws -> OpenedDevice? {
        try scene.run {
            let input = try RecordingFile.input("/plums.evemu", selector: nil)
            let output = LineOutput(formatter: JSONLinesFormatter(), sink: TextLineSink(scene.console.standardOutput))
            let session = try Session(output: consumer == .readings ? output : nil, settings: settings)
            var handed: OpenedDevice?
            let source = try session.open(.recording(input, pacing: Pacing(speed: nil)), for: consumer.use) {
                device in
                handed = device
                return try consumer.make(device, in: session)
            }
            try session.run(source)
            #expect(source.device?.record.path == handed?.record.path)
            return handed
        }
    }

    /// The same recording through each consumer: each is handed the same device, and its record is the `device`
    /// line the reading pipeline writes.
    @Test func theSameRecordingGivesEveryConsumerTheSameDeviceRecord() throws {
        let bytes = SessionTests.recording(Self.twoThenOne)
        let readings = Scene(bytes)
        let read = try #require(try Self.open(.readings, in: readings))
        let written = try #require(readings.console.lines.first)
        #expect(JSONLinesFormatter().device(read.record).map { $0.dropLast() } == Substring(written))
        for consumer in Consumer.allCases {
            let scene = Scene(bytes)
            let device = try #require(try Self.open(consumer, in: scene), "\(consumer)")
            #expect(
                JSONLinesFormatter().device(device.record) == JSONLinesFormatter().device(read.record),
                "\(consumer)"
            )
            #expect(device.path == "/plums.evemu" && device.kind == .recording && device.start == read.start)
            #expect(device.hasEvents && device.initialFrame == nil)
            #expect(device.classification == read.classification, "\(consumer)")
        }
    }

    /// A device without a pressure axis: every command that reads weights (or calibrates) refuses it in the
    /// preparation, before its consumer is built, in one sentence; probe and describe are handed it.
    @Test func aDeviceWithoutAPressureAxisIsRefusedOnceInTheSameWords() throws {
        let events = EventScript(startingAt: Self.t(1_000)).touch(slot: 0, id: 1, x: 10, y: 10).report().events
        let bytes = Array(
            EvemuWriter.recording(of: DeviceCatalogue.touchpadWithoutPressure, events: events).utf8
        )
        var refusals: [String] = []
        for consumer in Consumer.allCases {
            let scene = Scene(bytes)
            do {
                let device = try Self.open(consumer, in: scene)
                #expect(consumer.use.needsPressure == false, "\(consumer) was handed the device")
                #expect(device?.description.pressureAxis == nil)
            } catch let error as CLIError {
                #expect(consumer.use.needsPressure, "\(consumer)")
                refusals.append(error.description)
                #expect(scene.console.lines.isEmpty, "nothing written before the refusal: \(consumer)")
            }
        }
        #expect(refusals.count == 3)
        #expect(Set(refusals).count == 1, "\(refusals)")
        #expect(
            refusals.first
                == "/plums.evemu ('\(DeviceCatalogue.touchpadWithoutPressure.name)') has no pressure axis (neither "
                + "ABS_MT_PRESSURE nor ABS_PRESSURE), so it cannot weigh anything."
        )
        // A live device: the same sentence, and another device could be chosen.
        for consumer in Consumer.allCases where consumer.use.needsPressure {
            let scene = Scene([])
            let device = scene.devices.add(Self.livePath, DeviceCatalogue.touchpadWithoutPressure)
            var begun = false
            #expect {
                try scene.run {
                    let session = try Session(output: nil)
                    _ = try session.open(.live { try LiveSource(path: Self.livePath) }, for: consumer.use) { _ in
                        begun = true
                        return nil
                    }
                }
            } throws: { error in
                "\(error)"
                    == "/dev/input/event5 ('\(DeviceCatalogue.touchpadWithoutPressure.name)') has no pressure axis "
                    + "(neither ABS_MT_PRESSURE nor ABS_PRESSURE), so it cannot weigh anything. 'plumometer list' "
                    + "shows which devices can."
            }
            #expect(!begun && !device.isOpen && scene.devices.opened == [Self.livePath], "\(consumer)")
        }
    }

    /// The grams of each contact in a reading, by id.
    static func grams(_ reading: Reading) -> [Int: Double] {
        Dictionary(uniqueKeysWithValues: reading.contacts.map { ($0.id, $0.grams ?? .nan) })
    }

    /// Where `--tare` is taken: on what rests on a live device at open, on a recording's first frame; the reading
    /// pipeline (stream, replay) and weigh take it alike: the two plums resting there read zero, the third its own
    /// weight.
    @Test(arguments: [SourceKind.device, .recording])
    func tareAtTheStartIsTakenTheSameWayByStreamAndWeigh(_ kind: SourceKind) throws {
        var settings = ReadingSettings()
        settings.tareAtStart = true
        let expected: [Int: Double] = [11: 0, 12: 0, 13: 60]
        // The reading pipeline.
        let scene = Scene(SessionTests.recording(Self.twoThenOne))
        let readings = Readings()
        try scene.run {
            let session = try Session(output: readings, settings: settings)
            try session.run(try session.openReadings(Self.selection(kind, in: scene)))
        }
        let first = try #require(readings.frames.first)
        #expect(Self.grams(first).filter { $0.key != 13 } == [11: 0, 12: 0], "the zero at the start: \(first)")
        #expect(Self.grams(try #require(readings.frames.last)) == expected)
        // Weigh, answering once one object besides the tared ones rests.
        let weighed = Scene(SessionTests.recording(Self.twoThenOne))
        let weighing = try weighed.run {
            let session = try Session()
            var made: Weighing?
            let source = try session.open(Self.selection(kind, in: weighed), for: .reading(ProfileLookup())) { device in
                let weighing = Weighing(device, start: TareStart(tare: true), wait: WeighingWait(objects: 1))
                made = weighing
                return try weighing.begin(timeout: 30) ? nil : weighing
            }
            try session.run(source)
            return made
        }
        let result = try #require(weighing?.result)
        #expect(Self.grams(result) == expected)
    }

    /// `--carrier` with two contacts down where reading starts: one refusal in the same words; the reading pipeline
    /// says it on stderr and reads on untared, weigh ends with it (docs/quantities.md).
    @Test(arguments: [SourceKind.device, .recording])
    func aCarrierThatCannotBeTaredIsRefusedInTheSameWordsByStreamAndWeigh(_ kind: SourceKind) throws {
        let path = kind == .device ? "/dev/input/event5" : "/plums.evemu"
        let refusal = TareStartRefusal(path: path, reason: .severalDown(count: 2)).description
        #expect(refusal.hasPrefix("--carrier on \(path): 2 contacts are down"))
        var settings = ReadingSettings()
        settings.carrierAtStart = true
        let scene = Scene(SessionTests.recording(Self.twoThenOne))
        let readings = Readings()
        try scene.run {
            let session = try Session(output: readings, settings: settings)
            try session.run(try session.openReadings(Self.selection(kind, in: scene)))
        }
        #expect(scene.console.errors.contains("plumometer: \(refusal) Reading on without a carrier.\n"))
        #expect(Self.grams(try #require(readings.frames.last)) == [11: 120, 12: 80, 13: 60])
        let weighed = Scene(SessionTests.recording(Self.twoThenOne))
        #expect {
            try weighed.run {
                let session = try Session()
                let source = try session.open(Self.selection(kind, in: weighed), for: .reading(ProfileLookup())) {
                    device in
                    let weighing = Weighing(device, start: TareStart(carrier: true))
                    return try weighing.begin(timeout: 30) ? nil : weighing
                }
                try session.run(source)
            }
        } throws: { error in
            "\(error)" == refusal
        }
    }

    /// The scene of ``twoThenOne`` from `kind`: `/plums.evemu` played fast, or the emulated live device.
    static func selection(_ kind: SourceKind, in scene: Scene) throws -> DeviceOpening {
        switch kind {
        case .device:
            twoThenOneLive(in: scene)
            return .live { try LiveSource(path: Self.livePath) }
        case .recording:
            return .recording(try RecordingFile.input("/plums.evemu", selector: nil), pacing: Pacing(speed: nil))
        }
    }
}

/// A reading output that keeps the readings.
final class Readings: ReadingOutput {
    private(set) var records: [DeviceRecord] = []
    private(set) var frames: [Reading] = []

    func device(_ record: DeviceRecord) throws { records.append(record) }
    func frame(_ reading: Reading, sequence: Int) throws { frames.append(reading) }
    func removed(path: String, time: EventTime) throws {}
    func status(_ message: String) {}
    func idle(now: EventTime) throws {}
    func idleDeadline(now: EventTime) -> Int64? { nil }
    func finish() throws {}
}
