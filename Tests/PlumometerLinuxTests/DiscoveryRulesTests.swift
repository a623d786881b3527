import Foundation
import Glibc
import PlumometerCore
import PlumometerLinux
import PlumometerTestSupport
import Testing

/// Pure discovery logic: capability bits, the pre-open filter, ranking, selection and explanations.
@Suite("Discovery rules")
struct DiscoveryRulesTests {
    func node(_ number: Int, kinds: [String], abs: String?, name: String) -> UdevInputNode {
        var properties = ["ID_INPUT": "1", "SUBSYSTEM": "input"]
        for kind in kinds { properties[kind] = "1" }
        return UdevInputNode(
            syspath: "/sys/devices/virtual/input/input\(number)/event\(number)",
            sysname: "event\(number)",
            devnode: "/dev/input/event\(number)",
            properties: properties,
            parentProperties: ["PRODUCT": "18/6cb/\(number)/100", "NAME": "\"\(name)\""],
            absCapabilities: abs,
            name: name
        )
    }

    func description(
        _ path: String,
        vendor: UInt16 = 0x6cb,
        product: UInt16 = 1,
        resolution: Int32 = 0
    )
        -> DeviceDescription
    {
        // A literal: the rules under test read the vendor, product and pressure resolution each test sets.
        DeviceDescription(
            path: path,
            identity: DeviceIdentity(bus: 0x18, vendor: vendor, product: product, version: 1, name: path),
            properties: [.pointer],
            codes: [.key: [KeyCode.btnToolFinger.rawValue]],
            axes: [
                .mtSlot: AxisInfo(minimum: 0, maximum: 4),
                .mtPressure: AxisInfo(
                    minimum: 0,
                    maximum: 255,
                    resolution: resolution
                ),
            ]
        )
    }

    @Test func capabilityBitsAreReadLowestWordLast() throws {
        let bits = try #require(DiscoveryPrefilter.capabilityBits("660800001000003"))
        #expect(bits == [0, 1, 0x18, 0x2f, 0x35, 0x36, 0x39, 0x3a])
        let split = try #require(DiscoveryPrefilter.capabilityBits("4000000 1000003", wordBits: 32))
        #expect(split == [0, 1, 0x18, 32 + 26])
        #expect(DiscoveryPrefilter.capabilityBits("zz") == nil)
        #expect(DiscoveryPrefilter.capabilityBits("0") == [])
    }

    @Test func thePrefilterDecidesBeforeOpening() {
        #expect(
            DiscoveryPrefilter.evaluate(node(1, kinds: ["ID_INPUT_TOUCHPAD"], abs: "1000003", name: "a"))
                == .candidate
        )
        #expect(
            DiscoveryPrefilter.evaluate(
                node(
                    2,
                    kinds: ["ID_INPUT_TOUCHSCREEN"],
                    abs: "400000000000003",
                    name: "b"
                )
            ) == .candidate
        )
        guard
            case .noPressure = DiscoveryPrefilter.evaluate(
                node(
                    3,
                    kinds: ["ID_INPUT_TOUCHPAD"],
                    abs: "3",
                    name: "c"
                )
            )
        else {
            Issue.record("a pressureless touchpad must be rejected")
            return
        }
        // A keyboard is skipped even when it claims a touchpad and a pressure axis.
        guard
            case .skipped(let reason) = DiscoveryPrefilter.evaluate(
                node(4, kinds: ["ID_INPUT_KEYBOARD", "ID_INPUT_TOUCHPAD"], abs: "1000003", name: "d")
            )
        else {
            Issue.record("keyboards are never candidates")
            return
        }
        #expect(reason.contains("keyboard"))
        guard case .skipped = DiscoveryPrefilter.evaluate(node(5, kinds: ["ID_INPUT_MOUSE"], abs: nil, name: "e"))
        else {
            Issue.record("mice are skipped")
            return
        }
    }

    @Test func evaluateOpensOnlyCandidatesAndRanksForceFirst() {
        let nodes = [
            node(3, kinds: ["ID_INPUT_TOUCHPAD"], abs: "660800001000003", name: "Contact pad"),
            node(4, kinds: ["ID_INPUT_TOUCHPAD"], abs: "660800001000003", name: "Magic Trackpad 2"),
            node(5, kinds: ["ID_INPUT_KEYBOARD", "ID_INPUT_KEY"], abs: nil, name: "Keyboard"),
            node(6, kinds: ["ID_INPUT_TOUCHPAD"], abs: "660800000000003", name: "Gram pad"),
        ]
        nonisolated(unsafe) var opened: [String] = []
        let report = DeviceDiscovery.evaluate(nodes, includeSkipped: true) { (path) throws(DeviceError) in
            opened.append(path)
            switch path {
            case "/dev/input/event4":
                var magic = description(path, vendor: 0x05ac, product: 0x0265)
                magic.identity.name = "Apple Inc. Magic Trackpad 2"
                return magic
            case "/dev/input/event6": return description(path, resolution: 20)
            default: return description(path)
            }
        }
        #expect(opened == ["/dev/input/event3", "/dev/input/event4", "/dev/input/event6"])
        #expect(report.ranked.map(\.node) == ["/dev/input/event6", "/dev/input/event4", "/dev/input/event3"])
        #expect(report.best?.sensing == .forceWithUnits)
        #expect(report.devices.map(\.verdict.label) == ["usable", "usable", "skipped", "usable"])
        #expect(report.select("event3")?.node == "/dev/input/event3")
        #expect(report.select("magic")?.node == "/dev/input/event4")
        #expect(report.select("keyboard") == nil)
        #expect(report.whyNothingUsable.isEmpty)
    }

    @Test func permissionProblemsNameTheRuleAndTheDocs() {
        let nodes = [node(7, kinds: ["ID_INPUT_TOUCHPAD"], abs: "1000003", name: "Locked pad")]
        let report = DeviceDiscovery.evaluate(nodes, includeSkipped: false) { (path) throws(DeviceError) in
            throw DeviceError(code: .permissionDenied, path: path, function: "open", errno: EACCES)
        }
        #expect(report.best == nil)
        #expect(report.whyNothingUsable.contains("70-plumometer.rules"))
        #expect(report.whyNothingUsable.contains("docs/permissions.md"))
        #expect(report.whyNothingUsable.contains("/dev/input/event7"))
    }

    @Test func noCandidatesIsSaidAsSuch() {
        let nodes = [node(9, kinds: ["ID_INPUT_KEYBOARD"], abs: nil, name: "Keyboard")]
        let report = DeviceDiscovery.evaluate(nodes, includeSkipped: false) { (path) throws(DeviceError) in
            Issue.record("nothing should be opened, but \(path) was")
            throw DeviceError(code: .other, path: path, function: "open", errno: EIO)
        }
        #expect(report.devices.isEmpty)
        #expect(report.whyNothingUsable.hasPrefix("No touchpad, touchscreen or pen tablet was found among 1"))
    }
}

