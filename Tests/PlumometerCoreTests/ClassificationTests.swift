import PlumometerCore
import Testing

/// Builds descriptions shaped like the real devices each rule is about.
private enum Sample {
    static let btnToolFinger = KeyCode.btnToolFinger.rawValue
    static let btnTouch = KeyCode.btnTouch.rawValue

    static func multitouch(
        bus: UInt16 = BusType.i2c.rawValue,
        vendor: UInt16 = 0x06cb,
        product: UInt16 = 0x7e7e,
        name: String = "SYNA0001 Touchpad",
        properties: Set<InputProperty> = [.pointer, .buttonpad],
        pressure: AxisInfo? = AxisInfo(minimum: 0, maximum: 255),
        keys: Set<UInt16> = [btnToolFinger, btnTouch, KeyCode.btnLeft.rawValue]
    ) -> DeviceDescription {
        var axes: [AbsoluteAxis: AxisInfo] = [
            .x: AxisInfo(minimum: 0, maximum: 3000, resolution: 30),
            .y: AxisInfo(minimum: 0, maximum: 2000, resolution: 30),
            .mtSlot: AxisInfo(minimum: 0, maximum: 4),
            .mtTrackingID: AxisInfo(minimum: 0, maximum: 65535),
            .mtPositionX: AxisInfo(minimum: 0, maximum: 3000, resolution: 30),
            .mtPositionY: AxisInfo(minimum: 0, maximum: 2000, resolution: 30),
        ]
        if let pressure {
            axes[.mtPressure] = pressure
            axes[.pressure] = pressure
        }
        return DeviceDescription(
            path: "/dev/input/event7",
            identity: DeviceIdentity(bus: bus, vendor: vendor, product: product, version: 0x100, name: name),
            properties: properties,
            codes: [.key: keys],
            axes: axes
        )
    }
}

