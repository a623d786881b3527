import Foundation
import PlumometerCore

/// A calibration profile found for a device: the fit, the file it came from and when it was made.
struct Profile {
    /// The fit of grams against pressure.
    let calibration: Calibration
    /// The file the profile was read from.
    let path: String
    /// When the profile was made (`2026-12-01T10:02:03Z`), nil for a profile saved before dates were kept.
    let made: String?

    /// `made 2026-12-01T10:02:03Z`, or `date made unknown`.
    var madeText: String { made.map { "made \($0)" } ?? "date made unknown" }
}

/// Calibration profiles on disk: JSON under `$XDG_CONFIG_HOME/plumometer/` (default `~/.config/plumometer/`),
/// one file per device identity, so a device's calibration follows it to any `/dev/input/eventN`.
///
/// A profile changes every gram a device reads, so it is never applied silently: whoever applies one says so on
/// stderr (``announce(_:)``), and the outputs name it (the `device` record's `profile`, the text header, the live
/// view's device line). A profile is a ``Calibration`` plus a `made` date (ISO 8601, UTC) kept beside its keys.
enum ProfileStore {
    /// The key of the date a profile was made, beside the calibration's own keys.
    static let madeKey = "made"

    /// The directory profiles live in.
    static var directory: String {
        let environment = ProcessInfo.processInfo.environment
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return base + "/plumometer"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/plumometer"
    }

    /// `05-05ac-0265-apple-inc-magic-trackpad.json`: readable, and unique per identity.
    static func fileName(for identity: DeviceIdentity) -> String {
        let hex = { (value: UInt16) -> String in
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, 4 - text.count)) + text
        }
        var slug = ""
        for character in identity.name.lowercased() {
            if character.isLetter || character.isNumber, character.isASCII {
                slug.append(character)
            } else if !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return [hex(identity.bus), hex(identity.vendor), hex(identity.product), slug].joined(separator: "-") + ".json"
    }

    /// Where the profile of a device identity is saved and looked for.
    static func defaultPath(for identity: DeviceIdentity) -> String {
        directory + "/" + fileName(for: identity)
    }

    /// Loads a profile file; decoding refuses a fit that ``Calibration/validate()`` refuses.
    /// - Throws: ``CLIError`` naming the file when it cannot be read or is not a usable profile.
    static func load(path: String) throws -> Profile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.runtime(
                "cannot read profile \(path): no such file or not readable. Check the path, or run 'plumometer calibrate' to make one."
            )
        }
        do {
            let calibration = try JSONDecoder().decode(Calibration.self, from: data)
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            return Profile(calibration: calibration, path: path, made: object?[madeKey] as? String)
        } catch {
            throw CLIError.runtime(
                "\(path) is not a usable plumometer calibration profile (\(describe(error))). Make a new one with 'plumometer calibrate'."
            )
        }
    }

    /// The profile for a device: `--profile FILE` if given (refused when it does not apply), nothing with
    /// `--no-profile`, else the saved profile for the device's identity (ignored with a note when it is damaged or
    /// does not apply), else nil. A profile found is announced on stderr.
    static func profile(
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
                throw CLIError.runtime("profile \(explicitPath) does not apply to \(description.path): \(error)")
            }
            announce(profile)
            return profile
        }
        if ignoreSaved { return nil }
        let path = defaultPath(for: description.identity)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
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
            Diagnostics.note("ignoring saved profile \(path): \(error)")
            return nil
        }
        announce(profile)
        return profile
    }

    /// The calibration for a device, as ``profile(for:explicitPath:ignoreSaved:)`` finds it.
    static func calibration(for description: DeviceDescription, explicitPath: String?) throws -> (Calibration, String)?
    {
        try profile(for: description, explicitPath: explicitPath).map { ($0.calibration, $0.path) }
    }

    /// Says on stderr that a profile changes grams: which file, and when it was made.
    static func announce(_ profile: Profile) {
        Diagnostics.note(
            "grams from the calibration profile \(profile.path) (\(profile.madeText)); --no-profile reads without it"
        )
    }

    /// Saves `calibration` to `path` (creating plumometer's own directory), atomically, with the date it was made.
    static func save(_ calibration: Calibration, to path: String, made: Date = Date()) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let directory = (path as NSString).deletingLastPathComponent
        do {
            // Only plumometer's own directory is created; a path the user names must lead somewhere that exists.
            if directory == Self.directory {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            var object = try JSONSerialization.jsonObject(with: encoder.encode(calibration)) as? [String: Any] ?? [:]
            object[madeKey] = ISO8601DateFormatter().string(from: made)
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError.runtime(
                "cannot save profile to \(path): \(describe(error)). Choose another place with --output."
            )
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .keyNotFound(let key, _): return "missing key '\(key.stringValue)'"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                return context.debugDescription
            @unknown default: return "\(decoding)"
            }
        }
        return (error as NSError).localizedDescription
    }
}
