/// An input device node appearing or disappearing.
public enum HotplugEvent: Hashable, Sendable {
    /// A new `/dev/input/event*` node (a new device, or an old one back under a new node).
    case added(node: String)
    /// A node went away; a reader that had it open gets `ENODEV` on its next read.
    case removed(node: String)

    /// The node the event is about.
    public var node: String {
        switch self {
        case .added(let node), .removed(let node): node
        }
    }
}

/// Follows udev add/remove events of `/dev/input/event*` nodes, for the reader's poll loop.
///
/// Watch `fileDescriptor` for readability in the poll loop and call `receive()` when it is readable. The
/// monitor listens on udev's "udev" netlink group: those events are sent after udevd applied its rules (so the
/// node's permissions, including our `uaccess` ACL, are in place when we hear of it). umockdev delivers its
/// synthetic uevents to that group as well, so the same code path runs under test.
public final class HotplugMonitor {
    private let monitor: UdevMonitor

    /// Opens the monitor.
    ///
    /// - Parameter source: The netlink group: "udev" (the default, after rules ran) or "kernel" (raw kernel
    ///   uevents, for systems without udevd, such as some containers).
    /// - Throws: `UdevError` when the netlink socket cannot be opened.
    public init(source: String = "udev") throws(UdevError) {
        monitor = try UdevMonitor(source: source, subsystem: "input")
    }

    /// The non-blocking netlink socket to poll.
    public var fileDescriptor: Int32 { monitor.fileDescriptor }

    /// Drains every queued event and returns the add/remove events of `event*` nodes, in order.
    ///
    /// Events for the parent `inputN` devices (no node) and `change` events are left out.
    public func receive() -> [HotplugEvent] {
        var events: [HotplugEvent] = []
        while let event = monitor.next() {
            guard let node = event.devnode, event.sysname.hasPrefix("event") else { continue }
            switch event.action {
            case "add": events.append(.added(node: node))
            case "remove": events.append(.removed(node: node))
            default: continue
            }
        }
        return events
    }
}
