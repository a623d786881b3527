import Foundation
import PlumometerCore
import PlumometerRecording
import PlumometerTestSupport
import Testing

/// `plumometer describe`: every axis, property, key and slot of a device or a recording, with millimetres where
/// the device declares a resolution, and the static verdict `probe --static` gives.
@Suite struct DescribeCommandTests {
    static func device(_ name: String) -> String {
        Fixtures.projectFixtures.appendingPathComponent("Devices/" + name).path
    }

    @Test func aDescriptionFileShowsEveryAxisWithMillimetres() throws {
        let result = try CLI.run(["describe", Self.device("apple-magic-trackpad-2-usb.desc")])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        #expect(text.contains("device:      Apple Inc. Magic Trackpad 2"), "\(text)")
        #expect(text.contains("properties:  INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD"), "\(text)")
        #expect(text.contains("contacts:    multitouch protocol B, 16 slots"), "\(text)")
        // (3934 - -3678) / 47 = 161.96 mm
        #expect(
            text.contains("ABS_MT_POSITION_X     -3678 ..    3934  fuzz 4  flat 0  resolution 47 units/mm (162.0 mm)"),
            "\(text)"
        )
        #expect(text.contains("ABS_MT_ORIENTATION      -31 ..      32  fuzz 1  flat 0  resolution 0\n"), "\(text)")
        #expect(text.contains("keys:        BTN_LEFT BTN_TOOL_FINGER"), "\(text)")
        #expect(text.contains("BTN_TOUCH"), "\(text)")
        #expect(text.contains("verdict:     force: "), "\(text)")
    }

    @Test func jsonHasEveryAxisAndTheVerdictOfProbeStatic() throws {
        let file = Self.device("apple-silicon-internal-trackpad.desc")
        let result = try CLI.run(["describe", file, "-f", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try CLI.jsonObjects(result).first)
        let description = try RecordingReader.readDescription(
            text: try String(contentsOfFile: file, encoding: .utf8),
            fileName: file
        )
        let axes = object.objects("axes")
        #expect(axes.map { $0.string("axis") ?? "" } == description.axes.keys.sorted().map(\.name))
        let positionX = try #require(axes.first { $0.string("axis") == "ABS_MT_POSITION_X" })
        let info = try #require(description.axes[.mtPositionX])
        #expect(positionX.int("min") == Int(info.minimum))
        #expect(positionX.int("max") == Int(info.maximum))
        #expect(positionX.int("fuzz") == Int(info.fuzz))
        #expect(positionX.int("resolution") == Int(info.resolution))
        #expect(positionX.string("unit") == "mm")
        let size = try #require(positionX.number("size"))
        #expect(abs(size - info.span / Double(info.resolution)) < 0.006)
        let pressure = try #require(axes.first { $0.string("axis") == "ABS_MT_PRESSURE" })
        #expect(pressure.string("unit") == "g")
        #expect(object.int("slots") == description.slotCount)
        #expect((object["keys"] as? [String])?.contains("BTN_TOUCH") == true)

        let probe = try CLI.run(["probe", "--static", "--replay", file, "-f", "json"])
        let verdict = try #require(try CLI.jsonObjects(probe).first)
        #expect(object.string("verdict") == verdict.string("verdict"))
        #expect((object["reasons"] as? [String]) == (verdict["reasons"] as? [String]))
        #expect(object.string("advice") == verdict.string("advice"))
    }

    @Test func aRecordingOfSeveralDevicesDescribesEachOrThePickedOne() throws {
        let file = Fixtures.projectFixtures.appendingPathComponent("Recordings/libinput-record-two-devices.yml").path
        let all = try CLI.run(["describe", file, "-f", "json"])
        #expect(all.status == 0, "\(all.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        #expect((array[1]["device"] as? [String: Any])?.string("path") == "/dev/input/event3")
        let one = try CLI.run(["describe", file, "-d", "1"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("keys:        KEY_0x1 KEY_0x1e KEY_0x39"), "\(one.stdout)")
        #expect(one.stdout.contains("EV_MSC:      MSC_SCAN"), "\(one.stdout)")
        #expect(one.stdout.contains("verdict:     none: "), "\(one.stdout)")
        #expect(!one.stdout.contains("Test Pressure Pad"))
    }

    @Test func descWithoutAFileIsAUsageError() throws {
        let result = try CLI.run(["describe", "--desc", Self.device("pen-tablet.desc")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("give the FILE too"), "\(result.stderr)")
    }

    @Test(.enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
    func anEmulatedDeviceIsDescribedAsItsDescriptionSaysAndByName() throws {
        let description = try EmulatedDevice.fixture("pressure-pad.desc")
        let node = "/dev/input/event6"
        let device = try EmulatedDevice(description, node: node, label: "describe")
        for selector in [node, String(description.name.prefix(8))] {
            let result = try device.run(
                try CLI.binary,
                ["describe", "-d", selector, "-f", "json"],
                environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
            )
            #expect(result.status == 0, "\(result.stderr)")
            let object = try #require(try CLI.jsonObjects(result).first)
            #expect((object["device"] as? [String: Any])?.string("path") == node)
            #expect((object["device"] as? [String: Any])?.string("name") == description.name)
            let axes = object.objects("axes")
            #expect(axes.map { $0.string("axis") ?? "" } == description.axes.keys.sorted().map(\.name))
            for axis in axes {
                let info = try #require(description.axes[AbsoluteAxis(rawValue: UInt16(axis.int("code") ?? -1))])
                #expect(axis.int("min") == Int(info.minimum) && axis.int("max") == Int(info.maximum))
                #expect(axis.int("resolution") == Int(info.resolution) && axis.int("fuzz") == Int(info.fuzz))
            }
            #expect(
                (object["properties"] as? [String]) == description.properties.sorted().map(\.name),
                "\(result.stdout)"
            )
        }
    }
}
