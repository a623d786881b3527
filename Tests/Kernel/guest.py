"""The kernel tier's guest: runs inside the VM that scripts/test-kernel boots, as root, with the host's filesystem.

Every scenario drives a real kernel driver (through uhid or uinput) and reads it with the built plumometer. The
verdicts are lines on stdout that start with "KT ": `KT PASS name`, `KT FAIL name: why`, `KT DRIVERS a b c`,
`KT DONE`; anything else is log. Run one scenario by hand in a guest:

    vng --run /var/cache/plumometer-kernels/kernels/7.3/*/vmlinuz --disable-kvm --cpus 2 --memory 1G --user root \
        --rw --exec "/usr/bin/python3 Tests/Kernel/guest.py --binary .build/debug/plumometer --scenario mt2"
"""

import argparse
import collections
import fcntl
import json
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import hid_devices  # noqa: E402
import plumo  # noqa: E402
import uinput  # noqa: E402
from plumo import Failure, Stream, check, pressures  # noqa: E402


class Starved(Exception):
    """The guest was starved long enough for a kernel timer to change what the scenario checks: run it again."""

SCENARIOS = []
SCRATCH = "/tmp"
# How often a scenario runs when the guest was starved past a kernel timer (a loaded host under TCG).
STARVED_ATTEMPTS = 5
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DRIVERS = set()


def scenario(name, since=None):
    """Register a scenario; `since` (major, minor) is the first kernel where it applies, as the issue specifies."""

    def register(function):
        SCENARIOS.append((name, since, function))
        return function

    return register


def kernel_version():
    parts = os.uname().release.split(".")
    return int(parts[0]), int(parts[1].split("-")[0].split("+")[0])


def log(*words):
    print(*words, flush=True)


def settle_udev():
    subprocess.run(["udevadm", "settle", "-t", "20"], check=False)


def driver_of(node):
    """The HID driver bound to the device behind an event node (its hid device's driver link)."""
    hid = os.path.realpath(f"/sys/class/input/{os.path.basename(node)}/device/device")
    link = os.path.join(hid, "driver")
    return os.path.basename(os.path.realpath(link)) if os.path.exists(link) else "none"


