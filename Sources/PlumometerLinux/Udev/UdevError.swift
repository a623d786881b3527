import Glibc

/// A libudev call failed.
///
/// libudev reports failure as NULL with `errno` set, or as a negative errno; both end up here, once, in
/// `UdevError.check`.
public struct UdevError: Error, CustomStringConvertible, Sendable {
    /// The libudev function that failed, for example `udev_enumerate_scan_devices`.
    public var function: String
    /// The error number (positive).
    public var errno: Int32
    /// What we were doing, for the message: a syspath, a subsystem, "udev".
    public var subject: String

    public init(function: String, errno: Int32, subject: String) {
        self.function = function
        self.errno = errno
        self.subject = subject
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        let fix: String
        switch errno {
        case ENOENT, ENODEV:
            fix = "is /sys mounted and does this system run udev (systemd-udevd)?"
        case EACCES, EPERM:
            fix = "the udev netlink socket or /sys is not readable for this user."
        case ENOMEM:
            fix = "the system is out of memory."
        default:
            fix = "check that udev works with `udevadm info --export-db | head`."
        }
        return "\(function) failed for \(subject): \(reason) (errno \(errno)); \(fix)"
    }

    /// Turns a libudev NULL return into a throw, reading `errno` right away.
    static func nonNull<T>(_ value: T?, _ function: String, _ subject: String) throws(UdevError) -> T {
        if let value { return value }
        let code = Glibc.errno
        throw UdevError(function: function, errno: code == 0 ? ENOMEM : code, subject: subject)
    }

    /// Turns a libudev negative-errno return into a throw.
    static func check(_ result: Int32, _ function: String, _ subject: String) throws(UdevError) {
        if result < 0 { throw UdevError(function: function, errno: -result, subject: subject) }
    }
}
