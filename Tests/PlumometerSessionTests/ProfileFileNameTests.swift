import PlumometerCore
import PlumometerSession
import Testing

/// A profile's file name is where a saved calibration is found again, so it must not change from one version to the
/// next: the name's slug takes a byte path for ASCII names (the start-up cost of the first record) that must give
/// exactly what the general, character by character rule gives.
@Suite
struct ProfileFileNameTests {
    /// The rule as first written: lowercased characters, ASCII letters and digits kept, any other run one `-`.
    static func generalSlug(_ name: String) -> String {
        var slug = ""
        for character in name.lowercased() {
            if character.isLetter || character.isNumber, character.isASCII {
                slug.append(character)
            } else if !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }

    static func fileName(_ name: String) -> String {
        ProfileStore.fileName(for: DeviceIdentity(bus: 3, vendor: 0x5ac, product: 0x265, version: 0x110, name: name))
    }

    @Test
    func knownNamesKeepTheirFileNames() {
        #expect(Self.fileName("Apple Inc. Magic Trackpad 2") == "0003-05ac-0265-apple-inc-magic-trackpad-2.json")
        #expect(
            Self.fileName("  SYNA2B31:00 06CB:CD3E Touchpad  ") == "0003-05ac-0265--syna2b31-00-06cb-cd3e-touchpad.json"
        )
        #expect(Self.fileName("Wacom Intuos Pro M Pen") == "0003-05ac-0265-wacom-intuos-pro-m-pen.json")
        #expect(Self.fileName("") == "0003-05ac-0265-.json")
        #expect(Self.fileName("Élan Touchpad ñ 2") == "0003-05ac-0265--lan-touchpad-2.json")
        // The Kelvin sign lowercases to an ASCII k: only the general rule sees it.
        #expect(Self.fileName("\u{212A}eyboard-free pad") == "0003-05ac-0265-keyboard-free-pad.json")
    }

    @Test
    func everyASCIINameGivesWhatTheGeneralRuleGives() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
        for length in 0..<40 {
            for _ in 0..<50 {
                let name = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
                #expect(
                    Self.fileName(name) == "0003-05ac-0265-" + Self.generalSlug(name) + ".json",
                    "\(name.debugDescription)"
                )
            }
        }
        for name in ["Apple\r\nTrackpad", "a\u{0}b", "--x--", "A-B_C.D", "\t\u{7f}Z9"] {
            #expect(Self.fileName(name) == "0003-05ac-0265-" + Self.generalSlug(name) + ".json")
        }
    }
}