def pick_node(device, want_name_suffix=None, need_pressure=True):
    """The event node of a uhid device with a pressure axis (hid-multitouch makes one per application)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for node, name in device.uhid.event_node():
            caps = open(f"/sys/class/input/{os.path.basename(node)}/device/capabilities/abs").read().split()
            abs_bits = 0
            for word in caps:
                abs_bits = (abs_bits << 64) | int(word, 16)
            has_pressure = bool(abs_bits & (1 << 0x3A)) or bool(abs_bits & (1 << 0x18))
            if need_pressure and not has_pressure:
                continue
            if want_name_suffix and not name.endswith(want_name_suffix):
                continue
            settle_udev()
            return node, name
        time.sleep(0.1)
    found = device.uhid.event_node()
    raise Failure(f"no event node with a pressure axis among {found}")


def properties(node):
    text = open(f"/sys/class/input/{os.path.basename(node)}/device/properties").read().split()
    value = 0
    for word in text:
        value = (value << 64) | int(word, 16)
    return value


# --- what list, probe --static and the stream's device record say ---------------------------------------------------
def check_descriptions(node, name, device, id_prefix):
    lo, hi = device.pressure_range
    listed = [d for d in plumo.run_json("list", "-f", "json") if d.get("node") == node]
    check(len(listed) == 1, f"list -f json does not show {node} once: {listed}")
    entry = listed[0]
    check(entry.get("usable") is True, f"list: {node} not usable: {entry}")
    check(entry.get("name") == name, f"list: name {entry.get('name')!r}, the kernel's is {name!r}")
    check(str(entry.get("id", "")).startswith(id_prefix), f"list: id {entry.get('id')!r}, expected {id_prefix}...")
    axis = entry.get("pressure") or {}
    check(
        (axis.get("min"), axis.get("max")) == (lo, hi),
        f"list: pressure range {axis}, the driver declares {lo}..{hi}",
    )
    probe = plumo.run_json("probe", "--static", "-f", "json", "-d", node)
    check(probe.get("device", {}).get("path") == node, f"probe --static: device {probe.get('device')}, not {node}")
    check(probe.get("device", {}).get("name") == name, f"probe --static: name {probe.get('device')}")
    check(
        probe.get("static_verdict") not in (None, "none", "bogus"),
        f"probe --static: verdict {probe.get('static_verdict')!r}",
    )
    return entry, probe


def check_device_record(record, node, name, device, id_prefix):
    check(record is not None and record.get("type") == "device", f"stream: first record is not a device: {record}")
    lo, hi = device.pressure_range
    check(record.get("name") == name, f"stream device record: name {record.get('name')!r}, not {name!r}")
    check(record.get("device") == node, f"stream device record: device {record.get('device')!r}, not {node}")
    check(str(record.get("id", "")).startswith(id_prefix), f"stream device record: id {record.get('id')!r}")
    axis = record.get("pressure") or {}
    check((axis.get("min"), axis.get("max")) == (lo, hi), f"stream device record: pressure {axis}, not {lo}..{hi}")


# --- a scripted session, asserted frame by frame ---------------------------------------------------------------------
def run_session(device, stream, steps):
    """Play steps [(what, {finger: (x, y, pressure)}, heaviest finger or None)] and check every frame.

    After each step: the first frame that changes the pressures carries exactly the fingers of the step with their
    pressures, positions and percent of the axis; then, with the device sending nothing new, the readings settle: the
    pressures stay as they are, every contact becomes stable, the heaviest mark rests on the expected finger, and
    no record follows."""
    lo, hi = device.pressure_range
    finger_of = {}  # plumometer contact id -> finger
    before = {}
    frames = 0
    for what, fingers, heaviest in steps:
        device.touch(fingers)
        # The first frame whose pressures differ from the last state: stability ticks in between change nothing.
        deadline = time.monotonic() + 15
        while True:
            record = stream.next(max(0.1, deadline - time.monotonic()))
            check(record is not None, f"{what}: no frame within 15 s ({stream.tail()})")
            if record.get("type") != "frame":
                continue
            frames += 1
            if pressures(record) != before:
                break
        contacts = record["contacts"]
        new_ids = [c["id"] for c in contacts if c["id"] not in finger_of]
        placed = [f for f in fingers if f not in finger_of.values()]
        check(len(new_ids) == len(placed), f"{what}: new contacts {new_ids}, expected {len(placed)} ({contacts})")
        for cid, finger in zip(sorted(new_ids), sorted(placed)):
            finger_of[cid] = finger
        seen = {finger_of[c["id"]]: c for c in contacts}
        check(sorted(seen) == sorted(fingers), f"{what}: contacts {sorted(seen)}, expected {sorted(fingers)}")
        for finger, (x, y, pressure) in fingers.items():
            c = seen[finger]
            check(c["pressure"] == pressure, f"{what}: finger {finger} pressure {c['pressure']}, sent {pressure}")
            check((c["x"], c["y"]) == (x, y), f"{what}: finger {finger} at {(c['x'], c['y'])}, sent {(x, y)}")
            percent = round(100.0 * (pressure - lo) / (hi - lo), 1)
            check(abs(c["percent"] - percent) < 0.051, f"{what}: finger {finger} {c['percent']}%, expected {percent}%")
        before = pressures(record)
        # The rest: nothing sent; the state holds, becomes stable, the heaviest mark settles.
        last = record
        deadline = time.monotonic() + 10
        while fingers and not all(c.get("stable") for c in last["contacts"]):
            check(time.monotonic() < deadline, f"{what}: contacts never became stable: {last['contacts']}")
            record = stream.next(max(0.1, deadline - time.monotonic()))
            check(record is not None, f"{what}: no stability record within 10 s: {last['contacts']}")
            if record.get("type") != "frame":
                continue
            frames += 1
            check(pressures(record) == before, f"{what}: pressures moved while resting: {record['contacts']}")
            last = record
        extra = [r for r in stream.pending(0.6) if r.get("type") == "frame"]
        check(not extra, f"{what}: {len(extra)} frames while everything rested: {extra[:2]}")
        marked = [finger_of[c["id"]] for c in last["contacts"] if c.get("heaviest")]
        if heaviest is None:
            check(not marked, f"{what}: heaviest mark on {marked} with nothing down")
        else:
            check(marked == [heaviest], f"{what}: heaviest mark on {marked}, expected finger {heaviest}")
            ranked = sorted(last["contacts"], key=lambda c: c["rank"])
            check(
                [c["pressure"] for c in ranked] == sorted((c["pressure"] for c in ranked), reverse=True),
                f"{what}: ranks do not follow the pressures: {ranked}",
            )
    return frames


def pad_steps(device, light, medium, heavy, harder):
    """Three objects placed one by one, one pressed harder, one lifted, all lifted."""
    (x0, x1), (y0, y1) = device.x_range, device.y_range
    at = [(x0 + (x1 - x0) * k // 4, y0 + (y1 - y0) * (k % 2 + 1) // 3) for k in (1, 2, 3)]
    a = (*at[0], heavy)
    b = (*at[1], medium)
    c = (*at[2], light)
    b2 = (*at[1], harder)
    return [
        ("place 1", {1: a}, 1),
        ("place 2", {1: a, 2: b}, 1),
        ("place 3", {1: a, 2: b, 3: c}, 1),
        ("press 2 harder", {1: a, 2: b2, 3: c}, 2),
        ("lift 1", {2: b2, 3: c}, 2),
        ("lift all", {}, None),
    ]


def device_session(device, id_prefix, steps, name_suffix=None, expect_name=None, expect_prop=None):
    device.create()
    try:
        node, name = pick_node(device, name_suffix)
        DRIVERS.add(driver_of(node))
        if expect_name:
            check(name.startswith(expect_name), f"the kernel named it {name!r}, expected {expect_name!r}...")
        if expect_prop is not None:
            check(properties(node) & (1 << expect_prop), f"{node}: input property {expect_prop:#x} not set")
        t0 = time.monotonic()
        check_descriptions(node, name, device, id_prefix)
        t1 = time.monotonic()
        stream = Stream("-d", node)
        try:
            check_device_record(stream.next(20), node, name, device, id_prefix)
            t2 = time.monotonic()
            stream.pending(0.5)  # the state at open
            frames = run_session(device, stream, steps)
            t3 = time.monotonic()
        finally:
            status = stream.stop()
        check(status == 0, f"stream exited {status} on SIGINT: {stream.tail()}")
        log(f"  {name} on {node} ({driver_of(node)}): {frames} frames; list+probe {t1 - t0:.1f} s, "
            f"stream start {t2 - t1:.1f} s, session {t3 - t2:.1f} s, stop {time.monotonic() - t3:.1f} s")
    except Failure as failure:
        gap = getattr(device, "longest_gap", 0.0)
        if gap > 0.09:
            raise Starved(f"{failure} (the device's repeats were {gap * 1000:.0f} ms apart: the Win8 release timer)")
        raise
    finally:
        device.destroy()


@scenario("mt2-hid-magicmouse")
def mt2():
    device = hid_devices.MagicTrackpad2()
    device_session(
        device, "0005:004c:0265", pad_steps(device, 30, 60, 120, 220), expect_name="Apple Inc. Magic Trackpad"
    )
    check(device.uhid.set_reports, "hid-magicmouse never sent its SET_REPORT (multitouch mode) at probe")


@scenario("touchpad-hid-multitouch")
def touchpad():
    device = hid_devices.precision_touchpad(hid_devices.BUTTON_TYPE_CLICKPAD, "Precision Touchpad (uhid)")
    device_session(
        device, "0018:0488:108c", pad_steps(device, 3000, 7000, 12000, 25000), name_suffix="Touchpad", expect_prop=2
    )


@scenario("pressurepad-hid-multitouch", since=(6, 18))
def pressurepad():
    device = hid_devices.precision_touchpad(hid_devices.BUTTON_TYPE_PRESSUREPAD, "Pressure Pad (uhid)")
    device_session(
        device, "0018:0488:108c", pad_steps(device, 3000, 7000, 12000, 25000), name_suffix="Touchpad", expect_prop=7
    )


@scenario("touchscreen-hid-multitouch")
def touchscreen():
    device = hid_devices.touchscreen()
    device_session(device, "0003:1b96:0c01", pad_steps(device, 100, 250, 500, 900))


@scenario("pen-hid-generic")
def pen():
    device = hid_devices.PenTablet()
    (x0, x1), (y0, y1) = device.x_range, device.y_range
    steps = [
        ("pen down", {1: (5000, 4000, 1200)}, 1),
        ("pen harder", {1: (5000, 4000, 3000)}, 1),
        ("pen up", {}, None),
    ]
    device_session(device, "0003:1234:5678", steps)



# --- evdev's own behaviour, through uinput ---------------------------------------------------------------------------
def open_stream_on(node, *extra):
    stream = Stream("-d", node, *extra)
    record = stream.next(20)
    check(record is not None and record.get("type") == "device", f"stream {node}: no device record ({stream.tail()})")
    stream.pending(0.4)
    return stream


def wait_frame(stream, want, what, timeout=15):
    """The first frame whose raw pressures (sorted) are `want`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        record = stream.next(max(0.1, deadline - time.monotonic()))
        if record is None:
            break
        if record.get("type") == "frame" and sorted(pressures(record).values()) == sorted(want):
            return record
    raise Failure(f"{what}: no frame with pressures {sorted(want)} ({stream.tail()})")


