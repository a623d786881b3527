/// One thing the device description alone says about its pressure axis, and what it implies.
///
/// `plumometer list` and `plumometer probe` print these; the codes are stable (tests and scripts match them),
/// the sentences may be reworded.
public struct StaticFinding: Sendable, Hashable {
    /// A finding's stable identifier.
    public struct Code: RawRepresentable, Hashable, Sendable, Comparable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Neither `ABS_MT_PRESSURE` nor `ABS_PRESSURE`.
        public static let noPressureAxis = Code(rawValue: "no-pressure-axis")
        /// The pressure axis, its range and resolution: what every reading is made of.
        public static let pressureAxis = Code(rawValue: "pressure-axis")
        /// The pressure axis' maximum equals its minimum (a Goodix pad declared 0..0).
        public static let emptyRange = Code(rawValue: "empty-range")
        /// The pressure axis' maximum is below its minimum.
        public static let invertedRange = Code(rawValue: "inverted-range")
        /// The pressure axis has two levels (0..1): a touch flag, not a pressure.
        public static let twoLevelRange = Code(rawValue: "two-level-range")
        /// The pressure range is a position axis' range (a PixArt pad declared 0..1983, its Y range).
        public static let copiedRange = Code(rawValue: "copied-range")
        /// The pressure axis has a resolution: units per gram.
        public static let pressureResolution = Code(rawValue: "pressure-resolution")
        /// `INPUT_PROP_PRESSUREPAD`: the pad's button is a force sensor.
        public static let pressurePad = Code(rawValue: "pressurepad")
        /// A device known to sense force (Magic Trackpad 2, Apple's Force Touch trackpads).
        public static let knownForceSensor = Code(rawValue: "known-force-sensor")
        /// A pen (`BTN_TOOL_PEN` or `BTN_STYLUS`): `ABS_PRESSURE` is the tip's force.
        public static let pen = Code(rawValue: "pen")
        /// `INPUT_PROP_SEMI_MT`: the contacts are the corners of a bounding box, not fingers.
        public static let semiMultitouch = Code(rawValue: "semi-mt")
        /// libevdev's fake multitouch: the `ABS_MT_SLOT - 1` bit is set, so the `ABS_MT_*` codes are not axes.
        public static let fakeMultitouch = Code(rawValue: "fake-mt")
        /// A multitouch device without `ABS_MT_TOUCH_MAJOR`: contact size cannot be compared with pressure.
        public static let noTouchMajor = Code(rawValue: "no-touch-major")
        /// Only `ABS_PRESSURE` on a multitouch device: the kernel's pointer emulation, the oldest contact's.
        public static let legacyPressureOnly = Code(rawValue: "legacy-pressure-only")
        /// No rule says force: the pressure most likely grows with contact area.
        public static let presumedContactSize = Code(rawValue: "presumed-contact-size")

        public static func < (lhs: Code, rhs: Code) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The stable identifier.
    public var code: Code
    /// What the description shows, with the figures ("ABS_MT_PRESSURE 0..1983 is ABS_Y's range").
    public var finding: String
    /// What it means for weighing ("the axis carries no pressure: bogus").
    public var implication: String

    /// Creates a finding.
    public init(code: Code, finding: String, implication: String) {
        self.code = code
        self.finding = finding
        self.implication = implication
    }
}
