"""Input devices from userspace through /dev/uinput (include/uapi/linux/uinput.h), with ioctls from Python only.

The kernel's input core and evdev handle these as any other device: unchanged values dropped, empty frames never
sent, per-client buffers that overflow into SYN_DROPPED, EVIOCGRAB.
"""

import ctypes
import fcntl
import os
import struct
import time

EV_SYN, EV_KEY, EV_ABS, EV_MSC = 0x00, 0x01, 0x03, 0x04
SYN_REPORT = 0
BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP = 0x110, 0x145, 0x14A, 0x14D, 0x14E
ABS_X, ABS_Y, ABS_PRESSURE = 0x00, 0x01, 0x18
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x2F, 0x35, 0x36, 0x39, 0x3A
INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD = 0x00, 0x02
KEY_ESC, KEY_ENTER, KEY_SPACE = 1, 28, 57
KEYBOARD_KEYS = list(range(1, 88))  # KEY_ESC .. KEY_F11: what udev's input_id calls a keyboard


def _ioc(direction, number, size):
    return (direction << 30) | (size << 16) | (ord("U") << 8) | number


UI_DEV_CREATE = _ioc(0, 1, 0)
UI_DEV_DESTROY = _ioc(0, 2, 0)
UI_DEV_SETUP = _ioc(1, 3, 92)
UI_ABS_SETUP = _ioc(1, 4, 28)
UI_SET_EVBIT = _ioc(1, 100, 4)
UI_SET_KEYBIT = _ioc(1, 101, 4)
UI_SET_ABSBIT = _ioc(1, 103, 4)
UI_SET_PROPBIT = _ioc(1, 110, 4)


def UI_GET_SYSNAME(length):
    return _ioc(2, 44, length)


BUS_VIRTUAL = 0x06


class UInputDevice:
    """keys: key codes; axes: {code: (min, max, resolution)}; props: input properties."""

    def __init__(self, name, keys=(), axes=None, props=(), vendor=0x1D6B, product=0x0104, bus=BUS_VIRTUAL):
        self.name, self.keys, self.axes, self.props = name, list(keys), dict(axes or {}), list(props)
        self.vendor, self.product, self.bus = vendor, product, bus
        self.fd = None
        self.node = None

    def create(self, timeout=20):
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        if self.keys:
            fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_KEY)
            for key in self.keys:
                fcntl.ioctl(self.fd, UI_SET_KEYBIT, key)
        if self.axes:
            fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_ABS)
            for code, (low, high, resolution) in self.axes.items():
                fcntl.ioctl(self.fd, UI_SET_ABSBIT, code)
                fcntl.ioctl(self.fd, UI_ABS_SETUP, struct.pack("<Hxxiiiiii", code, 0, low, high, 0, 0, resolution))
        for prop in self.props:
            fcntl.ioctl(self.fd, UI_SET_PROPBIT, prop)
        setup = struct.pack("<HHHH80sI", self.bus, self.vendor, self.product, 1, self.name.encode(), 0)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, setup)
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        buffer = bytearray(64)
        fcntl.ioctl(self.fd, UI_GET_SYSNAME(64), buffer)
        sysname = buffer.split(b"\0")[0].decode()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            base = f"/sys/devices/virtual/input/{sysname}"
            events = [e for e in os.listdir(base) if e.startswith("event")] if os.path.isdir(base) else []
            if events and os.path.exists("/dev/input/" + events[0]):
                self.node = "/dev/input/" + events[0]
                return self
            time.sleep(0.02)
        raise RuntimeError(f"uinput: {self.name!r} ({sysname}) has no event node after {timeout} s")

    def emit(self, events):
        """Write [(type, code, value)], each stamped by the kernel; the caller adds SYN_REPORTs."""
        data = b"".join(struct.pack("<qqHHi", 0, 0, t, c, v) for t, c, v in events)
        os.write(self.fd, data)

    def destroy(self):
        if self.fd is not None:
            fcntl.ioctl(self.fd, UI_DEV_DESTROY)
            os.close(self.fd)
            self.fd = None


class Touchpad(UInputDevice):
    """A pressure touchpad speaking multitouch protocol B; `frame({slot: (x, y, pressure)})` sends one frame."""

    def __init__(self, name, slots=4, pressure_max=255, **kwargs):
        axes = {
            ABS_X: (0, 4000, 40),
            ABS_Y: (0, 3000, 40),
            ABS_PRESSURE: (0, pressure_max, 0),
            ABS_MT_SLOT: (0, slots - 1, 0),
            ABS_MT_POSITION_X: (0, 4000, 40),
            ABS_MT_POSITION_Y: (0, 3000, 40),
            ABS_MT_TRACKING_ID: (0, 65535, 0),
            ABS_MT_PRESSURE: (0, pressure_max, 0),
        }
        keys = [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP]
        super().__init__(name, keys, axes, [INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD], **kwargs)
        self.pressure_range = (0, pressure_max)
        self.down = {}
        self.next_id = 100

    def frame_events(self, slots):
        events = []
        for slot in sorted(set(self.down) | set(slots)):
            if slot in slots:
                x, y, pressure = slots[slot]
                events.append((EV_ABS, ABS_MT_SLOT, slot))
                if slot not in self.down:
                    self.next_id += 1
                    events.append((EV_ABS, ABS_MT_TRACKING_ID, self.next_id))
                events += [(EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y)]
                events.append((EV_ABS, ABS_MT_PRESSURE, pressure))
            else:
                events += [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_TRACKING_ID, -1)]
        touching = 1 if slots else 0
        events += [(EV_KEY, BTN_TOUCH, touching), (EV_KEY, BTN_TOOL_FINGER, 1 if len(slots) == 1 else 0)]
        events.append((EV_KEY, BTN_TOOL_DOUBLETAP, 1 if len(slots) == 2 else 0))
        events.append((EV_KEY, BTN_TOOL_TRIPLETAP, 1 if len(slots) >= 3 else 0))
        if slots:
            x, y, pressure = slots[min(slots)]
            events += [(EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y), (EV_ABS, ABS_PRESSURE, pressure)]
        else:
            events.append((EV_ABS, ABS_PRESSURE, 0))
        events.append((EV_SYN, SYN_REPORT, 0))
        self.down = dict(slots)
        return events

    def frame(self, slots):
        self.emit(self.frame_events(slots))


class Inotify:
    """IN_OPEN watches through libc's inotify."""

    IN_OPEN = 0x20

    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")

    def watch(self, path):
        wd = self.libc.inotify_add_watch(self.fd, path.encode(), self.IN_OPEN)
        if wd < 0:
            raise OSError(ctypes.get_errno(), f"inotify_add_watch {path}")
        return wd

    def opens(self):
        """How many IN_OPEN events are pending (and consume them)."""
        count = 0
        while True:
            try:
                data = os.read(self.fd, 4096)
            except BlockingIOError:
                return count
            offset = 0
            while offset < len(data):
                _wd, mask, _cookie, length = struct.unpack_from("iIII", data, offset)
                if mask & self.IN_OPEN:
                    count += 1
                offset += 16 + length
