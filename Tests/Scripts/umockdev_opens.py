#!/usr/bin/python3
"""Runs one command inside a umockdev testbed and reports which of the testbed's event nodes it opened.

  umockdev-wrapper /usr/bin/python3 umockdev_opens.py --testbed FILE.umockdev -- COMMAND [ARGS...]

Prints the command's stdout, then one "opened /dev/input/eventN" line for every testbed node opened while it ran,
and exits with the command's status (1 on a failure of this script). Opens are seen with inotify (IN_OPEN) on the
node files in the testbed's dev directory, where umockdev's preload library redirects every open() of a
/dev/input path; only the command runs during the watch. This is the approach of umockdev_discovery.py, for
any command (the discovery probe's `guard`, or the CLI's -d, record, probe and calibrate later).
"""
import argparse
import ctypes
import os
import struct
import subprocess
import sys

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from umockdev_env import child_env  # noqa: E402

IN_OPEN = 0x20
TIMEOUT = 30


def fail(message):
    sys.stderr.write("umockdev_opens.py: %s\n" % message)
    sys.exit(1)


def watch_nodes(dev_input_dir):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    if fd < 0:
        fail("inotify_init1 failed: errno %d" % ctypes.get_errno())
    watches = {}
    for name in sorted(os.listdir(dev_input_dir)):
        path = os.path.join(dev_input_dir, name)
        wd = libc.inotify_add_watch(fd, path.encode(), IN_OPEN)
        if wd < 0:
            fail("inotify_add_watch %s failed: errno %d" % (path, ctypes.get_errno()))
        watches[wd] = "/dev/input/" + name
    return fd, watches


def opened(fd, watches):
    seen = set()
    while True:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return seen
        offset = 0
        while offset < len(data):
            wd, mask, _cookie, length = struct.unpack_from("iIII", data, offset)
            offset += 16 + length
            if mask & IN_OPEN and wd in watches:
                seen.add(watches[wd])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--testbed", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        fail("no command")
    testbed = UMockdev.Testbed.new()
    with open(args.testbed) as handle:
        if not testbed.add_from_string(handle.read()):
            fail("could not load " + args.testbed)
    fd, watches = watch_nodes(os.path.join(testbed.get_root_dir(), "dev", "input"))
    try:
        result = subprocess.run(command, env=child_env(testbed), capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail("command timed out: " + " ".join(command))
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    for node in sorted(opened(fd, watches)):
        print("opened " + node)
    sys.exit(result.returncode)


main()
