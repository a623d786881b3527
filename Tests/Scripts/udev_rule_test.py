#!/usr/bin/python3
"""Runs udev itself (`udevadm test`) on udev/70-plumometer.rules against umockdev testbeds, changing nothing on
the machine.

  udev_rule_test.py --rules udev/70-plumometer.rules [--system-rules] [--testbed-out FILE]

Prints one line per device: `name<TAB>uaccess|-<TAB>ID_INPUT_* properties udev set, comma-separated`, and exits
0; exits 1 (with a message on stderr) when something could not run, 77 when this machine cannot run it at all
(not root, no unshare, no udevadm, no umockdev-run).

The testbed has no ID_INPUT* properties: each device is only its sysfs capability bits (`capabilities/ev`,
`key`, `abs`, `rel`, `properties`), so udev's own input_id builtin (60-input-id.rules) classifies it, as on a
real machine. `udevadm test` runs the rules as udevd would for an "add" event, and it writes: it creates
/dev/char/M:m links and /run/udev/data files. So the script re-runs itself inside a private mount namespace
(`unshare -m --propagation private`) where /dev, /run, /etc/udev/rules.d and /usr/lib/udev/rules.d are tmpfs
or bind mounts that vanish with the namespace:
  /dev                    tmpfs with null, zero, full, random, urandom and tty bound from the real /dev, a new
                          devpts instance (umockdev-run creates its emulated nodes with openpty) and a tmpfs shm
  /run                    tmpfs (udev's database, /run/udev/rules.d)
  /etc/udev/rules.d       empty tmpfs (no local rules of this machine)
  /usr/lib/udev/rules.d   the machine's own 60-input-id.rules (input_id and nothing else) and the rule under test;
                          with --system-rules every rule of the machine's rules.d and the rule under test
Every device then goes through `udevadm test --action=add SYSPATH` under one `umockdev-run -d TESTBED`, whose
preload library shows udevadm the testbed's /sys.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

UNSUPPORTED = 77
TIMEOUT = 60
SYSTEM_RULES = "/usr/lib/udev/rules.d"
INPUT_ID_RULES = SYSTEM_RULES + "/60-input-id.rules"

TOUCHPAD_KEYS = "e420 10000 0 0 0 0"  # BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH, BTN_TOOL_DOUBLETAP..QUADTAP
KEYBOARD_KEYS = "402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe"  # an AT keyboard's
MT_WITH_PRESSURE = "660800001000003"  # ABS_X, ABS_Y, ABS_PRESSURE, ABS_MT_SLOT, POSITION_X/Y, TRACKING_ID, PRESSURE
MT_WITHOUT_PRESSURE = "260800000000003"

# (name, capabilities/ev, capabilities/key, capabilities/abs, capabilities/rel, properties), as a 64-bit kernel
# prints them (hexadecimal words, most significant first).
DEVICES = [
    ("keyboard", "120013", KEYBOARD_KEYS, "0", "0", "0"),
    ("mouse", "17", "1f0000 0 0 0 0", "0", "143", "0"),
    ("keyboard with fake multitouch axes", "12001f", KEYBOARD_KEYS, "ffffffffffffffff", "143", "0"),
    ("keyboard with integrated touchpad", "12001b", "e420 10000 0 0 0 fffffffffffffffe", MT_WITH_PRESSURE, "0", "5"),
    ("touchpad with pressure", "b", TOUCHPAD_KEYS, MT_WITH_PRESSURE, "0", "5"),
    ("touchpad without pressure", "b", TOUCHPAD_KEYS, MT_WITHOUT_PRESSURE, "0", "5"),
    ("single-touch touchpad with pressure", "b", TOUCHPAD_KEYS, "1000003", "0", "1"),
    ("pressure pad", "b", "e420 0 0 0 0 0", MT_WITH_PRESSURE, "0", "85"),  # POINTER, BUTTONPAD, PRESSUREPAD
    ("touchscreen with pressure", "b", "400 0 0 0 0 0", "660800000000003", "0", "2"),
    ("touchscreen without pressure", "b", "400 0 0 0 0 0", MT_WITHOUT_PRESSURE, "0", "2"),
    ("pen with BTN_TOOL_PEN", "1b", "c03 0 0 0 0 0", "f000003", "0", "0"),
    ("pen with only BTN_STYLUS", "1b", "c00 0 0 0 0 0", "1000003", "0", "0"),
    ("pen without pressure", "1b", "c01 0 0 0 0 0", "3", "0", "0"),
]


def fail(message, status=1):
    sys.stderr.write("udev_rule_test.py: %s\n" % message)
    sys.exit(status)


def testbed_text():
    """A umockdev testbed: eventN and its parent inputN per device, no udev properties but the kernel's."""
    records = []
    for index, (name, ev, key, abs_bits, rel, props) in enumerate(DEVICES):
        number = 20 + index
        minor = 64 + number
        records.append(
            "P: /devices/virtual/input/input{n}/event{n}\nN: input/event{n}\nE: DEVNAME=/dev/input/event{n}\n"
            "E: SUBSYSTEM=input\nE: MAJOR=13\nE: MINOR={m}\nA: dev=13:{m}\n".format(n=number, m=minor))
        records.append(
            "P: /devices/virtual/input/input{n}\nE: SUBSYSTEM=input\nE: PRODUCT=3/1234/{n:x}/1\n"
            "E: NAME=\"{name}\"\nA: name={name}\\n\nA: capabilities/ev={ev}\nA: capabilities/key={key}\n"
            "A: capabilities/abs={abs}\nA: capabilities/rel={rel}\nA: properties={props}\nA: id/bustype=0003\n"
            "A: id/vendor=1234\nA: id/product={n:04x}\nA: id/version=0001\n".format(
                n=number, name=name, ev=ev, key=key, abs=abs_bits, rel=rel, props=props))
    return "\n".join(records)


