import PlumometerCore
import PlumometerTestKit
import Testing

/// Builds descriptions shaped like the real devices each rule is about.
///
/// Literals, not the catalogue's devices: each test varies the fields its rule reads (bus, vendor, product, name,
/// properties, pressure range, keys) one at a time from this one touchpad.
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
        let device = DeviceCatalogue.penTablet
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
        let device = DeviceCatalogue.singleTouchTouchpad
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
        let bogus = DeviceClassifier.classify(Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 0)))
        #expect(size.rank < bogus.rank)
        #expect(bogus.rank < none.rank)
        #expect(
            PressureSensing.allCases.map(\.rawValue) == ["force-grams", "force", "contact-size", "bogus", "none"]
        )
    }
}

/// The classification fixes of the probe issue: bogus ranges, pens by BTN_STYLUS, semi-MT, fake multitouch and
/// the static findings.
@Suite("Device classification: static findings")
struct StaticFindingTests {
    /// A pen with exactly these keys and this pressure range (a literal: the tests are about those fields).
    static func pen(keys: [KeyCode], pressure: AxisInfo = AxisInfo(minimum: 0, maximum: 8191)) -> DeviceDescription {
        DeviceDescription(
            path: "/dev/input/event14",
            identity: DeviceIdentity(bus: 3, vendor: 0x256c, product: 0x006d, version: 0x111, name: "HUION Pen"),
            properties: [.direct],
            codes: [.key: Set(keys.map(\.rawValue))],
            axes: [
                .x: AxisInfo(minimum: 0, maximum: 50800, resolution: 200),
                .y: AxisInfo(minimum: 0, maximum: 31750, resolution: 200),
                .pressure: pressure,
            ]
        )
    }

