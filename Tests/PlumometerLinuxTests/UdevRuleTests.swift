import Foundation
import Glibc
import PlumometerTestSupport
import Testing

/// udev/70-plumometer.rules as udev itself applies it: `udevadm test` with udev's own input_id builtin on
/// umockdev testbeds that carry only the kernel's capability bits (no preset ID_INPUT* properties), inside a
/// private mount namespace so that nothing on the machine changes (Tests/Scripts/udev_rule_test.py).
@Suite("udev rule under udevadm test", .enabled(if: UdevRuleRun.available || Requirements.all), .serialized)
struct UdevRuleTests {
    /// The devices that must get the uaccess tag: every touchpad, touchscreen and pen with a pressure axis.
    static let granted: Set<String> = [
        "touchpad with pressure",
        "single-touch touchpad with pressure",
        "pressure pad",
        "touchscreen with pressure",
        "pen with BTN_TOOL_PEN",
        "pen with only BTN_STYLUS",
    ]

    @Test func onlyTouchDevicesWithPressureGetUaccess() throws {
        let rows = try UdevRuleRun.rows(rules: UdevRuleRun.rule)
        #expect(rows.count == 13)
        #expect(Set(rows.filter { $0.value.tag == "uaccess" }.keys) == Self.granted)
        for name in ["keyboard", "mouse", "keyboard with fake multitouch axes", "keyboard with integrated touchpad"] {
            #expect(rows[name]?.tag == "-", "\(name) must never be granted")
        }
    }

    @Test func amongAllOfTheMachinesRulesTheSameNodesGetUaccess() throws {
        // With every rule of /usr/lib/udev/rules.d (uaccess for joysticks, seats, hwdb imports...), ours still
        // runs after input_id and grants the same six nodes: no other rule changes what it sees.
        let rows = try UdevRuleRun.rows(rules: UdevRuleRun.rule, systemRules: true)
        #expect(rows.count == 13)
        #expect(Set(rows.filter { $0.value.tag == "uaccess" }.keys) == Self.granted)
    }

    @Test func udevsInputIdClassifiedTheTestbeds() throws {
        // The classification comes from udev, not from the testbed: the properties the rule matches are real.
        let rows = try UdevRuleRun.rows(rules: UdevRuleRun.rule)
        #expect(rows["keyboard"]?.kinds == ["ID_INPUT_KEY", "ID_INPUT_KEYBOARD"])
        #expect(rows["mouse"]?.kinds == ["ID_INPUT_MOUSE"])
        #expect(rows["keyboard with integrated touchpad"]?.kinds.contains("ID_INPUT_TOUCHPAD") == true)
        #expect(rows["keyboard with integrated touchpad"]?.kinds.contains("ID_INPUT_KEYBOARD") == true)
        #expect(rows["pen with only BTN_STYLUS"]?.kinds == ["ID_INPUT_TABLET"])
        #expect(rows["pressure pad"]?.kinds == ["ID_INPUT_TOUCHPAD"])
        #expect(rows["touchscreen with pressure"]?.kinds == ["ID_INPUT_TOUCHSCREEN"])
    }

    @Test func withoutItsKeyboardExitTheRuleWouldGrantTheKeyboardTouchpad() throws {
        // Negative control: the harness sees a wrong rule. Drop the keyboard line and the combined node is tagged.
        let text = try String(contentsOfFile: UdevRuleRun.rule, encoding: .utf8)
        let broken = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("ID_INPUT_KEYBOARD") }.joined(separator: "\n")
        #expect(broken != text)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plumometer-rule-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("70-plumometer.rules").path
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        let rows = try UdevRuleRun.rows(rules: path)
        #expect(rows["keyboard with integrated touchpad"]?.tag == "uaccess")
    }
}

/// Runs the driver script and parses its rows.
enum UdevRuleRun {
    static let script = Fixtures.script("udev_rule_test.py").path
    static let rule = Fixtures.path("udev/70-plumometer.rules").path

    /// Root (for the mount namespace), udevadm, unshare and umockdev-run.
    static var available: Bool {
        geteuid() == 0
            && ["/usr/bin/udevadm", "/usr/bin/unshare", "/usr/bin/umockdev-run", "/usr/bin/python3"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: $0)
            }
    }

    /// One row per device: the tag column and the ID_INPUT_* properties udev set.
    static func rows(rules: String, systemRules: Bool = false) throws -> [String: (tag: String, kinds: [String])] {
        let arguments = [script, "--rules", rules] + (systemRules ? ["--system-rules"] : [])
        let result = try ProcessRunner.run("/usr/bin/python3", arguments, timeout: 300)
        try #require(result.status == 0, "udev_rule_test.py failed: \(result.stderr)")
        var rows: [String: (tag: String, kinds: [String])] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(fields.count == 3, "bad row: \(line)")
            rows[fields[0]] = (fields[1], fields[2] == "-" ? [] : fields[2].split(separator: ",").map(String.init))
        }
        return rows
    }
}