/// The udev rule: libinput's structure, and pressure patterns checked with fnmatch(3), which udev uses.
@Suite("udev rule")
struct UdevRuleFileTests {
    let text: String =
        (try? String(
            contentsOf: Fixtures.path("udev/70-plumometer.rules"),
            encoding: .utf8
        ))
        ?? ""

    var rules: [String] { text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty } }

    @Test func gotosLandOnLabelsAndTheEndLabelIsLast() throws {
        let labels = rules.compactMap { $0.firstMatch(of: /^LABEL="([a-z_]+)"$/).map { String($0.1) } }
        let gotos = rules.flatMap { $0.matches(of: /GOTO="([a-z_]+)"/).map { String($0.1) } }
        #expect(!gotos.isEmpty)
        #expect(Set(gotos).isSubset(of: Set(labels)))
        #expect(rules.last == "LABEL=\"plumometer_end\"")
        #expect(rules.first == "ACTION==\"remove\", GOTO=\"plumometer_end\"")
        let keyboardExit = try #require(rules.firstIndex { $0.contains("ID_INPUT_KEYBOARD") })
        let tag = try #require(rules.firstIndex { $0.contains("TAG+=\"uaccess\"") })
        #expect(keyboardExit < tag)
        #expect(!text.contains("GROUP="))
        #expect(!text.contains("MODE="))
        #expect(rules.contains("KERNEL!=\"event*\", GOTO=\"plumometer_end\""))
    }

    @Test func thePressurePatternsMatchExactlyThePressureBits() throws {
        let line = try #require(rules.first { $0.contains("ATTRS{capabilities/abs}") })
        let value = try #require(line.firstMatch(of: /ATTRS\{capabilities\/abs\}=="([^"]+)"/)).1
        let patterns = value.split(separator: "|").map(String.init)
        func matches(_ capabilities: String) -> Bool {
            patterns.contains { fnmatch($0, capabilities, 0) == 0 }
        }
        // Every single-bit word from 0 to 63 matches exactly when the bit is 0x18 or 0x3a.
        for bit in 0..<64 {
            let word = String(UInt64(1) << UInt64(bit), radix: 16)
            #expect(matches(word) == (bit == 0x18 || bit == 0x3a), "bit \(bit): \(word)")
        }
        #expect(matches("660800001000003"))  // touchpad with both
        #expect(matches("673800000000003"))  // Magic Trackpad 2: ABS_MT_PRESSURE only
        #expect(!matches("260800000000003"))  // touchpad without pressure
        #expect(!matches("0"))
    }
}
