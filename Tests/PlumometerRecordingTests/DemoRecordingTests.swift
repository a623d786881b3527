import Foundation
import PlumometerCore
import PlumometerDemo
import PlumometerTestSupport
import Testing

@testable import PlumometerRecording

@Suite("bundled demo")
struct DemoRecordingTests {
    static func read() throws -> (DeviceDescription, [RawEvent]) {
        var recording = try RecordingReader.read(text: DemoRecording.text, fileName: DemoRecording.fileName)
        #expect(recording.format == .evemu)
        return (recording.devices[0].description, try recording.devices[0].events.collect())
    }

    @Test func describesAForceSensingTrackpad() throws {
        let (d, _) = try Self.read()
        #expect(DemoRecording.fileName == "demo-weighing.evemu")
        #expect(d.name == "Apple Internal Keyboard / Trackpad")
        #expect(d.identity.bus == BusType.spi.rawValue)
        #expect(d.identity.vendor == 0x05ac)
        #expect(d.properties == [.pointer, .buttonpad])
        #expect(d.slotCount == 16)
        #expect(d.pressureAxis == .mtPressure)
        #expect(d.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 6000, fuzz: 2, flat: 0, resolution: 1))
        #expect(DemoRecording.text.utf8.count < 150_000)
    }

    @Test func sessionPlacesComparesLiftsAndAdds() throws {
        let (_, events) = try Self.read()
        #expect(events.first?.time == EventTime(microseconds: 1))
        let seconds = try #require(events.last).time.seconds
        #expect(seconds > 14 && seconds < 16)
        #expect(events.last?.isReport == true)

        var slot: Int32 = 0
        var active: [Int32: Int32] = [:]
        var pressure: [Int32: Int32] = [:]
        var ids: [Int32] = []
        var slotOfID: [Int32: Int32] = [:]
        var maxActive = 0
        var touch: Int32 = 0
        var pendingFrame = false
        for event in events {
            if event.isReport {
                maxActive = max(maxActive, active.count)
                pendingFrame = false
                continue
            }
            pendingFrame = true
            switch (event.type, event.code) {
            case (.abs, AbsoluteAxis.mtSlot.rawValue): slot = event.value
            case (.abs, AbsoluteAxis.mtTrackingID.rawValue):
                if event.value == -1 {
                    active[slot] = nil
                } else {
                    active[slot] = event.value
                    ids.append(event.value)
                    slotOfID[event.value] = slot
                }
            case (.abs, AbsoluteAxis.mtPressure.rawValue): pressure[slot] = event.value
            case (.key, KeyCode.btnTouch.rawValue): touch = event.value
            default: break
            }
        }
        #expect(!pendingFrame)
        #expect(Set(ids).count > 3)
        #expect(ids == ids.sorted())  // one counter, increasing
        #expect(maxActive >= 3)
        #expect(active.isEmpty)  // ends cleanly: every contact lifted
        #expect(touch == 0)
        // The fourth contact reuses the slot the lifted second one had.
        #expect(slotOfID[ids[3]] == slotOfID[ids[1]])
        // Settled pressures are plausible plum weights in grams.
        #expect(pressure.values.allSatisfy { (1...6000).contains($0) })
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/bin/python3") || Requirements.all,
            "python3 not installed"
        )
    )
    func generatorReproducesTheBundledFile() throws {
        let script = Fixtures.path("scripts/make-demo-recording.py").path
        let result = try ProcessRunner.run("/usr/bin/python3", [script, "--check"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
