/// The findings of the description that are not a verdict of their own: how contacts are reported and whether
/// the declared pressure range can carry a value.
extension DeviceClassifier {
    /// The position axes a pressure range can be copied from.
    static let positionAxes: [AbsoluteAxis] = [.x, .y, .mtPositionX, .mtPositionY]

    /// Fake multitouch and semi-multitouch: findings about how contacts are reported.
    static func structuralFindings(_ device: DeviceDescription) -> [StaticFinding] {
        var findings: [StaticFinding] = []
        if device.hasFakeMultitouch {
            findings.append(
                StaticFinding(
                    code: .fakeMultitouch,
                    finding: "the ABS_MT_SLOT - 1 bit (0x2e) is set: libevdev's fake multitouch",
                    implication: "its ABS_MT_* codes are not multitouch axes: read as a single-touch device, "
                        + "with ABS_PRESSURE only"
                )
            )
        }
        if device.properties.contains(.semiMT) {
            findings.append(
                StaticFinding(
                    code: .semiMultitouch,
                    finding: "INPUT_PROP_SEMI_MT: the pad reports a bounding box, not contacts",
                    implication: "read as one contact with the pressure the pad reports: it cannot weigh several "
                        + "objects apart"
                )
            )
        }
        return findings
    }

    /// The pressure axis with its range and resolution, and what a reading of it is.
    static func axisFinding(axis: AbsoluteAxis, range: AxisInfo) -> StaticFinding {
        let declared = "\(axis.name) \(range.minimum)..\(range.maximum)"
        guard range.resolution > 0 else {
            return StaticFinding(
                code: .pressureAxis,
                finding: declared + ", no resolution",
                implication: "readings are raw units without a scale: grams need a calibration"
            )
        }
        let grams = range.span / Double(range.resolution)
        return StaticFinding(
            code: .pressureAxis,
            finding: declared + ", resolution \(range.resolution) per gram",
            implication: "full scale is about \(Int(grams.rounded())) g"
        )
    }

    /// An empty, inverted or copied pressure range: the finding and the verdict's reason, or nil for a range that
    /// can carry a value.
    ///
    /// A copied range is one identical to a position axis' (same minimum and maximum). A range from 0 to a power
    /// of two minus one (0..255, 0..1023, 0..4095) is a sensor's natural full scale that position and pressure
    /// can share honestly, so it never counts as copied.
    static func rangeFinding(
        _ device: DeviceDescription,
        axis: AbsoluteAxis,
        range: AxisInfo
    ) -> (finding: StaticFinding, reason: String)? {
        let declared = "\(axis.name) declares \(range.minimum)..\(range.maximum)"
        if range.maximum == range.minimum {
            return (
                StaticFinding(
                    code: .emptyRange,
                    finding: declared + ", an empty range",
                    implication: "it cannot carry a value: bogus; report the device"
                ),
                "\(declared), an empty range: the axis cannot carry a pressure, so there is nothing to weigh "
                    + "with. Report the device (docs/devices.md)."
            )
        }
        if range.maximum < range.minimum {
            return (
                StaticFinding(
                    code: .invertedRange,
                    finding: declared + ", an inverted range",
                    implication: "no value fits it: bogus; report the device"
                ),
                "\(declared), an inverted range (maximum below minimum): the kernel's description of the axis is "
                    + "broken, so its values cannot be scaled. Report the device (docs/devices.md)."
            )
        }
        if Int64(range.maximum) - Int64(range.minimum) == 1 {
            // Two values say touching or not: some drivers declare a 0..1 "pressure" for a touch, as BTN_TOUCH is.
            return (
                StaticFinding(
                    code: .twoLevelRange,
                    finding: declared + ", two levels",
                    implication: "a touch flag, not a pressure: bogus; nothing can be weighed or compared"
                ),
                "\(declared), two levels: the axis is a touch flag (touching or not), not a pressure, so it can "
                    + "neither weigh nor compare objects; every contact would read 0% or 100%."
            )
        }
        let naturalFullScale = range.minimum == 0 && (Int64(range.maximum) + 1).nonzeroBitCount == 1
        if !naturalFullScale,
            let source = positionAxes.first(where: { position in
                guard let info = device.axes[position] else { return false }
                return info.minimum == range.minimum && info.maximum == range.maximum
            })
        {
            return (
                StaticFinding(
                    code: .copiedRange,
                    finding: declared + ", exactly \(source.name)'s range",
                    implication: "a range copied from a position axis carries no pressure scale: bogus; "
                        + "report the device"
                ),
                "\(declared), exactly the range of \(source.name): a range copied from a position axis carries no "
                    + "pressure scale (a PixArt pad did this and read 0 under a finger). Report the device "
                    + "(docs/devices.md)."
            )
        }
        return nil
    }

    /// Findings about the pressure axis that change no verdict: no touch major to compare it with, or only the
    /// legacy axis on a multitouch device.
    static func pressureFindings(_ device: DeviceDescription, axis: AbsoluteAxis) -> [StaticFinding] {
        var findings: [StaticFinding] = []
        guard device.contactProtocol != .singleTouch else { return findings }
        if axis == .pressure {
            findings.append(
                StaticFinding(
                    code: .legacyPressureOnly,
                    finding: "multitouch without ABS_MT_PRESSURE: only ABS_PRESSURE",
                    implication: "the kernel's pointer emulation follows the oldest contact: one object at a time"
                )
            )
        }
        if !device.hasAxis(.mtTouchMajor) {
            findings.append(
                StaticFinding(
                    code: .noTouchMajor,
                    finding: "no ABS_MT_TOUCH_MAJOR",
                    implication: "contact size cannot be compared with pressure: `plumometer probe` decides from "
                        + "the press and roll steps alone"
                )
            )
        }
        return findings
    }
}
