import CLibudev
import Glibc

/// A libudev context (`struct udev`): the root every enumeration and monitor hangs off.
///
/// Only this file and `UdevMonitor` touch libudev; everything above them sees `UdevInputNode` values.
final class UdevContext {
    let handle: OpaquePointer

    /// The corresponding C function is `udev_new`.
    init() throws(UdevError) {
        handle = try UdevError.nonNull(udev_new(), "udev_new", "udev")
    }

    deinit { udev_unref(handle) }

    /// Lists the syspaths of every device in `subsystem` whose sysname matches `sysnamePattern`.
    ///
    /// The corresponding C functions are `udev_enumerate_new`, `udev_enumerate_add_match_subsystem`,
    /// `udev_enumerate_add_match_sysname`, `udev_enumerate_scan_devices` and `udev_enumerate_get_list_entry`.
    /// No `udev_enumerate_add_match_is_initialized`: under umockdev (no udev database) nothing is initialised.
    func syspaths(subsystem: String, sysnamePattern: String) throws(UdevError) -> [String] {
        let enumerate = try UdevError.nonNull(udev_enumerate_new(handle), "udev_enumerate_new", subsystem)
        defer { udev_enumerate_unref(enumerate) }
        try UdevError.check(
            udev_enumerate_add_match_subsystem(enumerate, subsystem),
            "udev_enumerate_add_match_subsystem",
            subsystem
        )
        try UdevError.check(
            udev_enumerate_add_match_sysname(enumerate, sysnamePattern),
            "udev_enumerate_add_match_sysname",
            sysnamePattern
        )
        try UdevError.check(udev_enumerate_scan_devices(enumerate), "udev_enumerate_scan_devices", subsystem)
        var paths: [String] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) { paths.append(String(cString: name)) }
            entry = udev_list_entry_get_next(current)
        }
        return paths
    }

    /// Reads the device at `syspath` and its parent input device into a value.
    ///
    /// The corresponding C function is `udev_device_new_from_syspath`.
    func inputNode(syspath: String) throws(UdevError) -> UdevInputNode {
        let device = try UdevError.nonNull(
            udev_device_new_from_syspath(handle, syspath),
            "udev_device_new_from_syspath",
            syspath
        )
        defer { udev_device_unref(device) }
        return UdevInputNode(device: device)
    }

    /// Reads the input node named `sysname` (`eventN`), or nil when sysfs has no such input device.
    ///
    /// The corresponding C function is `udev_device_new_from_subsystem_sysname`.
    func inputNode(sysname: String) -> UdevInputNode? {
        guard let device = udev_device_new_from_subsystem_sysname(handle, "input", sysname) else { return nil }
        defer { udev_device_unref(device) }
        return UdevInputNode(device: device)
    }
}

/// What udev knows about one `/dev/input/event*` node and its parent `inputN` device, read without opening it.
public struct UdevInputNode: Sendable, Hashable {
    /// `/sys/devices/.../input/inputN/eventM`.
    public var syspath: String
    /// `eventM`.
    public var sysname: String
    /// `/dev/input/eventM`, nil when udev reports no node.
    public var devnode: String?
    /// The event node's udev properties (`ID_INPUT_TOUCHPAD=1`, ...).
    public var properties: [String: String]
    /// The parent input device's udev properties (`NAME`, `PRODUCT`, `PROP`, `EV`, `ABS`, ...).
    public var parentProperties: [String: String]
    /// The parent's `capabilities/abs` sysfs attribute, falling back on its `ABS` property.
    public var absCapabilities: String?
    /// The parent's `name` sysfs attribute, falling back on its `NAME` property without quotes.
    public var name: String?
    /// The parent's `capabilities/key` sysfs attribute, falling back on its `KEY` property.
    public var keyCapabilities: String?
    /// The parent's `capabilities/ev` sysfs attribute, falling back on its `EV` property.
    public var eventCapabilities: String?

    public init(
        syspath: String,
        sysname: String,
        devnode: String?,
        properties: [String: String],
        parentProperties: [String: String] = [:],
        absCapabilities: String? = nil,
        name: String? = nil,
        keyCapabilities: String? = nil,
        eventCapabilities: String? = nil
    ) {
        self.syspath = syspath
        self.sysname = sysname
        self.devnode = devnode
        self.properties = properties
        self.parentProperties = parentProperties
        self.absCapabilities = absCapabilities
        self.name = name
        self.keyCapabilities = keyCapabilities
        self.eventCapabilities = eventCapabilities
    }

    init(device: OpaquePointer) {
        syspath = string(udev_device_get_syspath(device)) ?? ""
        sysname = string(udev_device_get_sysname(device)) ?? ""
        devnode = string(udev_device_get_devnode(device))
        properties = propertyList(device)
        // The parent is owned by the child: no unref. The corresponding C function is
        // `udev_device_get_parent_with_subsystem_devtype`.
        if let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil) {
            parentProperties = propertyList(parent)
            absCapabilities =
                string(udev_device_get_sysattr_value(parent, "capabilities/abs"))
                ?? parentProperties["ABS"]
            name =
                string(udev_device_get_sysattr_value(parent, "name"))
                .map { $0.trimmingTrailingNewlines }
                ?? parentProperties["NAME"].map { $0.trimmingQuotes }
            keyCapabilities =
                string(udev_device_get_sysattr_value(parent, "capabilities/key")) ?? parentProperties["KEY"]
            eventCapabilities =
                string(udev_device_get_sysattr_value(parent, "capabilities/ev")) ?? parentProperties["EV"]
        } else {
            parentProperties = [:]
            absCapabilities = nil
            name = nil
            keyCapabilities = nil
            eventCapabilities = nil
        }
    }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// The corresponding C functions are `udev_device_get_properties_list_entry` and `udev_list_entry_get_*`.
private func propertyList(_ device: OpaquePointer) -> [String: String] {
    var result: [String: String] = [:]
    var entry = udev_device_get_properties_list_entry(device)
    while let current = entry {
        if let key = udev_list_entry_get_name(current) {
            result[String(cString: key)] = string(udev_list_entry_get_value(current)) ?? ""
        }
        entry = udev_list_entry_get_next(current)
    }
    return result
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = Substring(self)
        while text.last == "\n" { text = text.dropLast() }
        return String(text)
    }

    fileprivate var trimmingQuotes: String {
        guard count >= 2, first == "\"", last == "\"" else { return self }
        return String(dropFirst().dropLast())
    }
}