@Suite("Device classification")
struct ClassificationTests {
    @Test func aDeviceWithoutPressureAxisIsRejected() {
        let device = Sample.multitouch(pressure: nil)
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .none)
        #expect(result.isForceSensor == nil)
        #expect(!result.isUsable)
        #expect(result.pressureAxis == nil)
        #expect(result.reason.contains("no pressure axis"))
        #expect(result.reason.hasPrefix("Touchpad"))
    }

    @Test func aPressureResolutionMeansGrams() {
        let device = Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 4000, resolution: 10))
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .forceWithUnits)
        #expect(result.sensing.rawValue == "force-grams")
        #expect(result.isForceSensor == true)
        #expect(result.pressureAxis == .mtPressure)
        #expect(result.reason.contains("10 units per gram"))
    }

    @Test func thePressurepadPropertyMeansForce() {
        var properties: Set<InputProperty> = [.pointer, .buttonpad]
        properties.insert(InputProperty(rawValue: 0x07))
        let result = DeviceClassifier.classify(Sample.multitouch(properties: properties))
        #expect(result.sensing == .force)
        #expect(result.isForceSensor == true)
        #expect(result.reason.contains("INPUT_PROP_PRESSUREPAD"))
    }

    @Test(arguments: [
        (BusType.usb.rawValue, UInt16(0x05ac), UInt16(0x0265)),
        (BusType.bluetooth.rawValue, UInt16(0x004c), UInt16(0x0265)),
        (BusType.usb.rawValue, UInt16(0x05ac), UInt16(0x0324)),
        (BusType.bluetooth.rawValue, UInt16(0x004c), UInt16(0x0324)),
    ])
    func magicTrackpad2IsAForceSensor(bus: UInt16, vendor: UInt16, product: UInt16) {
        let device = Sample.multitouch(
            bus: bus,
            vendor: vendor,
            product: product,
            name: "Apple Inc. Magic Trackpad 2",
            properties: [.pointer]
        )
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .force)
        #expect(result.reason.contains("Magic Trackpad 2"))
    }

    @Test func otherAppleProductsAreNotMagicTrackpads() {
        // The first Magic Trackpad (0x030e) reports contact size only.
        let device = Sample.multitouch(bus: BusType.bluetooth.rawValue, vendor: 0x05ac, product: 0x030e)
        #expect(DeviceClassifier.classify(device).sensing == .contactSize)
    }

    @Test(arguments: [BusType.spi.rawValue, BusType.host.rawValue])
    func appleInternalForceTouchTrackpads(bus: UInt16) {
        let device = Sample.multitouch(bus: bus, vendor: 0x05ac, product: 0x0341, name: "Apple MTP multi-touch")
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .force)
        #expect(result.reason.contains("Force Touch"))
    }

    @Test func appleOnAnotherBusWithoutKnownIdIsContactSize() {
        // A T2 Mac's bcm5974 trackpad is USB; its pressure is emulated from touch size.
        let device = Sample.multitouch(bus: BusType.usb.rawValue, vendor: 0x05ac, product: 0x027d)
        #expect(DeviceClassifier.classify(device).sensing == .contactSize)
    }

    @Test func aPenReportsForce() {
        let device = DeviceDescription(
            path: "/dev/input/event12",
            identity: DeviceIdentity(
                bus: 3,
                vendor: 0x056a,
                product: 0x0374,
                version: 0x110,
                name: "Wacom Intuos S Pen"
            ),
            properties: [.pointer],
            codes: [.key: [KeyCode.btnToolPen.rawValue, KeyCode.btnToolRubber.rawValue, Sample.btnTouch]],
            axes: [
                .x: AxisInfo(minimum: 0, maximum: 15200, resolution: 100),
                .y: AxisInfo(minimum: 0, maximum: 9500, resolution: 100),
                .pressure: AxisInfo(minimum: 0, maximum: 4095),
            ]
        )
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .force)
        #expect(result.pressureAxis == .pressure)
        #expect(result.reason.contains("pen"))
        #expect(device.contactProtocol == .singleTouch)
    }

    @Test func anOrdinaryTouchpadTracksContactSize() {
        let result = DeviceClassifier.classify(Sample.multitouch())
        #expect(result.sensing == .contactSize)
        #expect(result.isForceSensor == false)
        #expect(result.isUsable)
        #expect(result.reason.hasPrefix("ABS_MT_PRESSURE on this touchpad tracks finger contact area, not force"))
    }

    @Test func aTouchscreenTracksContactSize() {
        let device = Sample.multitouch(name: "ELAN Touchscreen", properties: [.direct], keys: [Sample.btnTouch])
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .contactSize)
        #expect(result.reason.contains("touchscreen"))
    }

    @Test func aSingleTouchPadUsesAbsPressure() {
        let device = DeviceDescription(
            path: "/dev/input/event3",
            identity: DeviceIdentity(
                bus: 0x11,
                vendor: 2,
                product: 7,
                version: 0x1b1,
                name: "SynPS/2 Synaptics TouchPad"
            ),
            properties: [.pointer],
            codes: [.key: [Sample.btnToolFinger, Sample.btnTouch]],
            axes: [.x: AxisInfo(minimum: 1, maximum: 5000), .pressure: AxisInfo(minimum: 0, maximum: 255)]
        )
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .contactSize)
        #expect(result.pressureAxis == .pressure)
        #expect(result.reason.hasPrefix("ABS_PRESSURE on this touchpad"))
    }

    @Test func ranksOrderForceBeforeContactSize() {
        let grams = DeviceClassifier.classify(
            Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 4000, resolution: 10))
        )
        let force = DeviceClassifier.classify(Sample.multitouch(vendor: 0x05ac, product: 0x0265))
        let size = DeviceClassifier.classify(Sample.multitouch())
        let none = DeviceClassifier.classify(Sample.multitouch(pressure: nil))
        #expect(grams.rank < force.rank)
        #expect(force.rank < size.rank)
        #expect(size.rank < none.rank)
        #expect(PressureSensing.allCases.map(\.rawValue) == ["force-grams", "force", "contact-size", "none"])
    }
}
