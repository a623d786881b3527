"""The benchmarks' testbed: an emulated Magic Trackpad 2 whose event node is a FIFO this process writes, the C
helpers built from Benchmarks/*.c, and what every section needs to start, watch and stop a reader (its CPU time,
memory and I/O from /proc). See run_benchmarks.py for why the node is a FIFO and what the "bypass" toll is."""

import array
import fcntl
import os
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # Benchmarks/
sys.path.insert(0, HERE)
import umockdev_device  # noqa: E402

ROOT = os.path.dirname(HERE)
DESCRIPTION = os.path.join(ROOT, "Tests/Fixtures/Devices/apple-magic-trackpad-2-usb.desc")
NODE = "/dev/input/event7"
EVENT = struct.Struct("<qqHHi")  # struct input_event on 64-bit Linux
EVENT_SIZE = EVENT.size
CHUNK = (4096 // EVENT_SIZE) * EVENT_SIZE  # whole events, at most PIPE_BUF: one atomic pipe write
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def log(message):
    sys.stderr.write("benchmark: %s\n" % message)
    sys.stderr.flush()


# MARK: - The emulated device


# The helpers built from Benchmarks/*.c by build_helpers(): the preload that takes umockdev's per-read toll off
# (direct_io.so) and the C floor reader (evdev_floor).
HELPERS = {}


def build_helpers(work):
    """Compiles direct_io.so and evdev_floor from Benchmarks/*.c (gcc and libevdev-dev: build dependencies)."""
    preload = os.path.join(work, "direct_io.so")
    floor = os.path.join(work, "evdev_floor")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libevdev"], capture_output=True, text=True,
                           check=True).stdout.split()
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", preload, os.path.join(HERE, "direct_io.c"), "-ldl"],
                   check=True)
    subprocess.run(["gcc", "-O2", "-o", floor, os.path.join(HERE, "evdev_floor.c")] + flags, check=True)
    driver = os.path.join(work, "paced_driver")
    subprocess.run(["gcc", "-O2", "-pthread", "-o", driver, os.path.join(HERE, "paced_driver.c")], check=True)
    probe = os.path.join(work, "wakeup_probe")
    subprocess.run(["gcc", "-O2", "-o", probe, os.path.join(HERE, "wakeup_probe.c")], check=True)
    HELPERS.update(direct_io=preload, floor=floor, paced_driver=driver, wakeup_probe=probe)


class Device:
    """A umockdev testbed with one Magic Trackpad 2 whose event node is a FIFO this process writes.

    toll="umockdev": the readers run with umockdev's preload alone, which sends every read() and write() of the
    emulated node over a socket to the testbed (~60 us each). toll="bypass": direct_io.so is loaded ahead of it
    and sends reads of the FIFO-backed node and writes to stdout/stderr straight to the kernel, for every reader
    alike; open, ioctls and sysfs stay umockdev's."""

    def __init__(self, work, toll="bypass"):
        description = umockdev_device.read_description(DESCRIPTION)
        umockdev_device.write_device(description, NODE, work)
        self.testbed = UMockdev.Testbed.new()
        with open(os.path.join(work, "device.umockdev"), encoding="utf-8") as handle:
            if not self.testbed.add_from_string(handle.read()):
                raise RuntimeError("umockdev did not accept the device record")
        if not self.testbed.load_ioctl(NODE, os.path.join(work, "device.ioctl")):
            raise RuntimeError("umockdev did not accept the ioctl record")
        root = self.testbed.get_root_dir()
        self.path = root + NODE
        os.unlink(self.path)  # umockdev's pseudo-terminal
        os.mkfifo(self.path)
        # Held open for reading and writing: the FIFO never reports a hang-up (a vanished device) to the reader.
        self.fd = os.open(self.path, os.O_RDWR)
        preload = "libumockdev-preload.so.0"
        if toll == "bypass":
            preload = HELPERS["direct_io"] + ":" + preload
        self.environment = dict(os.environ, UMOCKDEV_DIR=root, LD_PRELOAD=preload)

    def pending(self):
        """Bytes written but not yet read."""
        count = array.array("i", [0])
        fcntl.ioctl(self.fd, termios.FIONREAD, count)
        return count[0]

    def write(self, data):
        view = memoryview(data)
        for offset in range(0, len(view), CHUNK):
            os.write(self.fd, view[offset:offset + CHUNK])

    def close(self):
        os.close(self.fd)


def encode(frames, seconds=1, microseconds=0):
    """Every event of `frames` as input_event bytes with one timestamp."""
    data = bytearray()
    pack = EVENT.pack
    count = 0
    for events in frames:
        for event_type, code, value in events:
            data += pack(seconds, microseconds, event_type, code, value)
        count += len(events)
    return bytes(data), count


# MARK: - Processes


def cpu_seconds(pid):
    """utime + stime of a live process, from /proc/PID/stat."""
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def status_kib(pid, key):
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def io_counter(pid, key):
    with open("/proc/%d/io" % pid) as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def wait_until_idle(pid, quiet=0.3, limit=600):
    """Waits until the process has used no CPU for `quiet` seconds (it finished what it was given)."""
    deadline = time.monotonic() + limit
    last = cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet)
        now = cpu_seconds(pid)
        if now == last:
            return
        last = now
    raise RuntimeError("process %d never went idle" % pid)


def stop(process):
    """SIGTERM, then the exact rusage of the process (and anything it spawned) from wait4."""
    process.send_signal(signal.SIGTERM)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage


def start(device, command, stdout=subprocess.DEVNULL):
    process = subprocess.Popen(
        command, env=device.environment, stdout=stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    return process


def wait_for_open(process, path, limit=20):
    """Waits until the reader has the node open (its /proc/PID/fd links to it)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("%s exited: %s" % (process.args[0], process.stderr.read().decode()))
        try:
            for name in os.listdir("/proc/%d/fd" % process.pid):
                try:
                    if os.readlink("/proc/%d/fd/%s" % (process.pid, name)) == path:
                        return
                except OSError:
                    continue
        except OSError:
            pass
        time.sleep(0.02)
    raise RuntimeError("%s did not open %s" % (process.args[0], path))


def timed_run(command, work, name, stdout=subprocess.DEVNULL, environment=None):
    """One run of `command` through GNU time, in `environment` (default: this one's): (CPU s of the child, wall s,
    peak RSS KiB, stderr text)."""
    report = os.path.join(work, name + ".time")
    began = time.monotonic()
    process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", report] + command, stdout=stdout,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=environment)
    error = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - began
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError("%s failed (status %d): %s" % (name, os.waitstatus_to_exitcode(status), error))
    with open(report) as handle:
        peak = int(handle.read().split()[-1])
    return usage.ru_utime + usage.ru_stime, wall, peak, error


# MARK: - Outputs and figures


def count_lines(path, prefix):
    count = 0
    with open(path, "rb") as handle:
        for line in handle:
            if line.startswith(prefix):
                count += 1
    return count


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def output_directory(work):
    """Readers write their output to files in memory where there is /dev/shm (the same cost for every reader)."""
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK):
        return tempfile.mkdtemp(prefix="plumometer-benchmark-", dir=shm)
    return work
