import Foundation
import PlumometerTestSupport
import Testing

/// Every command that opens a device by path refuses a keyboard before opening it, proved with inotify IN_OPEN
/// (Tests/Scripts/umockdev_opens.py) on the untagged testbed: nodes with sysfs capabilities and no udev
/// properties, among them a keyboard with an integrated touchpad on one node (event4) and a plain touchpad with
/// pressure (event5, the positive control).
@Suite(.serialized, .enabled(if: Umockdev.isAvailable, "umockdev is not installed"))
struct KeyboardRefusalTests {
    static let testbed = Fixtures.path("Tests/Fixtures/Testbeds/untagged.umockdev").path
    static let driver = Fixtures.script("umockdev_opens.py").path

    /// Runs `plumometer ARGS` in the testbed; returns the result and the nodes it opened.
    static func run(_ arguments: [String]) throws -> (result: ProcessResult, opened: Set<String>) {
        let result = try ProcessRunner.run(
            "/usr/bin/umockdev-wrapper",
            ["/usr/bin/python3", driver, "--testbed", testbed, "--", try CLI.binary] + arguments,
            environment: ["XDG_CONFIG_HOME": try CLI.temporaryDirectory().path],
            timeout: 40
        )
        let opened = Set(
            result.stdoutLines.filter { $0.hasPrefix("opened /dev/input/") }.map { String($0.dropFirst(7)) }
        )
        return (result, opened)
    }

    @Test(arguments: [
        ["record", "-d", "/dev/input/event4", "--duration", "1"],
        ["stream", "-d", "/dev/input/event4", "-f", "jsonl"],
        ["probe", "-d", "/dev/input/event4", "--static"],
        ["calibrate", "-d", "/dev/input/event4", "--point", "0:0", "--point", "100:100", "--no-save"],
        ["record", "-d", "/dev/input/event3", "--duration", "1"],
    ])
    func aKeyboardNamedByPathIsNeverOpened(arguments: [String]) throws {
        let (result, opened) = try Self.run(arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(opened.isEmpty, "opened \(opened)")
        #expect(result.stderr.contains("is a keyboard ("), "\(result.stderr)")
        #expect(result.stderr.contains("KEY_ESC to KEY_S"), "\(result.stderr)")
        #expect(result.stderr.contains("never opens keyboards"), "\(result.stderr)")
        // Nothing of a keystroke reaches stdout or a file.
        #expect(!result.stdout.contains("E: "))
    }

    @Test func theTouchpadBesideItIsOpened() throws {
        // The positive control: the same command opens a touchpad, and the watch sees it (the testbed answers no
        // ioctls, so libevdev then fails: what matters is that the open was seen, and no refusal).
        let (result, opened) = try Self.run(["probe", "-d", "/dev/input/event5", "--static", "-f", "json"])
        #expect(opened == ["/dev/input/event5"])
        #expect(!result.stderr.contains("keyboard"), "\(result.stderr)")
    }
}
