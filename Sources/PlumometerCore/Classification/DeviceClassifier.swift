/// Decides from a device's description alone whether its pressure axis measures force or contact size.
///
/// The kernel has no flag that says "this pressure is force". The rules, in order:
/// 1. No `ABS_MT_PRESSURE` and no `ABS_PRESSURE` (a fake multitouch device's `ABS_MT_PRESSURE` does not count):
///    nothing to weigh with (`none`).
/// 2. A pressure range that cannot carry a value: empty (a Goodix pad declared 0..0), inverted, two levels (0..1:
///    a touch flag, touching or not), or copied from a position axis (a PixArt pad declared 0..1983, its Y range,
///    and read 0 under a finger) (`bogus`).
/// 3. A pressure axis with a resolution > 0: the kernel documents the resolution of a pressure axis as units per
///    gram, so only a real force sensor can report one (`force-grams`).
/// 4. `INPUT_PROP_PRESSUREPAD` (0x07, kernel 6.4+): a touchpad whose click is a force sensor (`force`).
/// 5. Devices known to measure force: the Magic Trackpad 2 and Apple's internal Force Touch trackpads (`force`).
/// 6. Pens (`BTN_TOOL_PEN` or `BTN_STYLUS`, as udev's input_id decides, with `ABS_PRESSURE`): a pen tablet
///    reports the tip's force, one contact at a time (`force`). Some UC-Logic and Huion tablets have no
///    `BTN_TOOL_PEN`.
/// 7. Anything else with a pressure axis (most touchpads and touchscreens): the value grows with the finger's
///    contact area, which says little about weight (`contact-size`).
///
/// Every rule that looked leaves a ``StaticFinding`` with its implication; `INPUT_PROP_SEMI_MT`, fake
/// multitouch, a missing `ABS_MT_TOUCH_MAJOR` and legacy-only pressure are findings that change no verdict.
/// `plumometer probe` checks the verdict on the live device: the description cannot tell a pad that puts contact
/// size into its pressure axis from a force sensor.
public enum DeviceClassifier {
    /// Apple's USB vendor id; the Magic Trackpad 2 uses it over USB, and Apple's internal trackpads use it too.
    static let appleUSBVendor: UInt16 = 0x05ac
    /// Apple's Bluetooth vendor id: a Magic Trackpad 2 paired over Bluetooth reports this one.
    static let appleBluetoothVendor: UInt16 = 0x004c
    /// Magic Trackpad 2: 0x0265 (Lightning, 2015) and 0x0324 (USB-C, 2024), as in the kernel's hid-ids.h
    /// (`USB_DEVICE_ID_APPLE_MAGICTRACKPAD2`, `USB_DEVICE_ID_APPLE_MAGICTRACKPAD2_USBC`), driven by hid-magicmouse
    /// on USB and Bluetooth alike.
    static let magicTrackpad2Products: Set<UInt16> = [0x0265, 0x0324]

    /// Buses of Apple's internal Force Touch trackpads.
    ///
    /// Sources (read, not copied): Asahi Linux's kernel patches "HID: add device IDs for Apple SPI HID devices" and
    /// "HID: magicmouse: add support for Macbook trackpads" (Janne Grunau, 2021: M1 trackpads are HID over SPI,
    /// `BUS_SPI` 0x1c, registered by drivers/hid/spi-hid/spi-hid-apple-core.c as "MacBook Force Touch trackpad"),
    /// "HID: add HOST vendor/device IDs for Apple MTP devices" and "hid: magicmouse: Add MTP multi-touch device
    /// support" (Hector Martin, 2022: M2 and later use HID over DockChannel, represented as `BUS_HOST` 0x19), and
    /// Asahi's Apple haptic driver, whose id table matches `HID_DEVICE(BUS_HOST, ..., HOST_VENDOR_ID_APPLE,
    /// HID_ANY_ID)` and `HID_DEVICE(BUS_SPI, ..., SPI_VENDOR_ID_APPLE, HID_ANY_ID)`. The product id comes from the
    /// machine (dockchannel-hid reads it from the MTP's device-id report), so we match vendor 0x05ac on these buses
    /// with any product id, and require `ABS_MT_PRESSURE`, which hid-magicmouse fills from the force sensor.
    /// Intel Macs' applespi driver reports no pressure axis, so it falls under rule 1 anyway.
    static let appleInternalBuses: Set<UInt16> = [BusType.spi.rawValue, BusType.host.rawValue]

