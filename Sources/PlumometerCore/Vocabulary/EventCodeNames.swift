/// The kernel's names of the event codes a pointing device uses (linux/input-event-codes.h), for messages and for
/// `plumometer describe`: `BTN_TOUCH`, not `0x14a`.
///
/// Only the codes of touchpads, touchscreens, tablets and mice are named (keyboards are never opened); any other
/// code is written as the type's prefix and the number, `KEY_0x1e`, which is still unambiguous.
public enum EventCodeName {
    /// The name of `code` of `type`: `ABS_MT_PRESSURE`, `BTN_TOUCH`, `MSC_TIMESTAMP`, `SYN_REPORT`, or `KEY_0x1e`.
    public static func name(type: EventType, code: UInt16) -> String {
        switch type {
        case .abs: return AbsoluteAxis(rawValue: code).name
        case .key: return KeyCode(rawValue: code).name
        case .syn: return table(synNames, code, prefix: "SYN_")
        case .rel: return table(relNames, code, prefix: "REL_")
        case .msc: return table(mscNames, code, prefix: "MSC_")
        case .sw: return "SW_0x" + String(code, radix: 16)
        case .led: return "LED_0x" + String(code, radix: 16)
        default: return (type.name ?? "EV_0x" + String(type.rawValue, radix: 16)) + " 0x" + String(code, radix: 16)
        }
    }

    private static func table(_ names: [UInt16: String], _ code: UInt16, prefix: String) -> String {
        names[code] ?? prefix + "0x" + String(code, radix: 16)
    }

    private static let synNames: [UInt16: String] = [
        0: "SYN_REPORT", 1: "SYN_CONFIG", 2: "SYN_MT_REPORT", 3: "SYN_DROPPED",
    ]

    private static let relNames: [UInt16: String] = [
        0x00: "REL_X", 0x01: "REL_Y", 0x02: "REL_Z", 0x03: "REL_RX", 0x04: "REL_RY", 0x05: "REL_RZ",
        0x06: "REL_HWHEEL", 0x07: "REL_DIAL", 0x08: "REL_WHEEL", 0x09: "REL_MISC", 0x0b: "REL_WHEEL_HI_RES",
        0x0c: "REL_HWHEEL_HI_RES",
    ]

    private static let mscNames: [UInt16: String] = [
        0x00: "MSC_SERIAL", 0x01: "MSC_PULSELED", 0x02: "MSC_GESTURE", 0x03: "MSC_RAW", 0x04: "MSC_SCAN",
        0x05: "MSC_TIMESTAMP",
    ]

    /// `BTN_*` names from 0x100 to 0x151, as the kernel spells the first alias of each.
    static let buttonNames: [UInt16: String] = [
        0x100: "BTN_0", 0x101: "BTN_1", 0x102: "BTN_2", 0x103: "BTN_3", 0x104: "BTN_4", 0x105: "BTN_5",
        0x106: "BTN_6", 0x107: "BTN_7", 0x108: "BTN_8", 0x109: "BTN_9",
        0x110: "BTN_LEFT", 0x111: "BTN_RIGHT", 0x112: "BTN_MIDDLE", 0x113: "BTN_SIDE", 0x114: "BTN_EXTRA",
        0x115: "BTN_FORWARD", 0x116: "BTN_BACK", 0x117: "BTN_TASK",
        0x120: "BTN_TRIGGER", 0x121: "BTN_THUMB", 0x122: "BTN_THUMB2", 0x123: "BTN_TOP", 0x124: "BTN_TOP2",
        0x125: "BTN_PINKIE", 0x126: "BTN_BASE", 0x127: "BTN_BASE2", 0x128: "BTN_BASE3", 0x129: "BTN_BASE4",
        0x12a: "BTN_BASE5", 0x12b: "BTN_BASE6", 0x12f: "BTN_DEAD",
        0x130: "BTN_SOUTH", 0x131: "BTN_EAST", 0x132: "BTN_C", 0x133: "BTN_NORTH", 0x134: "BTN_WEST",
        0x135: "BTN_Z", 0x136: "BTN_TL", 0x137: "BTN_TR", 0x138: "BTN_TL2", 0x139: "BTN_TR2", 0x13a: "BTN_SELECT",
        0x13b: "BTN_START", 0x13c: "BTN_MODE", 0x13d: "BTN_THUMBL", 0x13e: "BTN_THUMBR",
        0x140: "BTN_TOOL_PEN", 0x141: "BTN_TOOL_RUBBER", 0x142: "BTN_TOOL_BRUSH", 0x143: "BTN_TOOL_PENCIL",
        0x144: "BTN_TOOL_AIRBRUSH", 0x145: "BTN_TOOL_FINGER", 0x146: "BTN_TOOL_MOUSE", 0x147: "BTN_TOOL_LENS",
        0x148: "BTN_TOOL_QUINTTAP", 0x149: "BTN_STYLUS3", 0x14a: "BTN_TOUCH", 0x14b: "BTN_STYLUS",
        0x14c: "BTN_STYLUS2", 0x14d: "BTN_TOOL_DOUBLETAP", 0x14e: "BTN_TOOL_TRIPLETAP", 0x14f: "BTN_TOOL_QUADTAP",
        0x150: "BTN_GEAR_DOWN", 0x151: "BTN_GEAR_UP",
    ]
}

extension KeyCode {
    /// The kernel's name, for example `BTN_TOUCH`, or `KEY_0xNN` for a code this vocabulary does not name.
    public var name: String {
        if let name = EventCodeName.buttonNames[rawValue] { return name }
        if rawValue >= 0x2c0 && rawValue <= 0x2e7 { return "BTN_TRIGGER_HAPPY\(rawValue - 0x2c0 + 1)" }
        return "KEY_0x" + String(rawValue, radix: 16)
    }
}

extension AbsoluteAxis {
    /// What the axis' resolution counts: units per millimetre for positions and contact sizes, per gram for
    /// pressure (as plumometer reads it; the kernel documents no unit for pressure), nil for the rest (angles,
    /// distances without a documented unit, slots, ids).
    public var resolutionUnit: ResolutionUnit? {
        switch self {
        case .x, .y, .mtPositionX, .mtPositionY, .mtToolX, .mtToolY, .mtTouchMajor, .mtTouchMinor, .mtWidthMajor,
            .mtWidthMinor:
            .millimetre
        case .pressure, .mtPressure:
            .gram
        default:
            nil
        }
    }

    /// The unit of an axis' resolution.
    public enum ResolutionUnit: String, Sendable {
        /// Units per millimetre.
        case millimetre = "mm"
        /// Units per gram.
        case gram = "g"
    }
}
