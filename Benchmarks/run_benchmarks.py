#!/usr/bin/python3
"""plumometer's benchmarks: CPU per frame against evtest, `libinput record`, a C floor and cat, start-up, the pure
pipeline, memory on a large recording, idle cost, real-time load and latency, and a soak. Run by
scripts/benchmark; see docs/performance.md for what each figure means.

Every live run reads an emulated /dev/input/event7 in a umockdev testbed (sysfs, udev and every evdev ioctl
answered by umockdev from a device description). The event stream does not come from umockdev's own evemu replay:
umockdev backs an emulated node with a pseudo-terminal, whose line discipline eats bytes such as 0x03, 0x11 and
0x13 in binary events and hands readers partial events, and its replay thread manages about 10,000 events per
second. Here the node is a FIFO in the testbed's /dev, written by this driver in whole events (writes of at most
PIPE_BUF bytes are atomic), so a reader gets exactly what an evdev node would give it.

umockdev's preload library sends every read() of an emulated node over a socket to the testbed (~60 us each),
which distorts comparisons between readers that read in different sizes. Benchmarks/direct_io.c, loaded ahead of
it, sends reads of the FIFO-backed node and writes to stdout straight to the kernel for every reader alike (the
"bypass" toll); the throughput figures are shown both ways. Readers' CPU time is read from /proc while the stream
flows and excludes this driver and umockdev's ioctl thread, which live in this process. Each reader must prove it
read the whole stream: its read byte count (/proc/PID/io) covers every byte written, and its output holds exactly
one record per event (evtest, libinput record), per frame (plumometer, the C floor) or every byte (cat); a run that
does not is an error, not a figure.

Needs /usr/bin/python3 with gir1.2-umockdev-1.0, evtest, libinput-tools, gcc and libevdev-dev
(scripts/benchmark installs what is missing).
"""

import argparse
import array
import fcntl
import json
import os
import platform
import re
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import xml.etree.ElementTree as ElementTree

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import evemu_stream  # noqa: E402
import umockdev_device  # noqa: E402

