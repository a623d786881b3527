#!/usr/bin/env python3
"""Compose plumometer's bundled demo: an evemu 1.3 recording of a weighing session.

The device is an Apple Silicon MacBook's internal trackpad as Asahi Linux exposes it: a force-sensing
multitouch pad whose ABS_MT_PRESSURE runs 0..6000 with resolution 1, i.e. roughly grams. No recording of
such a device was available, so the session is synthesised, following the kernel's rules so that it reads
exactly like one captured with evemu-record:

  * protocol B: ABS_MT_SLOT is sent only when the slot changes; tracking ids come from one counter and a
    lifted contact's slot is reused by the next contact; -1 ends a contact;
  * values that did not change are not sent, and axes with a fuzz are filtered the way the input core's
    input_defuzz_abs_event() does, so small noise mostly disappears;
  * frames with nothing to report are not delivered (the input core only flushes a SYN_REPORT that follows
    at least one event);
  * pointer emulation (input_mt_report_pointer_emulation): BTN_TOUCH, BTN_TOOL_FINGER/DOUBLETAP/TRIPLETAP
    and ABS_X/ABS_Y/ABS_PRESSURE follow the oldest contact.

The session (about 15 s of 100 Hz frames): three plums are placed one after another (pressure ramps up,
overshoots a little and settles with small noise), they are compared, the middle one is lifted, a fourth is
placed in its slot, and at the end every contact is lifted.

Usage:
    scripts/make-demo-recording.py            write Sources/PlumometerDemo/DemoRecording.generated.swift
    scripts/make-demo-recording.py --check    exit 1 if that file differs from what would be written
    scripts/make-demo-recording.py --evemu    print the recording itself on stdout

Python 3, standard library only; deterministic (fixed seed).
"""

import math
import pathlib
import random
import sys

SEED = 20151103  # the day Plum-O-Meter was published
FRAME_INTERVAL_US = 10_000  # 100 Hz
DURATION_US = 15_300_000

NAME = "Apple Internal Keyboard / Trackpad"
BUS_SPI, VENDOR_APPLE, PRODUCT, VERSION = 0x1C, 0x05AC, 0x0342, 0x0001

# Event types and codes (linux/input-event-codes.h).
EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0x00
BTN_LEFT, BTN_TOOL_FINGER, BTN_TOOL_QUINTTAP, BTN_TOUCH = 0x110, 0x145, 0x148, 0x14A
BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOOL_QUADTAP = 0x14D, 0x14E, 0x14F
ABS_X, ABS_Y, ABS_PRESSURE = 0x00, 0x01, 0x18
ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_TOUCH_MINOR = 0x2F, 0x30, 0x31
ABS_MT_ORIENTATION, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x34, 0x35, 0x36
ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x39, 0x3A
INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD = 0x00, 0x02

SLOTS = 16
# code: (min, max, fuzz, flat, resolution). Positions in 0.01 mm (resolution 100 per mm): a pad about
# 120 x 80 mm. Pressure 0..6000 with resolution 1: about one unit per gram.
AXES = {
    ABS_X: (-6000, 6000, 4, 0, 100),
    ABS_Y: (-200, 7800, 4, 0, 100),
    ABS_PRESSURE: (0, 6000, 2, 0, 1),
    ABS_MT_SLOT: (0, SLOTS - 1, 0, 0, 0),
    ABS_MT_TOUCH_MAJOR: (0, 5000, 8, 0, 100),
    ABS_MT_TOUCH_MINOR: (0, 5000, 8, 0, 100),
    ABS_MT_ORIENTATION: (-16384, 16384, 0, 0, 0),
    ABS_MT_POSITION_X: (-6000, 6000, 4, 0, 100),
    ABS_MT_POSITION_Y: (-200, 7800, 4, 0, 100),
    ABS_MT_TRACKING_ID: (0, 65535, 0, 0, 0),
    ABS_MT_PRESSURE: (0, 6000, 2, 0, 1),
}
KEYS = [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOOL_QUINTTAP, BTN_TOUCH, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP,
        BTN_TOOL_QUADTAP]
