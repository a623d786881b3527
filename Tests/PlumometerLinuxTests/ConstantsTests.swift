import CLibevdev
import PlumometerCore
import Testing

/// The core's own vocabulary must equal the kernel's values (linux/input-event-codes.h) and libevdev's names.
struct ConstantsTests {
    @Test func eventTypesMatchTheKernel() {
        let pairs: [(EventType, Int32)] = [
            (.syn, EV_SYN), (.key, EV_KEY), (.rel, EV_REL), (.abs, EV_ABS), (.msc, EV_MSC), (.sw, EV_SW),
            (.led, EV_LED), (.snd, EV_SND), (.rep, EV_REP), (.ff, EV_FF), (.pwr, EV_PWR), (.ffStatus, EV_FF_STATUS),
            (.max, EV_MAX),
        ]
        for (type, value) in pairs {
            #expect(Int32(type.rawValue) == value)
            if type != .max {
                #expect(type.name == String(cString: libevdev_event_type_get_name(UInt32(value))))
            }
        }
    }

    @Test func synCodesMatchTheKernel() {
        #expect(Int32(SynCode.report.rawValue) == SYN_REPORT)
        #expect(Int32(SynCode.config.rawValue) == SYN_CONFIG)
        #expect(Int32(SynCode.mtReport.rawValue) == SYN_MT_REPORT)
        #expect(Int32(SynCode.dropped.rawValue) == SYN_DROPPED)
    }

    @Test func absoluteAxesMatchTheKernel() {
        let pairs: [(AbsoluteAxis, Int32)] = [
            (.x, ABS_X), (.y, ABS_Y), (.pressure, ABS_PRESSURE), (.distance, ABS_DISTANCE), (.tiltX, ABS_TILT_X),
            (.tiltY, ABS_TILT_Y), (.toolWidth, ABS_TOOL_WIDTH), (.misc, ABS_MISC), (.mtSlot, ABS_MT_SLOT),
            (.mtTouchMajor, ABS_MT_TOUCH_MAJOR), (.mtTouchMinor, ABS_MT_TOUCH_MINOR),
            (.mtWidthMajor, ABS_MT_WIDTH_MAJOR), (.mtWidthMinor, ABS_MT_WIDTH_MINOR),
            (.mtOrientation, ABS_MT_ORIENTATION), (.mtPositionX, ABS_MT_POSITION_X),
            (.mtPositionY, ABS_MT_POSITION_Y), (.mtToolType, ABS_MT_TOOL_TYPE), (.mtBlobID, ABS_MT_BLOB_ID),
            (.mtTrackingID, ABS_MT_TRACKING_ID), (.mtPressure, ABS_MT_PRESSURE), (.mtDistance, ABS_MT_DISTANCE),
            (.mtToolX, ABS_MT_TOOL_X), (.mtToolY, ABS_MT_TOOL_Y), (.max, ABS_MAX),
        ]
        for (axis, value) in pairs {
            #expect(Int32(axis.rawValue) == value, "\(axis.name)")
            if axis != .max {
                #expect(axis.name == String(cString: libevdev_event_code_get_name(UInt32(EV_ABS), UInt32(value))))
            }
        }
        // isMultitouch is exactly ABS_MT_SLOT ... ABS_MT_TOOL_Y.
        for code in 0...UInt16(ABS_MAX) {
            let expected = Int32(code) >= ABS_MT_SLOT && Int32(code) <= ABS_MT_TOOL_Y
            #expect(AbsoluteAxis(rawValue: code).isMultitouch == expected)
        }
    }

    @Test func keyCodesMatchTheKernel() {
        let pairs: [(KeyCode, Int32)] = [
            (.keyEsc, KEY_ESC), (.keyA, KEY_A), (.keySpace, KEY_SPACE), (.btnLeft, BTN_LEFT), (.btnRight, BTN_RIGHT),
            (.btnMiddle, BTN_MIDDLE), (.btnToolPen, BTN_TOOL_PEN), (.btnToolRubber, BTN_TOOL_RUBBER),
            (.btnToolFinger, BTN_TOOL_FINGER), (.btnToolQuinttap, BTN_TOOL_QUINTTAP), (.btnTouch, BTN_TOUCH),
            (.btnStylus, BTN_STYLUS), (.btnToolDoubletap, BTN_TOOL_DOUBLETAP),
            (.btnToolTripletap, BTN_TOOL_TRIPLETAP), (.btnToolQuadtap, BTN_TOOL_QUADTAP), (.max, KEY_MAX),
        ]
        for (key, value) in pairs {
            #expect(Int32(key.rawValue) == value)
        }
    }

    @Test func inputPropertiesMatchTheKernel() {
        let pairs: [(InputProperty, Int32)] = [
            (.pointer, INPUT_PROP_POINTER), (.direct, INPUT_PROP_DIRECT), (.buttonpad, INPUT_PROP_BUTTONPAD),
            (.semiMT, INPUT_PROP_SEMI_MT), (.topButtonpad, INPUT_PROP_TOPBUTTONPAD),
            (.pointingStick, INPUT_PROP_POINTING_STICK), (.accelerometer, INPUT_PROP_ACCELEROMETER),
            (.max, INPUT_PROP_MAX),
        ]
        for (property, value) in pairs {
            #expect(Int32(property.rawValue) == value)
            if property != .max {
                #expect(property.name == String(cString: libevdev_property_get_name(UInt32(value))))
            }
        }
        // INPUT_PROP_PRESSUREPAD (kernel 6.4) is missing from Debian 12's headers: it is the bit after
        // INPUT_PROP_ACCELEROMETER, 0x07.
        #expect(Int32(InputProperty.pressurepad.rawValue) == INPUT_PROP_ACCELEROMETER + 1)
        #expect(InputProperty.pressurepad.rawValue == 0x07)
    }

    @Test func busTypesMatchTheKernel() {
        let pairs: [(BusType, Int32)] = [
            (.usb, BUS_USB), (.bluetooth, BUS_BLUETOOTH), (.virtual, BUS_VIRTUAL), (.i8042, BUS_I8042),
            (.i2c, BUS_I2C), (.host, BUS_HOST), (.spi, BUS_SPI), (.rmi, BUS_RMI),
        ]
        for (bus, value) in pairs {
            #expect(Int32(bus.rawValue) == value)
        }
    }
}
