import Glibc

/// A failure to open, grab or read an input device: what failed, on which node, why, and what to do about it.
///
/// Modelled on swift-nio's file-system errors: a small set of codes a caller can switch on, the path, the C
/// function that failed, its errno, and a one-sentence message for the user.
public struct DeviceError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What kind of failure this is, independent of the exact errno.
    public enum Code: String, Sendable, Hashable {
        /// `EACCES`/`EPERM`: the user may not read the node.
        case permissionDenied = "permission-denied"
        /// `ENOENT`/`ENXIO`: no such node, or a node without a device behind it.
        case notFound = "not-found"
        /// `ENODEV`: the device vanished (unplugged, driver unbound) while it was open.
        case gone
        /// `ENOTTY`/`EINVAL` from an evdev ioctl: the node is not an evdev input device.
        case notAnEvdevDevice = "not-an-evdev-device"
        /// `EBUSY` from `EVIOCGRAB`: another program has grabbed the device.
        case busy
        /// Anything else.
        case other
    }

    public var code: Code
    /// The device node (or, for the reader loop's own descriptors, a name such as `signalfd`).
    public var path: String
    /// The C function that failed, for example `open` or `libevdev_next_event`.
    public var function: String
    /// The errno the function reported.
    public var errno: Int32

    /// Creates an error with an explicit code.
    public init(code: Code, path: String, function: String, errno: Int32) {
        self.code = code
        self.path = path
        self.function = function
        self.errno = errno
    }

    /// Creates an error whose code follows from `errno` (see ``code(forErrno:function:)``).
    public init(path: String, function: String, errno: Int32) {
        self.init(code: Self.code(forErrno: errno, function: function), path: path, function: function, errno: errno)
    }

    /// The code that an errno from `function` means.
    ///
    /// `EBUSY` only means "grabbed by someone else" when it comes from the grab; `EINVAL` only means "not evdev"
    /// when it comes from the evdev ioctls libevdev issues while it reads the device's description.
    public static func code(forErrno errno: Int32, function: String) -> Code {
        switch errno {
        case EACCES, EPERM: return .permissionDenied
        case ENOENT, ENXIO: return .notFound
        case ENODEV: return .gone
        case ENOTTY: return .notAnEvdevDevice
        case EINVAL where function == "libevdev_new_from_fd": return .notAnEvdevDevice
        case EBUSY where function == "libevdev_grab": return .busy
        default: return .other
        }
    }

    /// The C library's text for ``errno``, for example "Permission denied".
    public var errnoText: String { String(cString: strerror(errno)) }

    /// One sentence: the path, what failed, and what the user can do.
    public var description: String {
        let reason = errnoText
        switch code {
        case .permissionDenied:
            return "cannot open \(path): \(reason). Install udev/70-plumometer.rules (see docs/permissions.md) "
                + "or run as root."
        case .notFound:
            return "cannot open \(path): \(reason). Run 'plumometer list' to see the input devices present."
        case .gone:
            return "\(path) is gone (\(function): \(reason)): the device was unplugged or its driver unbound; "
                + "reconnect it and start again."
        case .notAnEvdevDevice:
            return "\(path) is not an evdev input device (\(function): \(reason)). Pass a /dev/input/eventN node."
        case .busy:
            return "cannot grab \(path): \(reason). Another program holds it; close that program or run "
                + "without --grab."
        case .other:
            return "\(function) failed on \(path): \(reason) (errno \(errno))."
        }
    }
}
