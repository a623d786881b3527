#!/usr/bin/python3
"""Drives plumometer-discovery-probe inside a umockdev testbed, for the discovery and hotplug tests.

Run it under umockdev-wrapper (libudev calls in this process must see the testbed too):

  umockdev-wrapper /usr/bin/python3 umockdev_discovery.py --probe PROBE --testbed FILE.umockdev \
      [--ioctl /dev/input/eventN=FILE.ioctl ...] list [--all]
  umockdev-wrapper /usr/bin/python3 umockdev_discovery.py --probe PROBE --testbed FILE.umockdev \
      replug SYSNAME NEWNUMBER

`list` prints the probe's output, then one "opened /dev/input/eventN" line for every testbed node that was
opened while the probe ran. Opens are observed with inotify (IN_OPEN) on the node files in the testbed's dev
directory: umockdev's preload library redirects /dev paths there, so every open() of a node by the probe, ioctl
emulation or not, is an open of that file, and the kernel reports it whoever does it. Only the probe runs during
the watch, so an IN_OPEN on a node means the probe opened it.

`replug` starts `probe monitor --count 2`, removes device SYSNAME (eventN and its parent inputN) with a remove
uevent, adds it back as event<NEWNUMBER>/input<NEWNUMBER> (umockdev 0.17 aborts when a removed node's name is
reused) and prints the probe's output.

Every wait has a timeout; the script exits 1 on any failure.
"""
import argparse
import ctypes
import os
import re
import select
import struct
import subprocess
import sys

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umockdev_env import child_env  # noqa: E402

IN_OPEN = 0x20
TIMEOUT = 20


def fail(message):
    sys.stderr.write("umockdev_discovery.py: %s\n" % message)
    sys.exit(1)


class OpenWatch:
    """inotify IN_OPEN watches on the testbed's event nodes."""

    def __init__(self, dev_input_dir):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            fail("inotify_init1 failed: errno %d" % ctypes.get_errno())
        self.watches = {}
        for name in sorted(os.listdir(dev_input_dir)):
            path = os.path.join(dev_input_dir, name)
            wd = self.libc.inotify_add_watch(self.fd, path.encode(), IN_OPEN)
            if wd < 0:
                fail("inotify_add_watch %s failed: errno %d" % (path, ctypes.get_errno()))
            self.watches[wd] = "/dev/input/" + name

    def opened(self):
        seen = set()
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return seen
            offset = 0
            while offset < len(data):
                wd, mask, _cookie, length = struct.unpack_from("iIII", data, offset)
                offset += 16 + length
                if mask & IN_OPEN and wd in self.watches:
                    seen.add(self.watches[wd])


def run_list(args, testbed):
    watch = OpenWatch(os.path.join(testbed.get_root_dir(), "dev", "input"))
    command = [args.probe, "list"] + (["--all"] if args.all else [])
    try:
        result = subprocess.run(command, env=child_env(testbed), capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail("probe timed out")
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    for node in sorted(watch.opened()):
        print("opened " + node)
    if result.returncode != 0:
        fail("probe exited with %d" % result.returncode)


def device_text(testbed_text, sysname):
    """The two records (eventN and its parent inputN) of device N in a .umockdev text."""
    number = re.fullmatch(r"event(\d+)", sysname)
    if not number:
        fail("not an event node: " + sysname)
    records = [r for r in testbed_text.split("\n\n") if r.strip()]
    wanted = [r for r in records if re.search(r"^P: \S*/input%s(/event%s)?$" % (number[1], number[1]), r, re.M)]
    if len(wanted) != 2:
        fail("expected eventN and inputN records for %s, found %d" % (sysname, len(wanted)))
    return number[1], "\n\n".join(wanted) + "\n"


def run_replug(args, testbed, testbed_text):
    old, text = device_text(testbed_text, args.sysname)
    new = args.number
    minor_old = re.search(r"^A: dev=13:(\d+)$", text, re.M)
    renamed = re.sub(r"input%s\b" % old, "input" + new, text)
    renamed = re.sub(r"event%s\b" % old, "event" + new, renamed)
    if minor_old:
        renamed = renamed.replace("13:" + minor_old[1], "13:%d" % (64 + int(new)))
        renamed = renamed.replace("MINOR=" + minor_old[1], "MINOR=%d" % (64 + int(new)))
    syspath = re.search(r"^P: (\S*/event%s)$" % old, text, re.M)[1]
    parent = syspath.rsplit("/", 1)[0]

    probe = subprocess.Popen(
        [args.probe, "monitor", "--count", "2", "--timeout", "10"],
        env=child_env(testbed), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready, _, _ = select.select([probe.stdout], [], [], TIMEOUT)
    if not ready or probe.stdout.readline().strip() != "ready":
        probe.kill()
        fail("probe did not become ready")
    testbed.uevent("/sys" + syspath, "remove")
    testbed.remove_device("/sys" + syspath)
    testbed.remove_device("/sys" + parent)
    # add_from_string emits the "add" uevent itself.
    testbed.add_from_string(renamed)
    try:
        out, err = probe.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        probe.kill()
        fail("probe monitor timed out")
    sys.stdout.write(out)
    sys.stderr.write(err)
    if probe.returncode != 0:
        fail("probe monitor exited with %d" % probe.returncode)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--probe", required=True)
    parser.add_argument("--testbed", required=True)
    parser.add_argument("--ioctl", action="append", default=[])
    sub = parser.add_subparsers(dest="command", required=True)
    listing = sub.add_parser("list")
    listing.add_argument("--all", action="store_true")
    replug = sub.add_parser("replug")
    replug.add_argument("sysname")
    replug.add_argument("number")
    args = parser.parse_args()

    testbed = UMockdev.Testbed.new()
    with open(args.testbed) as handle:
        testbed_text = handle.read()
    if not testbed.add_from_string(testbed_text):
        fail("could not load " + args.testbed)
    for spec in args.ioctl:
        node, _, path = spec.partition("=")
        if not testbed.load_ioctl(node, path):
            fail("could not load ioctl script " + spec)
    if args.command == "list":
        run_list(args, testbed)
    else:
        run_replug(args, testbed, testbed_text)


main()