TOOLS = {1: BTN_TOOL_FINGER, 2: BTN_TOOL_DOUBLETAP, 3: BTN_TOOL_TRIPLETAP, 4: BTN_TOOL_QUADTAP}

# The objects: (name, grams, x, y in 0.01 mm, contact diameter in 0.01 mm, placed at s, lifted at s).
OBJECTS = [
    ("plum A", 72.0, -3100, 2600, 1900, 0.40, 14.60),
    ("plum B", 58.0, 300, 4900, 1700, 2.10, 8.60),
    ("plum C", 85.0, 3500, 2300, 2100, 4.00, 14.75),
    ("plum D", 66.0, 500, 5200, 1800, 10.60, 14.90),
]
FIRST_TRACKING_ID = 417


def c_div(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def defuzz(value, old, fuzz):
    """input_defuzz_abs_event() from drivers/input/input.c."""
    if fuzz:
        if old - fuzz // 2 < value < old + fuzz // 2:
            return old
        if old - fuzz < value < old + fuzz:
            return c_div(old * 3 + value, 4)
        if old - fuzz * 2 < value < old + fuzz * 2:
            return c_div(old + value, 2)
    return value


def clamp(value, low, high):
    return max(low, min(high, value))


class Contact:
    def __init__(self, rng, name, grams, x, y, size, down, up):
        self.rng = rng
        self.name, self.grams, self.x, self.y, self.size = name, grams, x, y, size
        self.down_us, self.up_us = int(down * 1e6), int(up * 1e6)
        self.overshoot = rng.uniform(0.04, 0.09)
        self.ramp_us = rng.randint(140_000, 220_000)
        self.drift = rng.uniform(-0.6, 0.6)
        self.slot = None
        self.tracking_id = None

    def alive(self, t):
        return self.down_us <= t < self.up_us

    def values(self, t):
        """The true values at time t: position settles, pressure ramps, overshoots and settles."""
        age = (t - self.down_us) / 1e6
        ramp = self.ramp_us / 1e6
        if age < ramp:
            fraction = 0.5 - 0.5 * math.cos(math.pi * age / ramp)
            pressure = self.grams * (1 + self.overshoot) * fraction
        else:
            settle = math.exp(-(age - ramp) / 0.35)
            pressure = self.grams * (1 + self.overshoot * settle) + self.drift * min(age, 6.0) / 6.0
        pressure += self.rng.gauss(0, 0.55)
        wobble = math.exp(-age / 0.12)
        x = self.x + 60 * wobble * math.sin(age * 40) + self.rng.gauss(0, 0.8)
        y = self.y + 45 * wobble * math.cos(age * 37) + self.rng.gauss(0, 0.8)
        spread = min(1.0, age / 0.08)
        major = self.size * (0.6 + 0.4 * spread)
        minor = major * 0.92
        return {
            ABS_MT_POSITION_X: round(x),
            ABS_MT_POSITION_Y: round(y),
            ABS_MT_TOUCH_MAJOR: round(major),
            ABS_MT_TOUCH_MINOR: round(minor),
            ABS_MT_ORIENTATION: 0,
            ABS_MT_PRESSURE: clamp(round(pressure), 1, AXES[ABS_MT_PRESSURE][1]),
        }


class Kernel:
    """Just enough of the input core to turn per-frame driver reports into the delivered event stream."""

    def __init__(self):
        self.slot_values = [dict() for _ in range(SLOTS)]
        self.last_slot = 0
        self.abs = {ABS_X: 0, ABS_Y: 0, ABS_PRESSURE: 0}
        self.keys = {key: 0 for key in KEYS}
        self.frame = []

    def mt(self, slot, code, value):
        old = self.slot_values[slot].get(code)
        if code != ABS_MT_TRACKING_ID and old is not None:
            value = defuzz(value, old, AXES[code][2])
        if value == old:
            return
        self.slot_values[slot][code] = value
        if slot != self.last_slot:
            self.frame.append((EV_ABS, ABS_MT_SLOT, slot))
            self.last_slot = slot
        self.frame.append((EV_ABS, code, value))

    def end_contact(self, slot):
        # The slot keeps its other values, as the kernel's does: the next contact in it is compared (and
        # defuzzed) against them.
        self.mt(slot, ABS_MT_TRACKING_ID, -1)

    def key(self, code, value):
        if self.keys[code] != value:
            self.keys[code] = value
            self.frame.append((EV_KEY, code, value))

    def single(self, code, value):
        value = defuzz(value, self.abs[code], AXES[code][2])
        if value != self.abs[code]:
            self.abs[code] = value
            self.frame.append((EV_ABS, code, value))

    def sync(self):
        """The SYN_REPORT: delivered only when the frame holds something."""
        events, self.frame = self.frame, []
        if events:
            events.append((EV_SYN, SYN_REPORT, 0))
        return events


def session():
    rng = random.Random(SEED)
    contacts = [Contact(rng, *spec) for spec in OBJECTS]
    kernel = Kernel()
    free_slots = list(range(SLOTS))
    next_id = FIRST_TRACKING_ID
    down = []  # contacts in the order they touched: the oldest drives pointer emulation
    events = []
    for t in range(0, DURATION_US + 1, FRAME_INTERVAL_US):
        # A few microseconds of jitter, as a real device's interrupt timing has.
        stamp = t + rng.randint(0, 350)
        for contact in contacts:
            if contact.slot is None and contact.alive(t):
                contact.slot = min(free_slots)
                free_slots.remove(contact.slot)
                contact.tracking_id = next_id
                next_id += 1
                down.append(contact)
        for contact in sorted(down, key=lambda c: c.slot):
            if contact.alive(t):
                kernel.mt(contact.slot, ABS_MT_TRACKING_ID, contact.tracking_id)
                for code, value in contact.values(t).items():
                    kernel.mt(contact.slot, code, value)
            else:
                kernel.end_contact(contact.slot)
                free_slots.append(contact.slot)
                contact.slot = None
        down = [c for c in down if c.slot is not None]
        count = len(down)
        kernel.key(BTN_TOUCH, 1 if count else 0)
        for n, tool in TOOLS.items():
            kernel.key(tool, 1 if count == n else 0)
        if down:
            oldest = kernel.slot_values[down[0].slot]
            kernel.single(ABS_X, oldest[ABS_MT_POSITION_X])
            kernel.single(ABS_Y, oldest[ABS_MT_POSITION_Y])
            kernel.single(ABS_PRESSURE, oldest[ABS_MT_PRESSURE])
        else:
            kernel.single(ABS_PRESSURE, 0)
        for event in kernel.sync():
            events.append((stamp,) + event)
    return events


def description_lines():
    lines = [
        "# EVEMU 1.3",
        "# plumometer demo: a weighing session on a force-sensing trackpad, composed by",
        "# scripts/make-demo-recording.py (seed %d) from documented ranges; not a capture." % SEED,
        "# Apple Silicon MacBook internal trackpad under Asahi Linux: ABS_MT_PRESSURE 0..6000,",
        "# resolution 1 (about one unit per gram). Three plums placed, compared, one lifted, one added.",
        '# Input device name: "%s"' % NAME,
        "# Input device ID: bus 0x%02x vendor 0x%04x product 0x%04x version 0x%04x"
        % (BUS_SPI, VENDOR_APPLE, PRODUCT, VERSION),
        "N: %s" % NAME,
        "I: %04x %04x %04x %04x" % (BUS_SPI, VENDOR_APPLE, PRODUCT, VERSION),
    ]
    props = [0] * 8
    for prop in (INPUT_PROP_POINTER, INPUT_PROP_BUTTONPAD):
        props[prop // 8] |= 1 << (prop % 8)
    lines.append("P: " + " ".join("%02x" % b for b in props))
    types = [0] * 8
    for event_type in (EV_SYN, EV_KEY, EV_ABS):
        types[event_type // 8] |= 1 << (event_type % 8)
    lines.append("B: 00 " + " ".join("%02x" % b for b in types))
    masks = {EV_KEY: (96, KEYS), 0x02: (8, []), EV_ABS: (8, list(AXES)), 0x04: (8, []), 0x05: (8, []),
             0x11: (8, []), 0x12: (8, []), 0x14: (8, []), 0x15: (16, [])}
    for event_type, (size, codes) in masks.items():
        mask = [0] * size
        for code in codes:
            mask[code // 8] |= 1 << (code % 8)
        for start in range(0, size, 8):
            lines.append("B: %02x " % event_type + " ".join("%02x" % b for b in mask[start:start + 8]))
    for code in sorted(AXES):
        lines.append("A: %02x %d %d %d %d %d" % ((code,) + AXES[code]))
    return lines


def recording():
    events = session()
    first = events[0][0]
    lines = description_lines()
    for stamp, event_type, code, value in events:
        # Times relative to the first event, which is at 0.000001 as evemu-record writes it.
        elapsed = stamp - first + 1
        lines.append("E: %d.%06d %04x %04x %04d" % (elapsed // 1_000_000, elapsed % 1_000_000, event_type, code,
                                                    value))
    return "\n".join(lines) + "\n"


def swift_source(text):
    assert '"""#' not in text
    return (
        "// swift-format-ignore-file\n"
        "// Generated by scripts/make-demo-recording.py; do not edit by hand (run the script instead).\n"
        "// The formatter leaves it alone: its raw string is the recording, byte for byte.\n"
        "\n"
        "/// The bundled demo: an evemu 1.3 recording of a weighing session on a force-sensing trackpad.\n"
        "///\n"
        "/// Compiled into the package (not a path on disk) so `plumometer demo` works from any install. See\n"
        "/// docs/recordings.md for the device, the session and the rules the generator follows.\n"
        "public enum DemoRecording {\n"
        "    /// The name used for the recording in messages and errors.\n"
        '    public static let fileName = "demo-weighing.evemu"\n'
        "\n"
        "    /// The recording's text.\n"
        '    public static let text = #"""\n'
        + text
        + '\n"""#\n'
        "}\n"
    )


USAGE = """usage: scripts/make-demo-recording.py [--evemu | --check | --help]

  (no option)  rewrite Sources/PlumometerDemo/DemoRecording.generated.swift from the composed session
  --evemu      print the recording (evemu 1.3) on stdout instead
  --check      exit 1 when the generated file is not what this script makes (nothing is written)
  --help       print this help and exit
"""


def main(argv):
    if "-h" in argv[1:] or "--help" in argv[1:]:
        sys.stdout.write(USAGE)
        return 0
    unknown = [a for a in argv[1:] if a not in ("--evemu", "--check")]
    if unknown:
        sys.stderr.write("make-demo-recording.py: unknown option '%s'\n%s" % (unknown[0], USAGE))
        return 2
    root = pathlib.Path(__file__).resolve().parent.parent
    target = root / "Sources" / "PlumometerDemo" / "DemoRecording.generated.swift"
    text = recording()
    if "--evemu" in argv:
        sys.stdout.write(text)
        return 0
    source = swift_source(text)
    if "--check" in argv:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != source:
            sys.stderr.write("%s is not what %s generates; run the script\n" % (target, argv[0]))
            return 1
        return 0
    target.write_text(source, encoding="utf-8")
    sys.stderr.write("wrote %s (%d bytes of recording, %d event lines)\n"
                     % (target, len(text), text.count("\nE: ")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
