public import PlumometerCore

/// The devices tests keep needing, as values: the same descriptions as the evemu files in `Tests/Fixtures/Devices`
/// (a test in PlumometerRecordingTests reads each file and compares), so a pure core test can use a real device's
/// ranges without a reader or a file.
///
/// Each `path` is the fixture's file name, as the recording reader sets it.
public enum DeviceCatalogue {
    /// An Apple Magic Trackpad 2 over Bluetooth (hid-magicmouse): 16 slots, `ABS_MT_PRESSURE` 0...253 without resolution.
    ///
    /// `Tests/Fixtures/Devices/apple-magic-trackpad-2-bluetooth.desc`, value for value.
    public static let magicTrackpad2Bluetooth = magicTrackpad2Description(
        path: "apple-magic-trackpad-2-bluetooth.desc",
        bus: 0x5,
        vendor: 0x4c
    )

    /// An Apple Magic Trackpad 2 over USB (hid-magicmouse, 05ac:0265): 16 slots, `ABS_MT_PRESSURE` 0...253 without resolution.
    ///
    /// `Tests/Fixtures/Devices/apple-magic-trackpad-2-usb.desc`, value for value.
    public static let magicTrackpad2 = magicTrackpad2Description(
        path: "apple-magic-trackpad-2-usb.desc",
        bus: 0x3,
        vendor: 0x5ac
    )

