public import Foundation
public import PlumometerCore

/// An emulated evdev device for umockdev: the sysfs/udev record (`.umockdev`) and the ioctl answers (`.ioctl`)
/// written from a ``DeviceDescription``, so that any device can be described in a few lines and read through the
/// real libevdev under `umockdev-run`.
///
/// The `.ioctl` answers the evdev ioctls libevdev 1.13 issues when it opens a device (`EVIOCGBIT`, `EVIOCGNAME`,
/// `EVIOCGPHYS`, `EVIOCGID`, `EVIOCGVERSION`, `EVIOCGPROP`, `EVIOCGKEY`, `EVIOCGLED`, `EVIOCGSW`, `EVIOCGABS`,
/// `EVIOCGMTSLOTS`) and that it repeats on a `SYN_DROPPED` resync, so the slot values here are both the state at
/// open and "the device's true state" after a drop.
public struct UmockdevDevice: Sendable {
    /// The device to emulate.
    public var description: DeviceDescription
    /// The node, `/dev/input/eventN`; the `.ioctl`'s `@DEV` line and the `.umockdev` record both name it.
    public var node: String
    /// Extra udev properties of the input device, for example `ID_INPUT_TOUCHPAD=1`.
    public var udevProperties: [String: String]
    /// The values of every `ABS_MT_*` axis per slot (tracking id included); absent values read as 0, an absent
    /// tracking id as -1 (an empty slot).
    public var slotValues: [[AbsoluteAxis: Int32]]
    /// The current value of non-multitouch axes (`EVIOCGABS`'s value field).
    public var axisValues: [AbsoluteAxis: Int32]
    /// Keys and buttons held down (`EVIOCGKEY`).
    public var keysDown: Set<KeyCode>

    /// libevdev 1.13 asks `EVIOCGMTSLOTS` for this many slots, and umockdev matches an ioctl by its exact size.
    public static let requestedSlots = 256

    public init(
        description: DeviceDescription,
        node: String,
        udevProperties: [String: String] = [:],
        slotValues: [[AbsoluteAxis: Int32]] = [],
        axisValues: [AbsoluteAxis: Int32] = [:],
        keysDown: Set<KeyCode> = []
    ) {
        self.description = description
        self.node = node
        self.udevProperties = udevProperties
        self.slotValues = slotValues
        self.axisValues = axisValues
        self.keysDown = keysDown
    }

    /// N in `/dev/input/eventN` (0 when the node is not named that way).
    public var eventNumber: Int {
        Int(node.reversed().prefix { $0.isNumber }.reversed().map(String.init).joined()) ?? 0
    }

    // MARK: - .ioctl

