#!/usr/bin/python3
"""Unplugs an emulated device while `plumometer --device NODE -f jsonl` reads it, then plugs it back in.

Run under umockdev-wrapper (so the testbed is the one plumometer sees):

  umockdev-wrapper /usr/bin/python3 umockdev_unplug.py --binary PLUMOMETER --testbed DEVICE.umockdev \
      --ioctl DEVICE.ioctl --node /dev/input/eventN --before BEFORE.evemu --after AFTER.evemu --number M

1. Starts plumometer and waits for its `device` line.
2. Replays BEFORE into the node (a complete frame, then half a frame with no SYN_REPORT) and waits for a frame.
3. Removes the device (a "remove" uevent, then the sysfs records), as the kernel does when it is unplugged.
4. Waits for a `removed` line, then adds the device back as event<M> (umockdev 0.17 aborts when a removed node's
   name is reused), waits for the new `device` line, replays AFTER into the new node and waits for a frame.
5. Sends SIGTERM and waits for the exit.

With --start-empty the testbed starts without the device and plumometer runs with `--wait` and no `--device`
(a background service started before its trackpad): steps 1 to 3 are skipped, and the device's first appearance
(as event<M>) must be picked up and read.

Prints "status=<exit status>", then every stdout line of plumometer, then "--- stderr" and its stderr. Every wait
has a timeout; a step that times out is reported as "timeout: <step>" and the remaining steps are skipped, so the
test sees how far the reader got.
"""
import argparse
import os
import re
import select
import signal
import subprocess
import sys
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Scripts"))
from umockdev_env import child_env  # noqa: E402

TIMEOUT = 10


class Reader:
    """Collects plumometer's stdout lines without blocking."""

    def __init__(self, process):
        self.process = process
        self.lines = []
        self.buffer = b""

    def wait_for(self, predicate, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        start = len(self.lines)
        while True:
            for line in self.lines[start:]:
                if predicate(line):
                    return True
            start = len(self.lines)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if not ready:
                return False
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                return False
            self.buffer += chunk
            *complete, self.buffer = self.buffer.split(b"\n")
            self.lines += [line.decode() for line in complete]

    def drain(self):
        rest = self.process.stdout.read()
        self.buffer += rest
        self.lines += [line.decode() for line in self.buffer.split(b"\n") if line]
        self.buffer = b""


def renamed(text, old, new):
    """The device's records with input<old>/event<old> renamed to input<new>/event<new>."""
    result = re.sub(r"input%s\b" % old, "input%s" % new, text)
    result = re.sub(r"event%s\b" % old, "event%s" % new, result)
    return result.replace("13:%d" % (64 + old), "13:%d" % (64 + new)).replace(
        "MINOR=%d" % (64 + old), "MINOR=%d" % (64 + new))


def main():
    parser = argparse.ArgumentParser()
    for name in ["--binary", "--testbed", "--ioctl", "--node", "--before", "--after"]:
        parser.add_argument(name, required=True)
    parser.add_argument("--number", type=int, required=True)
    parser.add_argument("--start-empty", action="store_true")
    args = parser.parse_args()

    old = int(re.fullmatch(r"/dev/input/event(\d+)", args.node)[1])
    new_node = "/dev/input/event%d" % args.number
    with open(args.testbed) as handle:
        text = handle.read()
    with open(args.ioctl) as handle:
        ioctl_text = handle.read()
    testbed = UMockdev.Testbed.new()
    if not args.start_empty and (not testbed.add_from_string(text) or not testbed.load_ioctl(args.node, args.ioctl)):
        sys.exit("umockdev_unplug.py: could not set up the testbed")

    command = [args.binary, "--wait", "-f", "jsonl"] if args.start_empty else [args.binary, "--device", args.node, "-f", "jsonl"]
    process = subprocess.Popen(command, env=child_env(testbed), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader = Reader(process)
    steps = [
        ("device line", lambda: reader.wait_for(lambda l: '"type":"device"' in l)),
        ("frame before the removal", lambda: (
            testbed.load_evemu_events(args.node, args.before),
            reader.wait_for(lambda l: '"type":"frame"' in l and '"contacts":[]' not in l))[1]),
        ("removed line", lambda: (
            time.sleep(0.3),  # let the half frame arrive
            testbed.uevent("/sys/devices/virtual/input/input%d/event%d" % (old, old), "remove"),
            testbed.remove_device("/sys/devices/virtual/input/input%d/event%d" % (old, old)),
            testbed.remove_device("/sys/devices/virtual/input/input%d" % old),
            reader.wait_for(lambda l: '"type":"removed"' in l))[-1]),
        ("device line for the new node", lambda: (
            testbed.add_from_string(renamed(text, old, args.number)),
            write_ioctl(testbed, ioctl_text.replace(args.node, new_node), new_node),
            # add_from_string sent "add" before the node had its ioctl answers (a real node is complete when udev
            # announces it); announce it again now that it can be opened.
            testbed.uevent("/sys/devices/virtual/input/input%d/event%d" % (args.number, args.number), "add"),
            reader.wait_for(lambda l: '"type":"device"' in l and new_node in l))[-1]),
        ("frame from the new node", lambda: (
            testbed.load_evemu_events(new_node, args.after),
            reader.wait_for(lambda l: '"type":"frame"' in l and '"contacts":[]' not in l))[1]),
    ]
    if args.start_empty:
        time.sleep(0.5)  # plumometer is up and waiting
        steps = steps[3:]
    for name, step in steps:
        if process.poll() is not None:
            print("exited early, before: " + name)
            break
        if not step():
            print("timeout: " + name)
            break
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        print("killed: no exit within %d s of SIGTERM" % TIMEOUT)
    reader.drain()
    print("status=%d" % process.returncode)
    for line in reader.lines:
        print(line)
    print("--- stderr")
    sys.stdout.write(process.stderr.read().decode())


def write_ioctl(testbed, text, node):
    path = os.path.join(testbed.get_root_dir(), "replug.ioctl")
    with open(path, "w") as handle:
        handle.write(text)
    return testbed.load_ioctl(node, path)


main()
