import Foundation
import PlumometerCore
import Testing

@testable import PlumometerRecording

/// The real recordings in `../shared/fixtures` (see its INDEX.md), read in place.
@Suite("shared fixtures", .enabled(if: Paths.sharedFixtures != nil, "../shared/fixtures is absent"))
struct SharedFixtureTests {
    static func url(_ relative: String) throws -> URL {
        try #require(Paths.sharedFixtures).appendingPathComponent(relative)
    }

    /// Reads a single-file recording and returns its description and events.
    static func single(_ relative: String) throws -> (DeviceDescription, [RawEvent]) {
        let url = try url(relative)
        var recording = try RecordingReader.read(text: try Paths.text(url), fileName: url.lastPathComponent)
        #expect(recording.format == .evemu)
        #expect(recording.devices.count == 1)
        let events = try recording.devices[0].events.collect()
        return (recording.devices[0].description, events)
    }

    /// Reads a `.desc` + `.events` pair.
    static func pair(_ desc: String, _ events: String) throws -> (DeviceDescription, [RawEvent]) {
        let d = try url(desc)
        let e = try url(events)
        var recording = try RecordingReader.read(
            descriptionText: try Paths.text(d),
            eventsText: try Paths.text(e),
            fileName: d.lastPathComponent,
            eventsFileName: e.lastPathComponent
        )
        let list = try recording.devices[0].events.collect()
        return (recording.devices[0].description, list)
    }

    static func description(_ relative: String) throws -> DeviceDescription {
        let url = try url(relative)
        let recording = try RecordingReader.read(text: try Paths.text(url), fileName: url.lastPathComponent)
        var source = recording.devices[0].events
        #expect(try source.next() == nil)
        return recording.devices[0].description
    }

    /// Frames (SYN_REPORTs) and the largest number of tracking ids alive at once, for protocol B streams.
    static func stats(_ events: [RawEvent]) -> (reports: Int, maxActive: Int, trackingIDs: Set<Int32>) {
        var slot: Int32 = 0
        var active: [Int32: Int32] = [:]
        var ids = Set<Int32>()
        var reports = 0
        var maxActive = 0
        for event in events {
            if event.isReport {
                reports += 1
                maxActive = max(maxActive, active.count)
            } else if event.type == .abs, event.code == AbsoluteAxis.mtSlot.rawValue {
                slot = event.value
            } else if event.type == .abs, event.code == AbsoluteAxis.mtTrackingID.rawValue {
                if event.value == -1 {
                    active[slot] = nil
                } else {
                    active[slot] = event.value
                    ids.insert(event.value)
                }
            }
        }
        return (reports, maxActive, ids)
    }
}

extension SharedFixtureTests {
    static func pressureValues(_ events: [RawEvent], _ axis: AbsoluteAxis) -> ClosedRange<Int32>? {
        let values = events.filter { $0.type == .abs && $0.code == axis.rawValue }.map(\.value)
        guard let low = values.min(), let high = values.max() else { return nil }
        return low...high
    }

