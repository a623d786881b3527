import PlumometerCore
import PlumometerSession
import PlumometerTestKit
import Testing

/// The live source over the runtime's device seam: a device emulated by the test kit is opened, read and closed
/// exactly as the bridge's evdev device is, its unplug reported, a keyboard never opened.
@Suite
struct LiveSourceTests {
    static let path = "/dev/input/event3"

    static let touches = EventScript(startingAt: EventTime(microseconds: 1_000_000))
        .touch(slot: 0, id: 4, x: 100, y: 200, pressure: 90).report(after: .milliseconds(10))
        .move(slot: 0, pressure: 95).report()

    @Test func whatTheDeviceSaysReachesTheSourceAndAnUnplugIsReported() throws {
        let loop = EmbeddedEventLoop(clocks: ManualClocks())
        let devices = ScriptedDevices(loop: loop)
        let pad = devices.add(Self.path, DeviceCatalogue.magicTrackpad2)
        try Runtime.with(.embedded(loop: loop, devices: devices)) {
            let source = try LiveSource(path: Self.path, grab: true)
            #expect(source.description.name == DeviceCatalogue.magicTrackpad2.name)
            #expect(pad.isOpen && pad.isGrabbed)
            var inputs: [DeviceInput] = []
            var gone = false
            source.onInputs = { inputs += $0 }
            source.onGone = {
                gone = true
                loop.finish()
            }
            source.start(in: loop, into: nil)
            #expect(loop.watchedDescriptors == [pad.fileDescriptor])
            var turn = 0
            loop.onWait = { _ in
                turn += 1
                if turn == 1 { pad.feed(Self.touches) } else { pad.unplug() }
            }
            try loop.run { try source.due() }
            #expect(inputs == Self.touches.events.map(DeviceInput.event))
            #expect(gone, "the unplug reached onGone")
            source.close()
            #expect(!pad.isOpen)
            #expect(loop.watchedDescriptors.isEmpty)
        }
    }

    @Test func anUnplugWithoutOnGoneIsTheDevicesErrorWhole() throws {
        let loop = EmbeddedEventLoop(clocks: ManualClocks())
        let devices = ScriptedDevices(loop: loop)
        let pad = devices.add(Self.path, DeviceCatalogue.magicTrackpad2)
        try Runtime.with(.embedded(loop: loop, devices: devices)) {
            let source = try LiveSource(path: Self.path)
            defer { source.close() }
            source.start(in: loop, into: nil)
            loop.onWait = { _ in pad.unplug() }
            // (Not `let error = #expect(throws:)`: Debian's Swift 6.0.3 has the form that returns nothing.)
            do {
                try loop.run { try source.due() }
                Issue.record("the unplug did not end the run")
            } catch let error as ScriptedDevice.Gone {
                #expect(error.path == Self.path)
            }
        }
    }

    @Test func whatRestsOnTheDeviceAtOpenIsTheFirstFrame() throws {
        let devices = ScriptedDevices()
        let rest: [AbsoluteAxis: Int32] = [.mtTrackingID: 5, .mtPositionX: 300, .mtPositionY: -200, .mtPressure: 80]
        let state = DeviceState(
            slots: [rest] + Array(repeating: [.mtTrackingID: -1], count: 15),
            currentSlot: 0,
            keysDown: [.btnTouch],
            time: EventTime(microseconds: 2_000_000)
        )
        devices.add(Self.path, DeviceCatalogue.magicTrackpad2, state: state)
        try Runtime.with(.embedded(devices: devices)) {
            let source = try LiveSource(path: Self.path)
            defer { source.close() }
            let frame = try #require(source.initialFrame, "a plum rested on the pad at open")
            #expect(frame.contacts.map(\.pressure) == [80])
            #expect(source.clock.deviceUsesMonotonic)
        }
    }

    @Test func aKeyboardIsNeverOpened() throws {
        let devices = ScriptedDevices()
        devices.add(Self.path, DeviceCatalogue.keyboard)
        Runtime.with(.embedded(devices: devices)) {
            _ = #expect(throws: ScriptedDevices.Refusal.self) { try LiveSource(path: Self.path) }
        }
        #expect(devices.opened.isEmpty)
    }
}
