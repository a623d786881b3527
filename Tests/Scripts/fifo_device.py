#!/usr/bin/python3
"""Runs a command against an emulated evdev node fed from a FIFO, for tests that need a burst of events.

umockdev 0.17 backs an emulated node with a pseudo-terminal and replays `-e` events one write at a time: a large
burst can reach the reader in pieces that are not whole `struct input_event`s, which libevdev rejects (EINVAL),
something a real evdev node never does. Here the testbed (sysfs, udev, every ioctl) is still umockdev's, but the
node is a FIFO this script writes whole events into, at most PIPE_BUF bytes per write, so every read returns
whole events, as from the kernel. (Benchmarks/run_benchmarks.py does the same for the benchmarks.)

  fifo_device.py --umockdev DEV.umockdev --ioctl /dev/input/eventN=DEV.ioctl [--events EVENTS.evemu] \
      [--timed] [--hold SECONDS] -- COMMAND [ARGS...]

COMMAND runs with the testbed (UMOCKDEV_DIR, LD_PRELOAD) and inherits stdout and stderr. The events (`E:` lines;
their times are written as recorded) go in as fast as the reader takes them, or with --timed in real time by their
time stamps, relative to the first, from the moment the reader opens the node, as `umockdev-run -e` replays them:
the events of one time stamp (a frame) in one write when they fit. (Timing from the open matters: events already
queued when a SYN_DROPPED is read are drained by libevdev's resync, so a slow start must not bunch them up.) SECONDS after the last one (default 1), COMMAND gets SIGTERM; without --events the node
stays silent for SECONDS. The script exits with COMMAND's status (128 + N if a signal N killed it). Every wait has
a timeout.
"""
import argparse
import os
import signal
import struct
import subprocess
import sys
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umockdev_env import child_env  # noqa: E402

EVENT = struct.Struct("<qqHHi")  # struct input_event on 64-bit Linux
CHUNK = (4096 // EVENT.size) * EVENT.size


def timed_events(path):
    """The events of an evemu file as (microseconds, struct input_event bytes), in file order."""
    events = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if not fields or fields[0] != "E:":
                continue
            seconds, _, micros = fields[1].partition(".")
            stamp = int(seconds) * 1000000 + int(micros or 0)
            packed = EVENT.pack(int(seconds), int(micros or 0), int(fields[2], 16), int(fields[3], 16), int(fields[4]))
            events.append((stamp, packed))
    return events


def bursts(events):
    """Consecutive events of one time stamp, joined: (microseconds, bytes)."""
    result = []
    for stamp, packed in events:
        if result and result[-1][0] == stamp:
            result[-1][1].extend(packed)
        else:
            result.append((stamp, bytearray(packed)))
    return result


def descendants(pid):
    """`pid` and every process below it (through /proc/PID/task/TID/children)."""
    result, queue = [], [pid]
    while queue:
        current = queue.pop()
        result.append(current)
        try:
            for task in os.listdir("/proc/%d/task" % current):
                with open("/proc/%d/task/%s/children" % (current, task), encoding="ascii") as handle:
                    queue.extend(int(child) for child in handle.read().split())
        except OSError:
            continue
    return result


def wait_for_open(path, child, timeout=30):
    """Whether `child` or a process below it opened `path` before it exited or `timeout` seconds passed."""
    target = os.path.realpath(path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and child.poll() is None:
        for pid in descendants(child.pid):
            try:
                descriptors = os.listdir("/proc/%d/fd" % pid)
            except OSError:
                continue
            for descriptor in descriptors:
                try:
                    if os.readlink("/proc/%d/fd/%s" % (pid, descriptor)) == target:
                        return True
                except OSError:
                    continue
        time.sleep(0.005)
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--umockdev", required=True)
    parser.add_argument("--ioctl", required=True, help="NODE=FILE")
    parser.add_argument("--events")
    parser.add_argument("--timed", action="store_true", help="write the events at their time stamps")
    parser.add_argument("--hold", type=float, default=1.0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    node, _, ioctl_file = options.ioctl.partition("=")

    testbed = UMockdev.Testbed.new()
    with open(options.umockdev, encoding="utf-8") as handle:
        if not testbed.add_from_string(handle.read()):
            sys.exit("fifo_device.py: umockdev did not accept %s" % options.umockdev)
    if not testbed.load_ioctl(node, ioctl_file):
        sys.exit("fifo_device.py: umockdev did not accept %s" % ioctl_file)
    root = testbed.get_root_dir()
    path = root + node
    os.unlink(path)
    os.mkfifo(path)
    # Held open for reading and writing, so the reader never sees a hang-up between writes.
    fifo = os.open(path, os.O_RDWR)
    child = subprocess.Popen(command, env=child_env(testbed))

    events = timed_events(options.events) if options.events else []
    if not options.timed:
        events = [(0, b"".join(packed for _, packed in events))] if events else []

    def write_whole(data):
        view = memoryview(bytes(data))
        for offset in range(0, len(view), CHUNK):
            os.write(fifo, view[offset:offset + CHUNK])

    def feed():
        if not events:
            return
        if options.timed and not wait_for_open(path, child) and child.poll() is None:
            print("fifo_device.py: %s was not opened within 30 s; writing anyway" % node, file=sys.stderr)
        start = time.monotonic()
        first = events[0][0]
        for stamp, data in bursts(events):
            delay = start + (stamp - first) / 1e6 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            write_whole(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    # A reader that stops early (a probe's --max-frames) leaves the writer blocked on a full FIFO: stop waiting then.
    deadline = time.monotonic() + 120
    while writer.is_alive() and child.poll() is None and time.monotonic() < deadline:
        writer.join(timeout=0.05)
    try:
        child.wait(timeout=options.hold)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    os.close(fifo)
    status = child.returncode
    sys.exit(128 - status if status < 0 else status)


if __name__ == "__main__":
    main()