@scenario("evdev-syn-dropped")
def syn_dropped():
    pad = uinput.Touchpad("KT Flooding Touchpad").create()
    try:
        settle_udev()
        stream = open_stream_on(pad.node)
        try:
            pad.frame({0: (1000, 1000, 50), 1: (3000, 2000, 80)})
            wait_frame(stream, [50, 80], "before the flood")
            os.kill(stream.proc.pid, signal.SIGSTOP)
            try:
                # Thousands of frames while the reader sleeps: evdev's client buffer overflows into SYN_DROPPED.
                for k in range(1500):
                    pad.frame({0: (1000 + k % 7, 1000, 60 + k % 100), 1: (3000, 2000, 80 + k % 50)})
                final = {0: (1111, 1222, 222), 2: (2500, 2500, 33)}  # slot 1 lifted, slot 2 placed
                pad.frame(final)
            finally:
                os.kill(stream.proc.pid, signal.SIGCONT)
            records = stream.pending(2.0)
            frames = [r for r in records if r.get("type") == "frame"]
            check(frames, f"no frame after SIGCONT ({stream.tail()})")
            resyncs = [f for f in frames if f.get("resync")]
            check(resyncs, f"no resync frame after the overflow among {len(frames)} frames")
            last = frames[-1]
            check(
                sorted(pressures(last).values()) == [33, 222],
                f"after the resync the last frame is {last['contacts']}, the true state is pressures 33 and 222",
            )
            spots = sorted((c["x"], c["y"], c["pressure"]) for c in last["contacts"])
            check(spots == [(1111, 1222, 222), (2500, 2500, 33)], f"after the resync: {spots}")
            log(f"  {len(frames)} frames after SIGCONT, {len(resyncs)} marked resync")
        finally:
            status = stream.stop()
        check(status == 0, f"stream exited {status}")
    finally:
        pad.destroy()


