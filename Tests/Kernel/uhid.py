"""A HID device in userspace through /dev/uhid (include/uapi/linux/uhid.h), with no dependency beyond Python.

The kernel binds the device to its real HID driver (hid-magicmouse, hid-multitouch, hid-generic) exactly as it would
a Bluetooth or USB one; the driver's GET_REPORT and SET_REPORT requests are answered from a thread so that probes
that wait for them (hid-magicmouse's SET_REPORT, hid-multitouch's feature reads) go through at once.
"""

import os
import select
import struct
import threading
import time

# enum uhid_event_type
UHID_DESTROY = 1
UHID_START = 2
UHID_STOP = 3
UHID_OPEN = 4
UHID_CLOSE = 5
UHID_OUTPUT = 6
UHID_GET_REPORT = 9
UHID_GET_REPORT_REPLY = 10
UHID_CREATE2 = 11
UHID_INPUT2 = 12
UHID_SET_REPORT = 13
UHID_SET_REPORT_REPLY = 14

BUS_USB = 0x03
BUS_BLUETOOTH = 0x05
BUS_I2C = 0x18

# struct uhid_event is a __u32 type and a packed union whose largest member is uhid_create2_req (4372 bytes).
EVENT_SIZE = 4 + 128 + 64 + 64 + 2 + 2 + 4 + 4 + 4 + 4 + 4096


class UHidDevice:
    """One uhid device: create, send input reports, answer the driver's requests, destroy.

    `features` maps a report number to the bytes (report number first) answered to a GET_REPORT of it.
    """

    def __init__(self, name, descriptor, bus, vendor, product, version=0, features=None, phys="plumometer/kernel-tier"):
        self.name = name
        self.descriptor = bytes(descriptor)
        self.bus, self.vendor, self.product, self.version = bus, vendor, product, version
        self.features = dict(features or {})
        self.phys = phys
        self.set_reports = []  # (report number, bytes) the driver sent
        self.get_reports = []  # report numbers the driver asked for
        self.started = threading.Event()
        self.opened = threading.Event()
        self.fd = None
        self._stop = False
        self._thread = None

    def create(self):
        self.fd = os.open("/dev/uhid", os.O_RDWR | os.O_CLOEXEC)
        body = struct.pack(
            "<128s64s64sHHIIII",
            self.name.encode(),
            self.phys.encode(),
            b"",
            len(self.descriptor),
            self.bus,
            self.vendor,
            self.product,
            self.version,
            0,
        )
        self._write(UHID_CREATE2, body + self.descriptor)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        if not self.started.wait(20):
            raise RuntimeError(f"uhid: the kernel never started {self.name!r} (no UHID_START in 20 s)")
        return self

    def _write(self, kind, body):
        event = struct.pack("<I", kind) + body
        os.write(self.fd, event.ljust(EVENT_SIZE, b"\0"))

    def _serve(self):
        while not self._stop:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.2)
            except (OSError, ValueError):
                return
            if not ready:
                continue
            try:
                data = os.read(self.fd, EVENT_SIZE)
            except OSError:
                return
            (kind,) = struct.unpack_from("<I", data)
            if kind == UHID_START:
                self.started.set()
            elif kind == UHID_OPEN:
                self.opened.set()
            elif kind == UHID_CLOSE:
                self.opened.clear()
            elif kind == UHID_GET_REPORT:
                request, rnum, _rtype = struct.unpack_from("<IBB", data, 4)
                self.get_reports.append(rnum)
                answer = self.features.get(rnum)
                if answer is None:
                    self._write(UHID_GET_REPORT_REPLY, struct.pack("<IHH", request, 5, 0))  # EIO
                else:
                    self._write(UHID_GET_REPORT_REPLY, struct.pack("<IHH", request, 0, len(answer)) + bytes(answer))
            elif kind == UHID_SET_REPORT:
                request, rnum, _rtype, size = struct.unpack_from("<IBBH", data, 4)
                self.set_reports.append((rnum, bytes(data[12 : 12 + size])))
                self._write(UHID_SET_REPORT_REPLY, struct.pack("<IH", request, 0))

    def send(self, report):
        """Send one input report (report number first when the descriptor numbers its reports)."""
        report = bytes(report)
        self._write(UHID_INPUT2, struct.pack("<H", len(report)) + report)

    def destroy(self):
        if self.fd is None:
            return
        self._stop = True
        try:
            self._write(UHID_DESTROY, b"")
        except OSError:
            pass
        if self._thread:
            self._thread.join(2)
        os.close(self.fd)
        self.fd = None

    def event_node(self, timeout=20):
        """The /dev/input/eventN the driver created for this device (its uhid sysfs node's input children)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            nodes = find_event_nodes(lambda phys, name: phys == self.phys)
            if nodes:
                return nodes
            time.sleep(0.05)
        raise RuntimeError(f"uhid: {self.name!r} created no input device in {timeout} s")


def find_event_nodes(match):
    """Every (event node, name) whose input device's phys and name satisfy match(phys, name)."""
    found = []
    base = "/sys/class/input"
    for entry in sorted(os.listdir(base)):
        if not entry.startswith("event"):
            continue
        device = os.path.join(base, entry, "device")
        try:
            phys = open(os.path.join(device, "phys")).read().strip()
            name = open(os.path.join(device, "name")).read().strip()
        except OSError:
            continue
        if match(phys, name) and os.path.exists("/dev/input/" + entry):
            found.append(("/dev/input/" + entry, name))
    return found