def run(command):
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    if result.returncode != 0:
        fail("%s exited with %d: %s" % (" ".join(command), result.returncode, result.stderr.strip()[-2000:]))
    return result


def private_mounts(scratch, rules, system_rules):
    """Covers every directory udevadm test writes to or reads rules from; the namespace discards it all."""
    nodes = os.path.join(scratch, "nodes")
    ruledir = os.path.join(scratch, "rules")
    os.makedirs(nodes)
    os.makedirs(ruledir)
    for source in sorted(os.listdir(SYSTEM_RULES)) if system_rules else [os.path.basename(INPUT_ID_RULES)]:
        shutil.copy(os.path.join(SYSTEM_RULES, source), ruledir)
    shutil.copy(rules, os.path.join(ruledir, os.path.basename(rules)))
    # Each node the tools need is bound, file by file, before /dev is covered: never the whole /dev.
    names = ("null", "zero", "full", "random", "urandom", "tty")
    for name in names:
        open(os.path.join(nodes, name), "w").close()
        run(["mount", "--bind", os.path.join("/dev", name), os.path.join(nodes, name)])
    run(["mount", "-t", "tmpfs", "plumometer-dev", "/dev"])
    for name in names:
        open(os.path.join("/dev", name), "w").close()
        run(["mount", "--bind", os.path.join(nodes, name), os.path.join("/dev", name)])
    os.makedirs("/dev/pts")
    os.makedirs("/dev/shm")
    run(["mount", "-t", "devpts", "-o", "newinstance,ptmxmode=0666", "plumometer-pts", "/dev/pts"])
    os.symlink("pts/ptmx", "/dev/ptmx")
    run(["mount", "-t", "tmpfs", "plumometer-shm", "/dev/shm"])
    run(["mount", "-t", "tmpfs", "plumometer-run", "/run"])
    run(["mount", "-t", "tmpfs", "plumometer-etc-rules", "/etc/udev/rules.d"])
    run(["mount", "--bind", ruledir, "/usr/lib/udev/rules.d"])


