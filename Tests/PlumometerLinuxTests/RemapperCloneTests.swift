import PlumometerCore
import PlumometerLinux
import Testing

/// An input remapper's uinput copy of a device is paired with the original from names and ids alone, so `list` and
/// the commands that pick a device can say which node carries the events while the remapper holds the original.
@Suite("Remapper clones")
struct RemapperCloneTests {
    func device(_ number: Int, _ name: String, vendor: UInt16 = 0x05ac, product: UInt16 = 0x0265) -> DiscoveredDevice {
        DiscoveredDevice(
            node: "/dev/input/event\(number)",
            name: name,
            identity: DeviceIdentity(bus: 0x05, vendor: vendor, product: product, version: 1, name: name),
            kinds: [.touchpad],
            verdict: .usable
        )
    }

    @Test func aKeymapperCopyIsPairedWithItsOriginal() {
        let original = device(4, "Apple Inc. Magic Trackpad")
        let clone = device(9, "Apple Inc. Magic Trackpad; keymapper", vendor: 0x1d6b, product: 0x0104)
        let other = device(5, "SYNA1234:00 06CB:CE7D Touchpad", vendor: 0x06cb, product: 0xce7d)
        let linked = RemapperClones.link([original, other, clone])
        #expect(linked[0].remapper == .clonedAs(node: "/dev/input/event9", name: clone.name))
        #expect(linked[1].remapper == nil)
        #expect(linked[2].remapper == .cloneOf(node: "/dev/input/event4", name: original.name))
        #expect(linked[0].remapper?.explanation.contains("read /dev/input/event9") == true)
    }

    @Test func aLongerNameIsACopyOnlyWithTheSameVendorAndProduct() {
        let original = device(4, "Wacom Intuos Pen")
        let sameIds = device(7, "Wacom Intuos Pen (remapped)")
        let otherIds = device(8, "Wacom Intuos Pen Pad", vendor: 0x056a, product: 0x0001)
        #expect(RemapperClones.isClone(sameIds, of: original))
        #expect(!RemapperClones.isClone(otherIds, of: original))
        #expect(!RemapperClones.isClone(original, of: sameIds))
        #expect(!RemapperClones.isClone(original, of: original))
    }
}
