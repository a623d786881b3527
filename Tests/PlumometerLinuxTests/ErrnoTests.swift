import Glibc
import PlumometerLinux
import Testing

/// The errno policy: which errno becomes which DeviceError code, and what the user is told.
struct ErrnoTests {
    @Test(arguments: [
        (EACCES, "open", DeviceError.Code.permissionDenied),
        (EPERM, "open", .permissionDenied),
        (ENOENT, "open", .notFound),
        (ENXIO, "open", .notFound),
        (ENODEV, "libevdev_next_event", .gone),
        (ENOTTY, "libevdev_new_from_fd", .notAnEvdevDevice),
        (EINVAL, "libevdev_new_from_fd", .notAnEvdevDevice),
        (EINVAL, "libevdev_next_event", .other),
        (EBUSY, "libevdev_grab", .busy),
        (EBUSY, "open", .other),
        (EIO, "libevdev_next_event", .other),
    ])
    func errnoMapsToACode(errno: Int32, function: String, code: DeviceError.Code) {
        #expect(DeviceError.code(forErrno: errno, function: function) == code)
        #expect(DeviceError(path: "/dev/input/event7", function: function, errno: errno).code == code)
    }

    @Test func permissionDeniedSaysHowToFixIt() {
        let error = DeviceError(path: "/dev/input/event7", function: "open", errno: EACCES)
        #expect(
            error.description
                == "cannot open /dev/input/event7: Permission denied. Install udev/70-plumometer.rules "
                + "(see docs/permissions.md) or run as root."
        )
        #expect(error.path == "/dev/input/event7")
        #expect(error.function == "open")
        #expect(error.errno == EACCES)
    }

    @Test func everyCodeNamesThePathAndTheReason() {
        let cases: [(Int32, String, String)] = [
            (ENOENT, "open", "No such file or directory"),
            (ENODEV, "libevdev_next_event", "No such device"),
            (ENOTTY, "libevdev_new_from_fd", "Inappropriate ioctl for device"),
            (EBUSY, "libevdev_grab", "Device or resource busy"),
            (EIO, "libevdev_next_event", "Input/output error"),
        ]
        for (errno, function, reason) in cases {
            let error = DeviceError(path: "/dev/input/event3", function: function, errno: errno)
            #expect(error.description.contains("/dev/input/event3"))
            #expect(error.description.contains(reason))
            #expect(error.description.hasSuffix("."))
        }
        #expect(
            DeviceError(path: "/dev/input/event3", function: "libevdev_next_event", errno: ENODEV).description
                .contains("unplugged")
        )
        #expect(
            DeviceError(path: "/dev/input/event3", function: "libevdev_grab", errno: EBUSY).description
                .contains("without --grab")
        )
        #expect(
            DeviceError(path: "/dev/input/event3", function: "libevdev_next_event", errno: EIO).description
                == "libevdev_next_event failed on /dev/input/event3: Input/output error (errno 5)."
        )
    }
}
