#!/usr/bin/env python3
"""Composes the small evemu recordings the CLI tests replay (run from this directory; output is committed).

Device descriptions are written from documented ranges: a Magic Trackpad 2 (16 slots, ABS_MT_PRESSURE 0..253,
resolution 0) and an Apple Silicon internal trackpad under Asahi (0..6000, resolution 1, i.e. about 1 unit/gram).
"""

ABS_X, ABS_Y, ABS_P, SLOT, MX, MY, TID, MP = 0, 1, 0x18, 0x2F, 0x35, 0x36, 0x39, 0x3A
BTN_TOUCH, BTN_TOOL_FINGER, BTN_LEFT = 0x14A, 0x145, 0x110


def bitmap_lines(event_type, codes, nbytes):
    bits = [0] * nbytes
    for code in codes:
        bits[code // 8] |= 1 << (code % 8)
    return ["B: %02x " % event_type + " ".join("%02x" % b for b in bits[i:i + 8]) for i in range(0, nbytes, 8)]


def description(name, bus, vendor, product, props, keys, axes):
    lines = ["# EVEMU 1.3", "# Composed by the plumometer team for the CLI tests (Tests/Fixtures/CLI/compose.py)",
             "N: " + name, "I: %04x %04x %04x %04x" % (bus, vendor, product, 0x111)]
    prop_bits = [0] * 8
    for prop in props:
        prop_bits[prop // 8] |= 1 << (prop % 8)
    lines.append("P: " + " ".join("%02x" % b for b in prop_bits))
    lines += bitmap_lines(0, [0, 1, 3], 8)
    lines += bitmap_lines(1, keys, 96)
    lines += bitmap_lines(3, sorted(axes), 8)
    for code in sorted(axes):
        lines.append("A: %02x %d %d %d %d %d" % ((code,) + axes[code]))
    return lines


class Script:
    def __init__(self, start):
        self.time = start
        self.lines = []

    def frame(self, events, step=0.01):
        for event_type, code, value in events:
            self.lines.append("E: %d.%06d %04x %04x %04d" % (int(self.time), round((self.time - int(self.time)) * 1e6),
                                                              event_type, code, value))
        self.lines.append("E: %d.%06d 0000 0000 0000" % (int(self.time), round((self.time - int(self.time)) * 1e6)))
        self.time = round(self.time + step, 6)


def write(name, desc, script):
    with open(name, "w") as out:
        out.write("\n".join(desc + script.lines) + "\n")


trackpad_axes = {ABS_X: (-3678, 3934, 4, 0, 32), ABS_Y: (-2478, 2587, 4, 0, 32), ABS_P: (0, 253, 0, 0, 0),
                 SLOT: (0, 15, 0, 0, 0), MX: (-3678, 3934, 4, 0, 32), MY: (-2478, 2587, 4, 0, 32),
                 TID: (0, 65535, 0, 0, 0), MP: (0, 253, 0, 0, 0)}
trackpad = description("Apple Inc. Magic Trackpad 2", 5, 0x05AC, 0x0265, [0, 2],
                       [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH], trackpad_axes)
s = Script(1.0)
s.frame([(3, SLOT, 0), (3, TID, 10), (3, MX, -1000), (3, MY, 200), (3, MP, 100), (1, BTN_TOUCH, 1),
         (3, ABS_X, -1000), (3, ABS_Y, 200), (3, ABS_P, 100)])
s.frame([(3, SLOT, 1), (3, TID, 11), (3, MX, 1500), (3, MY, -300), (3, MP, 50)])
s.frame([(3, SLOT, 0), (3, MP, 120), (3, ABS_P, 120)])
s.frame([(3, SLOT, 1), (3, MP, 200)])
s.frame([(3, SLOT, 1), (3, TID, -1)])
s.frame([(3, SLOT, 0), (3, TID, -1), (1, BTN_TOUCH, 0), (3, ABS_P, 0)])
write("magic-trackpad-2.two-plums.evemu", trackpad, s)

pad_axes = {ABS_X: (0, 7000, 0, 0, 40), ABS_Y: (0, 4500, 0, 0, 40), ABS_P: (0, 6000, 0, 0, 1),
            SLOT: (0, 15, 0, 0, 0), MX: (0, 7000, 0, 0, 40), MY: (0, 4500, 0, 0, 40), TID: (0, 65535, 0, 0, 0),
            MP: (0, 6000, 0, 0, 1)}
pad = description("Apple Internal Keyboard / Trackpad", 0x1C, 0x05AC, 0x0341, [0, 2],
                  [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH], pad_axes)
s = Script(100.0)
s.frame([(3, SLOT, 0), (3, TID, 3), (3, MX, 3000), (3, MY, 2000), (3, MP, 150), (1, BTN_TOUCH, 1)])
for pressure in (300, 410, 420, 421, 420, 419, 420):
    s.frame([(3, MP, pressure)], step=0.21)
s.frame([(3, TID, -1), (1, BTN_TOUCH, 0)])
write("grams-pad.one-object.evemu", pad, s)

# A guided calibration: a carrier resting at ~150 for a second, then +270 g, then +540 g in all, each held still.
s = Script(200.0)
s.frame([(3, SLOT, 0), (3, TID, 7), (3, MX, 3500), (3, MY, 2200), (3, MP, 150), (1, BTN_TOUCH, 1)], step=0.1)
for hold, level in ((150, 0), (420, 1), (690, 2)):
    for ramp in range(1, 4) if level else ():
        s.frame([(3, MP, hold - 270 + 90 * ramp)], step=0.05)
    for i in range(12):
        s.frame([(3, MP, hold + (i % 3) - 1)], step=0.1)
s.frame([(3, TID, -1), (1, BTN_TOUCH, 0)])
write("grams-pad.calibration.evemu", pad, s)

# Coins on a carrier: a carrier at ~150, then three coins of ~6 g each held still, with a dip between the second
# and the third (the carrier shifted lighter for a second): a guided calibration must count rises only.
s = Script(300.0)
s.frame([(3, SLOT, 0), (3, TID, 9), (3, MX, 3500), (3, MY, 2200), (3, MP, 150), (1, BTN_TOUCH, 1)], step=0.1)
for level in (150, 156, 162, 140, 168):
    for i in range(10):
        s.frame([(3, MP, level + (i % 2))], step=0.1)
s.frame([(3, TID, -1), (1, BTN_TOUCH, 0)])
write("grams-pad.coins.evemu", pad, s)

# A carrier tare: a spoon resting at ~150 for a second, lifted, loaded with 270 g and put back 1 mm (40 units) from
# where it lifted, held still at ~420; then a second object elsewhere. A guided calibration must refuse it (the
# carrier lifted between references); `weigh --carrier` reads the 270 g.
s = Script(400.0)
s.frame([(3, SLOT, 0), (3, TID, 21), (3, MX, 3500), (3, MY, 2200), (3, MP, 150), (1, BTN_TOUCH, 1)], step=0.1)
for i in range(10):
    s.frame([(3, MP, 150 + (i % 2))], step=0.1)
s.frame([(3, TID, -1), (1, BTN_TOUCH, 0)], step=0.8)
s.frame([(3, TID, 22), (3, MX, 3540), (3, MY, 2200), (3, MP, 400), (1, BTN_TOUCH, 1)], step=0.05)
for i in range(12):
    s.frame([(3, MP, 420 + (i % 2))], step=0.1)
s.frame([(3, SLOT, 1), (3, TID, 23), (3, MX, 800), (3, MY, 900), (3, MP, 100)], step=0.1)
for i in range(8):
    s.frame([(3, MP, 100 + (i % 2))], step=0.1)
s.frame([(3, TID, -1), (3, SLOT, 0), (3, TID, -1), (1, BTN_TOUCH, 0)])
write("grams-pad.carrier.evemu", pad, s)

# The carrier calibration of the issue "Weighing truth": a carrier resting at 40 units, then 1, 2 and 4 US quarters
# on it (5.67 g each) at 60, 80 and 120 units, each held still with +-1 unit of noise (mean: the level), on a Magic Trackpad 2 (no
# resolution: grams need a calibration). The increments give 0.2835 g per unit; the carrier weighs 11.34 g.
s = Script(500.0)
s.frame([(3, SLOT, 0), (3, TID, 31), (3, MX, 0), (3, MY, 0), (3, MP, 40), (1, BTN_TOUCH, 1)], step=0.1)
last = 40
for level in (40, 60, 80, 120):
    for ramp in range(1, 4) if level != last else ():
        s.frame([(3, MP, last + (level - last) * ramp // 4)], step=0.05)
    for i in range(12):
        s.frame([(3, MP, level + (0, 1, -1)[i % 3])], step=0.1)
    last = level
s.frame([(3, TID, -1), (1, BTN_TOUCH, 0)])
write("magic-trackpad-2.coins-on-carrier.evemu", trackpad, s)

# After it, an 8.5 g object placed directly on the same pad: 30 units, held still with +-1 unit of noise.
s = Script(600.0)
s.frame([(3, SLOT, 0), (3, TID, 41), (3, MX, 0), (3, MY, 0), (3, MP, 30), (1, BTN_TOUCH, 1)], step=0.1)
for i in range(12):
    s.frame([(3, MP, 30 + (0, 1, -1)[i % 3])], step=0.1)
s.frame([(3, TID, -1), (1, BTN_TOUCH, 0)])
write("magic-trackpad-2.object-direct.evemu", trackpad, s)

# A contact-size touchscreen (Tests/Fixtures/Devices/touchscreen-contact-size.desc: ABS_MT_PRESSURE 0..255 with no
# rule saying it is force): a finger resting at ~58 units (22.7%) for 1.2 s, then lifted.
TOUCH_MAJOR, TOUCH_MINOR, INPUT_PROP_DIRECT = 0x30, 0x31, 0x01
screen_axes = {ABS_X: (0, 3327, 0, 0, 12), ABS_Y: (0, 1871, 0, 0, 12), SLOT: (0, 9, 0, 0, 0),
               TOUCH_MAJOR: (0, 255, 0, 0, 0), TOUCH_MINOR: (0, 255, 0, 0, 0), MX: (0, 3327, 0, 0, 12),
               MY: (0, 1871, 0, 0, 12), TID: (0, 65535, 0, 0, 0), MP: (0, 255, 0, 0, 0)}
screen = description("ELAN Touchscreen", 0x18, 0x04F3, 0x2A1C, [INPUT_PROP_DIRECT], [BTN_TOUCH], screen_axes)
s = Script(700.0)
s.frame([(3, SLOT, 0), (3, TID, 51), (3, MX, 1600), (3, MY, 900), (3, TOUCH_MAJOR, 40), (3, MP, 58),
         (1, BTN_TOUCH, 1), (3, ABS_X, 1600), (3, ABS_Y, 900)], step=0.1)
for i in range(12):
    s.frame([(3, MP, 58 + (0, 1, -1)[i % 3])], step=0.1)
s.frame([(3, TID, -1), (1, BTN_TOUCH, 0)])
write("touchscreen-contact-size.finger.evemu", screen, s)

# A touchpad whose ABS_MT_PRESSURE declares exactly its Y axis' range (0..1983, as a PixArt pad did): bogus, since a
# range copied from a position axis carries no pressure scale. A finger rests on it at 700 for 1.2 s.
bogus_axes = {ABS_X: (0, 3199, 0, 0, 31), ABS_Y: (0, 1983, 0, 0, 31), SLOT: (0, 4, 0, 0, 0),
              MX: (0, 3199, 0, 0, 31), MY: (0, 1983, 0, 0, 31), TID: (0, 65535, 0, 0, 0), MP: (0, 1983, 0, 0, 0)}
bogus = description("PIXA3854:00 093A:0274 Touchpad", 0x18, 0x093A, 0x0274, [0, 2],
                    [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH], bogus_axes)
s = Script(800.0)
s.frame([(3, SLOT, 0), (3, TID, 61), (3, MX, 1600), (3, MY, 900), (3, MP, 700), (1, BTN_TOUCH, 1)], step=0.1)
for i in range(12):
    s.frame([(3, MP, 700 + (0, 1, -1)[i % 3])], step=0.1)
s.frame([(3, TID, -1), (1, BTN_TOUCH, 0)])
write("bogus-pressure.finger.evemu", bogus, s)
