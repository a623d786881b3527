#!/usr/bin/env python3
"""Composes the four evemu recordings of `plumometer probe`'s gestures (run from this directory; the outputs are
committed beside it).

Each recording is one finger doing the four steps with the timing a user would: the finger lands at 10.0 s;
rests 3 s (step 1); the prompt for step 2 comes at 13.0 s and the user presses harder from 13.5 s to 14.0 s, then
holds until 15.5 s; eases off to a light touch by 15.8 s and rolls or flattens from 16.0 s to 16.5 s (step 3),
holding until 18.5 s; then lifts (step 4). Frames come every 10 ms, with only the values that changed, as the
kernel sends them. ProbeConfiguration's defaults complete step 2 about 1 s after the press is seen and step 3
about 1 s after the roll is seen, well inside these windows.

  probe-contact-size.evemu  ABS_MT_PRESSURE = 5 x ABS_MT_TOUCH_MAJOR throughout: pressing flattens the finger
                            (major 10 -> 14), rolling flattens it more (10 -> 17); the finger is perfectly still
                            from 10.2 s to 13.5 s, so no frame comes and step 1 ends on a tick.
  probe-force.evemu         touch major constant (12); pressure sweeps 50 -> 180 when pressing and goes back to
                            50 when rolling, which moves the contact 100 units (3.3 mm) instead.
  probe-constant.evemu      pressure 40 in every frame while the contact size does what contact-size's does.
  probe-decaying.evemu      an INPUT_PROP_PRESSUREPAD whose reading of a resting finger decays (20 + 100 e^(-t/3)):
                            the press adds 100 that decays the same way; touch major constant (12).
"""
import math

ABS_X, ABS_Y, ABS_P = 0x00, 0x01, 0x18
SLOT, MAJOR, MX, MY, TID, MP = 0x2F, 0x30, 0x35, 0x36, 0x39, 0x3A
BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH = 0x110, 0x145, 0x14A
POINTER, BUTTONPAD, PRESSUREPAD = 0, 2, 7

TOUCH = 10.0
LIFT = 18.5
AXES = {ABS_X: (0, 3000, 0, 0, 30), ABS_Y: (0, 2000, 0, 0, 30), ABS_P: (0, 255, 0, 0, 0),
        SLOT: (0, 4, 0, 0, 0), MAJOR: (0, 40, 0, 0, 0), MX: (0, 3000, 0, 0, 30), MY: (0, 2000, 0, 0, 30),
        TID: (0, 65535, 0, 0, 0), MP: (0, 255, 0, 0, 0)}


def bitmap_lines(event_type, codes, nbytes):
    bits = [0] * nbytes
    for code in codes:
        bits[code // 8] |= 1 << (code % 8)
    return ["B: %02x " % event_type + " ".join("%02x" % b for b in bits[i:i + 8]) for i in range(0, nbytes, 8)]


def description(name, props, comment):
    lines = ["# EVEMU 1.3", "# Composed by Tests/Fixtures/Probe/compose.py: " + comment, "N: " + name,
             "I: 0018 06cb 7e7e 0100"]
    prop_bits = [0] * 8
    for prop in props:
        prop_bits[prop // 8] |= 1 << (prop % 8)
    lines.append("P: " + " ".join("%02x" % b for b in prop_bits))
    lines += bitmap_lines(0, [0, 1, 3], 8)
    lines += bitmap_lines(1, [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH], 96)
    lines += bitmap_lines(3, sorted(AXES), 8)
    for code in sorted(AXES):
        lines.append("A: %02x %d %d %d %d %d" % ((code,) + AXES[code]))
    return lines


def smooth(t, start, end):
    """0 before start, 1 after end, a linear ramp between."""
    return min(1.0, max(0.0, (t - start) / (end - start)))


def stamp(time):
    return "%d.%06d" % (int(time), round((time - int(time)) * 1e6))


def events(state, still=()):
    """Evemu E: lines for a finger whose (pressure, major, x, y) at t seconds after the touch is state(t)."""
    lines = []
    last = None
    step = 0
    while True:
        time = round(TOUCH + step * 0.01, 6)
        step += 1
        t = time - TOUCH
        if time >= LIFT:
            lines += ["E: %s 0003 0039 -001" % stamp(time), "E: %s 0001 014a 0000" % stamp(time),
                      "E: %s 0001 0145 0000" % stamp(time), "E: %s 0003 0018 0000" % stamp(time),
                      "E: %s 0000 0000 0000" % stamp(time)]
            return lines
        if any(start <= t < end for start, end in still):
            continue
        pressure, major, x, y = (round(v) for v in state(t))
        values = {MP: pressure, MAJOR: major, MX: x, MY: y}
        frame = []
        if last is None:
            frame += [(3, SLOT, 0), (3, TID, 1)]
        for code in (MX, MY, MAJOR, MP):
            if last is None or last[code] != values[code]:
                frame.append((3, code, values[code]))
        if last is None:
            frame += [(1, BTN_TOUCH, 1), (1, BTN_TOOL_FINGER, 1)]
        for single, multi in ((ABS_X, MX), (ABS_Y, MY), (ABS_P, MP)):
            if last is None or last[multi] != values[multi]:
                frame.append((3, single, values[multi]))
        last = values
        if not frame:
            continue
        lines += ["E: %s %04x %04x %04d" % (stamp(time), kind, code, value) for kind, code, value in frame]
        lines.append("E: %s 0000 0000 0000" % stamp(time))


def press(t):
    """How far the press of step 2 is in: 0 before 13.5 s, 1 from 14.0 s to 15.5 s, back to 0 by 15.8 s."""
    return smooth(t, 3.5, 4.0) - smooth(t, 5.5, 5.8)


def roll(t):
    """How far the roll of step 3 is in: 0 before 16.0 s, 1 from 16.5 s."""
    return smooth(t, 6.0, 6.5)


def contact_size(t):
    major = 10 + 4 * press(t) + 7 * roll(t)
    return 5 * round(major), round(major), 1500 + 30 * roll(t), 1000


def force(t):
    return 50 + 130 * press(t) + (1 if int(t * 10) % 2 else 0), 12, 1500 + 100 * roll(t), 1000


def constant(t):
    _pressure, major, x, y = contact_size(t)
    return 40, major, x, y


def decaying(t):
    base = 20 + 100 * math.exp(-t / 3)
    pressed = 100 * smooth(t, 3.5, 4.0) * math.exp(-max(0.0, t - 4.0) / 3) * (1 - smooth(t, 5.5, 5.8))
    return base + pressed, 12, 1500 + 100 * roll(t), 1000


RECORDINGS = [
    ("probe-contact-size.evemu", "Probe Touchpad Contact Size", [POINTER, BUTTONPAD], contact_size,
     [(0.2, 3.5)], "pressure = 5 x touch major"),
    ("probe-force.evemu", "Probe Touchpad Force", [POINTER, BUTTONPAD], force, [],
     "pressure sweeps, touch major constant"),
    ("probe-constant.evemu", "Probe Touchpad Constant", [POINTER, BUTTONPAD], constant, [],
     "pressure constant at 40"),
    ("probe-decaying.evemu", "Probe Pressure Pad Decaying", [POINTER, BUTTONPAD, PRESSUREPAD], decaying, [],
     "a resting load decays"),
]

for file_name, name, props, state, still, comment in RECORDINGS:
    with open(file_name, "w") as out:
        out.write("\n".join(description(name, props, comment) + events(state, still)) + "\n")
