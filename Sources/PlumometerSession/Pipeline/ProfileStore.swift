public import PlumometerCore
import PlumometerOutput

/// A calibration profile found for a device: the fit, the file it came from and when it was made.
public struct Profile {
    /// The fit of grams against pressure.
    public let calibration: Calibration
    /// The file the profile was read from.
    public let path: String
    /// When the profile was made (`2026-12-01T10:02:03Z`), nil for a profile saved before dates were kept.
    public let made: String?

    /// `made 2026-12-01T10:02:03Z`, or `date made unknown`.
    public var madeText: String { made.map { "made \($0)" } ?? "date made unknown" }
}

/// Calibration profiles on disk: JSON under `$XDG_CONFIG_HOME/plumometer/` (default `~/.config/plumometer/`),
/// one file per device identity, so a device's calibration follows it to any `/dev/input/eventN`.
///
/// A profile changes every gram a device reads, so it is never applied silently: whoever applies one says so on
/// stderr (``announce(_:)``), and the outputs name it (the `device` record's `profile`, the text header, the live
/// view's device line). A profile is a ``Calibration`` plus a `made` date (ISO 8601, UTC) kept beside its keys.
public enum ProfileStore {
    /// The key of the date a profile was made, beside the calibration's own keys.
    public static let madeKey = "made"

    /// The directory profiles live in.
    public static var directory: String {
        if let base = Runtime.current.files.environment("XDG_CONFIG_HOME"), base.hasPrefix("/") {
            return base + "/plumometer"
        }
        let home = Runtime.current.files.homeDirectory
        return home + "/.config/plumometer"
    }

    /// `05-05ac-0265-apple-inc-magic-trackpad.json`: readable, and unique per identity.
    public static func fileName(for identity: DeviceIdentity) -> String {
        let hex = { (value: UInt16) -> String in
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, 4 - text.count)) + text
        }
        return [hex(identity.bus), hex(identity.vendor), hex(identity.product), slug(identity.name)]
            .joined(separator: "-") + ".json"
    }

    /// The name lowercased, ASCII letters and digits kept and every other run of characters one `-`, none at the end
    /// (one at the start when the name starts with neither).
    static func slug(_ name: String) -> String {
        var slug = ""
        func dash() { if slug.utf8.last != UInt8(ascii: "-") { slug.append("-") } }
        // An ASCII name, which device names nearly always are, byte by byte: the same result as the general case
        // below, which looks every character's Unicode properties up, at half its cost (20k instructions fewer on
        // the way to the first record, callgrind).
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in name.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    slug.unicodeScalars.append(Unicode.Scalar(byte))
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    slug.unicodeScalars.append(Unicode.Scalar(byte + 0x20))
                default:
                    dash()
                }
            }
        } else {
            for character in name.lowercased() {
                if character.isLetter || character.isNumber, character.isASCII {
                    slug.append(character)
                } else {
                    dash()
                }
            }
        }
        while slug.utf8.last == UInt8(ascii: "-") { slug.removeLast() }
        return slug
    }

    /// Where the profile of a device identity is saved and looked for.
    public static func defaultPath(for identity: DeviceIdentity) -> String {
        directory + "/" + fileName(for: identity)
    }

    /// The largest profile read: one holds a few hundred bytes.
    public static let maximumProfileSize = 1 << 20

    /// Loads a profile file; decoding refuses a fit that ``Calibration/validate()`` refuses.
    /// - Throws: ``CommandFailure`` (the cause kept whole) or ``CLIError``, naming the file, when it cannot be read
    ///   or is not a usable profile.
    public static func load(path: String) throws -> Profile {
        let data: [UInt8]
        do {
            data = try Runtime.current.files.readSmall(path, limit: maximumProfileSize)
        } catch let error as FileRefusal {
            throw CommandFailure("cannot read profile: ", cause: error, ".")
        } catch {
            throw CLIError.runtime(
                "cannot read profile \(path): no such file or not readable. Check the path, or run 'plumometer calibrate' to make one."
            )
        }
        do {
            let calibration = try Calibration(json: data)
            return Profile(calibration: calibration, path: path, made: Calibration.madeDate(inJSON: data))
        } catch {
            throw CommandFailure(
                "\(path) is not a usable plumometer calibration profile (",
                cause: error,
                "). Make a new one with 'plumometer calibrate'."
            )
        }
    }

    /// The profile for a device: `--profile FILE` if given (refused when it does not apply), nothing with
    /// `--no-profile`, else the saved profile for the device's identity (ignored with a note when it is damaged or
    /// does not apply), else nil. A profile found is announced on stderr.
    public static func profile(
        for description: DeviceDescription,
        explicitPath: String?,
        ignoreSaved: Bool = false
    ) throws -> Profile? {
        let range = description.pressureRange ?? AxisInfo(minimum: 0, maximum: 0)
        if let explicitPath {
            let profile = try load(path: explicitPath)
            do {
                try profile.calibration.checkApplies(to: description.identity, pressureRange: range)
            } catch {
                // Names from the profile and the device are escaped, as in every message.
                throw CommandFailure(
                    "profile \(explicitPath) does not apply to \(description.path): ",
                    cause: error,
                    quotesNames: true
                )
            }
            announce(profile)
            return profile
        }
        if ignoreSaved { return nil }
        let path = defaultPath(for: description.identity)
        guard Runtime.current.files.exists(path) else { return nil }
        // A saved profile the user did not name must not stop a background reader: say so, and read without it.
        let profile: Profile
        do {
            profile = try load(path: path)
        } catch {
            Diagnostics.error("ignoring the saved profile: \(error)")
            return nil
        }
        do {
            try profile.calibration.checkApplies(to: description.identity, pressureRange: range)
        } catch {
            Diagnostics.note("ignoring saved profile \(path): \(error)".forTerminalName)
            return nil
        }
        announce(profile)
        return profile
    }

    /// Says on stderr that a profile changes grams: which file, and when it was made.
    public static func announce(_ profile: Profile) {
        Diagnostics.note(
            "grams from the calibration profile \(profile.path) (\(profile.madeText)"
                + (profile.calibration.measuresContactArea
                    ? ", made with --allow-contact-size: contact area, not weight" : "")
                + "); --no-profile reads without it"
        )
    }

    /// Saves `calibration` to `path` (creating plumometer's own directory), atomically, with the date it was made
    /// (ISO 8601, UTC; now, from the system clock, unless given); `-` writes it on standard output.
    public static func save(_ calibration: Calibration, to path: String, made: String? = nil) throws {
        if path == "-" {
            let made = made ?? UTCTime.iso8601(microseconds: MonotonicClock.realtime().microseconds, fractionDigits: 0)
            try StandardOutput.write(try calibration.jsonText(made: made))
            return
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        do {
            // Only plumometer's own directory is created; a path the user names must lead somewhere that exists.
            if directory == Self.directory {
                try Runtime.current.files.createDirectories(directory)
            }
            let made = made ?? UTCTime.iso8601(microseconds: MonotonicClock.realtime().microseconds, fractionDigits: 0)
            try Runtime.current.files.replaceAtomically(path, with: try calibration.jsonText(made: made))
        } catch {
            throw CommandFailure(
                "cannot save profile to \(path): ",
                cause: error,
                ". Choose another place with --output."
            )
        }
    }
}
