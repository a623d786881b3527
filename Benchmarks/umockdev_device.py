"""An emulated evdev device for umockdev, written from an evemu device description (`.desc`).

The benchmark needs the same `.umockdev` (sysfs and udev record) and `.ioctl` (answers to the evdev ioctls
libevdev 1.13 issues at open) files that the test suite writes with Sources/PlumometerTestSupport/
UmockdevDevice.swift. This is a line-for-line port of that writer so that the benchmark runs without building
the test targets; `python3 Benchmarks/umockdev_device.py DESC NODE DIR` writes the pair for inspection.
"""

import os
import sys
from dataclasses import dataclass, field

# libevdev 1.13 asks EVIOCGMTSLOTS for this many slots, and umockdev matches an ioctl by its exact size.
REQUESTED_SLOTS = 256
ABS_MT_SLOT = 0x2F
ABS_MT_TRACKING_ID = 0x39
EV_KEY, EV_ABS, EV_REP = 0x01, 0x03, 0x14


def is_multitouch(axis):
    return 0x2F <= axis <= 0x3D


@dataclass
class Description:
    """The parts of an evemu description the emulation needs."""

    name: str = ""
    bus: int = 0
    vendor: int = 0
    product: int = 0
    version: int = 0
    properties: set = field(default_factory=set)
    # event type -> set of codes; a type is present only when it has at least one code (as in the Swift reader).
    codes: dict = field(default_factory=dict)
    # axis -> (minimum, maximum, fuzz, flat, resolution)
    axes: dict = field(default_factory=dict)

    @property
    def slot_count(self):
        slot = self.axes.get(ABS_MT_SLOT)
        if slot is None or slot[1] < slot[0]:
            return None
        return slot[1] - slot[0] + 1


def read_description(path):
    """Parses the `N:`, `I:`, `P:`, `B:` and `A:` lines of an evemu `.desc` file."""
    description = Description()
    type_offsets = {}
    property_offset = 0
    with open(path, encoding="utf-8") as handle:
        for raw in handle:
            line = raw.split("#", 1)[0].rstrip("\n") if not raw.startswith("N:") else raw.rstrip("\n")
            if line.startswith("N:"):
                description.name = line[2:].strip()
            elif line.startswith("I:"):
                bus, vendor, product, version = (int(value, 16) for value in line[2:].split())
                description.bus, description.vendor = bus, vendor
                description.product, description.version = product, version
            elif line.startswith("P:"):
                for index, value in enumerate(line[2:].split()):
                    byte = int(value, 16)
                    for bit in range(8):
                        if byte & (1 << bit):
                            description.properties.add((property_offset + index) * 8 + bit)
                property_offset += 8
            elif line.startswith("B:"):
                fields = [int(value, 16) for value in line[2:].split()]
                event_type, mask = fields[0], fields[1:]
                offset = type_offsets.get(event_type, 0)
                for index, byte in enumerate(mask):
                    for bit in range(8):
                        if byte & (1 << bit) and event_type != 0:
                            description.codes.setdefault(event_type, set()).add((offset + index) * 8 + bit)
                type_offsets[event_type] = offset + 8
            elif line.startswith("A:"):
                fields = line[2:].split()
                numbers = [int(value) for value in fields[1:]]
                resolution = numbers[4] if len(numbers) > 4 else 0
                description.axes[int(fields[0], 16)] = (numbers[0], numbers[1], numbers[2], numbers[3], resolution)
    return description


def _le16(value):
    return [value & 0xFF, (value >> 8) & 0xFF]


def _le32(value):
    bits = value & 0xFFFFFFFF
    return [(bits >> shift) & 0xFF for shift in (0, 8, 16, 24)]


def _hex(data):
    return "".join("%02X" % byte for byte in data)