ROOT = os.path.dirname(HERE)
DESCRIPTION = os.path.join(ROOT, "Tests/Fixtures/Devices/apple-magic-trackpad-2-usb.desc")
NODE = "/dev/input/event7"
EVENT = struct.Struct("<qqHHi")  # struct input_event on 64-bit Linux
EVENT_SIZE = EVENT.size
CHUNK = (4096 // EVENT_SIZE) * EVENT_SIZE  # whole events, at most PIPE_BUF: one atomic pipe write
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def log(message):
    sys.stderr.write("benchmark: %s\n" % message)
    sys.stderr.flush()


# MARK: - The emulated device


# The helpers built from Benchmarks/*.c by build_helpers(): the preload that takes umockdev's per-read toll off
# (direct_io.so) and the C floor reader (evdev_floor).
HELPERS = {}


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


def write_calls(pid):
    with open("/proc/%d/io" % pid) as handle:
        for line in handle:
            if line.startswith("syscw:"):
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


# MARK: - Throughput


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


def io_counter(pid, key):
    with open("/proc/%d/io" % pid) as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def readers(binary):
    """Every reader of one stream, with how to prove from its output that it saw all of it.

    `expect(frames, events)` gives the exact count of `count(output)` for a reader that read everything."""
    return [
        ("cat", ["/bin/cat", NODE], lambda out: os.path.getsize(out), lambda frames, events: events * EVENT_SIZE),
        ("evtest", ["/usr/bin/evtest", NODE], lambda out: count_lines(out, b"Event: time"),
         lambda frames, events: events),
        ("libinput-record", ["/usr/bin/libinput", "record", NODE], lambda out: count_lines(out, b"    - ["),
         lambda frames, events: events),
        ("evemu-record", ["/usr/bin/evemu-record", NODE], lambda out: count_lines(out, b"E: "),
         lambda frames, events: events),
        ("C floor", [HELPERS["floor"], NODE], lambda out: count_lines(out, b""), lambda frames, events: frames),
        ("plumometer", [binary, "--device", NODE, "--format", "jsonl", "--quiet"],
         lambda out: count_lines(out, b'{"type":"frame"'), lambda frames, events: frames),
    ]


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


# The sinks every reader writes to in the throughput runs. "null": /dev/null, the sink that costs nothing, so what
# is left is each reader's own work (the goals of issue #24 use it). "file": a regular file in /dev/shm, which
# charges each reader for the bytes it writes (evtest and libinput record write several times more than plumometer).
SINKS = ["null", "file"]
READER_NAMES = ["cat", "evtest", "libinput-record", "evemu-record", "C floor", "plumometer"]
# Readers measured with umockdev's toll taken off only (see throughput_run).
UNTOLLED = {"evemu-record"}
# Lines a reader writes by the clock, not by what it reads: libinput record comments the time of day every few
# seconds ("  # Current time is 06:09:12") and opens a new "  - evdev:" block at every wake-up (two runs of the same
# stream differ in both). Their bytes are taken out of the count that proves a /dev/null run complete (see
# throughput_run).
TIMING_LINES = {"libinput-record": re.compile(rb"^ *(# Current time is \d\d:\d\d:\d\d|- evdev:)\n$")}


def throughput_run(arguments, binary, work, contacts, toll, sinks):
    """One stream through every reader and sink, interleaved: round r starts with reader r (A B C, B C A, ...), and
    each reader writes to both sinks in turn (the file first in the first round, then alternating).

    Proof that a reader read everything: its read byte count covers the stream and, with the file sink, its output
    holds one record per event or frame (or every byte). With /dev/null nothing can be counted afterwards, so the
    bytes it wrote (`wchar` of /proc/PID/io: every byte passed to write(), whatever the file) must equal, to the
    byte, what the same reader wrote in its complete file-sink run of the same stream. libinput record's output
    depends on timing (TIMING_LINES): its /dev/null run must write at least every other byte of its file run."""
    frames = arguments.frames
    data, events = encode(evemu_stream.frames(frames, contacts))
    log("throughput (%s toll): %d frames x %d contacts = %d events (%.1f MB), sinks: %s" % (
        toll, frames, contacts, events, len(data) / 1e6, ", ".join(sinks)))
    chosen = readers(binary)
    if toll == "umockdev":
        # evemu-record reads one event per read(): at ~60 us a read under the toll, 100,000 frames of 16 contacts
        # would take seven minutes a round to measure only the toll.
        chosen = [reader for reader in chosen if reader[0] not in UNTOLLED]
    results = {}
    written = {}  # reader -> bytes its complete file-sink run wrote (wchar), but for timing lines
    outputs = output_directory(work)
    for round_index in range(arguments.rounds):
        order = chosen[round_index % len(chosen):] + chosen[:round_index % len(chosen)]
        for name, command, count, expect in order:
            # The first round writes the file first (its byte count is the /dev/null run's proof); later rounds
            # alternate, so neither sink always runs on a machine warmed by the other.
            ordered = sorted(sinks, key=lambda sink: sink != "file") if round_index % 2 == 0 else sorted(
                sinks, key=lambda sink: sink == "file")
            if "file" not in sinks and name not in written:
                raise RuntimeError("the /dev/null sink needs a file-sink run of the same stream to check against")
            for sink in ordered:
                result = results.setdefault((name, sink), {"during": [], "total": [], "wall": [], "peak_kib": 0,
                                                          "written": []})
                during, wall, usage, peak, wrote, got = throughput_once(
                    arguments, work, outputs, toll, contacts, round_index, name, command, count, expect, sink, data,
                    events, written.get(name))
                if sink == "file":
                    if name in written and written[name] != got[1]:
                        raise RuntimeError("%s wrote %d bytes to the file in one round and %d in another" % (
                            name, written[name], got[1]))
                    written[name] = got[1]
                    got = got[0]
                result["during"].append(during)
                result["total"].append(usage.ru_utime + usage.ru_stime)
                result["wall"].append(wall)
                result["written"].append(wrote)
                # VmHWM, not ru_maxrss: a child forked from this Python process starts with its RSS on the books.
                result["peak_kib"] = max(result["peak_kib"], peak)
                log("  %-16s %-4s %.3f s CPU while events flowed, %.2f s wall, %s" % (
                    name, sink, during, wall,
                    "%d records checked" % got if sink == "file" else "%d bytes written, as to the file" % wrote))
    if outputs != work:
        os.rmdir(outputs)
    summary = {"frames": frames, "contacts": contacts, "events": events, "toll": toll, "sinks": {}}
    for sink in sinks:
        cat = median(results[("cat", sink)]["during"])
        evtest = median(results[("evtest", sink)]["during"]) - cat
        libinput = median(results[("libinput-record", sink)]["during"]) - cat
        table = {}
        for name in READER_NAMES:
            if (name, sink) not in results:
                continue
            result = results[(name, sink)]
            during = median(result["during"])
            table[name] = {
                "cpu_s_median": during,
                "cpu_s_range": [min(result["during"]), max(result["during"])],
                "cpu_us_per_frame_net_of_cat": (during - cat) / frames * 1e6,
                "ratio_to_evtest_net_of_cat": (during - cat) / max(evtest, 1e-9),
                "ratio_to_libinput_record_net_of_cat": (during - cat) / max(libinput, 1e-9),
                "all_rounds": result["during"],
                "wall_s_median": median(result["wall"]),
                "peak_rss_kib": result["peak_kib"],
                "bytes_written": median(result["written"]),
            }
        summary["sinks"][sink] = {"readers": table}
    # The file sink under its old key, for readers of earlier JSON files.
    summary["readers"] = summary["sinks"].get("file", summary["sinks"][sinks[0]])["readers"]
    return summary


def throughput_once(arguments, work, outputs, toll, contacts, round_index, name, command, count, expect, sink, data,
                    events, file_bytes):
    """One reader reading the stream once into `sink`; returns (CPU s while events flowed, wall s, rusage, peak RSS
    KiB, bytes written, proof). Raises unless the reader provably read everything. The proof of a file-sink run is
    (records counted, bytes written but for timing lines); `file_bytes` is the second of a file-sink run, which a
    /dev/null run must match."""
    frames = arguments.frames
    device = Device(os.path.join(work, "throughput-%s-%d-%d-%s-%s" % (toll, contacts, round_index,
                                                                      name.replace(" ", "-"), sink)), toll)
    out = os.path.join(outputs, "out") if sink == "file" else os.devnull
    with open(out, "wb") as target:
        process = start(device, command, stdout=target)
    wait_for_open(process, device.path)
    time.sleep(0.2)  # let the reader finish its setup and block in read/poll
    before = cpu_seconds(process.pid)
    read_before = io_counter(process.pid, "rchar")
    began = time.monotonic()
    device.write(data)
    while device.pending() > 0:
        if process.poll() is not None:
            raise RuntimeError("%s died while reading: %s" % (name, process.stderr.read().decode()))
        time.sleep(0.005)
    wait_until_idle(process.pid)
    # On a loaded machine a reader can look idle while it still waits for its last read (umockdev's toll: the reply
    # comes from a thread in this process), so it is given until its output is complete (or 30 s) before it is
    # stopped; the checks below still fail a reader that never completes it.
    if sink == "file":
        complete = lambda: count(out) >= expect(frames, events)  # noqa: E731
    else:
        complete = lambda: io_counter(process.pid, "wchar") >= file_bytes  # noqa: E731
    settle = time.monotonic() + 30
    while not complete() and time.monotonic() < settle:
        time.sleep(0.2)
        wait_until_idle(process.pid)
    wall = time.monotonic() - began
    during = cpu_seconds(process.pid) - before
    read_bytes = io_counter(process.pid, "rchar") - read_before
    wrote = io_counter(process.pid, "wchar")
    peak = status_kib(process.pid, "VmHWM")
    usage = stop(process)
    device.close()
    error = process.stderr.read().decode()
    if read_bytes < len(data):
        raise RuntimeError("%s read %d of %d bytes" % (name, read_bytes, len(data)))
    got = None
    if sink == "file":
        # Proof that the reader read the whole stream and said something for all of it: a benchmark of a reader
        # that stopped early measures nothing.
        got, wanted = count(out), expect(frames, events)
        size = os.path.getsize(out)
        timing_bytes = 0
        if name in TIMING_LINES:
            with open(out, "rb") as handle:
                for line in handle:
                    if TIMING_LINES[name].match(line):
                        timing_bytes += len(line)
        os.unlink(out)
        if got != wanted:
            raise RuntimeError("%s wrote %d records for a stream that needs %d (%s)" % (name, got, wanted,
                                                                                        error.strip()))
        if wrote < size:
            raise RuntimeError("%s: /proc says it wrote %d bytes, its output holds %d" % (name, wrote, size))
        got = (got, wrote - timing_bytes)
    else:
        # The same bytes as the complete run (libinput record: at least those, its timing lines aside).
        if wrote < file_bytes or (name not in TIMING_LINES and wrote != file_bytes):
            raise RuntimeError("%s wrote %d bytes to /dev/null; its complete file-sink run wrote %d%s (%s)" % (
                name, wrote, file_bytes, " but for timing lines" if name in TIMING_LINES else "", error.strip()))
    return during, wall, usage, peak, wrote, got


def throughput(arguments, binary, work):
    """Every reader, at each contact count, with umockdev's toll taken off (both sinks) and kept (the file sink
    only, unless --umockdev-sinks says otherwise: the toll is the same for every sink)."""
    tolls = ["bypass", "umockdev"] if arguments.toll == "both" else [arguments.toll]
    runs = []
    for toll in tolls:
        sinks = arguments.sinks if toll == "bypass" else arguments.umockdev_sinks
        for contacts in arguments.contacts:
            runs.append(throughput_run(arguments, binary, work, contacts, toll, sinks))
    return {"runs": runs}


# MARK: - Start-up


def spawn_wall(command, environment=None, until_line=False):
    """Seconds from spawn to exit (or to the first stdout line) of `command`."""
    began = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                               env=environment)
    if until_line:
        process.stdout.readline()
        elapsed = time.monotonic() - began
        process.send_signal(signal.SIGTERM)
        process.wait()
        return elapsed
    process.stdout.read()
    process.wait()
    return time.monotonic() - began