    @Test func appleBcm5974ProtocolA() throws {
        let (d, events) = try Self.single("apple-bcm5974/bcm5974.three-finger-click.events")
        #expect(
            d.identity == DeviceIdentity(bus: 0x03, vendor: 0x05ac, product: 0x0249, version: 0x0001, name: "bcm5974")
        )
        #expect(d.properties == [.buttonpad])
        #expect(d.slotCount == nil)
        #expect(d.contactProtocol == .multitouchAnonymous)
        #expect(d.pressureAxis == .pressure)
        #expect(d.axes[.pressure] == AxisInfo(minimum: 0, maximum: 256, fuzz: 5))
        #expect(events.count == 2586)
        #expect(events.contains { $0.type == .syn && $0.code == SynCode.mtReport.rawValue })
        #expect(Self.pressureValues(events, .pressure) == 0...255)
        #expect(events.last?.isReport == true)
    }

    @Test(arguments: [
        ("three_finger_press", 342), ("three_finger_tap", 48), ("two_finger_press", 278), ("two_finger_tap", 70),
    ])
    func cypressSemiMT(name: String, count: Int) throws {
        let (d, events) = try Self.single("cypress-trackpad-semimt/CyPS2 Cypress Trackpad.\(name).events")
        #expect(d.name == "CyPS/2 Cypress Trackpad")
        #expect(d.identity.idString == "0011:0002:0011:0001")
        #expect(d.properties == [.buttonpad, .semiMT])
        #expect(d.slotCount == 2)
        #expect(d.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 255))
        #expect(events.count == count)
        #expect(events.last?.isReport == true)
    }

    @Test func elantechOneFinger() throws {
        let (d, events) = try Self.single("elantech-samsung-700z3a/ETPS2 Elantech Touchpad.Samsung-700Z3A.events")
        #expect(d.name == "ETPS/2 Elantech Touchpad")
        #expect(d.identity.idString == "0011:0002:000e:0000")
        #expect(d.properties == [.pointer, .buttonpad])
        #expect(d.slotCount == 5)
        #expect(d.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 255))
        #expect(events.count == 1557)
        #expect(Self.stats(events).maxActive == 1)
        #expect(Self.pressureValues(events, .mtPressure) == 1...16)
    }

    @Test func nexus4PairWithFourContacts() throws {
        let (d, events) = try Self.pair("nexus4-touchscreen/n4.desc", "nexus4-touchscreen/n4.events")
        #expect(d.identity == DeviceIdentity(bus: 0, vendor: 0, product: 0, version: 0, name: "touch_dev"))
        #expect(d.properties == [.direct])
        #expect(d.codes[.key] == nil)
        #expect(!d.hasAxis(.x) && !d.hasAxis(.y))
        #expect(d.slotCount == 10)
        #expect(d.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 255))
        #expect(events.count == 4953)
        #expect(Self.stats(events).maxActive == 4)
        #expect(Self.pressureValues(events, .mtPressure) == 24...66)
        let seconds = try #require(events.last).time.seconds(since: try #require(events.first).time)
        #expect(seconds > 7.5 && seconds < 8.5)
    }

    @Test(arguments: [
        ("left-phys-click", 234), ("one-finger-down", 61), ("one-finger-up", 50), ("right-phys-click", 130),
        ("tap", 259), ("two-finger-down", 84), ("two-finger-scroll-down", 332), ("two-finger-scroll-up", 260),
        ("two-finger-up", 40),
    ])
    func synapticsClickpadPairs(name: String, count: Int) throws {
        let dir = "synaptics-clickpad-xit/SynPS2-Synaptics-TouchPad-Clickpad"
        let (d, events) = try Self.pair("\(dir).desc", "\(dir).\(name).events")
        #expect(d.identity.idString == "0011:0002:0007:01b1")
        #expect(d.name == "SynPS/2 Synaptics TouchPad")
        #expect(d.properties == [.pointer, .buttonpad])
        #expect(d.slotCount == 2)
        #expect(d.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 255))
        #expect(d.axes[.mtPositionX] == AxisInfo(minimum: 1472, maximum: 5472, fuzz: 8))
        #expect(events.count == count)
    }

    @Test func wacomPen() throws {
        let (d, events) = try Self.single("wacom-isdv4-dell-canvas-pen/dell_canvas_pen.evemu")
        #expect(d.identity.idString == "0003:056a:4200:0110")
        #expect(d.name == "Wacom ISD-V4 Pen")
        #expect(d.properties == [.direct])
        #expect(d.slotCount == nil)
        #expect(d.axes[.mtPressure] == nil)
        #expect(d.axes[.pressure] == AxisInfo(minimum: 0, maximum: 4095))
        #expect(d.hasKey(.btnToolPen))
        #expect(events.count == 2839)
        #expect(Self.pressureValues(events, .pressure) == 0...4068)
    }

    @Test func pixelTabletTouchscreen() throws {
        let (d, events) = try Self.single("google-pixel-tablet-touchscreen/google_pixel_tablet_touchscreen.evemu")
        #expect(d.identity.idString == "001c:0603:7806:0100")
        #expect(d.name == "NVTCapacitiveTouchScreen")
        #expect(d.properties == [.direct])
        #expect(d.slotCount == 10)
        #expect(d.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 256))
        #expect(d.axes[.pressure] == nil)
        #expect(events.count == 116)
        #expect(events.first?.time == EventTime(microseconds: 1))
        #expect(Self.pressureValues(events, .mtPressure) == 0...216)
    }

    @Test func thinkpadX1C6Truncated() throws {
        let (d, events) = try Self.single("synaptics-tm3289-x1c6/synaptics-tm3289-021.evemu")
        #expect(d.identity.idString == "001d:06cb:0000:0000")
        #expect(d.name == "Synaptics TM3289-021")
        #expect(d.properties == [.pointer, .buttonpad])
        #expect(d.slotCount == 5)
        #expect(d.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 255))
        #expect(events.count == 13)
        #expect(Self.pressureValues(events, .mtPressure) == 56...56)
    }

    @Test func descriptionsWithoutEvents() throws {
        let t440 = try Self.description("synaptics-t440-topbuttonpad/SynPS2-Synaptics-TouchPad-T440.desc")
        #expect(t440.identity.idString == "0011:0002:0007:01b1")
        #expect(t440.properties == [.pointer, .buttonpad, .topButtonpad])
        #expect(t440.slotCount == 2)
        #expect(t440.axes[.x] == AxisInfo(minimum: 1472, maximum: 5112, resolution: 42))
        #expect(t440.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 255))

        let t650 = try Self.description("logitech-t650/Logitech Rechargeable Touchpad T650.desc")
        #expect(t650.identity.idString == "0003:046d:4101:0111")
        #expect(t650.name == "Logitech Rechargeable Touchpad T650")
        #expect(t650.slotCount == 10)
        #expect(t650.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 50))
        #expect(t650.axes[.pressure] == AxisInfo(minimum: 0, maximum: 50))
        #expect(t650.properties == [.pointer, .buttonpad])

        let ce37 = try Self.description("synaptics-ce37-pressurepad-litest/SYNA2B31-06CB-CE37.desc")
        #expect(ce37.identity.idString == "0018:06cb:ce37:0100")
        #expect(ce37.name == "SYNA2B31:00 06CB:CE37 Touchpad")
        #expect(ce37.slotCount == 5)
        #expect(ce37.properties == [.pointer, .buttonpad])
        #expect(ce37.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 255))

        let redrix = try Self.description("elan-redrix-haptic-pressurepad/ELAN2703-04F3-323B.DERIVED.desc")
        #expect(redrix.identity.idString == "0018:04f3:323b:0100")
        #expect(redrix.name == "ELAN2703:00 04F3:323B Touchpad")
        #expect(redrix.slotCount == 5)
        #expect(redrix.properties == [.pointer, .buttonpad, .pressurepad])
        #expect(redrix.axes[.mtPressure] == AxisInfo(minimum: 0, maximum: 4095, resolution: 4))
        #expect(redrix.axes[.pressure] == AxisInfo(minimum: 0, maximum: 4095, resolution: 4))
        #expect(redrix.codes[.ff] == [0x4f])  // FF_HAPTIC
    }
}