def classify_all(testbed, syspaths):
    """Runs `udevadm test` on every syspath in one umockdev-run (one testbed start); returns (tag, kinds) each."""
    loop = 'for p in "$@"; do echo "@@@ $p"; udevadm test --action=add "$p" 2>/dev/null || echo "@@@ failed"; done'
    result = run(["umockdev-run", "-d", testbed, "--", "sh", "-c", loop, "sh"] + syspaths)
    chunks = result.stdout.split("@@@ ")[1:]
    if len(chunks) != len(syspaths):
        fail("expected %d udevadm test outputs, got %d:\n%s" % (len(syspaths), len(chunks), result.stdout))
    answers = []
    for syspath, chunk in zip(syspaths, chunks):
        # udevadm test prints the device's final properties, one KEY=value a line, on stdout.
        properties = dict(re.findall(r"^([A-Z_.][A-Z0-9_.]*)=(.*)$", chunk, re.M))
        if "@@@ failed" in chunk or properties.get("DEVPATH") != syspath[len("/sys"):]:
            fail("udevadm test printed no properties for %s:\n%s" % (syspath, chunk))
        tags = properties.get("TAGS", "").strip(":").split(":")
        kinds = sorted(k for k, v in properties.items() if k.startswith("ID_INPUT_") and v == "1")
        answers.append(("uaccess" if "uaccess" in tags else "-", ",".join(kinds) or "-"))
    return answers


def inside(args):
    """Runs in the private namespace; the mounts vanish with it. The parent removes the scratch directory only
    after this process (and so the namespace) is gone, so nothing bound from the real /dev is ever deleted."""
    testbed = os.path.join(args.scratch, "testbed.umockdev")
    with open(testbed, "w") as handle:
        handle.write(testbed_text())
    private_mounts(os.path.join(args.scratch, "mounts"), args.rules, args.system_rules)
    syspaths = ["/sys/devices/virtual/input/input%d/event%d" % (20 + i, 20 + i) for i in range(len(DEVICES))]
    for (name, *_rest), (tag, kinds) in zip(DEVICES, classify_all(testbed, syspaths)):
        print("%s\t%s\t%s" % (name, tag, kinds))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", required=True)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--scratch", help=argparse.SUPPRESS)
    parser.add_argument("--testbed-out")
    parser.add_argument("--system-rules", action="store_true",
                        help="run every rule of the machine's /usr/lib/udev/rules.d too, not only 60-input-id.rules")
    args = parser.parse_args()
    args.rules = os.path.abspath(args.rules)
    if args.testbed_out:
        with open(args.testbed_out, "w") as handle:
            handle.write(testbed_text())
        return
    if args.inside:
        inside(args)
        return
    for tool in ("unshare", "udevadm", "umockdev-run", "mount"):
        if not shutil.which(tool):
            fail("%s is not installed (scripts/install-deps.sh --test)" % tool, UNSUPPORTED)
    if os.geteuid() != 0:
        fail("needs root for a private mount namespace (unshare -m)", UNSUPPORTED)
    if not os.path.exists(INPUT_ID_RULES):
        fail(INPUT_ID_RULES + " is missing: install udev", UNSUPPORTED)
    scratch = tempfile.mkdtemp(prefix="plumometer-udev-")
    command = ["unshare", "-m", "--propagation", "private", sys.executable, os.path.abspath(__file__),
               "--inside", "--rules", args.rules, "--scratch", scratch] + (["--system-rules"] if args.system_rules else [])
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT * len(DEVICES))
    finally:
        if not os.path.ismount(os.path.join(scratch, "mounts", "nodes", "null")):
            shutil.rmtree(scratch, ignore_errors=True)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    if result.returncode != 0 and "unshare failed" in result.stderr:
        sys.exit(UNSUPPORTED)
    sys.exit(result.returncode)


main()
