import CLibudev
import Glibc

/// A udev netlink monitor filtered to one subsystem (`struct udev_monitor`).
final class UdevMonitor {
    private let context: UdevContext
    private let handle: OpaquePointer

    /// One received device event.
    struct Event {
        var action: String
        var devnode: String?
        var sysname: String
    }

    /// Opens a monitor on `source` ("udev": events after udevd processed them; "kernel": raw uevents).
    ///
    /// The corresponding C functions are `udev_monitor_new_from_netlink`,
    /// `udev_monitor_filter_add_match_subsystem_devtype` and `udev_monitor_enable_receiving`.
    init(source: String, subsystem: String) throws(UdevError) {
        context = try UdevContext()
        handle = try UdevError.nonNull(
            udev_monitor_new_from_netlink(context.handle, source),
            "udev_monitor_new_from_netlink",
            source
        )
        do {
            try UdevError.check(
                udev_monitor_filter_add_match_subsystem_devtype(handle, subsystem, nil),
                "udev_monitor_filter_add_match_subsystem_devtype",
                subsystem
            )
            try UdevError.check(udev_monitor_enable_receiving(handle), "udev_monitor_enable_receiving", source)
            // libudev opens the socket non-blocking already; make sure of it, the poll loop depends on it.
            let flags = fcntl(fileDescriptor, F_GETFL)
            if flags >= 0, flags & O_NONBLOCK == 0 { _ = fcntl(fileDescriptor, F_SETFL, flags | O_NONBLOCK) }
        } catch {
            udev_monitor_unref(handle)
            throw error
        }
    }

    deinit { udev_monitor_unref(handle) }

    /// The netlink socket to poll for readability. The corresponding C function is `udev_monitor_get_fd`.
    var fileDescriptor: Int32 { udev_monitor_get_fd(handle) }

    /// Returns the next queued event, or nil when none is waiting (the socket is non-blocking).
    ///
    /// The corresponding C function is `udev_monitor_receive_device`.
    func next() -> Event? {
        guard let device = udev_monitor_receive_device(handle) else { return nil }
        defer { udev_device_unref(device) }
        return Event(
            action: udev_device_get_action(device).map { String(cString: $0) } ?? "",
            devnode: udev_device_get_devnode(device).map { String(cString: $0) },
            sysname: udev_device_get_sysname(device).map { String(cString: $0) } ?? ""
        )
    }
}
