"""The HID devices of the kernel tier: real report descriptors, and their input reports built from the layouts the
drivers read (hid-magicmouse.c for the Magic Trackpad 2; the report descriptors themselves for hid-multitouch and
hid-generic).

Every device here is a `Device`: `create()` it, `touch(fingers)` sends one report with the given contacts
({finger: (x, y, pressure)}; a finger missing from the dict is lifted), `destroy()`. `pressure_range` is what the
driver declares for the pressure axis, which the tests compare with what plumometer reports.
"""

import os
import struct
import threading
import time

from uhid import BUS_BLUETOOTH, BUS_I2C, BUS_USB, UHidDevice


def hexbytes(text):
    return bytes(int(b, 16) for b in text.split())


# --- Apple Magic Trackpad 2 over Bluetooth (hid-magicmouse) ---------------------------------------------------------
# The driver ignores the descriptor's fields for the trackpad (relative ones are dropped, the buttons only make
# hid-input create the input device); it registers report 0x31 itself and decodes it in magicmouse_raw_event: 4 bytes
# of prefix (id, clicks, timestamp) and 9 bytes per touch, see magicmouse_emit_touch.
MT2_DESCRIPTOR = hexbytes(
    "05 01 09 02 a1 01 85 02 09 01 a1 00 05 09 19 01 29 01 15 00 25 01 95 01 75 01 81 02 95 01 75 07 81 01"
    " 05 01 09 30 09 31 15 81 25 7f 75 08 95 02 81 06 c0 c0"
)


class Device:
    uhid = None
    pressure_range = (0, 0)
    finger_limit = 1

    def create(self):
        self.uhid.create()
        return self

    def destroy(self):
        self.uhid.destroy()


class MagicTrackpad2(Device):
    """Magic Trackpad 2 over Bluetooth: bus 0x05, vendor 0x004c, product 0x0265; the driver's MT2 ranges."""

    pressure_range = (0, 253)
    x_range = (-3678, 3934)
    y_range = (-2478, 2587)
    finger_limit = 15

    def __init__(self, version=0x0100):
        self.uhid = UHidDevice("Apple Magic Trackpad 2 (uhid)", MT2_DESCRIPTOR, BUS_BLUETOOTH, 0x004C, 0x0265, version)
        self.down = {}
        self.timestamp = 0

    @staticmethod
    def touch_bytes(finger, x, y, pressure, down=True):
        """9 bytes of one touch, the inverse of magicmouse_emit_touch's MT2 branch."""
        raw_y = -y  # the driver reports the additive inverse of the device's y
        x13 = x & 0x1FFF
        y13 = raw_y & 0x1FFF
        state = 0x80 if down else 0x40
        return bytes(
            [
                x13 & 0xFF,
                (x13 >> 8) | ((y13 & 0x7) << 5),
                (y13 >> 3) & 0xFF,
                ((y13 >> 11) & 0x3) | state,
                40,  # touch major (x4 in the event)
                30,  # touch minor
                20,  # size
                pressure,
                (finger & 0xF) | (4 << 5),  # id, orientation 0
            ]
        )

    def touch(self, fingers):
        """One report 0x31: every finger down, and once more (state 'lifted') those that just left."""
        self.timestamp = (self.timestamp + 1) & 0x3FFFF
        ts = self.timestamp << 6
        report = bytes([0x31, 0, (ts >> 8) & 0xFF, (ts >> 16) & 0xFF])
        for finger in sorted(fingers):
            x, y, pressure = fingers[finger]
            report += self.touch_bytes(finger, x, y, pressure)
        for finger in sorted(set(self.down) - set(fingers)):
            x, y, pressure = self.down[finger]
            report += self.touch_bytes(finger, x, y, 0, down=False)
        self.down = dict(fingers)
        self.uhid.send(report)