    @Test func anEmptyPressureRangeIsBogus() {
        // A Goodix pad declared ABS_MT_PRESSURE 0..0.
        let result = DeviceClassifier.classify(Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 0)))
        #expect(result.sensing == .bogus)
        #expect(result.sensing.rawValue == "bogus")
        #expect(!result.isUsable)
        #expect(result.isForceSensor == nil)
        #expect(result.pressureAxis == .mtPressure)
        #expect(result.findingCodes.contains(.emptyRange))
        #expect(result.reason.contains("0..0"))
        #expect(result.reason.contains("Report the device"))
    }

    @Test func anInvertedPressureRangeIsBogus() {
        let result = DeviceClassifier.classify(Sample.multitouch(pressure: AxisInfo(minimum: 255, maximum: 0)))
        #expect(result.sensing == .bogus)
        #expect(result.findingCodes.contains(.invertedRange))
        #expect(result.reason.contains("inverted"))
    }

    @Test func aTwoLevelPressureAxisIsATouchFlagAndBogus() {
        // 0..1 says touching or not: every contact would read 0% or 100%, whatever presses it.
        let result = DeviceClassifier.classify(Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 1)))
        #expect(result.sensing == .bogus)
        #expect(result.findingCodes == [.pressureAxis, .twoLevelRange])
        #expect(result.reason.contains("ABS_MT_PRESSURE declares 0..1, two levels"))
        #expect(result.reason.contains("touch flag"))
        #expect(!result.sensing.isUsable)
        // Whatever else would call it force: a resolution, or a pen.
        let graded = DeviceClassifier.classify(
            Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 1, resolution: 1))
        )
        #expect(graded.sensing == .bogus)
        var pen = DeviceCatalogue.penTablet
        pen.axes[.pressure] = AxisInfo(minimum: 5, maximum: 6)
        #expect(DeviceClassifier.classify(pen).sensing == .bogus)
        // Three levels are a (coarse) range, not a flag.
        let three = DeviceClassifier.classify(Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 2)))
        #expect(three.sensing == .contactSize)
    }

    @Test func aPressureRangeCopiedFromAPositionAxisIsBogus() {
        // The PixArt pad: ABS_MT_PRESSURE 0..1983, the range of its Y axis; a resolution on it changes nothing.
        var device = Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 1983, resolution: 0))
        device.axes[.y] = AxisInfo(minimum: 0, maximum: 1983, resolution: 20)
        device.axes[.mtPositionY] = AxisInfo(minimum: 0, maximum: 1983, resolution: 20)
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .bogus)
        #expect(result.findingCodes == [.pressureAxis, .copiedRange])
        #expect(result.reason.contains("ABS_Y"))
        #expect(result.findings[1].finding == "ABS_MT_PRESSURE declares 0..1983, exactly ABS_Y's range")
    }

    @Test func aNaturalFullScaleSharedWithAPositionAxisIsNotCopied() {
        // 0..255 is an 8-bit sensor's full scale: a touchscreen may use it for position and pressure alike.
        var device = Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 255))
        device.axes[.mtPositionX] = AxisInfo(minimum: 0, maximum: 255)
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .contactSize)
        #expect(!result.findingCodes.contains(.copiedRange))
    }

    @Test func aPenWithOnlyBTNStylusIsAPen() {
        // Some UC-Logic and Huion tablets have no BTN_TOOL_PEN; udev's input_id calls them tablets by BTN_STYLUS.
        let result = DeviceClassifier.classify(Self.pen(keys: [.btnTouch, .btnStylus]))
        #expect(result.sensing == .force)
        #expect(result.pressureAxis == .pressure)
        #expect(result.findingCodes == [.pressureAxis, .pen])
        #expect(result.findings[1].finding.contains("BTN_STYLUS without BTN_TOOL_PEN"))
        #expect(result.findings[0].finding == "ABS_PRESSURE 0..8191, no resolution")
        var withoutPressure = Self.pen(keys: [.btnStylus])
        withoutPressure.axes[.pressure] = nil
        #expect(DeviceClassifier.classify(withoutPressure).reason.hasPrefix("Pen tablet reports no pressure axis"))
    }

    @Test func aPenWithBTNToolPenIsStillAPen() {
        let result = DeviceClassifier.classify(Self.pen(keys: [.btnToolPen, .btnTouch]))
        #expect(result.sensing == .force)
        #expect(result.findings.last?.finding.contains("BTN_TOOL_PEN") == true)
    }

    @Test func aTouchscreenWithoutStylusIsNotAPen() {
        let result = DeviceClassifier.classify(Self.pen(keys: [.btnTouch]))
        #expect(result.sensing == .contactSize)
        #expect(result.findingCodes == [.pressureAxis, .presumedContactSize])
    }

    @Test func semiMultitouchIsFlaggedAndKeepsItsSensing() {
        // The Cypress trackpad of the public fixtures: BUTTONPAD, SEMI_MT, pressure 0..255.
        let result = DeviceClassifier.classify(Sample.multitouch(properties: [.buttonpad, .semiMT]))
        #expect(result.semiMultitouch)
        #expect(result.sensing == .contactSize)
        #expect(result.findingCodes.first == .semiMultitouch)
        #expect(!DeviceClassifier.classify(Sample.multitouch()).semiMultitouch)
    }

    @Test func aSemiMultitouchFrameIsOneContact() {
        let frame = ContactFrame(
            time: EventTime(microseconds: 5),
            contacts: [
                ContactSample(id: 3, slot: 0, x: 1000, y: 400, pressure: 40),
                ContactSample(id: 4, slot: 1, x: 2000, y: 800, pressure: 52),
            ]
        )
        let merged = frame.mergingBoundingBox()
        #expect(merged.contacts == [ContactSample(id: 3, slot: 0, x: 1500, y: 600, pressure: 52)])
        #expect(merged.time == frame.time)
        let single = ContactFrame(time: .zero, contacts: [ContactSample(id: 1, pressure: 9)])
        #expect(single.mergingBoundingBox() == single)
    }

    @Test func fakeMultitouchIsNotMultitouch() {
        // A device that claims every absolute axis sets 0x2e (ABS_MT_SLOT - 1): libevdev's fake multitouch.
        var axes: [AbsoluteAxis: AxisInfo] = [:]
        for code in UInt16(0)...0x3d { axes[AbsoluteAxis(rawValue: code)] = AxisInfo(minimum: 0, maximum: 1023) }
        axes[.pressure] = AxisInfo(minimum: 0, maximum: 511)
        // A literal: the test is about exactly these axes (every code up to 0x3d, as libevdev's fake multitouch).
        let device = DeviceDescription(
            path: "/dev/input/event4",
            identity: DeviceIdentity(bus: 3, vendor: 0x1234, product: 0x5678, version: 1, name: "Claims All Axes"),
            codes: [.key: [KeyCode.btnTouch.rawValue]],
            axes: axes
        )
        #expect(device.hasFakeMultitouch)
        #expect(device.slotCount == nil)
        #expect(device.contactProtocol == .singleTouch)
        #expect(device.pressureAxis == .pressure)
        let result = DeviceClassifier.classify(device)
        #expect(result.pressureAxis == .pressure)
        #expect(result.findingCodes.first == .fakeMultitouch)
        // Single touch: no "no touch major" finding for axes that are not multitouch.
        #expect(!result.findingCodes.contains(.noTouchMajor))
        #expect(!Sample.multitouch().hasFakeMultitouch)
    }

    @Test func aFakeMultitouchDeviceWithOnlyMTPressureHasNoPressureAxis() {
        var device = Sample.multitouch(pressure: nil)
        device.axes[.mtPressure] = AxisInfo(minimum: 0, maximum: 255)
        device.axes[AbsoluteAxis(rawValue: 0x2e)] = AxisInfo(minimum: 0, maximum: 1)
        device.codes[.abs, default: []].formUnion([0x2e, AbsoluteAxis.mtPressure.rawValue])
        let result = DeviceClassifier.classify(device)
        #expect(result.sensing == .none)
        #expect(result.findingCodes == [.fakeMultitouch, .noPressureAxis])
    }

    @Test func aMissingTouchMajorIsNoted() {
        let result = DeviceClassifier.classify(Sample.multitouch())
        #expect(result.findingCodes == [.pressureAxis, .noTouchMajor, .presumedContactSize])
        var withMajor = Sample.multitouch()
        withMajor.axes[.mtTouchMajor] = AxisInfo(minimum: 0, maximum: 30)
        #expect(DeviceClassifier.classify(withMajor).findingCodes == [.pressureAxis, .presumedContactSize])
    }

    @Test func legacyPressureOnAMultitouchDeviceIsNoted() {
        var device = Sample.multitouch(pressure: nil)
        device.axes[.pressure] = AxisInfo(minimum: 0, maximum: 255)
        let result = DeviceClassifier.classify(device)
        #expect(result.pressureAxis == .pressure)
        #expect(result.findingCodes.contains(.legacyPressureOnly))
    }

    @Test func everyVerdictLeavesItsDecidingFinding() {
        let grams = DeviceClassifier.classify(
            Sample.multitouch(pressure: AxisInfo(minimum: 0, maximum: 4000, resolution: 10))
        )
        #expect(grams.findingCodes.last == .pressureResolution)
        #expect(grams.findings.first?.implication == "full scale is about 400 g")
        let pad = DeviceClassifier.classify(Sample.multitouch(properties: [.pointer, .buttonpad, .pressurepad]))
        #expect(pad.findingCodes.last == .pressurePad)
        let magic = DeviceClassifier.classify(Sample.multitouch(vendor: 0x05ac, product: 0x0265))
        #expect(magic.findingCodes.last == .knownForceSensor)
        let none = DeviceClassifier.classify(Sample.multitouch(pressure: nil))
        #expect(none.findingCodes == [.noPressureAxis])
        // A Magic Trackpad 2 that is also marked a pressure pad: both findings, one verdict.
        let both = DeviceClassifier.classify(
            Sample.multitouch(vendor: 0x05ac, product: 0x0265, properties: [.pointer, .pressurepad])
        )
        #expect(both.findingCodes.suffix(2) == [.pressurePad, .knownForceSensor])
        #expect(both.reason.contains("INPUT_PROP_PRESSUREPAD"))
        for result in [grams, pad, magic, none] {
            #expect(result.findings.allSatisfy { !$0.finding.isEmpty && !$0.implication.isEmpty })
        }
    }
}