def _bitmask(bits, size):
    result = [0] * size
    for bit in bits:
        if bit // 8 < size:
            result[bit // 8] |= 1 << (bit % 8)
    return result


def _string_ioctl(name, text):
    data = list(text.encode("utf-8")[:254])
    length = len(data) + 1
    data += [0] * (255 - len(data))
    return "%s %d %s" % (name, length, _hex(data))


def _sysfs_bitmap(bits, maximum):
    count = maximum // 64 + 1
    words = [0] * count
    for bit in bits:
        if bit <= maximum:
            words[bit // 64] |= 1 << (bit % 64)
    top = count - 1
    while top > 0 and words[top] == 0:
        top -= 1
    return " ".join("%x" % words[index] for index in range(top, -1, -1))


def event_number(node):
    digits = ""
    for character in reversed(node):
        if not character.isdigit():
            break
        digits = character + digits
    return int(digits) if digits else 0


def ioctl_text(description, node, slot_values=(), keys_down=()):
    """The umockdev ioctl tree: `@DEV` and one line per ioctl, `NAME(arg) result hexdata`."""
    lines = ["@DEV " + node]
    types = set(description.codes) | {0}
    lines.append("EVIOCGBIT(0) 8 " + _hex(_bitmask(types, 8)))
    lines.append(_string_ioctl("EVIOCGNAME(0)", description.name))
    lines.append(_string_ioctl("EVIOCGPHYS(0)", "plumometer/%d" % event_number(node)))
    lines.append(
        "EVIOCGID 0 "
        + _hex(_le16(description.bus) + _le16(description.vendor) + _le16(description.product) + _le16(description.version))
    )
    lines.append("EVIOCGVERSION 0 01000100")
    lines.append("EVIOCGPROP(0) 8 " + _hex(_bitmask(description.properties, 8)))
    for event_type, size in ((0x02, 8), (0x03, 8), (0x11, 8), (0x01, 96), (0x05, 8), (0x04, 8), (0x15, 16), (0x12, 8)):
        lines.append("EVIOCGBIT(%d) %d %s" % (event_type, size, _hex(_bitmask(description.codes.get(event_type, ()), size))))
    lines.append("EVIOCGKEY(0) 96 " + _hex(_bitmask(set(keys_down), 96)))
    lines.append("EVIOCGLED(0) 8 " + _hex([0] * 8))
    lines.append("EVIOCGSW(0) 8 " + _hex([0] * 8))
    if EV_REP in description.codes:
        lines.append("EVIOCGREP 0 " + _hex(_le32(250) + _le32(33)))
    for axis in sorted(description.axes):
        minimum, maximum, fuzz, flat, resolution = description.axes[axis]
        name = "EVIOCGABS" if axis == 0 else "EVIOCGABS(%d)" % axis
        data = []
        for value in (0, minimum, maximum, fuzz, flat, resolution):
            data += _le32(value)
        lines.append("%s 0 %s" % (name, _hex(data)))
    slot_count = description.slot_count
    if slot_count is not None:
        for axis in sorted(description.axes):
            if not is_multitouch(axis) or axis == ABS_MT_SLOT:
                continue
            data = _le32(axis)
            for slot in range(REQUESTED_SLOTS):
                empty = -1 if axis == ABS_MT_TRACKING_ID else 0
                value = empty
                if slot < slot_count and slot < len(slot_values):
                    value = slot_values[slot].get(axis, empty)
                data += _le32(value)
            lines.append("EVIOCGMTSLOTS(0) 0 " + _hex(data))
    return "\n".join(lines) + "\n"


def umockdev_text(description, node, udev_properties):
    """The sysfs and udev record: the event node and its parent input device."""
    number = event_number(node)
    input_path = "/devices/virtual/input/input%d" % number
    minor = 64 + number
    extra = ["E: %s=%s" % (key, udev_properties[key]) for key in sorted(udev_properties)]
    event = [
        "P: %s/event%d" % (input_path, number),
        "N: input/event%d" % number,
        "E: DEVNAME=" + node,
        "E: MAJOR=13",
        "E: MINOR=%d" % minor,
        "E: SUBSYSTEM=input",
        "E: ID_INPUT=1",
    ]
    event += [line for line in extra if line != "E: ID_INPUT=1"]
    event += ["A: dev=13:%d" % minor, "L: device=../../input%d" % number]
    product = "/".join(
        "%x" % value for value in (description.bus, description.vendor, description.product, description.version)
    )
    types = set(description.codes) | {0}
    record = ["P: " + input_path]
    attributes = []
    masks = [
        ("EV", "ev", types, 0x1F),
        ("KEY", "key", description.codes.get(0x01, set()), 0x2FF),
        ("REL", "rel", description.codes.get(0x02, set()), 0x0F),
        ("ABS", "abs", description.codes.get(0x03, set()), 0x3F),
        ("MSC", "msc", description.codes.get(0x04, set()), 0x07),
        ("LED", "led", description.codes.get(0x11, set()), 0x0F),
        ("SND", "snd", description.codes.get(0x12, set()), 0x07),
        ("FF", "ff", description.codes.get(0x15, set()), 0x7F),
        ("SW", "sw", description.codes.get(0x05, set()), 0x10),
    ]
    for prop, attribute, bits, maximum in masks:
        text = _sysfs_bitmap(bits, maximum)
        if prop == "EV" or bits:
            record.append("E: %s=%s" % (prop, text))
        attributes.append("A: capabilities/%s=%s" % (attribute, text))
    properties = _sysfs_bitmap(description.properties, 0x1F)
    record += [
        'E: NAME="%s"' % description.name,
        'E: PHYS="plumometer/%d"' % number,
        "E: PRODUCT=" + product,
        "E: PROP=" + properties,
        "E: SUBSYSTEM=input",
        "E: ID_INPUT=1",
    ]
    record += [line for line in extra if line != "E: ID_INPUT=1"]
    record += attributes
    record += [
        "A: name=" + description.name,
        "A: phys=plumometer/%d" % number,
        "A: properties=" + properties,
        "A: uniq=",
        "A: id/bustype=%04x" % description.bus,
        "A: id/vendor=%04x" % description.vendor,
        "A: id/product=%04x" % description.product,
        "A: id/version=%04x" % description.version,
    ]
    return "\n".join(event) + "\n\n" + "\n".join(record) + "\n"


def write_device(description, node, directory, base_name="device", udev_properties=None):
    """Writes `<base>.umockdev` and `<base>.ioctl`; returns the `umockdev-run` arguments that load them."""
    if udev_properties is None:
        udev_properties = {"ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1"}
    os.makedirs(directory, exist_ok=True)
    device_path = os.path.join(directory, base_name + ".umockdev")
    ioctl_path = os.path.join(directory, base_name + ".ioctl")
    with open(device_path, "w", encoding="utf-8") as handle:
        handle.write(umockdev_text(description, node, udev_properties))
    with open(ioctl_path, "w", encoding="utf-8") as handle:
        handle.write(ioctl_text(description, node))
    return ["-d", device_path, "-i", "%s=%s" % (node, ioctl_path)]


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: umockdev_device.py DEVICE.desc /dev/input/eventN OUTPUT_DIRECTORY")
    print(" ".join(write_device(read_description(sys.argv[1]), sys.argv[2], sys.argv[3])))
