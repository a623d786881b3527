/// Decides from a device's description alone whether its pressure axis measures force or contact size.
///
/// The kernel has no flag that says "this pressure is force". The rules, in order:
/// 1. No `ABS_MT_PRESSURE` and no `ABS_PRESSURE`: nothing to weigh with (`none`).
/// 2. A pressure axis with a resolution > 0: the kernel documents the resolution of a pressure axis as units per
///    gram, so only a real force sensor can report one (`force-grams`).
/// 3. `INPUT_PROP_PRESSUREPAD` (0x07, kernel 6.4+): a touchpad whose click is a force sensor (`force`).
/// 4. Devices known to measure force: the Magic Trackpad 2 and Apple's internal Force Touch trackpads (`force`).
/// 5. Pens (`BTN_TOOL_PEN` with `ABS_PRESSURE`): a pen tablet reports the tip's force, one contact at a time.
/// 6. Anything else with a pressure axis (most touchpads and touchscreens): the value grows with the finger's
///    contact area, which says little about weight (`contact-size`).
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
    /// - Returns: The kind of pressure sensing, with a reason sentence for the user.
    public static func classify(_ device: DeviceDescription) -> DeviceClassification {
        guard let axis = device.pressureAxis, let range = device.axes[axis] else {
            return DeviceClassification(
                sensing: .none,
                reason: "\(noun(for: device).capitalizedFirst) reports no pressure axis (neither ABS_MT_PRESSURE "
                    + "nor ABS_PRESSURE), so there is nothing to weigh with."
            )
        }
        if range.resolution > 0 {
            return DeviceClassification(
                sensing: .forceWithUnits,
                reason:
                    "\(axis.name) has a resolution of \(range.resolution) unit\(range.resolution == 1 ? "" : "s") per gram, so this "
                    + "\(noun(for: device)) measures force in known units and reads grams without calibration.",
                pressureAxis: axis
            )
        }
        if device.properties.contains(.pressurepad) {
            return DeviceClassification(
                sensing: .force,
                reason: "The kernel marks this touchpad INPUT_PROP_PRESSUREPAD: \(axis.name) comes from a force "
                    + "sensor, in units without a scale, so grams need a calibration.",
                pressureAxis: axis
            )
        }
        let identity = device.identity
        if magicTrackpad2Products.contains(identity.product),
            identity.vendor == appleUSBVendor || identity.vendor == appleBluetoothVendor
        {
            return DeviceClassification(
                sensing: .force,
                reason: "A Magic Trackpad 2 senses force under the glass: \(axis.name) is proportional to force, "
                    + "in units without a scale, so grams need a calibration.",
                pressureAxis: axis
            )
        }
        if identity.vendor == appleUSBVendor, appleInternalBuses.contains(identity.bus), axis == .mtPressure {
            return DeviceClassification(
                sensing: .force,
                reason: "Apple's internal Force Touch trackpads sense force: ABS_MT_PRESSURE is proportional to "
                    + "force, in units without a scale, so grams need a calibration.",
                pressureAxis: axis
            )
        }
        if device.hasKey(.btnToolPen), device.hasAxis(.pressure) {
            return DeviceClassification(
                sensing: .force,
                reason: "A pen reports the force on its tip in ABS_PRESSURE; it weighs one object at a time, "
                    + "in units without a scale, so grams need a calibration.",
                pressureAxis: .pressure
            )
        }
        return DeviceClassification(
            sensing: .contactSize,
            reason: "\(axis.name) on this \(noun(for: device)) tracks finger contact area, not force: heavier objects "
                + "read higher only when they also flatten a larger area.",
            pressureAxis: axis
        )
    }

    /// What to call the device in a sentence: touchscreens are direct, pens have a pen tool, the rest are pads.
    static func noun(for device: DeviceDescription) -> String {
        if device.hasKey(.btnToolPen) { return "pen tablet" }
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