# --- A Windows precision touchpad (hid-multitouch) -------------------------------------------------------------------
# The report descriptor of an I2C touchpad, 0488:108C, as the kernel's HID selftests carry it
# (tools/testing/selftests/hid/tests/test_multitouch.py, Testven_0488_108c): three fingers of confidence, tip,
# contact id, X (0..3514), Y (0..1744) and Tip Pressure (0..32767), scan time, contact count, one button; feature
# report 2 holds Contact Count Maximum and Button Type (0 click pad, 1 pressure pad), report 3 the Windows 8 blob
# (which puts it in the Win8 class: contacts not repeated within 100 ms are released, as the spec demands).
PTP_DESCRIPTOR = hexbytes(
    """05 01 09 02 a1 01 85 06 09 01 a1 00 05 09 19 01 29 03 15 00 25 01 95 03 75 01 81 02 95 01 75 05 81 03 05 01
    09 30 09 31 09 38 15 81 25 7f 75 08 95 03 81 06 c0 c0 05 0d 09 05 a1 01 85 01 05 0d 09 22 a1 02 15 00 25 01 09
    47 09 42 95 02 75 01 81 02 95 01 75 03 25 05 09 51 81 02 81 03 05 01 15 00 26 ba 0d 75 10 55 0e 65 11 09 30 35
    00 46 d0 05 95 01 81 02 26 d0 06 46 bb 02 09 31 81 02 05 0d 95 01 75 10 26 ff 7f 46 ff 7f 09 30 81 02 c0 05 0d
    09 22 a1 02 15 00 25 01 09 47 09 42 95 02 75 01 81 02 95 01 75 03 25 05 09 51 81 02 81 03 05 01 15 00 26 ba 0d
    75 10 55 0e 65 11 09 30 35 00 46 d0 05 95 01 81 02 26 d0 06 46 bb 02 09 31 81 02 05 0d 95 01 75 10 26 ff 7f 46
    ff 7f 09 30 81 02 c0 05 0d 09 22 a1 02 15 00 25 01 09 47 09 42 95 02 75 01 81 02 95 01 75 03 25 05 09 51 81 02
    81 03 05 01 15 00 26 ba 0d 75 10 55 0e 65 11 09 30 35 00 46 d0 05 95 01 81 02 26 d0 06 46 bb 02 09 31 81 02 05
    0d 95 01 75 10 26 ff 7f 46 ff 7f 09 30 81 02 c0 55 0c 66 01 10 47 ff ff 00 00 27 ff ff 00 00 75 10 95 01 05 0d
    09 56 81 02 09 54 25 05 95 01 75 08 81 02 05 09 09 01 25 01 75 01 95 01 81 02 95 07 81 03 05 0d 85 02 09 55 75
    08 95 01 25 05 b1 02 09 59 b1 02 06 00 ff 85 03 09 c5 15 00 26 ff 00 75 08 96 00 01 b1 02 05 0e 09 01 a1 02 85
    13 09 23 15 00 25 64 75 08 95 01 b1 02 c0 c0 05 0d 09 0e a1 01 85 04 09 22 a1 02 09 52 15 00 25 0a 75 08 95 01
    b1 02 c0 09 22 a1 00 85 05 09 57 09 58 75 01 95 02 25 01 b1 02 95 06 b1 03 c0 c0 06 01 ff 09 02 a1 01 09 00 85
    07 15 00 26 ff 00 75 08 96 12 02 b1 02 c0 06 00 ff 09 01 a1 01 85 0d 15 00 26 ff 00 75 08 95 11 09 01 81 02 09
    01 91 02 c0 05 0e 09 01 a1 01 85 11 09 35 15 00 26 ff 00 75 08 95 17 b1 02 c0 06 81 ff 09 01 a1 01 09 20 85 17
    15 00 26 ff 00 75 08 95 3f 09 01 81 02 09 01 91 02 c0"""
)

BUTTON_TYPE_CLICKPAD = 0
BUTTON_TYPE_PRESSUREPAD = 1


class MultitouchDevice(Device):
    """A hid-multitouch device whose report 1 carries `slots` fingers of 7 bytes (flags, x, y, pressure), then scan
    time, contact count and (touchpads) a button byte. While a finger is down the report is repeated every 20 ms,
    as real devices do (the Win8 class releases a contact that is not repeated)."""

    finger_limit = 3

    def __init__(self, name, descriptor, bus, vendor, product, features, with_button, repeat):
        self.uhid = UHidDevice(name, descriptor, bus, vendor, product, 0x0100, features)
        self.with_button = with_button
        self.repeat = repeat
        self.current = b""
        self.scan = 0
        self.lock = threading.Lock()
        self.down = {}
        self.slots = {}  # finger -> report position and contact id
        self._stop = threading.Event()
        self._thread = None
        # The longest time between two repeats while touched: past 100 ms the Win8 class may release the contacts
        # (mt_release_timeout), as it would for a real device that stopped reporting.
        self.longest_gap = 0.0

    def create(self):
        super().create()
        if self.repeat:
            self._thread = threading.Thread(target=self._repeat, daemon=True)
            self._thread.start()
        return self

    def destroy(self):
        self._stop.set()
        if self._thread:
            self._thread.join(2)
        super().destroy()

    def _repeat(self):
        # The Win8 class releases contacts that are not repeated within 100 ms: under TCG on a loaded host a
        # normal thread can miss that, so this one runs real-time in the guest.
        try:
            os.sched_setscheduler(threading.get_native_id(), os.SCHED_FIFO, os.sched_param(50))
        except (AttributeError, OSError):
            pass
        last = None
        while not self._stop.wait(0.02):
            with self.lock:
                if self.down:
                    now = time.monotonic()
                    if last is not None:
                        self.longest_gap = max(self.longest_gap, now - last)
                    last = now
                    self._send_locked(self.down)
                else:
                    last = None

    def _send_locked(self, fingers, lifting=()):
        self.scan = (self.scan + 200) & 0xFFFF  # 100 µs units: 20 ms
        body = b""
        entries = [(f, fingers[f], True) for f in sorted(fingers)] + [(f, self.down[f], False) for f in lifting]
        for finger, (x, y, pressure), tip in entries[:3]:
            flags = 0x01 | (0x02 if tip else 0) | ((finger & 0x7) << 2)
            body += struct.pack("<BHHH", flags, x, y, pressure if tip else 0)
        count = len(entries[:3])
        body = body.ljust(21, b"\0")
        report = bytes([1]) + body + struct.pack("<HB", self.scan, count)
        if self.with_button:
            report += b"\0"
        self.uhid.send(report)

    def touch(self, fingers):
        with self.lock:
            lifting = sorted(set(self.down) - set(fingers))
            self._send_locked(fingers, lifting)
            self.down = dict(fingers)