@scenario("evdev-grab")
def grab():
    pad = uinput.Touchpad("KT Grabbed Touchpad").create()
    try:
        settle_udev()
        grabber = open_stream_on(pad.node, "--grab")
        other = open_stream_on(pad.node)
        try:
            pad.frame({0: (1000, 1000, 70)})
            wait_frame(grabber, [70], "the grabbing reader")
            pad.frame({0: (1000, 1000, 90)})
            wait_frame(grabber, [90], "the grabbing reader")
            seen = [r for r in other.pending(1.0) if r.get("type") == "frame" and r["contacts"]]
            check(not seen, f"another reader saw {len(seen)} frames while the device was grabbed: {seen[:1]}")
        finally:
            grabber.stop()
        # The grab ends with its reader. The other reader missed the touch's tracking id while it was grabbed
        # (evdev does not resync a reader after a grab), so the touch is lifted and placed again: now both plain
        # readers see every frame.
        pad.frame({})
        second = open_stream_on(pad.node)
        try:
            for pressure in (40, 45, 120):
                pad.frame({0: (1500, 1500, pressure)})
                wait_frame(other, [pressure], "reader 1 without grab")
                wait_frame(second, [pressure], "reader 2 without grab")
        finally:
            second.stop()
            other.stop()
    finally:
        pad.destroy()


