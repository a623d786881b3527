import Foundation
import PlumometerCore
import PlumometerLinux
import PlumometerTestSupport
import Testing

/// Keyboards are never opened: the guard's rule from udev properties and capability bits, pure.
@Suite("Open guard rules")
struct OpenGuardRuleTests {
    /// The first word of a full keyboard's `capabilities/key`: every key from KEY_ESC to KEY_S (KEY_RESERVED unset).
    static let typewriter = "fffffffffffffffe"

    func node(
        properties: [String: String] = [:],
        key: String?,
        ev: String? = "12001b",
        abs: String? = nil
    )
        -> UdevInputNode
    {
        UdevInputNode(
            syspath: "/sys/devices/virtual/input/input4/event4",
            sysname: "event4",
            devnode: "/dev/input/event4",
            properties: properties,
            absCapabilities: abs,
            name: "node",
            keyCapabilities: key,
            eventCapabilities: ev
        )
    }

    @Test func theTypewriterKeysMakeAKeyboardWithoutUdev() throws {
        let refusal = try #require(OpenGuard.refusal(for: node(key: "e420 10000 0 0 0 " + Self.typewriter)))
        #expect(refusal.code == .keyboard)
        #expect(refusal.path == "/dev/input/event4")
        #expect(refusal.reason.contains("KEY_ESC to KEY_S"))
        #expect(refusal.description.contains("never opens keyboards"))
    }

    @Test func udevsTagMakesAKeyboardWithoutBits() {
        let refusal = OpenGuard.refusal(for: node(properties: ["ID_INPUT_KEYBOARD": "1"], key: nil))
        #expect(refusal?.reason == "udev tags it ID_INPUT_KEYBOARD")
    }

    @Test func aMissingTypewriterKeyIsNotAKeyboard() {
        // KEY_S (bit 31) missing: a media-key or power-button node, as for input_id.
        #expect(OpenGuard.refusal(for: node(key: "7ffffffe")) == nil)
        // A touchpad's keys are all BTN_* codes.
        #expect(OpenGuard.refusal(for: node(key: "e420 10000 0 0 0 0", ev: "b")) == nil)
        // Without EV_KEY in capabilities/ev the key bits mean nothing.
        #expect(OpenGuard.refusal(for: node(key: Self.typewriter, ev: "9")) == nil)
        #expect(OpenGuard.refusal(for: node(key: nil)) == nil)
    }

    @Test func thePrefilterSkipsAnUntaggedKeyboardWithFakeMultitouchAxes() {
        // No ID_INPUT at all (no udevd): the capability fallback used to open any node with a pressure bit.
        let keyboard = node(key: Self.typewriter, abs: "ffffffffffffffff")
        guard case .skipped(let reason) = DiscoveryPrefilter.evaluate(keyboard) else {
            Issue.record("an untagged keyboard must be skipped")
            return
        }
        #expect(reason.contains("keyboard"))
        // Fake multitouch without ABS_PRESSURE: its ABS_MT_PRESSURE bit is not a pressure axis.
        let fake = node(key: "e420 10000 0 0 0 0", ev: "b", abs: "400c00000000003")
        guard case .skipped = DiscoveryPrefilter.evaluate(fake) else {
            Issue.record("a fake multitouch ABS_MT_PRESSURE bit is not pressure")
            return
        }
        let pad = node(key: "e420 10000 0 0 0 0", ev: "b", abs: "660800001000003")
        #expect(DiscoveryPrefilter.evaluate(pad) == .candidate)
    }

    @Test(.enabled(if: geteuid() == 0, "mknod needs root"))
    func anInputNodeUdevDoesNotKnowIsRefused() throws {
        // A character device of the input major that no /sys/class/input entry describes (a container's copied
        // /dev, a stale node): it cannot be shown not to be a keyboard. It is made here and never opened.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plumometer-node-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = directory.appendingPathComponent("event250").path
        #expect(mknod(node, S_IFCHR | 0o600, dev_t((13 << 8) | 250)) == 0, "mknod: errno \(errno)")
        let link = directory.appendingPathComponent("by-id-link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "event250")
        for path in [node, link] {
            let refusal = try #require(OpenGuard.check(path: path))
            #expect(refusal.code == .unverifiable)
            #expect(refusal.path == path)
            #expect(refusal.reason == "/sys/class/input/event250 is not there")
        }
    }

    @Test func pathsThatAreNotInputNodesPass() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plumometer-guard-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("recording.evemu").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let link = directory.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "./recording.evemu")
        #expect(OpenGuard.check(path: file) == nil)
        #expect(OpenGuard.check(path: link) == nil)
        #expect(OpenGuard.check(path: "/dev/null") == nil)
        #expect(OpenGuard.check(path: directory.appendingPathComponent("absent").path) == nil)
    }
}

/// Keyboards are never opened, proved with inotify IN_OPEN inside a umockdev testbed whose nodes carry sysfs
/// capabilities but no udev properties (no udevd ran): a keyboard claiming every absolute axis, a keyboard with
/// an integrated touchpad on one node, a plain keyboard, and a touchpad with pressure as the positive control.
@Suite("Open guard under umockdev", .enabled(if: DiscoveryPaths.umockdevAvailable || Requirements.all), .serialized)
struct OpenGuardUmockdevTests {
    let testbed = Fixtures.path("Tests/Fixtures/Testbeds/untagged.umockdev").path
    let driver = Fixtures.script("umockdev_opens.py").path

    func run(_ arguments: [String]) throws -> (result: RunResult, opened: Set<String>) {
        let probe = try #require(DiscoveryPaths.probe).path
        let result = try runProgram(
            Umockdev.wrapper,
            [Umockdev.python, driver, "--testbed", testbed, "--", probe] + arguments
        )
        let opened = Set(result.lines.filter { $0.hasPrefix("opened /dev/input/") }.map { String($0.dropFirst(7)) })
        return (result, opened)
    }

    @Test func discoveryOpensOnlyTheTouchpad() throws {
        let (result, opened) = try run(["list", "--all"])
        #expect(result.status == 0, "\(result.stderr)")
        // Positive control: the touchpad's open is seen, so the silence about the keyboards counts.
        #expect(opened == ["/dev/input/event5"])
        for keyboard in ["/dev/input/event3", "/dev/input/event4", "/dev/input/event6"] {
            let row = result.lines.first { $0.hasPrefix(keyboard + "\t") }?.components(separatedBy: "\t")
            #expect(row?[3] == "skipped", "\(keyboard)")
            #expect(row?[4].contains("KEY_ESC to KEY_S") == true, "\(keyboard)")
        }
    }

    @Test func anExplicitPathToAKeyboardIsRefusedBeforeOpening() throws {
        let (result, opened) = try run(["guard", "/dev/input/event4", "/dev/input/event3", "/dev/input/event5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(opened == ["/dev/input/event5"])
        let refusals = result.lines.filter { $0.hasPrefix("refused keyboard\t") }
        #expect(refusals.count == 2)
        #expect(refusals.first?.contains("/dev/input/event4 is a keyboard") == true)
        #expect(
            result.lines.contains { $0.hasPrefix("unopenable /dev/input/event5") || $0 == "opened /dev/input/event5" }
        )
    }
}
