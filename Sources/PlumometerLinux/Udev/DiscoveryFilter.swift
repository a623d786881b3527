import PlumometerCore

/// udev's classification of an input node (`ID_INPUT_*=1` properties, set by udev's input_id builtin).
public enum InputKind: String, CaseIterable, Sendable, Codable, Hashable {
    case touchpad
    case touchscreen
    case tablet
    case tabletPad = "tablet-pad"
    case mouse
    case pointingStick = "pointingstick"
    case joystick
    case keyboard
    case key
    case accelerometer
    case `switch`

    /// The udev property that marks this kind, for example `ID_INPUT_TOUCHPAD`.
    public var udevProperty: String {
        switch self {
        case .tabletPad: "ID_INPUT_TABLET_PAD"
        default: "ID_INPUT_" + rawValue.uppercased()
        }
    }

    /// The kinds that can carry a pressure axis we can weigh with.
    public static let touchKinds: Set<InputKind> = [.touchpad, .touchscreen, .tablet]

    /// The kinds listed in `properties`, in declaration order.
    public static func kinds(in properties: [String: String]) -> [InputKind] {
        allCases.filter { properties[$0.udevProperty] == "1" }
    }
}

/// What discovery decides about a node from udev alone, before anything is opened.
public enum DiscoveryPrefilter: Hashable, Sendable {
    /// A touch device with a pressure axis bit (or one we cannot rule out): open it and classify.
    case candidate
    /// A touch device whose capabilities show no pressure axis: listed, never opened.
    case noPressure(reason: String)
    /// Not something we read (keyboards, mice, ...): never opened, listed only with `--all`.
    case skipped(reason: String)

    /// `ABS_PRESSURE`, single-touch and pen pressure.
    static let absPressureBit = Int(AbsoluteAxis.pressure.rawValue)
    /// `ABS_MT_PRESSURE`, per-contact pressure.
    static let absMTPressureBit = Int(AbsoluteAxis.mtPressure.rawValue)

    /// Decides from the node's udev properties and its parent's capability bits.
    ///
    /// Keyboards are excluded first and unconditionally (``OpenGuard``: udev's tag or the typewriter keys in the
    /// capability bits): a node that is also a keyboard could deliver keystrokes, and plumometer never opens one
    /// (the udev rule never grants one either). A fake multitouch device's `ABS_MT_PRESSURE` bit does not count
    /// as a pressure axis.
    public static func evaluate(_ node: UdevInputNode) -> DiscoveryPrefilter {
        let kinds = InputKind.kinds(in: node.properties)
        if let evidence = OpenGuard.keyboardEvidence(node) {
            return .skipped(reason: "a keyboard (\(evidence)): plumometer never opens keyboards")
        }
        let bits = node.absCapabilities.flatMap { capabilityBits($0) }
        let hasPressure = bits.map { bits in
            let fakeMultitouch = bits.contains(Int(AbsoluteAxis.mtSlot.rawValue) - 1)
            return bits.contains(absPressureBit) || (!fakeMultitouch && bits.contains(absMTPressureBit))
        }
        let touch = kinds.filter { InputKind.touchKinds.contains($0) }
        if let kind = touch.first {
            if hasPressure == false {
                return .noPressure(
                    reason: "this \(kind.rawValue) reports no pressure axis (its capabilities/abs has neither "
                        + "ABS_PRESSURE nor ABS_MT_PRESSURE), so there is nothing to weigh with"
                )
            }
            return .candidate
        }
        if node.properties["ID_INPUT"] == nil {
            // No input_id tags at all: udevd never processed this node (containers, early boot). Fall back on
            // the capability bits, which the kernel always provides.
            if hasPressure == true { return .candidate }
            return .skipped(reason: "udev has not tagged this node and its capabilities show no pressure axis")
        }
        if kinds.isEmpty {
            return .skipped(reason: "udev does not classify it as a touchpad, touchscreen or tablet")
        }
        let names = kinds.map(\.udevProperty).joined(separator: ", ")
        return .skipped(reason: "not a touchpad, touchscreen or tablet (udev: \(names))")
    }

    /// Parses a kernel capability bitmap (`capabilities/abs`, the `ABS=` property): hexadecimal words separated
    /// by spaces, most significant word first, each `wordBits` wide (the kernel's `unsigned long`).
    ///
    /// - Returns: The set bit numbers, or nil when the text is not a bitmap.
    public static func capabilityBits(_ text: String, wordBits: Int = Int.bitWidth) -> Set<Int>? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard !words.isEmpty else { return nil }
        var bits: Set<Int> = []
        for (index, word) in words.reversed().enumerated() {
            guard let value = UInt64(word, radix: 16) else { return nil }
            for bit in 0..<min(64, wordBits) where value & (1 << UInt64(bit)) != 0 {
                bits.insert(index * wordBits + bit)
            }
        }
        return bits
    }
}