    /// The umockdev ioctl tree: `@DEV` and one line per ioctl, `NAME(arg) result hexdata`.
    public func ioctlText() -> String {
        var lines = ["@DEV \(node)"]
        var types = Set(description.codes.keys)
        types.insert(.syn)
        lines.append("EVIOCGBIT(0) 8 " + Self.hex(Self.bitmask(Set(types.map(\.rawValue)), bytes: 8)))
        lines.append(Self.stringIoctl("EVIOCGNAME(0)", description.name))
        lines.append(Self.stringIoctl("EVIOCGPHYS(0)", "plumometer/\(eventNumber)"))
        let id = description.identity
        lines.append(
            "EVIOCGID 0 "
                + Self.hex(Self.le16(id.bus) + Self.le16(id.vendor) + Self.le16(id.product) + Self.le16(id.version))
        )
        lines.append("EVIOCGVERSION 0 01000100")
        lines.append("EVIOCGPROP(0) 8 " + Self.hex(Self.bitmask(Set(description.properties.map(\.rawValue)), bytes: 8)))
        // The types libevdev asks for, with the buffer sizes it uses (NLONGS(X_CNT) * 8).
        let typeSizes: [(UInt16, Int)] = [
            (0x02, 8), (0x03, 8), (0x11, 8), (0x01, 96), (0x05, 8), (0x04, 8), (0x15, 16), (0x12, 8),
        ]
        for (type, size) in typeSizes {
            let codes = description.codes[EventType(rawValue: type)] ?? []
            lines.append("EVIOCGBIT(\(type)) \(size) " + Self.hex(Self.bitmask(codes, bytes: size)))
        }
        lines.append("EVIOCGKEY(0) 96 " + Self.hex(Self.bitmask(Set(keysDown.map(\.rawValue)), bytes: 96)))
        lines.append("EVIOCGLED(0) 8 " + Self.hex(Array(repeating: 0, count: 8)))
        lines.append("EVIOCGSW(0) 8 " + Self.hex(Array(repeating: 0, count: 8)))
        if description.codes[.rep] != nil {
            // Delay 250 ms, period 33 ms: the kernel's defaults.
            lines.append("EVIOCGREP 0 " + Self.hex(Self.le32(250) + Self.le32(33)))
        }
        for (axis, info) in description.axes.sorted(by: { $0.key < $1.key }) {
            let name = axis.rawValue == 0 ? "EVIOCGABS" : "EVIOCGABS(\(axis.rawValue))"
            let value = axis == .mtSlot ? 0 : (axisValues[axis] ?? 0)
            let bytes = [value, info.minimum, info.maximum, info.fuzz, info.flat, info.resolution].flatMap(Self.le32)
            lines.append("\(name) 0 " + Self.hex(bytes))
        }
        if let slotCount = description.slotCount {
            for axis in description.axes.keys.sorted() where axis.isMultitouch && axis != .mtSlot {
                var bytes = Self.le32(Int32(axis.rawValue))
                for slot in 0..<Self.requestedSlots {
                    let empty: Int32 = axis == .mtTrackingID ? -1 : 0
                    let value = slot < slotCount && slot < slotValues.count ? slotValues[slot][axis] ?? empty : empty
                    bytes += Self.le32(value)
                }
                lines.append("EVIOCGMTSLOTS(0) 0 " + Self.hex(bytes))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - .umockdev

    /// The sysfs and udev record: the event node and its parent input device, with the kernel's capability
    /// bitmasks (`EV=`, `KEY=`, `ABS=`, `PROP=`, ...) in its sysfs format and the given udev properties.
    public func umockdevText() -> String {
        let number = eventNumber
        let inputPath = "/devices/virtual/input/input\(number)"
        let minor = 64 + number
        let extra = udevProperties.sorted { $0.key < $1.key }.map { "E: \($0.key)=\($0.value)" }
        var event = [
            "P: \(inputPath)/event\(number)",
            "N: input/event\(number)",
            "E: DEVNAME=\(node)",
            "E: MAJOR=13",
            "E: MINOR=\(minor)",
            "E: SUBSYSTEM=input",
            "E: ID_INPUT=1",
        ]
        event += extra.filter { $0 != "E: ID_INPUT=1" }
        event += ["A: dev=13:\(minor)", "L: device=../../input\(number)"]

        let id = description.identity
        let product = [id.bus, id.vendor, id.product, id.version].map { String($0, radix: 16) }.joined(separator: "/")
        var types = Set(description.codes.keys.map(\.rawValue))
        types.insert(0)
        var input = ["P: \(inputPath)"]
        var attributes: [String] = []
        let masks: [(String, String, Set<UInt16>, Int)] = [
            ("EV", "ev", types, 0x1f),
            ("KEY", "key", description.codes[.key] ?? [], 0x2ff),
            ("REL", "rel", description.codes[.rel] ?? [], 0x0f),
            ("ABS", "abs", description.codes[.abs] ?? [], 0x3f),
            ("MSC", "msc", description.codes[.msc] ?? [], 0x07),
            ("LED", "led", description.codes[.led] ?? [], 0x0f),
            ("SND", "snd", description.codes[.snd] ?? [], 0x07),
            ("FF", "ff", description.codes[.ff] ?? [], 0x7f),
            ("SW", "sw", description.codes[.sw] ?? [], 0x10),
        ]
        for (property, attribute, bits, maximum) in masks {
            let text = Self.sysfsBitmap(bits, maximum: maximum)
            // The kernel's uevent names only the types the device has; sysfs has every capability file.
            if property == "EV" || !bits.isEmpty { input.append("E: \(property)=\(text)") }
            attributes.append("A: capabilities/\(attribute)=\(text)")
        }
        let properties = Self.sysfsBitmap(Set(description.properties.map(\.rawValue)), maximum: 0x1f)
        input += [
            "E: NAME=\"\(Self.attributeValue(description.name))\"",
            "E: PHYS=\"plumometer/\(number)\"",
            "E: PRODUCT=\(product)",
            "E: PROP=\(properties)",
            "E: SUBSYSTEM=input",
            "E: ID_INPUT=1",
        ]
        input += extra.filter { $0 != "E: ID_INPUT=1" }
        input += attributes
        input += [
            "A: name=\(Self.attributeValue(description.name))",
            "A: phys=plumometer/\(number)",
            "A: properties=\(properties)",
            "A: uniq=",
            "A: id/bustype=\(Self.hex4(id.bus))",
            "A: id/vendor=\(Self.hex4(id.vendor))",
            "A: id/product=\(Self.hex4(id.product))",
            "A: id/version=\(Self.hex4(id.version))",
        ]
        return event.joined(separator: "\n") + "\n\n" + input.joined(separator: "\n") + "\n"
    }

    /// Writes `<baseName>.umockdev` and `<baseName>.ioctl` into `directory`.
    public func write(to directory: URL, baseName: String = "device") throws -> UmockdevFiles {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let device = directory.appendingPathComponent(baseName + ".umockdev")
        let ioctl = directory.appendingPathComponent(baseName + ".ioctl")
        try umockdevText().write(to: device, atomically: true, encoding: .utf8)
        try ioctlText().write(to: ioctl, atomically: true, encoding: .utf8)
        return UmockdevFiles(device: device, ioctl: ioctl, node: node)
    }

    // MARK: - Encoding

    /// A bitmap in the kernel's sysfs format: `unsigned long` words in hex, most significant first, without
    /// leading empty words (`input_print_bitmap`).
    public static func sysfsBitmap(_ bits: Set<UInt16>, maximum: Int) -> String {
        let wordCount = maximum / 64 + 1
        var words = Array(repeating: UInt64(0), count: wordCount)
        for bit in bits where Int(bit) <= maximum {
            words[Int(bit) / 64] |= UInt64(1) << UInt64(Int(bit) % 64)
        }
        var top = wordCount - 1
        while top > 0 && words[top] == 0 { top -= 1 }
        return (0...top).reversed().map { String(words[$0], radix: 16) }.joined(separator: " ")
    }

    static func bitmask(_ bits: Set<UInt16>, bytes: Int) -> [UInt8] {
        var result = Array(repeating: UInt8(0), count: bytes)
        for bit in bits where Int(bit) / 8 < bytes {
            result[Int(bit) / 8] |= UInt8(1) << UInt8(bit % 8)
        }
        return result
    }

    /// A sysfs attribute's value as a `.umockdev` `A:` line holds it: umockdev reads C escapes there (`\\n` is a
    /// line feed), so a backslash and a line feed in a device name are written as escapes.
    static func attributeValue(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func stringIoctl(_ name: String, _ text: String) -> String {
        var bytes = Array(text.utf8.prefix(254))
        let length = bytes.count + 1
        bytes += Array(repeating: 0, count: 255 - bytes.count)
        return "\(name) \(length) " + hex(bytes)
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }

    static func le32(_ value: Int32) -> [UInt8] {
        let bits = UInt32(bitPattern: value)
        return [0, 8, 16, 24].map { UInt8((bits >> UInt32($0)) & 0xff) }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xf)])
        }
        return text
    }

    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
    }
}

/// The files for one emulated device, and the `umockdev-run` arguments that load them.
public struct UmockdevFiles: Sendable {
    public var device: URL
    public var ioctl: URL
    public var node: String

    public init(device: URL, ioctl: URL, node: String) {
        self.device = device
        self.ioctl = ioctl
        self.node = node
    }

    /// `-d X.umockdev -i NODE=X.ioctl [-e NODE=EVENTS]`.
    public func arguments(events: URL? = nil) -> [String] {
        var arguments = ["-d", device.path, "-i", "\(node)=\(ioctl.path)"]
        if let events { arguments += ["-e", "\(node)=\(events.path)"] }
        return arguments
    }
}