    /// The Magic Trackpad 2 as hid-magicmouse describes it: the same capabilities over USB and Bluetooth, only the
    /// bus and the vendor id (Apple's USB id, or its Bluetooth SIG id) differ.
    private static func magicTrackpad2Description(path: String, bus: UInt16, vendor: UInt16) -> DeviceDescription {
        DeviceDescription(
            path: path,
            identity: DeviceIdentity(
                bus: bus,
                vendor: vendor,
                product: 0x265,
                version: 0x1,
                name: "Apple Inc. Magic Trackpad 2"
            ),
            properties: [.pointer, .buttonpad],
            codes: [
                .key: codes(0x110, 0x145, 0x148, 0x14a, 0x14d...0x14f)
            ],
            axes: [
                .x: AxisInfo(minimum: -3678, maximum: 3934, fuzz: 4, flat: 0, resolution: 47),
                .y: AxisInfo(minimum: -2478, maximum: 2587, fuzz: 4, flat: 0, resolution: 44),
                .pressure: AxisInfo(minimum: 0, maximum: 253, fuzz: 0, flat: 0, resolution: 0),
                .mtSlot: AxisInfo(minimum: 0, maximum: 15, fuzz: 0, flat: 0, resolution: 0),
                .mtTouchMajor: AxisInfo(minimum: 0, maximum: 1020, fuzz: 4, flat: 0, resolution: 0),
                .mtTouchMinor: AxisInfo(minimum: 0, maximum: 1020, fuzz: 4, flat: 0, resolution: 0),
                .mtOrientation: AxisInfo(minimum: -31, maximum: 32, fuzz: 1, flat: 0, resolution: 0),
                .mtPositionX: AxisInfo(minimum: -3678, maximum: 3934, fuzz: 4, flat: 0, resolution: 47),
                .mtPositionY: AxisInfo(minimum: -2478, maximum: 2587, fuzz: 4, flat: 0, resolution: 44),
                .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535, fuzz: 0, flat: 0, resolution: 0),
                .mtPressure: AxisInfo(minimum: 0, maximum: 253, fuzz: 0, flat: 0, resolution: 0),
            ]
        )
    }

    /// An Apple Silicon MacBook's force trackpad under Asahi Linux: 16 slots, `ABS_MT_PRESSURE` 0...6000 at 1 unit a gram.
    ///
    /// `Tests/Fixtures/Devices/apple-silicon-internal-trackpad.desc`, value for value.
    public static let appleSiliconTrackpad = DeviceDescription(
        path: "apple-silicon-internal-trackpad.desc",
        identity: DeviceIdentity(bus: 0x1c, vendor: 0x5ac, product: 0x341, version: 0x1, name: "Apple MTP multi-touch"),
        properties: [.pointer, .buttonpad],
        codes: [
            .key: codes(0x110, 0x145, 0x148, 0x14a, 0x14d...0x14f)
        ],
        axes: [
            .x: AxisInfo(minimum: -6046, maximum: 6536, fuzz: 0, flat: 0, resolution: 44),
            .y: AxisInfo(minimum: -165, maximum: 7618, fuzz: 0, flat: 0, resolution: 44),
            .mtSlot: AxisInfo(minimum: 0, maximum: 15, fuzz: 0, flat: 0, resolution: 0),
            .mtTouchMajor: AxisInfo(minimum: 0, maximum: 2048, fuzz: 0, flat: 0, resolution: 0),
            .mtTouchMinor: AxisInfo(minimum: 0, maximum: 2048, fuzz: 0, flat: 0, resolution: 0),
            .mtOrientation: AxisInfo(minimum: -16384, maximum: 16384, fuzz: 0, flat: 0, resolution: 0),
            .mtPositionX: AxisInfo(minimum: -6046, maximum: 6536, fuzz: 0, flat: 0, resolution: 44),
            .mtPositionY: AxisInfo(minimum: -165, maximum: 7618, fuzz: 0, flat: 0, resolution: 44),
            .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535, fuzz: 0, flat: 0, resolution: 0),
            .mtPressure: AxisInfo(minimum: 0, maximum: 6000, fuzz: 0, flat: 0, resolution: 1),
        ]
    )

    /// A PS/2 keyboard: keys, `MSC_SCAN`, LEDs, autorepeat, no absolute axes (never to be opened).
    ///
    /// `Tests/Fixtures/Devices/keyboard.desc`, value for value.
    public static let keyboard = DeviceDescription(
        path: "keyboard.desc",
        identity: DeviceIdentity(
            bus: 0x11,
            vendor: 0x1,
            product: 0x1,
            version: 0xab41,
            name: "AT Translated Set 2 keyboard"
        ),
        codes: [
            .key: codes(0x1...0x58),
            .msc: codes(0x4),
            .led: codes(0x0...0x2),
        ]
    )

    /// A pen tablet (Wacom Intuos S class): single touch, `ABS_PRESSURE` 0...4095, `BTN_TOOL_PEN`.
    ///
    /// `Tests/Fixtures/Devices/pen-tablet.desc`, value for value.
    public static let penTablet = DeviceDescription(
        path: "pen-tablet.desc",
        identity: DeviceIdentity(bus: 0x3, vendor: 0x56a, product: 0x374, version: 0x110, name: "Wacom Intuos S Pen"),
        properties: [.pointer],
        codes: [
            .key: codes(0x140, 0x141, 0x14a...0x14c),
            .msc: codes(0x0),
        ],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 15200, fuzz: 4, flat: 0, resolution: 100),
            .y: AxisInfo(minimum: 0, maximum: 9500, fuzz: 4, flat: 0, resolution: 100),
            .pressure: AxisInfo(minimum: 0, maximum: 4095, fuzz: 0, flat: 0, resolution: 0),
            .distance: AxisInfo(minimum: 0, maximum: 63, fuzz: 0, flat: 0, resolution: 0),
            .tiltX: AxisInfo(minimum: -64, maximum: 63, fuzz: 0, flat: 0, resolution: 57),
            .tiltY: AxisInfo(minimum: -64, maximum: 63, fuzz: 0, flat: 0, resolution: 57),
        ]
    )

    /// A haptic pressure pad (`INPUT_PROP_PRESSUREPAD`): 5 slots, `ABS_MT_PRESSURE` 0...4095 at 4 units a gram.
    ///
    /// `Tests/Fixtures/Devices/pressure-pad.desc`, value for value.
    public static let pressurePad = DeviceDescription(
        path: "pressure-pad.desc",
        identity: DeviceIdentity(
            bus: 0x18,
            vendor: 0x6cb,
            product: 0xcf00,
            version: 0x100,
            name: "PLUM0001:00 06CB:CF00 Touchpad"
        ),
        properties: [.pointer, .buttonpad, .pressurepad],
        codes: [
            .key: codes(0x110, 0x145, 0x148, 0x14a, 0x14d...0x14f)
        ],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 3200, fuzz: 0, flat: 0, resolution: 31),
            .y: AxisInfo(minimum: 0, maximum: 2000, fuzz: 0, flat: 0, resolution: 31),
            .pressure: AxisInfo(minimum: 0, maximum: 4095, fuzz: 0, flat: 0, resolution: 4),
            .mtSlot: AxisInfo(minimum: 0, maximum: 4, fuzz: 0, flat: 0, resolution: 0),
            .mtPositionX: AxisInfo(minimum: 0, maximum: 3200, fuzz: 0, flat: 0, resolution: 31),
            .mtPositionY: AxisInfo(minimum: 0, maximum: 2000, fuzz: 0, flat: 0, resolution: 31),
            .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535, fuzz: 0, flat: 0, resolution: 0),
            .mtPressure: AxisInfo(minimum: 0, maximum: 4095, fuzz: 0, flat: 0, resolution: 4),
        ]
    )

    /// A protocol A touchscreen: anonymous contacts separated by `SYN_MT_REPORT`, `ABS_MT_PRESSURE` 0...255.
    ///
    /// `Tests/Fixtures/Devices/protocol-a-touchscreen.desc`, value for value.
    public static let protocolATouchscreen = DeviceDescription(
        path: "protocol-a-touchscreen.desc",
        identity: DeviceIdentity(
            bus: 0x3,
            vendor: 0xeef,
            product: 0x1,
            version: 0x100,
            name: "Plumometer Protocol A Touchscreen"
        ),
        properties: [.direct],
        codes: [
            .key: codes(0x14a)
        ],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 4095, fuzz: 0, flat: 0, resolution: 0),
            .y: AxisInfo(minimum: 0, maximum: 4095, fuzz: 0, flat: 0, resolution: 0),
            .pressure: AxisInfo(minimum: 0, maximum: 255, fuzz: 0, flat: 0, resolution: 0),
            .mtTouchMajor: AxisInfo(minimum: 0, maximum: 255, fuzz: 0, flat: 0, resolution: 0),
            .mtPositionX: AxisInfo(minimum: 0, maximum: 4095, fuzz: 0, flat: 0, resolution: 0),
            .mtPositionY: AxisInfo(minimum: 0, maximum: 4095, fuzz: 0, flat: 0, resolution: 0),
            .mtPressure: AxisInfo(minimum: 0, maximum: 255, fuzz: 0, flat: 0, resolution: 0),
        ]
    )

    /// A single-touch touchpad: `ABS_X`, `ABS_Y`, `ABS_PRESSURE` 0...127 and `BTN_TOUCH`, no `ABS_MT_*` axes.
    ///
    /// `Tests/Fixtures/Devices/single-touch-touchpad.desc`, value for value.
    public static let singleTouchTouchpad = DeviceDescription(
        path: "single-touch-touchpad.desc",
        identity: DeviceIdentity(bus: 0x11, vendor: 0x2, product: 0x8, version: 0x0, name: "AlpsPS/2 ALPS GlidePoint"),
        properties: [.pointer],
        codes: [
            .key: codes(0x110, 0x111, 0x145, 0x14a)
        ],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 1023, fuzz: 0, flat: 0, resolution: 0),
            .y: AxisInfo(minimum: 0, maximum: 767, fuzz: 0, flat: 0, resolution: 0),
            .pressure: AxisInfo(minimum: 0, maximum: 127, fuzz: 0, flat: 0, resolution: 0),
        ]
    )

    /// A multitouch touchpad without any pressure axis (refused: it cannot weigh).
    ///
    /// `Tests/Fixtures/Devices/touchpad-no-pressure.desc`, value for value.
    public static let touchpadWithoutPressure = DeviceDescription(
        path: "touchpad-no-pressure.desc",
        identity: DeviceIdentity(
            bus: 0x18,
            vendor: 0x93a,
            product: 0x255,
            version: 0x100,
            name: "Plumometer Pressureless Touchpad"
        ),
        properties: [.pointer, .buttonpad],
        codes: [
            .key: codes(0x110, 0x145, 0x148, 0x14a, 0x14d...0x14f)
        ],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 1200, fuzz: 0, flat: 0, resolution: 12),
            .y: AxisInfo(minimum: 0, maximum: 800, fuzz: 0, flat: 0, resolution: 12),
            .mtSlot: AxisInfo(minimum: 0, maximum: 4, fuzz: 0, flat: 0, resolution: 0),
            .mtPositionX: AxisInfo(minimum: 0, maximum: 1200, fuzz: 0, flat: 0, resolution: 12),
            .mtPositionY: AxisInfo(minimum: 0, maximum: 800, fuzz: 0, flat: 0, resolution: 12),
            .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535, fuzz: 0, flat: 0, resolution: 0),
        ]
    )

    /// A capacitive touchscreen whose `ABS_MT_PRESSURE` is contact size (0...255, no resolution), 10 slots.
    ///
    /// `Tests/Fixtures/Devices/touchscreen-contact-size.desc`, value for value.
    public static let contactSizeTouchscreen = DeviceDescription(
        path: "touchscreen-contact-size.desc",
        identity: DeviceIdentity(bus: 0x18, vendor: 0x4f3, product: 0x2a1c, version: 0x100, name: "ELAN Touchscreen"),
        properties: [.direct],
        codes: [
            .key: codes(0x14a)
        ],
        axes: [
            .x: AxisInfo(minimum: 0, maximum: 3327, fuzz: 0, flat: 0, resolution: 12),
            .y: AxisInfo(minimum: 0, maximum: 1871, fuzz: 0, flat: 0, resolution: 12),
            .mtSlot: AxisInfo(minimum: 0, maximum: 9, fuzz: 0, flat: 0, resolution: 0),
            .mtTouchMajor: AxisInfo(minimum: 0, maximum: 255, fuzz: 0, flat: 0, resolution: 0),
            .mtTouchMinor: AxisInfo(minimum: 0, maximum: 255, fuzz: 0, flat: 0, resolution: 0),
            .mtPositionX: AxisInfo(minimum: 0, maximum: 3327, fuzz: 0, flat: 0, resolution: 12),
            .mtPositionY: AxisInfo(minimum: 0, maximum: 1871, fuzz: 0, flat: 0, resolution: 12),
            .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535, fuzz: 0, flat: 0, resolution: 0),
            .mtPressure: AxisInfo(minimum: 0, maximum: 255, fuzz: 0, flat: 0, resolution: 0),
        ]
    )

    /// A synthetic pressure pad of `width` x `height` mm at 40 units a millimetre, `ABS_MT_PRESSURE` 0...1000: the
    /// picture tests' pad, sized at will. No fixture file describes it (it is not in ``all``).
    ///
    /// - Parameters:
    ///   - width: millimetres along x.
    ///   - height: millimetres along y.
    ///   - resolution: the position axes' declared resolution (units per millimetre; 0: not declared).
    ///   - unitsPerGram: `ABS_MT_PRESSURE`'s declared resolution (0: not declared, no grams).
    ///   - slots: how many slots it has.
    public static func syntheticPressurePad(
        width: Int32 = 100,
        height: Int32 = 60,
        resolution: Int32 = 40,
        unitsPerGram: Int32 = 4,
        slots: Int32 = 5
    ) -> DeviceDescription {
        DeviceDescription(
            path: "synthetic.evemu",
            identity: DeviceIdentity(
                bus: 0x18,
                vendor: 0x06cb,
                product: 0xce37,
                version: 1,
                name: "Synthetic PressurePad"
            ),
            axes: [
                .mtSlot: AxisInfo(minimum: 0, maximum: slots - 1),
                .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535),
                .mtPositionX: AxisInfo(minimum: 0, maximum: width * 40, resolution: resolution),
                .mtPositionY: AxisInfo(minimum: 0, maximum: height * 40, resolution: resolution),
                .mtPressure: AxisInfo(minimum: 0, maximum: 1000, resolution: unitsPerGram),
            ]
        )
    }

    /// Every device of the catalogue with its fixture's file name.
    public static let all: [(file: String, description: DeviceDescription)] = [
        ("apple-magic-trackpad-2-bluetooth.desc", magicTrackpad2Bluetooth),
        ("apple-magic-trackpad-2-usb.desc", magicTrackpad2),
        ("apple-silicon-internal-trackpad.desc", appleSiliconTrackpad),
        ("keyboard.desc", keyboard),
        ("pen-tablet.desc", penTablet),
        ("pressure-pad.desc", pressurePad),
        ("protocol-a-touchscreen.desc", protocolATouchscreen),
        ("single-touch-touchpad.desc", singleTouchTouchpad),
        ("touchpad-no-pressure.desc", touchpadWithoutPressure),
        ("touchscreen-contact-size.desc", contactSizeTouchscreen),
    ]

    /// A set of event codes from single codes and ranges: `codes(0x110, 0x14d...0x14f)`.
    static func codes(_ parts: any CodeSet...) -> Set<UInt16> {
        parts.reduce(into: []) { result, part in result.formUnion(part.codeValues) }
    }
}

/// One code or a range of codes, for ``DeviceCatalogue/codes(_:)``.
protocol CodeSet {
    /// The codes this stands for.
    var codeValues: [UInt16] { get }
}

extension Int: CodeSet {
    var codeValues: [UInt16] { [UInt16(self)] }
}

extension ClosedRange: CodeSet where Bound == Int {
    var codeValues: [UInt16] { map { UInt16($0) } }
}