@scenario("keyboard-never-opened")
def keyboard_never_opened():
    axes = {
        uinput.ABS_MT_SLOT: (0, 4, 0),
        uinput.ABS_MT_POSITION_X: (0, 4000, 40),
        uinput.ABS_MT_POSITION_Y: (0, 3000, 40),
        uinput.ABS_MT_TRACKING_ID: (0, 65535, 0),
        uinput.ABS_MT_PRESSURE: (0, 255, 0),
    }
    keys = uinput.KEYBOARD_KEYS + [uinput.BTN_TOUCH, uinput.BTN_TOOL_FINGER]
    keyboard = uinput.UInputDevice("KT Keyboard With Touch Surface", keys, axes).create()
    try:
        settle_udev()
        kind = subprocess.run(["udevadm", "info", keyboard.node], capture_output=True, text=True).stdout
        check("ID_INPUT_KEYBOARD=1" in kind, f"udev does not call {keyboard.node} a keyboard: {kind}")
        watch = uinput.Inotify()
        watch.watch(keyboard.node)
        os.close(os.open(keyboard.node, os.O_RDONLY))
        check(watch.opens() == 1, "the IN_OPEN watch did not see an open of our own")
        commands = [
            ["list"],
            ["list", "--all"],
            ["list", "-f", "json"],
            ["probe", "--static"],
            ["stream", "-f", "jsonl", "--duration", "1"],
            ["weigh", "--timeout", "1"],
            ["stream", "-f", "jsonl", "--duration", "1", "-d", "KT Keyboard"],
            ["stream", "-f", "jsonl", "--duration", "1", "-d", keyboard.node],
            ["probe", "--static", "-d", keyboard.node],
            ["record", "-d", keyboard.node, "--duration", "1", "-o", os.path.join(SCRATCH, "keyboard.evemu")],
        ]
        for args in commands:
            status, _out, err = plumo.run(*args, timeout=60)
            opened = watch.opens()
            check(opened == 0, f"plumometer {' '.join(args)} opened the keyboard {opened} times (exit {status})")
            log(f"  plumometer {' '.join(args)}: exit {status}, keyboard not opened: {err.strip()[:120]}")
    finally:
        keyboard.destroy()


def fd_targets(pid):
    """What each open descriptor of `pid` names (a file, `socket:[N]`, `anon_inode:[eventfd]`, ...)."""
    targets = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            targets.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except FileNotFoundError:
            pass  # closed while we looked
    return sorted(targets)


def settled_descriptors(pid, gaps=(0.011, 0.023, 0.037, 0.051)):
    """The descriptors `pid` holds between moments of work: the fewest seen in looks `gaps` seconds apart (uneven,
    so no periodic work is seen in the same phase each time), and what the other looks saw besides (a descriptor
    open for a moment, such as the device's just after its `removed` record and before its close, is not a leak; a
    leaked one is in every look)."""
    looks = [fd_targets(pid)]
    for gap in gaps:
        time.sleep(gap)
        looks.append(fd_targets(pid))
    fewest = min(looks, key=len)
    held = collections.Counter(fewest)
    passing = sorted({target for look in looks for target in collections.Counter(look) - held})
    return fewest, passing


