import PlumometerCore
import PlumometerLinux

/// Calibration profiles on disk: JSON under `$XDG_CONFIG_HOME/plumometer/` (default `~/.config/plumometer/`),
/// one file per device identity, so a device's calibration follows it to any `/dev/input/eventN`.
enum ProfileStore {
    /// The directory profiles live in.
    static var directory: String {
        if let base = FileSystem.environment("XDG_CONFIG_HOME"), base.hasPrefix("/") {
            return base + "/plumometer"
        }
        let home = FileSystem.homeDirectory
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

    static func defaultPath(for identity: DeviceIdentity) -> String {
        directory + "/" + fileName(for: identity)
    }

    /// Loads a profile file.
    /// - Throws: ``CLIError`` naming the file when it cannot be read or is not a profile.
    static func load(path: String) throws -> Calibration {
        guard let data = try? Files.read(path) else {
            throw CLIError.runtime(
                "cannot read profile \(path): no such file or not readable. Check the path, or run 'plumometer calibrate' to make one."
            )
        }
        do {
            return try Calibration(json: data)
        } catch {
            throw CLIError.runtime(
                "\(path) is not a plumometer calibration profile (\(describe(error))). Make a new one with 'plumometer calibrate'."
            )
        }
    }

    /// The calibration for a device: `--profile FILE` if given (refused when it belongs to another device),
    /// else the saved profile for the device's identity, else nil.
    static func calibration(for description: DeviceDescription, explicitPath: String?) throws -> (Calibration, String)?
    {
        let range = description.pressureRange ?? AxisInfo(minimum: 0, maximum: 0)
        if let explicitPath {
            let calibration = try load(path: explicitPath)
            do {
                try calibration.checkApplies(to: description.identity, pressureRange: range)
            } catch {
                throw CLIError.runtime("profile \(explicitPath) does not apply to \(description.path): \(error)")
            }
            return (calibration, explicitPath)
        }
        let path = defaultPath(for: description.identity)
        guard FileSystem.exists(path) else { return nil }
        // A saved profile the user did not name must not stop a background reader: say so, and read without it.
        let calibration: Calibration
        do {
            calibration = try load(path: path)
        } catch {
            Diagnostics.error("ignoring the saved profile: \(error)")
            return nil
        }
        do {
            try calibration.checkApplies(to: description.identity, pressureRange: range)
        } catch {
            Diagnostics.note("ignoring saved profile \(path): \(error)")
            return nil
        }
        return (calibration, path)
    }

    /// Saves `calibration` to `path` (creating the directory), atomically.
    static func save(_ calibration: Calibration, to path: String) throws {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        do {
            // Only plumometer's own directory is created; a path the user names must lead somewhere that exists.
            if directory == Self.directory {
                try FileSystem.createDirectories(directory)
            }
            try FileSystem.replaceAtomically(path, with: try calibration.jsonText())
        } catch {
            throw CLIError.runtime(
                "cannot save profile to \(path): \(describe(error)). Choose another place with --output."
            )
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? CalibrationJSONError { return error.description }
        if let error = error as? OutputError { return "\(error.function): \(error.errnoText)" }
        return "\(error)"
    }
}
