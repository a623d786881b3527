import PlumometerCore
import PlumometerRecording
import PlumometerSession
import PlumometerTestKit
import Testing

/// ``RawRecorder`` keeps several devices' events in spools until it assembles the file (never the whole recording in
/// memory), and counts only the events that got out: after a failed write (a full disk) it claims none it lost.
@Suite
struct RawRecorderTests {
    static let events = EventScript(startingAt: EventTime(microseconds: 1_000_000))
        .touch(slot: 0, id: 7, x: 100, y: 200, pressure: 90).report(after: .milliseconds(10))
        .move(slot: 0, pressure: 95).report(after: .milliseconds(10))
        .events

    /// A sink that takes `limit` writes, then fails as a full disk does.
    final class FillingSink: TextSink {
        var text = ""
        var limit: Int
        init(limit: Int) { self.limit = limit }
        func write(_ text: String) throws {
            guard limit > 0 else { throw CLIError.runtime("No space left on device") }
            limit -= 1
            self.text += text
        }
    }

    static func device(_ description: DeviceDescription, _ index: Int) -> RawRecorder.Device {
        RawRecorder.Device(description: description, node: "/dev/input/event\(index)", initialFrame: nil)
    }

    @Test func severalDevicesWaitInSpoolsNotInTheSinkAndAreAssembledAtTheEnd() throws {
        let files = MemoryFiles()
        let sink = FillingSink(limit: 1_000)
        try Runtime.with(.embedded(files: files)) {
            let recorder = RawRecorder(sink: sink, format: .libinput)
            try recorder.begin([
                Self.device(DeviceCatalogue.magicTrackpad2, 4), Self.device(DeviceCatalogue.appleSiliconTrackpad, 5),
            ])
            #expect(files.spoolCount == 2)
            try recorder.record(Self.events.map(DeviceInput.event), device: 0)
            try recorder.record(Self.events.map(DeviceInput.event), device: 1)
            #expect(sink.text.isEmpty, "written before the end: \(sink.text)")
            try recorder.finish()
        }
        let recording = try RecordingReader.read(text: sink.text, fileName: "both.yml")
        #expect(recording.devices.count == 2)
        for index in 0..<2 {
            var device = recording.devices[index]
            #expect(try device.events.collect().count == Self.events.count)
        }
    }

    @Test(.tags(.foundByFaultInjection))
    func eventsThatCouldNotBeWrittenAreNotCounted() throws {
        let sink = FillingSink(limit: 2)
        try Runtime.with(.embedded()) {
            let recorder = RawRecorder(sink: sink, format: .evemu)
            try recorder.begin([Self.device(DeviceCatalogue.magicTrackpad2, 4)])
            let frames = Self.events.split { $0.type == .syn }.map {
                Array($0) + [RawEvent.syn(.report, at: $0.first!.time)]
            }
            try recorder.record(frames[0].map(DeviceInput.event), device: 0)
            #expect(recorder.eventCount == frames[0].count)
            #expect(throws: CLIError.self) { try recorder.record(frames[1].map(DeviceInput.event), device: 0) }
            #expect(recorder.failed)
            #expect(recorder.eventCount == frames[0].count, "counted what the full disk refused")
            try recorder.record(frames[1].map(DeviceInput.event), device: 0)
            try recorder.finish()
            #expect(recorder.eventCount == frames[0].count)
        }
    }
}