@scenario("hotplug")
def hotplug():
    cycles = int(os.environ.get("KT_HOTPLUG_CYCLES", "24"))
    stream = Stream("--wait", "-d", "KT Hotplug Touchpad")
    counts = []
    held = steady = []
    try:
        time.sleep(1.0)
        check(stream.proc.poll() is None, f"stream --wait exited {stream.proc.returncode}: {stream.tail()}")
        for cycle in range(cycles):
            pad = uinput.Touchpad("KT Hotplug Touchpad").create()
            try:
                record = stream.next_of("device", 20)
                check(record is not None, f"cycle {cycle}: the device was not picked up ({stream.tail()})")
                pressure = 10 + cycle * 5
                pad.frame({0: (2000, 1500, pressure)})
                wait_frame(stream, [pressure], f"cycle {cycle}")
                pad.frame({})
                wait_frame(stream, [], f"cycle {cycle} lift")
            finally:
                pad.destroy()
            record = stream.next_of("removed", 20)
            check(record is not None, f"cycle {cycle}: no 'removed' record ({stream.tail()})")
            held, passing = settled_descriptors(stream.proc.pid)
            counts.append(len(held))
            if passing:
                log(f"  cycle {cycle}: open for a moment besides the {len(held)} held: {passing}")
            if cycle == 2:
                steady = held
        check(
            len(set(counts[2:])) == 1,
            f"descriptors not flat over {cycles} cycles: {counts}; held at cycle 2: {steady}, at the end: {held}",
        )
        log(f"  {cycles} cycles, descriptors {counts[0]}..{counts[-1]}")
    finally:
        status = stream.stop()
    check(status == 0, f"stream exited {status}")


@scenario("udev-rule")
def udev_rule():
    rules = os.path.join(REPO, "udev", "70-plumometer.rules")
    os.makedirs("/run/udev/rules.d", exist_ok=True)  # the guest's own: /run is a tmpfs in the VM
    target = "/run/udev/rules.d/70-plumometer.rules"
    with open(rules) as source, open(target, "w") as copy:
        copy.write(source.read())
    subprocess.run(["udevadm", "control", "--reload"], check=True)
    pressure = dict(uinput.Touchpad("x").axes)
    no_pressure = {k: v for k, v in pressure.items() if k not in (uinput.ABS_PRESSURE, uinput.ABS_MT_PRESSURE)}
    touch_keys = [uinput.BTN_LEFT, uinput.BTN_TOOL_FINGER, uinput.BTN_TOUCH]
    cases = [
        ("KT Rule Pressure Touchpad", touch_keys, pressure, [uinput.INPUT_PROP_POINTER], True),
        ("KT Rule Plain Touchpad", touch_keys, no_pressure, [uinput.INPUT_PROP_POINTER], False),
        ("KT Rule Pressure Touchscreen", [uinput.BTN_TOUCH], pressure, [], True),
        ("KT Rule Keyboard With Pressure", uinput.KEYBOARD_KEYS + touch_keys, pressure, [], False),
        ("KT Rule Keyboard", uinput.KEYBOARD_KEYS, {}, [], False),
    ]
    devices = []
    try:
        for name, keys, axes, props, tagged in cases:
            devices.append((uinput.UInputDevice(name, keys, axes, props).create(), tagged))
        settle_udev()
        wrong = []
        for device, tagged in devices:
            info = subprocess.run(["udevadm", "info", device.node], capture_output=True, text=True).stdout
            tags = [line for line in info.splitlines() if "TAGS=" in line]
            has = any("uaccess" in line for line in tags)
            if has != tagged:
                wrong.append(f"{device.name}: uaccess {'set' if has else 'missing'} ({tags})")
        check(not wrong, "; ".join(wrong))
    finally:
        for device, _ in devices:
            device.destroy()
        os.remove(target)
        subprocess.run(["udevadm", "control", "--reload"], check=False)


# --- round trips through real tools ----------------------------------------------------------------------------------
def states(records):
    """The successive contact states of a stream's frames (slot, position, pressure, heaviest), repeats dropped."""
    seen = []
    for record in records:
        if record.get("type") != "frame":
            continue
        state = tuple(sorted((c["slot"], c["x"], c["y"], c["pressure"], c["heaviest"]) for c in record["contacts"]))
        if not seen or seen[-1] != state:
            seen.append(state)
    return seen


