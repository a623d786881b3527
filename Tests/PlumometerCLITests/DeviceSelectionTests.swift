import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// `-d NAME` that matches several devices says how many and which one it reads; `-d ''` names no device.
@Suite struct DeviceSelectionTests {
    @Test(.enabled(if: Umockdev.isAvailable, "umockdev is not installed"), .tags(.umockdev))
    func aNameMatchingSeveralDevicesSaysSoAndWhichOneIsRead() throws {
        let (usb, silicon) = ("/dev/input/event9", "/dev/input/event11")
        var devices = try EmulatedDevice(
            try EmulatedDevice.fixture("apple-magic-trackpad-2-usb.desc"),
            node: usb,
            label: "select"
        )
        try devices.add(try EmulatedDevice.fixture("apple-silicon-internal-trackpad.desc"), node: silicon)
        let run = { (selector: String) in
            try devices.run(
                try CLI.binary,
                ["describe", "-d", selector, "-f", "json"],
                environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path]
            )
        }
        let both = try run("APPLE")
        #expect(both.status == 0, "\(both.stderr)")
        // The force-grams pad ranks first.
        let read = try #require(try CLI.jsonObjects(both).first?["device"] as? [String: Any])
        #expect(read.string("path") == silicon)
        #expect(both.stderr.contains("'APPLE' matches 2 devices: "), "\(both.stderr)")
        #expect(both.stderr.contains("(\(usb))") && both.stderr.contains("(\(silicon))"), "\(both.stderr)")
        #expect(both.stderr.contains("; reading \(silicon) ('Apple MTP multi-touch')"), "\(both.stderr)")
        // One match, or a node: nothing to say.
        let one = try run("Magic")
        #expect(one.status == 0 && !one.stderr.contains("matches"), "\(one.stderr)")
        #expect((try CLI.jsonObjects(one).first?["device"] as? [String: Any])?.string("path") == usb)
    }

    @Test(arguments: [
        ["stream"], ["record"], ["weigh"], ["probe", "--static"], ["describe"],
        ["calibrate", "--point", "0:0", "--point", "10:10"],
    ])
    func anEmptyDeviceIsAUsageError(_ command: [String]) throws {
        let result = try CLI.run(command + ["-d", ""])
        #expect(result.status == 2, "\(command): \(result.stderr)")
        #expect(result.stderr.contains("'' is not a valid value for '--device'"), "\(result.stderr)")
    }

    @Test func anEmptyDeviceOfAReplayIsAUsageError() throws {
        let result = try CLI.run(["replay", "-d", "", CLI.fixture("magic-trackpad-2.two-plums.evemu")])
        #expect(result.status == 2, "\(result.stderr)")
    }
}