def peak_rss_kib(command, work, environment=None):
    """The peak RSS of a short run, through GNU time (whose own small RSS is what the child inherits at fork)."""
    report = os.path.join(work, "startup.time")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report] + command, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=environment)
    with open(report) as handle:
        return int(handle.read().split()[-1])


def startup(arguments, binary, work):
    """Start-up: `--version`, and spawn to the first device record on a device, net of spawning /bin/true.

    The six spawns are interleaved (round r starts with the r-th, A B C .., B C .. A, ...) and each one's median is
    taken, so a drift of the machine (a frequency step, a background job) during the section falls on all of them
    alike instead of on whichever was measured last."""
    runs = arguments.startup_runs
    device = Device(os.path.join(work, "startup"))
    reader = [binary, "--device", NODE, "-f", "jsonl", "--quiet"]
    spawns = [
        ("true", lambda: spawn_wall(["/bin/true"])),
        ("version", lambda: spawn_wall([binary, "--version"])),
        ("evtest", lambda: spawn_wall(["/usr/bin/evtest", "--version"])),
        ("first", lambda: spawn_wall(reader, device.environment, True)),
        ("floor", lambda: spawn_wall([HELPERS["floor"], NODE, "--opened"], device.environment, True)),
        ("umockdev_only", lambda: spawn_wall(["/bin/true"], device.environment)),
    ]
    times = {name: [] for name, _ in spawns}
    for round_index in range(runs):
        shift = round_index % len(spawns)
        for name, spawn in spawns[shift:] + spawns[:shift]:
            times[name].append(spawn())
    true, version, evtest, first, floor, umockdev_only = (median(times[name]) for name, _ in spawns)
    device.close()
    result = {
        "runs": runs,
        "true_ms": true * 1e3,
        "version_ms_net_of_true": (version - true) * 1e3,
        "version_rss_kib": peak_rss_kib([binary, "--version"], work),
        "evtest_version_ms_net_of_true": (evtest - true) * 1e3,
        "evtest_rss_kib": peak_rss_kib(["/usr/bin/evtest", "--version"], work),
        "first_record_ms_net_of_umockdev_true": (first - umockdev_only) * 1e3,
        "c_floor_opened_ms_net_of_umockdev_true": (floor - umockdev_only) * 1e3,
        "first_record_ms_net_of_c_floor_opened": (first - floor) * 1e3,
        "spawn_ms": {name: [value * 1e3 for value in values] for name, values in times.items()},
    }
    log("start-up: --version %.2f ms (%.1f MB), first device record %.2f ms (net of the same spawn of "
        "/bin/true)" % (result["version_ms_net_of_true"], result["version_rss_kib"] / 1024,
                         result["first_record_ms_net_of_umockdev_true"]))
    return result


# MARK: - Replay

# The replay section's runs see the system's tools first (`libinput analyze` is Debian's, on /usr/bin/python3).
SYSTEM_PATH = dict(os.environ, PATH="/usr/bin:/bin")


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


