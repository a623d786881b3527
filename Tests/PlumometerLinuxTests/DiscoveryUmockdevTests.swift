import Foundation
import PlumometerTestKit
import PlumometerTestSupport
import Testing

/// Discovery end to end: the probe runs inside a umockdev testbed with a force pad (Magic Trackpad 2), a
/// contact-size touchpad, a touchscreen, a touchpad without pressure and a keyboard.
@Suite(
    "Discovery under umockdev",
    .enabled(if: DiscoveryPaths.umockdevAvailable || Requirements.all),
    .serialized,
    .tags(.umockdev)
)
struct DiscoveryUmockdevTests {
    let testbed = Fixtures.projectFixtures.appendingPathComponent("Testbeds/mixed.umockdev").path
    let driver = Fixtures.script("umockdev_discovery.py").path

    func list(all: Bool) throws -> RunResult {
        let probe = try #require(DiscoveryPaths.probe).path
        var arguments = [Umockdev.python, driver, "--probe", probe, "--testbed", testbed, "list"]
        if all { arguments.append("--all") }
        return try runProgram(Umockdev.wrapper, arguments)
    }

    func row(_ node: String, in result: RunResult) -> [String]? {
        result.lines.first { $0.hasPrefix(node + "\t") }.map { $0.components(separatedBy: "\t") }
    }

    @Test func theKeyboardAndThePressurelessTouchpadAreNeverOpened() throws {
        let result = try list(all: true)
        #expect(result.status == 0, "\(result.stderr)")
        let opened = Set(result.lines.filter { $0.hasPrefix("opened ") }.map { String($0.dropFirst(7)) })
        // Positive control: the watch sees the candidates being opened, so its silence about the others counts.
        #expect(opened == ["/dev/input/event5", "/dev/input/event6", "/dev/input/event7"])
        #expect(!opened.contains("/dev/input/event9"))
        #expect(!opened.contains("/dev/input/event8"))
    }

    @Test func skippedDevicesAreListedOnlyWithAll() throws {
        let all = try list(all: true)
        let keyboard = try #require(row("/dev/input/event9", in: all))
        #expect(keyboard[1] == "AT Translated Set 2 keyboard")
        #expect(keyboard[3] == "skipped")
        #expect(keyboard[4].contains("keyboard"))

        let some = try list(all: false)
        #expect(row("/dev/input/event9", in: some) == nil)
        #expect(row("/dev/input/event5", in: some) != nil)
    }

    @Test func aTouchpadWithoutPressureIsRejectedWithItsReason() throws {
        let result = try list(all: false)
        let pad = try #require(row("/dev/input/event8", in: result))
        #expect(pad[1] == "Generic Touchpad Without Pressure")
        #expect(pad[2] == "none")
        #expect(pad[3] == "rejected")
        #expect(pad[4].contains("no pressure axis"))
    }

    @Test func candidatesKeepTheirNamesFromUdevAndTheirOpenError() throws {
        // The testbed has no ioctl scripts, so the candidates cannot be read as evdev devices: discovery must
        // still name them (from udev) and keep the bridge's error.
        let result = try list(all: false)
        let force = try #require(row("/dev/input/event5", in: result))
        #expect(force[1] == "Apple Inc. Magic Trackpad 2")
        #expect(force[3] == "unopenable")
        #expect(force[4].contains("/dev/input/event5"))
        #expect(result.lines.contains("best\t-"))
        #expect(result.lines.contains { $0.hasPrefix("why\tNone of the 4 touch device(s) can be used") })
    }

    @Test func aReplugUnderANewNodeIsSeenByTheMonitor() throws {
        let probe = try #require(DiscoveryPaths.probe).path
        let result = try runProgram(
            Umockdev.wrapper,
            [Umockdev.python, driver, "--probe", probe, "--testbed", testbed, "replug", "event6", "16"]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == ["removed /dev/input/event6", "added /dev/input/event16"])
    }
}
