import Glibc
import PlumometerCore

/// Why plumometer refuses to open an input node: decided from udev and sysfs, before any `open()`.
public struct OpenRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of refusal.
    public enum Code: String, Hashable, Sendable {
        /// The node is a keyboard (udev says so, or its capability bits have the typewriter keys).
        case keyboard
        /// The node is a kernel input device whose capabilities cannot be read, so it could be a keyboard.
        case unverifiable
    }

    /// The kind of refusal.
    public var code: Code
    /// The node as the user named it.
    public var path: String
    /// The evidence, in a clause: "udev tags it ID_INPUT_KEYBOARD".
    public var reason: String

    /// Creates a refusal.
    public init(code: Code, path: String, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// The message for stderr: what, why, and what to do instead.
    public var description: String {
        switch code {
        case .keyboard:
            "\(path) is a keyboard (\(reason)); plumometer never opens keyboards, since it could read keystrokes. "
                + "Choose a touchpad, touchscreen or pen tablet: `plumometer list --all` says why each node is skipped."
        case .unverifiable:
            "\(path) is an input device whose capabilities cannot be read (\(reason)), so it could be a keyboard, "
                + "and plumometer never opens keyboards. Check that /sys is mounted (/sys/class/input)."
        }
    }
}

/// The one rule for every path that leads to opening an input node (list, auto mode, `-d`, hotplug, record,
/// probe, calibrate): keyboards are never opened.
///
/// A node is a keyboard when udev tags it `ID_INPUT_KEYBOARD`, or when its capability bits have what udev's
/// input_id builtin calls a keyboard (systemd's src/udev/udev-builtin-input_id.c, `test_key`): `EV_KEY` with
/// every key code from `KEY_ESC` (1) to `KEY_S` (31), the first word of `capabilities/key` minus
/// `KEY_RESERVED`. The bits are read as well as the properties because udev may not have run (containers, early
/// boot, no udevd), and a node that is a keyboard and a touchpad at once is still a keyboard. Nothing here opens
/// the node: the properties come from the udev database and the bits from sysfs.
public enum OpenGuard {
    /// `KEY_ESC` through `KEY_S`: the typewriter keys input_id requires of a keyboard.
    public static let typewriterKeys: ClosedRange<Int> = 1...31

    /// `INPUT_MAJOR`: the character major of `/dev/input/*`.
    static let inputMajor: UInt64 = 13

    /// Why `node` is a keyboard, or nil when neither udev nor its capability bits say so.
    ///
    /// - Parameter node: The node as udev and sysfs describe it.
    /// - Returns: A clause naming the evidence.
    public static func keyboardEvidence(_ node: UdevInputNode) -> String? {
        if node.properties["ID_INPUT_KEYBOARD"] == "1" {
            return "udev tags it ID_INPUT_KEYBOARD"
        }
        guard let keyText = node.keyCapabilities, let keys = DiscoveryPrefilter.capabilityBits(keyText) else {
            return nil
        }
        let events = node.eventCapabilities.flatMap { DiscoveryPrefilter.capabilityBits($0) }
        let hasKeyEvents = events.map { $0.contains(Int(EventType.key.rawValue)) } ?? true
        guard hasKeyEvents, typewriterKeys.allSatisfy({ keys.contains($0) }) else { return nil }
        return "its capabilities/key has every key from KEY_ESC to KEY_S, udev's test for a keyboard"
    }

    /// The refusal for `node`, or nil when it may be opened.
    public static func refusal(for node: UdevInputNode) -> OpenRefusal? {
        guard let evidence = keyboardEvidence(node) else { return nil }
        return OpenRefusal(code: .keyboard, path: node.devnode ?? node.sysname, reason: evidence)
    }

    /// Decides whether the node at `path` (any path: `/dev/input/eventN`, a `by-id` or `by-path` link) may be
    /// opened, before opening it: the check for `-d`, record, probe and calibrate.
    ///
    /// The path is resolved (its symbolic links followed) to its node; an input character device (major 13, or named `event*`) is
    /// looked up in udev and sysfs by its name. Paths that are not (a FIFO or a file a test feeds, another
    /// character device) cannot deliver keystrokes and pass, as does a path that does not exist: the open fails
    /// with its own error. An input node that udev and sysfs do not know is refused, since it cannot be shown not
    /// to be a keyboard.
    ///
    /// The corresponding C functions are `stat(2)` and `udev_device_new_from_subsystem_sysname`.
    /// - Returns: The refusal, or nil when the node may be opened.
    public static func check(path: String) -> OpenRefusal? {
        let resolved = resolvingLinks(path)
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else { return nil }
        let sysname = resolved.split(separator: "/").last.map(String.init) ?? resolved
        let major = (UInt64(status.st_rdev) >> 8) & 0xfff
        guard major == inputMajor || sysname.hasPrefix("event") else { return nil }
        let node: UdevInputNode?
        do throws(UdevError) {
            node = try UdevContext().inputNode(sysname: sysname)
        } catch {
            node = nil
        }
        guard let node else {
            return OpenRefusal(
                code: .unverifiable,
                path: path,
                reason: "/sys/class/input/\(sysname) is not there"
            )
        }
        return refusal(for: node).map { OpenRefusal(code: $0.code, path: path, reason: $0.reason) }
    }

    /// `path` with its symbolic links followed (at most 40, as the kernel allows), lexically: enough to name the
    /// node a `/dev/input/by-id` link points to.
    ///
    /// Not `realpath(3)`: umockdev's preload library, under which the tests run, returns an empty result for
    /// `/dev` paths. The corresponding C functions are `lstat(2)` and `readlink(2)`.
    static func resolvingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX))
            let count = buffer.withUnsafeMutableBufferPointer { pointer in
                pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) {
                    readlink(current, $0, pointer.count)
                }
            }
            guard count > 0 else { return current }
            let target = String(decoding: buffer[0..<count], as: UTF8.self)
            let directory = current.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            current = target.hasPrefix("/") ? target : normalized(directory.joined(separator: "/") + "/" + target)
        }
        return current
    }

    /// `path` with `.` and `..` components removed.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