def replay_states(path):
    status, out, err = plumo.run("replay", "--fast", "-f", "jsonl", path, timeout=120)
    check(status == 0, f"replay --fast {path} exited {status}: {err.strip()[:300]}")
    return states(json.loads(line) for line in out.splitlines() if line.strip())


@scenario("roundtrip-record-and-libinput-record")
def roundtrip():
    device = hid_devices.MagicTrackpad2()
    device.create()
    try:
        node, name = pick_node(device)
        DRIVERS.add(driver_of(node))
        evemu = os.path.join(SCRATCH, "mt2.evemu")
        yaml = os.path.join(SCRATCH, "mt2.yml")
        # Each recorder must have the device open before the first touch: an IN_OPEN watch on the node says when.
        watch = uinput.Inotify()
        watch.watch(node)
        libinput = subprocess.Popen(
            ["libinput", "record", "-o", yaml, node], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        wait_open(watch, "libinput record")
        recorder = Stream("-d", node, "-o", evemu, "-q", command="record")
        wait_open(watch, "plumometer record")
        live = Stream("-d", node)
        try:
            check_device_record(live.next(20), node, name, device, "0005:004c:0265")
            time.sleep(0.5)  # the recorders are in their read loops
            run_session(device, live, pad_steps(device, 30, 60, 120, 220))
        finally:
            live.stop()
            status = recorder.stop()
            libinput.send_signal(signal.SIGINT)
            libinput.wait(20)
        check(status == 0, f"record exited {status}: {recorder.tail()}")
        live_states = states(live.all)
        check(len(live_states) >= 6, f"the live stream saw only {len(live_states)} states")
        from_evemu = replay_states(evemu)
        check(from_evemu == live_states, f"replay of record: {len(from_evemu)} states, live {len(live_states)}: "
              f"first difference {first_difference(from_evemu, live_states)}")
        check(os.path.getsize(yaml) > 0, f"libinput record wrote nothing: {libinput.stderr.read()[:300]}")
        from_yaml = replay_states(yaml)
        check(from_yaml == live_states, f"replay of libinput record: {len(from_yaml)} states, live "
              f"{len(live_states)}: first difference {first_difference(from_yaml, live_states)}")
        log(f"  {len(live_states)} states live, from plumometer record and from libinput record")
    finally:
        device.destroy()


def wait_open(watch, who, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if watch.opens():
            return
        time.sleep(0.05)
    raise Failure(f"{who} did not open the device within {timeout} s")


def first_difference(a, b):
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"state {k}: {x} vs {y}"
    return f"lengths {len(a)} vs {len(b)}"


# --- a device held by another program --------------------------------------------------------------------------------
EVIOCGRAB = (1 << 30) | (4 << 16) | (ord("E") << 8) | 0x90


class Remapper:
    """What keymapper does: grab the device and re-emit its events through uinput as "NAME; keymapper"."""

    def __init__(self, original):
        self.fd = os.open(original.node, os.O_RDONLY | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, EVIOCGRAB, 1)
        self.clone = uinput.Touchpad(original.name + "; keymapper").create()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._forward, daemon=True)
        self._thread.start()

    def _forward(self):
        while not self._stop.is_set():
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if not ready:
                continue
            data = os.read(self.fd, 24 * 64)
            events = [struct.unpack_from("<qqHHi", data, k)[2:] for k in range(0, len(data), 24)]
            self.clone.emit([e for e in events if not (e[0] == 0 and e[1] == 3)])  # SYN_DROPPED stays here

    def stop(self):
        self._stop.set()
        self._thread.join(2)
        self.clone.destroy()
        os.close(self.fd)


@scenario("remapper-clone")
def remapper_clone():
    original = uinput.Touchpad("KT Remapped Touchpad").create()
    remapper = None
    try:
        remapper = Remapper(original)
        clone = remapper.clone.node
        settle_udev()
        listed = {d["node"]: d for d in plumo.run_json("list", "-f", "json")}
        check(original.node in listed and clone in listed, f"list shows {sorted(listed)}")
        check(
            listed[original.node].get("remapper") == {"cloned_as": clone},
            f"list: the original says {listed[original.node].get('remapper')}, not cloned_as {clone}",
        )
        check(
            listed[clone].get("remapper") == {"clone_of": original.node},
            f"list: the copy says {listed[clone].get('remapper')}, not clone_of {original.node}",
        )
        status, out, _err = plumo.run("list")
        check(f"read {clone} instead" in out, f"list's text does not say to read {clone}: {out}")
        for args in (["probe", "--static", "-d", "KT Remapped"], ["stream", "-f", "jsonl", "--count", "1",
                                                                   "--duration", "2", "-d", "KT Remapped"]):
            status, _out, err = plumo.run(*args)
            check(
                original.node in err and clone in err and "remapper" in err,
                f"plumometer {' '.join(args)} (exit {status}) does not say which node carries the events: {err}",
            )
        # And that is what happens: the held node delivers nothing, the copy everything.
        held = open_stream_on(original.node)
        copy = open_stream_on(clone)
        try:
            original.frame({0: (1200, 1300, 77)})
            wait_frame(copy, [77], "the remapper's copy")
            seen = [r for r in held.pending(1.0) if r.get("type") == "frame" and r["contacts"]]
            check(not seen, f"the held node delivered {len(seen)} frames")
        finally:
            held.stop()
            copy.stop()
    finally:
        if remapper:
            remapper.stop()
        original.destroy()

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--scenario", action="append", default=[])
    options = parser.parse_args()
    plumo.BINARY = options.binary
    os.environ["NO_COLOR"] = "1"
    global SCRATCH
    SCRATCH = tempfile.mkdtemp(prefix="plumometer-kt-")
    os.environ["XDG_CONFIG_HOME"] = SCRATCH  # no saved profile of the host's user
    os.environ["HOME"] = SCRATCH
    # The host's root reaches the guest over 9p without a page cache: every run of a 20 MB binary from it reads it
    # again. A copy in the guest's memory (/tmp's upper layer is a tmpfs) starts in a fraction of the time.
    binary = os.path.join(SCRATCH, "plumometer")
    shutil.copy2(options.binary, binary)
    plumo.BINARY = binary
    fstype = subprocess.run(["findmnt", "-n", "-o", "FSTYPE", "--target", SCRATCH], capture_output=True, text=True)
    log(f"KT INFO scratch {SCRATCH} on {fstype.stdout.strip()}")
    version = kernel_version()
    log(f"KT INFO kernel {os.uname().release}")
    for module in ["uhid", "uinput", "hid-magicmouse", "hid-multitouch", "hid-generic", "evdev"]:
        loaded = subprocess.run(["modprobe", module], capture_output=True, text=True)
        if loaded.returncode != 0 and not os.path.isdir("/sys/module/" + module.replace("-", "_")):
            log(f"KT FAIL setup: modprobe {module}: {loaded.stderr.strip()}")
    failures = 0
    for name, since, function in SCENARIOS:
        if options.scenario and not any(s in name for s in options.scenario):
            continue
        if since and version < since:
            log(f"KT INFO {name}: not on {version[0]}.{version[1]} (needs {since[0]}.{since[1]}+)")
            continue
        started = time.monotonic()
        try:
            for attempt in range(STARVED_ATTEMPTS):
                try:
                    function()
                    break
                except Starved as starved:
                    if attempt == STARVED_ATTEMPTS - 1:
                        raise Failure(f"starved {STARVED_ATTEMPTS} times: {starved}")
                    log(f"KT INFO {name}: again: {starved}")
        except Failure as failure:
            failures += 1
            log(f"KT FAIL {name}: {failure}")
        except Exception:  # noqa: BLE001 - a broken scenario is a failure, with its traceback in the log
            failures += 1
            log(f"KT FAIL {name}: {traceback.format_exc().strip().splitlines()[-1]}")
            traceback.print_exc(file=sys.stdout)
        else:
            log(f"KT PASS {name} ({time.monotonic() - started:.1f} s)")
    log("KT DRIVERS " + " ".join(sorted(DRIVERS)))
    subprocess.run("dmesg | grep -iE 'hid|input|uhid|magic' | tail -40", shell=True)
    log("KT DONE")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