def counted_lines(command, pattern):
    """Runs `command` with its stdout in a pipe and counts the lines matching `pattern` (a compiled bytes regex)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               env=SYSTEM_PATH)
    count = sum(1 for line in process.stdout if pattern.match(line))
    error = process.stderr.read().decode(errors="replace")
    if process.wait() != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(command), error))
    return count


def record_yaml(path, frames, contacts, work):
    """A libinput record YAML recording of the benchmark's stream, made by `libinput record` itself from the
    emulated device: every event checked, then stopped with SIGINT as a user stops it."""
    data, events = encode(evemu_stream.frames(frames, contacts))
    device = Device(os.path.join(work, "yaml"))
    with open(path, "wb") as out:
        process = start(device, ["/usr/bin/libinput", "record", NODE], stdout=out)
    wait_for_open(process, device.path)
    time.sleep(0.2)
    device.write(data)
    deadline = time.monotonic() + 600
    while count_lines(path, b"    - [") < events:
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError("libinput record wrote %d of %d events" % (count_lines(path, b"    - ["), events))
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    device.close()
    return events


FRAME_LINE = re.compile(rb'^\{"type":"frame"')
LIBINPUT_ANALYZE_ROW = re.compile(rb"^\s*-?\d+\.\d+ \|")


def replay(arguments, binary, work):
    """The pure pipeline (no kernel, no umockdev): `replay --fast -f jsonl > /dev/null` of an evemu recording and of
    a `libinput record` YAML recording, beside `cat` of the same files and libinput's own reader of a recording
    (`libinput analyze recording`, which parses the YAML and prints a row per frame). `libinput replay` would need
    uinput to create a device, so it cannot run here; analyze is the libinput tool that reads a recording and
    nothing else. Interleaved rounds, medians (libinput analyze runs in the first round only: ~200 frames/s); each
    reader proves once, through a pipe, that it read every frame."""
    evemu = os.path.join(work, "throughput.evemu")
    events, frames = evemu_stream.write_stream(
        evemu, arguments.frames, arguments.contacts[0], 1000, True, description=DESCRIPTION
    )
    yaml = os.path.join(work, "throughput.yml")
    yaml_frames = arguments.yaml_frames
    yaml_events = record_yaml(yaml, yaml_frames, arguments.contacts[0], work)
    libinput_analyze = ["/usr/bin/libinput", "analyze", "recording"]
    runs = [
        ("cat evemu", ["/bin/cat", evemu], evemu, frames, None),
        ("plumometer evemu", [binary, "replay", "--fast", "-f", "jsonl", evemu], evemu, frames, FRAME_LINE),
        ("cat yaml", ["/bin/cat", yaml], yaml, yaml_frames, None),
        ("plumometer yaml", [binary, "replay", "--fast", "-f", "jsonl", yaml], yaml, yaml_frames, FRAME_LINE),
        ("libinput analyze yaml", libinput_analyze + [yaml], yaml, yaml_frames, LIBINPUT_ANALYZE_ROW),
    ]
    for name, command, path, wanted, pattern in runs:
        if pattern is not None:
            got = counted_lines(command, pattern)
            if got != wanted:
                raise RuntimeError("%s: %d of %d frames read" % (name, got, wanted))
            log("replay: %s reads all %d frames" % (name, got))
    samples = {name: [] for name, _, _, _, _ in runs}
    for round_index in range(arguments.rounds):
        shift = round_index % len(runs)
        for name, command, path, wanted, _ in runs[shift:] + runs[:shift]:
            if name.startswith("libinput") and round_index > 0:
                continue  # Python reads ~200 frames/s: one round (its figure varies far less than its size)
            cpu, wall, peak, _ = timed_run(command, work, "replay", environment=SYSTEM_PATH)
            samples[name].append({"cpu_s": cpu, "wall_s": wall, "peak_rss_kib": peak})
            log("replay: %-22s %.3f s CPU, %.3f s wall, peak RSS %d KiB" % (name, cpu, wall, peak))
    result = {"frames": frames, "events": events, "file_mb": os.path.getsize(evemu) / 1e6,
              "yaml_frames": yaml_frames, "yaml_events": yaml_events, "yaml_mb": os.path.getsize(yaml) / 1e6,
              "contacts": arguments.contacts[0], "rounds": arguments.rounds, "readers": {}}
    for name, command, path, wanted, _ in runs:
        cpu = median([sample["cpu_s"] for sample in samples[name]])
        wall = median([sample["wall_s"] for sample in samples[name]])
        size = os.path.getsize(path) / 1e6
        result["readers"][name] = {
            "cpu_s_median": cpu,
            "cpu_s_range": [min(x["cpu_s"] for x in samples[name]), max(x["cpu_s"] for x in samples[name])],
            "wall_s_median": wall,
            "frames": wanted,
            "file_mb": size,
            "frames_per_cpu_second": wanted / max(cpu, 1e-9),
            "frames_per_wall_second": wanted / max(wall, 1e-9),
            "mb_per_cpu_second": size / max(cpu, 1e-9),
            "mb_per_wall_second": size / max(wall, 1e-9),
            "peak_rss_kib": max(x["peak_rss_kib"] for x in samples[name]),
        }
    ours = result["readers"]["plumometer evemu"]
    # The figures earlier runs reported, under their old names.
    result.update({
        "cpu_s": ours["cpu_s_median"],
        "wall_s": ours["wall_s_median"],
        "peak_rss_kib": ours["peak_rss_kib"],
        "cpu_s_per_million_events": ours["cpu_s_median"] / events * 1e6,
        "frames_per_cpu_second": ours["frames_per_cpu_second"],
        "frames_per_wall_second": ours["frames_per_wall_second"],
    })
    os.unlink(evemu)
    os.unlink(yaml)
    return result


def replay_large(arguments, binary, work):
    """Memory of `replay --fast` on a recording of --large-mb megabytes: it must not grow with the file."""
    path = os.path.join(work, "large.evemu")
    sample = os.path.join(work, "sample.evemu")
    evemu_stream.write_stream(sample, 1000, arguments.contacts[0], 1000, False)
    per_frame = os.path.getsize(sample) / 1000
    os.unlink(sample)
    frames = int(arguments.large_mb * 1e6 / per_frame)
    log("replay, large file: writing %d frames (%.0f MB)..." % (frames, arguments.large_mb))
    events, frames = evemu_stream.write_stream(path, frames, arguments.contacts[0], 1000, False,
                                               description=DESCRIPTION)
    size = os.path.getsize(path)
    report = os.path.join(work, "large.time")
    began = time.monotonic()
    player = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", report, binary, "replay", "--fast", "-f", "jsonl",
                               path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    counter = subprocess.Popen(["grep", "-c", '^{"type":"frame"'], stdin=player.stdout, stdout=subprocess.PIPE)
    player.stdout.close()
    counted = int(counter.communicate()[0].decode().strip() or 0)
    error = player.stderr.read().decode()
    status = player.wait()
    wall = time.monotonic() - began
    if status != 0 or counted != frames:
        os.unlink(path)
        raise RuntimeError("large replay: status %d, %d of %d frames: %s" % (status, counted, frames, error))
    with open(report) as handle:
        peak = int(handle.read().split()[-1])
    log("replay, large file: %.0f MB, %d frames in %.1f s, peak RSS %.1f MB" % (size / 1e6, frames, wall,
                                                                               peak / 1024))
    # Throughput of the same file with the output to /dev/null (the run above pays for a pipe and grep), beside
    # cat of it; the run above proved that replay reads every frame of it.
    replay_cpu, replay_wall, replay_peak, _ = timed_run(
        [binary, "replay", "--fast", "-f", "jsonl", path], work, "large", environment=SYSTEM_PATH)
    cat_cpu, cat_wall, _, _ = timed_run(["/bin/cat", path], work, "large-cat", environment=SYSTEM_PATH)
    os.unlink(path)
    log("replay, large file, to /dev/null: %.1f s CPU, %.1f s wall (%.0f frames/s, %.0f MB/s); cat %.2f s wall" % (
        replay_cpu, replay_wall, frames / replay_wall, size / 1e6 / replay_wall, cat_wall))
    return {"file_mb": size / 1e6, "frames": frames, "events": events, "wall_s": wall, "peak_rss_kib": peak,
            "to_null": {"cpu_s": replay_cpu, "wall_s": replay_wall, "peak_rss_kib": replay_peak,
                        "frames_per_wall_second": frames / replay_wall, "frames_per_cpu_second": frames / replay_cpu,
                        "mb_per_wall_second": size / 1e6 / replay_wall, "mb_per_cpu_second": size / 1e6 / replay_cpu},
            "cat": {"cpu_s": cat_cpu, "wall_s": cat_wall, "mb_per_wall_second": size / 1e6 / max(cat_wall, 1e-9)}}


# MARK: - Plot


def svg_readings(path):
    """The readings an SVG of `plot` says it drew: the "N readings" of its summary, which must all agree."""
    texts = ["".join(element.itertext()) for element in ElementTree.parse(path).iter(SVG_TEXT)]
    counts = {int(found) for text in texts for found in re.findall(r"(\d+) readings", text)}
    if len(counts) != 1:
        raise RuntimeError("plot: the SVG %s states %s reading counts, not one" % (path, sorted(counts) or "no"))
    return counts.pop()


def plot(arguments, binary, work):
    """The cost of `plot FILE -o X.svg` against `replay --fast -f jsonl FILE > /dev/null` on the same long recording
    (issue #15: at most 1.5x): interleaved rounds, CPU (user + sys of the child) and wall, medians and their ratio.
    Both must have read everything: replay's frame lines (counted through a pipe, once) and the readings the plot
    states (its "wrote ... (N readings)" note and its SVG's summary, every round) must be the same number."""
    path = os.path.join(work, "plot.evemu")
    events, frames = evemu_stream.write_stream(path, arguments.plot_frames, arguments.plot_contacts, 1000, False,
                                               description=DESCRIPTION)
    size = os.path.getsize(path)
    log("plot: %d frames x %d contacts at 1 kHz (%.0f MB)" % (frames, arguments.plot_contacts, size / 1e6))
    replay_command = [binary, "replay", "--fast", "-f", "jsonl", path]
    counter = subprocess.Popen(replay_command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines = 0
    for line in counter.stdout:
        if line.startswith(b'{"type":"frame"'):
            lines += 1
    error = counter.stderr.read().decode(errors="replace")
    if counter.wait() != 0 or lines < frames:
        raise RuntimeError("plot: replay read %d frame lines of %d frames (status %d): %s" % (
            lines, frames, counter.returncode, error))
    outputs = output_directory(work)
    svg = os.path.join(outputs, "plot.svg")
    rounds = {"replay": [], "plot": []}
    try:
        for index in range(arguments.plot_rounds):
            # Alternated, so neither always runs on a machine warmed (or loaded) by the other.
            for name in (("replay", "plot") if index % 2 == 0 else ("plot", "replay")):
                if name == "replay":
                    cpu, wall, peak, _ = timed_run(replay_command, work, name)
                else:
                    if os.path.exists(svg):
                        os.unlink(svg)
                    cpu, wall, peak, error = timed_run([binary, "plot", path, "-o", svg], work, name)
                    noted = "wrote %s (%d readings)" % (svg, lines)
                    drawn = svg_readings(svg)
                    if noted not in error or drawn != lines:
                        raise RuntimeError("plot: round %d drew %d readings (note: %r), replay wrote %d frames" % (
                            index, drawn, error.strip(), lines))
                rounds[name].append({"cpu_s": cpu, "wall_s": wall, "peak_rss_kib": peak})
                log("plot: round %d %s %.3f s CPU, %.3f s wall, peak RSS %.1f MB" % (index, name, cpu, wall,
                                                                                    peak / 1024))
        svg_bytes = os.path.getsize(svg)
    finally:
        for leftover in (svg, path):
            if os.path.exists(leftover):
                os.unlink(leftover)
        if outputs != work:
            os.rmdir(outputs)
    result = {"frames": frames, "events": events, "contacts": arguments.plot_contacts, "file_mb": size / 1e6,
              "readings": lines, "svg_bytes": svg_bytes, "rounds": arguments.plot_rounds, "goal_ratio": 1.5}
    for name, runs in rounds.items():
        result[name] = {
            "cpu_s_median": median([run["cpu_s"] for run in runs]),
            "wall_s_median": median([run["wall_s"] for run in runs]),
            "cpu_s_range": [min(run["cpu_s"] for run in runs), max(run["cpu_s"] for run in runs)],
            "peak_rss_kib": max(run["peak_rss_kib"] for run in runs),
            "all_rounds": runs,
        }
    result["cpu_ratio"] = result["plot"]["cpu_s_median"] / result["replay"]["cpu_s_median"]
    result["wall_ratio"] = result["plot"]["wall_s_median"] / result["replay"]["wall_s_median"]
    result["goal_met"] = result["cpu_ratio"] <= result["goal_ratio"] and result["wall_ratio"] <= result["goal_ratio"]
    log("plot: %.2fx replay's CPU, %.2fx its wall time: goal <= 1.5x %s" % (
        result["cpu_ratio"], result["wall_ratio"], "met" if result["goal_met"] else "NOT MET"))
    return result


# MARK: - Idle


def context_switches(pid):
    """Voluntary + involuntary context switches of every thread of a process: each one is a wake-up."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/status" % (pid, task)) as handle:
                for line in handle:
                    if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total


def idle(arguments, binary, work):
    device = Device(os.path.join(work, "idle"))
    process = start(device, [binary, "--device", NODE, "--format", "jsonl"], stdout=subprocess.PIPE)
    process.stdout.readline()  # the device record: the reader is attached
    wait_for_open(process, device.path)
    time.sleep(0.2)
    before = cpu_seconds(process.pid)
    switches_before = context_switches(process.pid)
    began = time.monotonic()
    time.sleep(arguments.idle_seconds)
    during = cpu_seconds(process.pid) - before
    wakeups = context_switches(process.pid) - switches_before
    elapsed = time.monotonic() - began
    peak = status_kib(process.pid, "VmHWM")
    usage = stop(process)
    device.close()
    result = {
        "seconds": elapsed,
        "cpu_s_while_idle": during,
        "cpu_s_total_with_startup": usage.ru_utime + usage.ru_stime,
        "wakeups_while_idle": wakeups,
        "peak_rss_kib": peak,
    }
    log("idle: %.4f s CPU and %d wake-ups in %.1f s" % (during, wakeups, elapsed))
    return result


# MARK: - Real-time load and latency


def paced_driver(device, frames, rate, work, name, reader_stdout=None):
    """Starts Benchmarks/paced_driver.c writing `frames` into the device at `rate`, each stamped with
    CLOCK_REALTIME just before its write(); with `reader_stdout` (a pipe), it also stamps each line read from it on
    arrival. Returns the process and the paths of its stamps (a frame's time as the reader prints it) and arrivals
    ("seconds.nanoseconds<TAB>line")."""
    path = os.path.join(work, name + ".frames")
    with open(path, "wb") as handle:
        handle.write(encode(frames)[0])  # the driver stamps each frame anew
    stamps = arrivals = "-"
    if reader_stdout is not None:
        stamps, arrivals = os.path.join(work, name + ".stamps"), os.path.join(work, name + ".arrivals")
    driver = subprocess.Popen([HELPERS["paced_driver"], device.path, path, str(rate), stamps, arrivals],
                              stdin=subprocess.DEVNULL if reader_stdout is None else reader_stdout,
                              stdout=subprocess.PIPE)
    return driver, stamps, arrivals


def steal_seconds():
    """CPU time the hypervisor took from this VM's virtual CPUs so far (/proc/stat's steal column, all CPUs)."""
    with open("/proc/stat") as handle:
        fields = handle.readline().split()
    return int(fields[8]) / CLOCK_TICKS if len(fields) > 8 else 0.0


def wakeup_floor(rate, seconds=5):
    """The machine's own punctuality (Benchmarks/wakeup_probe.c), taken just before the real-time run: how many of
    `seconds * rate` sleeps to an absolute deadline woke more than an interval late, and how many gaps of more than
    an interval a thread spinning as long saw."""
    count = int(seconds * rate)
    fields = subprocess.run([HELPERS["wakeup_probe"], str(count), str(int(1e6 / rate))], capture_output=True,
                            text=True, check=True).stdout.split()
    result = {"deadlines": count, "sleeps_late": int(fields[2]), "sleep_worst_ms": int(fields[3]) / 1e6,
              "spin_gaps": int(fields[5]), "spin_worst_gap_ms": int(fields[6]) / 1e6}
    log("real time, the machine: %d of %d sleeps woke more than an interval late (worst %.3f ms); a spinning thread "
        "saw %d such gaps (worst %.3f ms)" % (result["sleeps_late"], count, result["sleep_worst_ms"],
                                              result["spin_gaps"], result["spin_worst_gap_ms"]))
    return result


def paced_written(driver, frames, rate):
    """Waits for the driver's last write: the seconds the frames took and how many went out more than an
    interval after their deadline (the driver was not run in time: the machine, not the reader, was busy). A reader
    that stops reading leaves the driver blocked on a full FIFO: after the frames' own time and a minute more, the
    driver is killed and the run fails instead of hanging."""
    ready, _, _ = select.select([driver.stdout], [], [], len(frames) / rate + 60)
    if not ready:
        driver.kill()
        driver.wait()
        raise RuntimeError("paced_driver did not finish writing %d frames in %.0f s: the reader stopped reading" % (
            len(frames), len(frames) / rate + 60))
    line = driver.stdout.readline().split()
    if len(line) != 3 or line[0] != b"written":
        raise RuntimeError("paced_driver stopped before writing every frame (exit status %s)" % driver.wait())
    return float(line[1]), int(line[2])


def realtime_baseline(arguments, name, command, work):
    """CPU of a reader that does not decode (cat) or only prints (evtest) under the same 1 kHz load."""
    seconds = min(arguments.realtime_seconds, 10)
    frames = list(evemu_stream.frames(int(seconds * arguments.rate), arguments.realtime_contacts))
    device = Device(os.path.join(work, "realtime-" + name))
    process = start(device, command)
    wait_for_open(process, device.path)
    time.sleep(0.2)
    driver, _, _ = paced_driver(device, frames, arguments.rate, work, "realtime-" + name)
    before = cpu_seconds(process.pid)
    elapsed, _ = paced_written(driver, frames, arguments.rate)
    if driver.wait(timeout=30) != 0:
        raise RuntimeError("paced_driver failed")
    while device.pending() > 0:
        time.sleep(0.005)
    wait_until_idle(process.pid, quiet=0.2)
    during = cpu_seconds(process.pid) - before
    stop(process)
    device.close()
    log("real time, %s: %.2f%% of a core" % (name, during / elapsed * 100))
    return during / elapsed * 100


def realtime(arguments, binary, work):
    """1 kHz reports of 16 contacts, each frame stamped with CLOCK_REALTIME just before it is written."""
    rate = arguments.rate
    interval = 1.0 / rate
    count = int(arguments.realtime_seconds * rate)
    frames = list(evemu_stream.frames(count, arguments.realtime_contacts))
    floor = wakeup_floor(rate)
    device = Device(os.path.join(work, "realtime"))
    process = start(device, [binary, "--device", NODE, "--format", "jsonl", "--quiet"], stdout=subprocess.PIPE)
    process.stdout.readline()
    wait_for_open(process, device.path)
    time.sleep(0.2)
    # Python's buffer holds the device line alone (no frame was written yet): the driver reads the rest.
    driver, stamps_path, arrivals_path = paced_driver(device, frames, rate, work, "realtime", process.stdout)
    before = cpu_seconds(process.pid)
    stolen = steal_seconds()
    elapsed, late_writes = paced_written(driver, frames, rate)
    stolen = steal_seconds() - stolen
    while device.pending() > 0:
        time.sleep(0.005)
    wait_until_idle(process.pid, quiet=0.2)
    during = cpu_seconds(process.pid) - before
    peak = status_kib(process.pid, "VmHWM")
    usage = stop(process)
    if driver.wait(timeout=60) != 0:
        raise RuntimeError("paced_driver failed")
    device.close()
    with open(stamps_path, "rb") as handle:
        stamps = set(handle.read().split())
    latencies = []
    between = 0
    with open(arrivals_path, "rb") as handle:
        for entry in handle:
            arrived, line = entry.split(b"\t", 1)
            record = json.loads(line)
            if record.get("type") == "frame":
                # A reading stamped with a written frame's time is that frame's line; others are readings the
                # tracker made between frames (a contact settling, the heaviest mark moving after its hold).
                # Each stamp is taken once: a reading made between frames can fall on a frame's exact
                # microsecond.
                text = line.split(b'"time":', 1)[1].split(b",", 1)[0]
                if text in stamps:
                    stamps.discard(text)
                    latencies.append(float(arrived) - float(record["time"]))
                else:
                    between += 1
    if len(latencies) != count:
        raise RuntimeError("real-time run: %d frames written, %d of their lines read" % (count, len(latencies)))
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]  # noqa: E731
    result = {
        "rate_hz": rate,
        "contacts": arguments.realtime_contacts,
        "frames": count,
        "seconds": elapsed,
        "cpu_s": during,
        "cpu_percent_of_one_core": during / elapsed * 100,
        "cpu_us_per_report_interval": during / count * 1e6,
        "latency_ms": {"p50": pick(0.5) * 1e3, "p99": pick(0.99) * 1e3, "p999": pick(0.999) * 1e3,
                       "max": latencies[-1] * 1e3},
        "readings_between_frames": between,
        "frames_later_than_one_interval": sum(1 for value in latencies if value > interval),
        "driver_writes_later_than_one_interval": late_writes,
        "driver": "Benchmarks/paced_driver.c",
        "hypervisor_steal_s": stolen,
        "machine_wakeups": floor,
        "peak_rss_kib": peak,
        "baseline_cpu_percent": {
            "cat": realtime_baseline(arguments, "cat", ["/bin/cat", NODE], work),
            "evtest": realtime_baseline(arguments, "evtest", ["/usr/bin/evtest", NODE], work),
        },
    }
    log("real time: %.2f%% of a core, latency p50 %.3f ms p99 %.3f ms max %.3f ms, %d late" % (
        result["cpu_percent_of_one_core"], result["latency_ms"]["p50"], result["latency_ms"]["p99"],
        result["latency_ms"]["max"], result["frames_later_than_one_interval"]))
    return result


# MARK: - Soak


def soak(arguments, binary, work):
    """Many frames through the live path, RSS sampled as they flow."""
    total = arguments.soak_frames
    block = 10_000
    device = Device(os.path.join(work, "soak"))
    process = start(device, [binary, "--device", NODE, "--format", "jsonl", "--quiet"])
    wait_for_open(process, device.path)
    time.sleep(0.2)
    samples = []
    generator = evemu_stream.frames(total, arguments.contacts[0])
    written = 0
    began = time.monotonic()
    while written < total:
        batch = []
        for _ in range(min(block, total - written)):
            batch.append(next(generator))
        data, _ = encode(batch)
        device.write(data)
        written += len(batch)
        samples.append((written, status_kib(process.pid, "VmRSS")))
    while device.pending() > 0:
        time.sleep(0.01)
    wait_until_idle(process.pid)
    elapsed = time.monotonic() - began
    writes = write_calls(process.pid)
    samples.append((written, status_kib(process.pid, "VmRSS")))
    usage = stop(process)
    device.close()
    if writes < total:
        raise RuntimeError("soak: %d lines for %d frames" % (writes, total))
    warm = [rss for frames, rss in samples if frames >= total // 10]
    result = {
        "frames": total,
        "contacts": arguments.contacts[0],
        "seconds": elapsed,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "rss_kib_after_warmup_first": warm[0],
        "rss_kib_after_warmup_min": min(warm),
        "rss_kib_after_warmup_max": max(warm),
        "rss_kib_last": samples[-1][1],
        "peak_rss_kib": max(rss for _, rss in samples),
        "samples": len(samples),
    }
    log("soak: %d frames, RSS after warm-up %d..%d KiB" % (total, min(warm), max(warm)))
    return result


# MARK: - Report


def machine():
    model = ""
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    return {
        "nproc": os.cpu_count(),
        "cpu": model,
        "kernel": platform.release(),
        "swift": swift[0] if swift else "",
        "load_average_at_start": os.getloadavg(),
    }


def throughput_goals(results):
    """Issue #24's goals, each (text, met): with every reader's output to /dev/null and umockdev's toll taken off,
    plumometer at most 0.30x evtest at 5 and at 16 contacts, and at most 0.5x libinput record at 5 contacts."""
    goals = []
    for run in results.get("throughput", {}).get("runs", []):
        readers_of_run = run.get("sinks", {}).get("null", {}).get("readers")
        if run["toll"] != "bypass" or readers_of_run is None:
            continue
        ours = readers_of_run["plumometer"]
        goals.append(("%d contacts: plumometer %.2fx evtest (goal <= 0.30)" % (
            run["contacts"], ours["ratio_to_evtest_net_of_cat"]), ours["ratio_to_evtest_net_of_cat"] <= 0.30))
        if run["contacts"] == 5:
            ratio = ours["ratio_to_libinput_record_net_of_cat"]
            goals.append(("%d contacts: plumometer %.2fx libinput record (goal <= 0.5)" % (run["contacts"], ratio),
                          ratio <= 0.5))
    return goals


def table(results):
    lines = []
    add = lines.append
    m = results["machine"]
    add("machine: %s, %d CPUs, Linux %s, %s" % (m["cpu"], m["nproc"], m["kernel"], m["swift"]))
    add("load average at start: %.2f %.2f %.2f" % tuple(m["load_average_at_start"]))
    for run in results.get("throughput", {}).get("runs", []):
        for sink, entry in run.get("sinks", {"file": {"readers": run["readers"]}}).items():
            readers_of_run = entry["readers"]
            add("")
            add("throughput, %s toll, output to %s: %d frames x %d moving contacts = %d events, one burst; medians of "
                "%d interleaved rounds, net of cat" % (
                    run["toll"], "/dev/null" if sink == "null" else "a file in /dev/shm", run["frames"],
                    run["contacts"], run["events"], len(readers_of_run["cat"]["all_rounds"])))
            add("  %-16s %10s %18s %13s %10s %12s %10s %12s" % (
                "reader", "CPU s", "range", "us/frame net", "x evtest", "x libinput", "peak RSS", "bytes out"))
            for name in READER_NAMES:
                r = readers_of_run.get(name)
                if r is None:
                    continue
                add("  %-16s %10.3f %8.3f..%-8.3f %13.2f %10.2f %12.2f %7.1f MB %12d" % (
                    name, r["cpu_s_median"], r["cpu_s_range"][0], r["cpu_s_range"][1],
                    r["cpu_us_per_frame_net_of_cat"], r["ratio_to_evtest_net_of_cat"],
                    r.get("ratio_to_libinput_record_net_of_cat", float("nan")), r["peak_rss_kib"] / 1024,
                    r.get("bytes_written", 0)))
    goals = throughput_goals(results)
    if goals:
        add("")
        add("goals of issue #24 (bypass toll, output to /dev/null, net of cat):")
        for text, met in goals:
            add("  %-70s %s" % (text, "met" if met else "NOT MET"))
    if "startup" in results:
        s = results["startup"]
        add("")
        add("start-up (medians of %d, net of spawning /bin/true the same way): --version %.2f ms, %.1f MB; "
            "evtest --version %.2f ms, %.1f MB; spawn to the first device record (umockdev) %.2f ms" % (
                s["runs"], s["version_ms_net_of_true"], s["version_rss_kib"] / 1024,
                s["evtest_version_ms_net_of_true"], s["evtest_rss_kib"] / 1024,
                s["first_record_ms_net_of_umockdev_true"]))
        add("  the C floor (libevdev) opens the same node in %.2f ms: plumometer's own start-up to the first "
            "record %.2f ms" % (s["c_floor_opened_ms_net_of_umockdev_true"], s["first_record_ms_net_of_c_floor_opened"]))
    if "replay" in results:
        r = results["replay"]
        add("")
        add("replay --fast -f jsonl > /dev/null (no kernel, no umockdev), %d contacts, medians of %d interleaved rounds: "
            "an evemu recording of %d frames (%.0f MB) and a libinput record YAML recording of %d frames (%.0f MB)" % (
                r["contacts"], r["rounds"], r["frames"], r["file_mb"], r["yaml_frames"], r["yaml_mb"]))
        add("  %-24s %10s %10s %14s %14s %10s %10s" % ("reader", "CPU s", "wall s", "frames/s CPU", "frames/s wall",
                                                      "MB/s CPU", "MB/s wall"))
        for name, x in r.get("readers", {}).items():
            add("  %-24s %10.3f %10.3f %14.0f %14.0f %10.1f %10.1f" % (
                name, x["cpu_s_median"], x["wall_s_median"], x["frames_per_cpu_second"],
                x["frames_per_wall_second"], x["mb_per_cpu_second"], x["mb_per_wall_second"]))
    if "replay_large" in results:
        r = results["replay_large"]
        add("")
        add("replay --fast of a %.0f MB recording: %d frames, all counted, in %.1f s; peak RSS %.1f MB" % (
            r["file_mb"], r["frames"], r["wall_s"], r["peak_rss_kib"] / 1024))
        if "to_null" in r:
            n, c = r["to_null"], r["cat"]
            add("  to /dev/null: %.1f s wall, %.1f s CPU: %.0f frames/s and %.1f MB/s (wall), peak RSS %.1f MB; "
                "cat of the same file %.2f s wall, %.0f MB/s" % (
                    n["wall_s"], n["cpu_s"], n["frames_per_wall_second"], n["mb_per_wall_second"],
                    n["peak_rss_kib"] / 1024, c["wall_s"], c["mb_per_wall_second"]))
    if "plot" in results:
        r = results["plot"]
        add("")
        add("plot vs replay --fast -f jsonl > /dev/null, %d frames x %d contacts (%.0f MB), medians of %d interleaved "
            "rounds, both read all %d readings:" % (r["frames"], r["contacts"], r["file_mb"], r["rounds"],
                                                     r["readings"]))
        for name in ("replay", "plot"):
            add("  %-8s %8.3f s CPU (%.3f..%.3f) %8.3f s wall, peak RSS %.1f MB" % (
                name, r[name]["cpu_s_median"], r[name]["cpu_s_range"][0], r[name]["cpu_s_range"][1],
                r[name]["wall_s_median"], r[name]["peak_rss_kib"] / 1024))
        add("  plot/replay: %.2fx CPU, %.2fx wall (SVG %.0f KB): goal <= %.1fx %s" % (
            r["cpu_ratio"], r["wall_ratio"], r["svg_bytes"] / 1e3, r["goal_ratio"],
            "met" if r["goal_met"] else "NOT MET"))
    if "idle" in results:
        i = results["idle"]
        add("")
        add("idle: %.1f ms CPU and %d wake-ups in %.1f s attached to a silent device (startup included: %.1f ms), "
            "peak RSS %.1f MB" % (i["cpu_s_while_idle"] * 1e3, i["wakeups_while_idle"], i["seconds"],
                                  i["cpu_s_total_with_startup"] * 1e3, i["peak_rss_kib"] / 1024))
    if "realtime" in results:
        r = results["realtime"]
        lat = r["latency_ms"]
        add("")
        add("real time (bypass toll): %d Hz x %d contacts for %.1f s: %.1f us CPU per %.1f ms report interval "
            "(%.2f%% of one core); latency event->line read: p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms; "
            "%d of %d frames later than one interval (driver writes late: %d; %.2f s of CPU stolen by the "
            "hypervisor); %d readings between frames; peak RSS %.1f MB" % (
                r["rate_hz"], r["contacts"], r["seconds"], r["cpu_us_per_report_interval"], 1000 / r["rate_hz"],
                r["cpu_percent_of_one_core"], lat["p50"], lat["p99"], lat["p999"], lat["max"],
                r["frames_later_than_one_interval"], r["frames"], r["driver_writes_later_than_one_interval"],
                r["hypervisor_steal_s"], r["readings_between_frames"], r["peak_rss_kib"] / 1024))
        add("  same load, other readers: cat %.2f%%, evtest %.2f%% of one core" % (
            r["baseline_cpu_percent"]["cat"], r["baseline_cpu_percent"]["evtest"]))
        m = r["machine_wakeups"]
        add("  the machine just before (Benchmarks/wakeup_probe.c): %d of %d sleeps to a deadline woke more than an "
            "interval late (worst %.3f ms); spinning as long, %d such gaps (worst %.3f ms)" % (
                m["sleeps_late"], m["deadlines"], m["sleep_worst_ms"], m["spin_gaps"], m["spin_worst_gap_ms"]))
    if "soak" in results:
        s = results["soak"]
        add("")
        add("soak: %d frames x %d contacts live in %.1f s (%.1f s CPU): RSS after warm-up %.1f..%.1f MB "
            "over %d samples, last %.1f MB" % (
                s["frames"], s["contacts"], s["seconds"], s["cpu_s"], s["rss_kib_after_warmup_min"] / 1024,
                s["rss_kib_after_warmup_max"] / 1024, s["samples"], s["rss_kib_last"] / 1024))
    return "\n".join(lines)


SECTIONS = ["throughput", "startup", "replay", "replay_large", "plot", "idle", "realtime", "soak"]


def main():
    parser = argparse.ArgumentParser(description="plumometer benchmarks (see docs/performance.md)")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/plumometer"))
    parser.add_argument("--frames", type=int, default=100_000, help="throughput frames (default 100000)")
    parser.add_argument("--contacts", type=int, action="append",
                        help="throughput contacts, repeatable (default: 5 and 16)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved throughput rounds, median taken (default 3)")
    parser.add_argument("--toll", choices=["bypass", "umockdev", "both"], default="both",
                        help="umockdev's per-read toll: taken off by direct_io.so, kept, or both (default)")
    parser.add_argument("--sink", dest="sinks", action="append", choices=SINKS,
                        help="where readers write in the bypass-toll runs, repeatable (default: null and file)")
    parser.add_argument("--umockdev-sinks", action="append", choices=SINKS,
                        help="where readers write in the umockdev-toll runs, repeatable (default: file)")
    parser.add_argument("--yaml-frames", type=int, default=5_000,
                        help="frames of the libinput record YAML recording the replay section reads (default 5000: "
                             "libinput analyze, in Python, reads about 200 per second, so it runs one round only)")
    parser.add_argument("--startup-runs", type=int, default=21)
    parser.add_argument("--large-mb", type=float, default=1000, help="size of the large replay (default 1000 MB)")
    parser.add_argument("--plot-frames", type=int, default=100_000,
                        help="frames of the plot section's recording, at 1 kHz (default 100000: 100 s, ~65 MB)")
    parser.add_argument("--plot-contacts", type=int, default=5, help="contacts of the plot section (default 5)")
    parser.add_argument("--plot-rounds", type=int, default=5, help="interleaved plot/replay rounds (default 5)")
    parser.add_argument("--idle-seconds", type=float, default=10)
    parser.add_argument("--rate", type=float, default=1000)
    parser.add_argument("--realtime-seconds", type=float, default=30)
    parser.add_argument("--realtime-contacts", type=int, default=16)
    parser.add_argument("--soak-frames", type=int, default=1_000_000)
    parser.add_argument("--only", action="append", choices=SECTIONS)
    parser.add_argument("--json", help="also write the results as JSON to this file")
    arguments = parser.parse_args()
    arguments.contacts = arguments.contacts or [5, 16]
    arguments.sinks = arguments.sinks or list(SINKS)
    arguments.umockdev_sinks = arguments.umockdev_sinks or ["file"]
    chosen = arguments.only or SECTIONS
    results = {"machine": machine()}
    with tempfile.TemporaryDirectory(prefix="plumometer-benchmark-") as work:
        build_helpers(work)
        for name in chosen:
            results[name] = globals()[name](arguments, arguments.binary, work)
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
    print(table(results))


if __name__ == "__main__":
    main()