    /// Classifies `device`.
    ///
    /// - Parameter device: The description read from the device or a recording.
    /// - Returns: The kind of pressure sensing, with a reason sentence for the user and every finding.
    public static func classify(_ device: DeviceDescription) -> DeviceClassification {
        var findings = structuralFindings(device)
        let semiMT = device.properties.contains(.semiMT)
        func verdict(_ sensing: PressureSensing, _ reason: String, _ axis: AbsoluteAxis?) -> DeviceClassification {
            DeviceClassification(
                sensing: sensing,
                reason: reason,
                pressureAxis: axis,
                findings: findings,
                semiMultitouch: semiMT
            )
        }
        guard let axis = device.pressureAxis, let range = device.axes[axis] else {
            findings.append(
                StaticFinding(
                    code: .noPressureAxis,
                    finding: "neither ABS_MT_PRESSURE nor ABS_PRESSURE is declared",
                    implication: "nothing to weigh with"
                )
            )
            return verdict(
                .none,
                "\(noun(for: device).capitalizedFirst) reports no pressure axis (neither ABS_MT_PRESSURE "
                    + "nor ABS_PRESSURE), so there is nothing to weigh with.",
                nil
            )
        }
        findings.append(axisFinding(axis: axis, range: range))
        if let bogus = rangeFinding(device, axis: axis, range: range) {
            findings.append(bogus.finding)
            return verdict(.bogus, bogus.reason, axis)
        }
        findings += pressureFindings(device, axis: axis)
        // Every force rule that applies leaves its finding; the first one, in the order above, decides.
        var decisions: [(sensing: PressureSensing, reason: String, axis: AbsoluteAxis)] = []
        if range.resolution > 0 {
            findings.append(
                StaticFinding(
                    code: .pressureResolution,
                    finding: "\(axis.name) has a resolution of \(range.resolution) per gram",
                    implication: "force in known units: grams without calibration"
                )
            )
            decisions.append(
                (
                    .forceWithUnits,
                    "\(axis.name) has a resolution of \(range.resolution) unit\(range.resolution == 1 ? "" : "s") "
                        + "per gram, so this \(noun(for: device)) measures force in known units and reads grams "
                        + "without calibration.",
                    axis
                )
            )
        }
        // What a force rule adds: where grams come from is the resolution's to say when there is one, so no
        // finding contradicts the verdict ("reads grams without calibration" beside "calibrate for grams").
        let scaled = range.resolution > 0
        let forceSensor =
            scaled
            ? "a force sensor, in grams through the resolution above"
            : "a force sensor without a scale: calibrate for grams"
        if device.properties.contains(.pressurepad) {
            findings.append(
                StaticFinding(
                    code: .pressurePad,
                    finding: "the kernel marks it INPUT_PROP_PRESSUREPAD",
                    implication: forceSensor
                )
            )
            decisions.append(
                (
                    .force,
                    "The kernel marks this touchpad INPUT_PROP_PRESSUREPAD: \(axis.name) comes from a force "
                        + "sensor, in units without a scale, so grams need a calibration.",
                    axis
                )
            )
        }
        if let known = knownForceSensor(device, axis: axis) {
            findings.append(
                StaticFinding(
                    code: .knownForceSensor,
                    finding: known.name,
                    implication: forceSensor
                )
            )
            decisions.append((.force, known.reason, axis))
        }
        if isPen(device), device.hasAxis(.pressure) {
            let tool = device.hasKey(.btnToolPen) ? "BTN_TOOL_PEN" : "BTN_STYLUS without BTN_TOOL_PEN"
            findings.append(
                StaticFinding(
                    code: .pen,
                    finding: "a pen (\(tool)) with ABS_PRESSURE",
                    implication: "ABS_PRESSURE is the tip's force, one object at a time: "
                        + (scaled ? "grams through the resolution above" : "calibrate for grams")
                )
            )
            decisions.append(
                (
                    .force,
                    "A pen reports the force on its tip in ABS_PRESSURE; it weighs one object at a time, "
                        + "in units without a scale, so grams need a calibration.",
                    .pressure
                )
            )
        }
        if let first = decisions.first {
            return verdict(first.sensing, first.reason, first.axis)
        }
        findings.append(
            StaticFinding(
                code: .presumedContactSize,
                finding: "no rule says \(axis.name) is force",
                implication: "it most likely grows with contact area: relative readings only; "
                    + "`plumometer probe` tells for sure"
            )
        )
        return verdict(
            .contactSize,
            "\(axis.name) on this \(noun(for: device)) tracks finger contact area, not force: heavier objects "
                + "read higher only when they also flatten a larger area.",
            axis
        )
    }

    /// The Magic Trackpad 2 and Apple's internal Force Touch trackpads: a name for the finding and a reason.
    static func knownForceSensor(
        _ device: DeviceDescription,
        axis: AbsoluteAxis
    ) -> (name: String, reason: String)? {
        let identity = device.identity
        if magicTrackpad2Products.contains(identity.product),
            identity.vendor == appleUSBVendor || identity.vendor == appleBluetoothVendor
        {
            return (
                "a Magic Trackpad 2",
                "A Magic Trackpad 2 senses force under the glass: \(axis.name) is proportional to force, "
                    + "in units without a scale, so grams need a calibration."
            )
        }
        if identity.vendor == appleUSBVendor, appleInternalBuses.contains(identity.bus), axis == .mtPressure {
            return (
                "an Apple Force Touch trackpad",
                "Apple's internal Force Touch trackpads sense force: ABS_MT_PRESSURE is proportional to "
                    + "force, in units without a scale, so grams need a calibration."
            )
        }
        return nil
    }

    /// A pen as udev's input_id decides: `BTN_STYLUS` or `BTN_TOOL_PEN`.
    static func isPen(_ device: DeviceDescription) -> Bool {
        device.hasKey(.btnToolPen) || device.hasKey(.btnStylus)
    }

    /// What to call the device in a sentence: touchscreens are direct, pens have a pen tool, the rest are pads.
    static func noun(for device: DeviceDescription) -> String {
        if isPen(device) { return "pen tablet" }
        if device.properties.contains(.direct) { return "touchscreen" }
        if device.hasKey(.btnToolFinger) || device.properties.contains(.pointer)
            || device.properties.contains(.buttonpad)
        {
            return "touchpad"
        }
        return "device"
    }
}

extension String {
    fileprivate var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