def precision_touchpad(button_type, name):
    features = {
        2: bytes([2, 3, button_type]),  # Contact Count Maximum 3, Button Type
        3: bytes([3]) + bytes(256),  # the Windows 8 certification blob (content unchecked by the driver)
        4: bytes([4, 0]),  # Input Mode
        5: bytes([5, 3]),  # Surface switch, Button switch
        7: bytes([7]) + bytes(0x212),
        0x11: bytes([0x11]) + bytes(0x17),
        0x13: bytes([0x13, 0]),
    }
    device = MultitouchDevice(name, PTP_DESCRIPTOR, BUS_I2C, 0x0488, 0x108C, features, True, True)
    device.pressure_range = (0, 32767)
    device.x_range = (0, 3514)
    device.y_range = (0, 1744)
    return device


# --- A touchscreen with pressure (hid-multitouch, the generic multitouch class) --------------------------------------
# The precision touchpad's finger collection under a Touch Screen application (Digitizer 0x04), without the mouse,
# the button and the Win8 blob: hid-core puts it in the plain multitouch group and hid-multitouch binds with its
# default class. Feature report 2 holds Contact Count Maximum.
FINGER = (
    "05 0d 09 22 a1 02 15 00 25 01 09 47 09 42 95 02 75 01 81 02 95 01 75 03 25 05 09 51 81 02 81 03 05 01 15 00 26"
    " ba 0d 75 10 55 0e 65 11 09 30 35 00 46 d0 05 95 01 81 02 26 d0 06 46 bb 02 09 31 81 02 05 0d 95 01 75 10 26 ff"
    " 03 46 ff 03 09 30 81 02 c0"
)
TOUCHSCREEN_DESCRIPTOR = hexbytes(
    "05 0d 09 04 a1 01 85 01 "
    + " ".join([FINGER] * 3)
    + " 55 0c 66 01 10 47 ff ff 00 00 27 ff ff 00 00 75 10 95 01 05 0d 09 56 81 02 09 54 25 05 95 01 75 08 81 02"
    " 85 02 09 55 75 08 95 01 25 05 b1 02 c0"
)


def touchscreen():
    device = MultitouchDevice(
        "Pressure Touchscreen (uhid)", TOUCHSCREEN_DESCRIPTOR, BUS_USB, 0x1B96, 0x0C01, {2: bytes([2, 3])}, False, False
    )
    device.pressure_range = (0, 1023)
    device.x_range = (0, 3514)
    device.y_range = (0, 1744)
    return device


# --- A pen tablet with pressure (hid-generic + hid-input) -----------------------------------------------------------
# Digitizer / Pen application, Stylus: tip switch, barrel switch, eraser, invert, in range; X 0..21600, Y 0..13500
# (0.01 mm); Tip Pressure 0..4095. hid-input maps it to ABS_X, ABS_Y, ABS_PRESSURE, BTN_TOUCH, BTN_STYLUS,
# BTN_TOOL_PEN (in range) and BTN_TOOL_RUBBER.
PEN_DESCRIPTOR = hexbytes(
    "05 0d 09 02 a1 01 85 02 09 20 a1 00 15 00 25 01 75 01 09 42 09 44 09 45 09 3c 09 32 95 05 81 02 95 03 81 03"
    " 05 01 55 0d 65 11 75 10 95 01 35 00 46 60 54 26 60 54 09 30 81 02 46 bc 34 26 bc 34 09 31 81 02"
    " 05 0d 45 00 65 00 55 00 26 ff 0f 09 30 81 02 c0 c0"
)


class PenTablet(Device):
    pressure_range = (0, 4095)
    x_range = (0, 21600)
    y_range = (0, 13500)
    finger_limit = 1

    def __init__(self):
        self.uhid = UHidDevice("Pressure Pen Tablet (uhid)", PEN_DESCRIPTOR, BUS_USB, 0x1234, 0x5678, 0x0100)

    def touch(self, fingers, in_range=True):
        """The pen: one 'finger' (tip down with its pressure), or none (hovering in range, tip up)."""
        if fingers:
            (x, y, pressure) = next(iter(fingers.values()))
            bits = 0x01 | 0x10
        else:
            x, y, pressure, bits = 10000, 6000, 0, (0x10 if in_range else 0)
        self.uhid.send(struct.pack("<BBHHH", 2, bits, x, y, pressure))


def wait(seconds):
    time.sleep(seconds)
