"""Deterministic evemu event streams of moving, pressing contacts (multitouch protocol B), for benchmarks.

Each frame reports every contact with a new position and a new pressure, in the order the kernel's input core
emits them for a Magic Trackpad 2 (hid-magicmouse): per touched slot `ABS_MT_SLOT` (when it changes),
`ABS_MT_TRACKING_ID` (only when a contact starts or ends), `ABS_MT_POSITION_X`, `ABS_MT_POSITION_Y`,
`ABS_MT_PRESSURE`; then the pointer emulation of `input_mt_report_pointer_emulation` (`BTN_TOUCH` and the
`BTN_TOOL_*` finger count when they change, `ABS_X`, `ABS_Y`, `ABS_PRESSURE` of the oldest contact); then
`SYN_REPORT`. Like the kernel, it never repeats a value that did not change. The first frame puts every contact
down, the last lifts them all, so a reader's last frame has no contacts.

Usage: python3 Benchmarks/evemu_stream.py --frames N --contacts K --rate HZ [--same-time] OUTPUT
(with --description DESC the output is a full recording, description then events, for `plumometer replay`).
"""

import argparse
import math

EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0x00
ABS_X, ABS_Y, ABS_PRESSURE = 0x00, 0x01, 0x18
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 0x2F, 0x35, 0x36
ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x39, 0x3A
BTN_TOUCH = 0x14A
# BTN_TOOL_FINGER, DOUBLETAP, TRIPLETAP, QUADTAP, QUINTTAP: the kernel's finger-count keys (5 or more: QUINTTAP).
FINGER_TOOLS = [0x145, 0x14D, 0x14E, 0x14F, 0x148]

# The Magic Trackpad 2's ranges (Tests/Fixtures/Devices/apple-magic-trackpad-2-usb.desc).
X_RANGE = (-3678, 3934)
Y_RANGE = (-2478, 2587)
PRESSURE_RANGE = (0, 253)


def tool_for(count):
    return FINGER_TOOLS[min(count, 5) - 1] if count > 0 else None


class Contact:
    """One contact circling its own centre and pressing with a slowly varying force."""

    def __init__(self, index, count):
        self.slot = index
        self.tracking_id = 100 + index
        width = X_RANGE[1] - X_RANGE[0]
        height = Y_RANGE[1] - Y_RANGE[0]
        columns = max(1, math.ceil(math.sqrt(count)))
        rows = max(1, math.ceil(count / columns))
        column, row = index % columns, index // columns
        self.centre = (
            X_RANGE[0] + width * (column + 0.5) / columns,
            Y_RANGE[0] + height * (row + 0.5) / rows,
        )
        self.radius = min(width / columns, height / rows) / 4
        self.base_pressure = 40 + (index * 37) % 150
        self.phase = index * 0.7
        self.values = {}

    def position(self, frame):
        angle = self.phase + frame * 0.05
        # Slow circles with a faster wobble, so every frame moves the contact by at least a unit or two.
        x = self.centre[0] + self.radius * math.cos(angle) + 3 * math.sin(frame * 1.3 + self.phase)
        y = self.centre[1] + self.radius * math.sin(angle) + 3 * math.cos(frame * 1.7 + self.phase)
        return int(round(x)), int(round(y))

    def pressure(self, frame):
        value = self.base_pressure + 30 * math.sin(frame * 0.013 + self.phase) + 5 * math.sin(frame * 0.9)
        return int(round(min(PRESSURE_RANGE[1], max(1, value))))

    def changes(self, frame):
        """The axis values that differ from the previous frame (every one, by construction, as on a real pad)."""
        x, y = self.position(frame)
        pressure = self.pressure(frame)
        wanted = [(ABS_MT_POSITION_X, x), (ABS_MT_POSITION_Y, y), (ABS_MT_PRESSURE, pressure)]
        result = []
        for axis, value in wanted:
            if self.values.get(axis) == value:
                # Keep "positions and pressures change every frame" literally true.
                value += 1 if frame % 2 == 0 else -1
            self.values[axis] = value
            result.append((axis, value))
        return result


def frames(frame_count, contact_count):
    """Yields each frame as a list of (type, code, value), SYN_REPORT last."""
    contacts = [Contact(index, contact_count) for index in range(contact_count)]
    current_slot = 0
    pointer = {}
    for frame in range(frame_count):
        last = frame == frame_count - 1
        events = []
        for contact in contacts:
            if contact.slot != current_slot:
                events.append((EV_ABS, ABS_MT_SLOT, contact.slot))
                current_slot = contact.slot
            if last:
                events.append((EV_ABS, ABS_MT_TRACKING_ID, -1))
                continue
            if frame == 0:
                events.append((EV_ABS, ABS_MT_TRACKING_ID, contact.tracking_id))
            events.extend((EV_ABS, axis, value) for axis, value in contact.changes(frame))
        if frame == 0:
            events.append((EV_KEY, BTN_TOUCH, 1))
            events.append((EV_KEY, tool_for(contact_count), 1))
        elif last:
            events.append((EV_KEY, BTN_TOUCH, 0))
            events.append((EV_KEY, tool_for(contact_count), 0))
        # Pointer emulation follows the oldest contact (slot 0).
        oldest = contacts[0].values
        emulated = {ABS_PRESSURE: 0} if last else {
            ABS_X: oldest[ABS_MT_POSITION_X],
            ABS_Y: oldest[ABS_MT_POSITION_Y],
            ABS_PRESSURE: oldest[ABS_MT_PRESSURE],
        }
        for axis in (ABS_X, ABS_Y, ABS_PRESSURE):
            if axis in emulated and pointer.get(axis) != emulated[axis]:
                events.append((EV_ABS, axis, emulated[axis]))
                pointer[axis] = emulated[axis]
        events.append((EV_SYN, SYN_REPORT, 0))
        yield events


def write_stream(path, frame_count, contact_count, rate, same_time, description=None, start=1.0):
    """Writes the stream; returns (events, frames). With `same_time` every event has the time `start`."""
    event_count = 0
    interval_us = int(round(1_000_000 / rate))
    start_us = int(round(start * 1_000_000))
    with open(path, "w", encoding="ascii") as handle:
        if description is not None:
            with open(description, encoding="utf-8") as source:
                handle.write(source.read())
        lines = []
        for index, events in enumerate(frames(frame_count, contact_count)):
            time_us = start_us if same_time else start_us + index * interval_us
            stamp = "E: %d.%06d " % (time_us // 1_000_000, time_us % 1_000_000)
            for event_type, code, value in events:
                lines.append("%s%04x %04x %d\n" % (stamp, event_type, code, value))
            event_count += len(events)
            if len(lines) > 65536:
                handle.write("".join(lines))
                lines.clear()
        handle.write("".join(lines))
    return event_count, frame_count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, required=True)
    parser.add_argument("--contacts", type=int, required=True)
    parser.add_argument("--rate", type=float, default=1000, help="reports per second (default 1000)")
    parser.add_argument("--same-time", action="store_true", help="give every event the same timestamp")
    parser.add_argument("--description", help="an evemu .desc to put before the events (a full recording)")
    parser.add_argument("output")
    arguments = parser.parse_args()
    if arguments.frames < 2 or not 1 <= arguments.contacts <= 16:
        parser.error("need at least 2 frames and 1 to 16 contacts")
    events, frame_count = write_stream(
        arguments.output, arguments.frames, arguments.contacts, arguments.rate, arguments.same_time,
        arguments.description,
    )
    print("%d events in %d frames" % (events, frame_count))


if __name__ == "__main__":
    main()
