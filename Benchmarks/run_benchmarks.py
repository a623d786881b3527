#!/usr/bin/python3
"""plumometer's benchmarks: throughput against evtest and cat, the pure pipeline, idle cost, real-time load and
latency, memory and a soak. Run by scripts/benchmark; see docs/performance.md for what each figure means.

Every live run reads an emulated /dev/input/event7 in a umockdev testbed (sysfs, udev and every evdev ioctl
answered by umockdev from a device description). The event stream does not come from umockdev's own evemu replay:
umockdev backs an emulated node with a pseudo-terminal, whose line discipline eats bytes such as 0x03, 0x11 and
0x13 in binary events and hands readers partial events, and its replay thread manages about 10,000 events per
second. Here the node is a FIFO in the testbed's /dev, written by this driver in whole events (writes of at most
PIPE_BUF bytes are atomic), so a reader gets exactly what an evdev node would give it. The readers run with
umockdev's preload library; their CPU time is read with wait4() (user + system of the reader and anything it
spawned) and excludes this driver and umockdev's ioctl thread, which live in this process.

Needs /usr/bin/python3 with gir1.2-umockdev-1.0 (scripts/install-deps.sh --test).
"""

import argparse
import array
import fcntl
import json
import os
import platform
import resource
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

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


def log(message):
    sys.stderr.write("benchmark: %s\n" % message)
    sys.stderr.flush()


# MARK: - The emulated device


class Device:
    """A umockdev testbed with one Magic Trackpad 2 whose event node is a FIFO this process writes."""

    def __init__(self, work):
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
        self.environment = dict(os.environ, UMOCKDEV_DIR=root, LD_PRELOAD="libumockdev-preload.so.0")

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


def throughput(arguments, binary, work):
    frames = arguments.frames
    data, events = encode(evemu_stream.frames(frames, arguments.contacts))
    log("throughput: %d frames, %d contacts, %d events (%.1f MB)" % (frames, arguments.contacts, events,
                                                                    len(data) / 1e6))
    readers = [
        ("cat", ["/bin/cat", NODE]),
        ("evtest", ["/usr/bin/evtest", NODE]),
        ("plumometer", [binary, "--device", NODE, "--format", "jsonl", "--quiet"]),
    ]
    results = {}
    for round_index in range(arguments.rounds):
        for name, command in readers:
            device = Device(os.path.join(work, "throughput-%s-%d" % (name, round_index)))
            process = start(device, command)
            wait_for_open(process, device.path)
            time.sleep(0.2)  # let the reader finish its setup and block in read/poll
            before = cpu_seconds(process.pid)
            began = time.monotonic()
            device.write(data)
            while device.pending() > 0:
                time.sleep(0.005)
            wait_until_idle(process.pid)
            wall = time.monotonic() - began
            during = cpu_seconds(process.pid) - before
            writes = write_calls(process.pid)
            peak = status_kib(process.pid, "VmHWM")
            usage = stop(process)
            error = process.stderr.read().decode()
            device.close()
            if name == "plumometer":
                if process.returncode != 0 or error.strip():
                    raise RuntimeError("plumometer failed (%s): %s" % (process.returncode, error))
                # One write per line: the device record, then one line per frame.
                if writes < frames + 1:
                    raise RuntimeError("plumometer wrote %d lines for %d frames" % (writes, frames))
            total = usage.ru_utime + usage.ru_stime
            result = results.setdefault(name, {"total": [], "during": [], "wall": [], "peak_kib": 0})
            result["total"].append(total)
            result["during"].append(during)
            result["wall"].append(wall)
            # VmHWM, not ru_maxrss: a child forked from this Python process starts with its RSS on the books.
            result["peak_kib"] = max(result["peak_kib"], peak)
            log("  %-10s %.3f s CPU (%.3f s while events flowed), %.2f s wall" % (name, total, during, wall))
    summary = {"frames": frames, "contacts": arguments.contacts, "events": events, "readers": {}}
    for name, result in results.items():
        best = min(result["during"])
        summary["readers"][name] = {
            "cpu_s": min(result["total"]),
            "cpu_s_during_stream": best,
            "cpu_s_per_million_events": best / events * 1e6,
            "all_rounds_during_stream": result["during"],
            "wall_s": min(result["wall"]),
            "peak_rss_kib": result["peak_kib"],
        }
    readers = summary["readers"]
    cat = readers["cat"]["cpu_s_during_stream"]
    above_cat = lambda name: readers[name]["cpu_s_during_stream"] - cat  # noqa: E731
    summary["plumometer_minus_cat_over_evtest_minus_cat"] = above_cat("plumometer") / max(above_cat("evtest"), 1e-9)
    summary["plumometer_over_evtest"] = readers["plumometer"]["cpu_s_during_stream"] / max(
        readers["evtest"]["cpu_s_during_stream"], 1e-9)
    return summary


# MARK: - Replay


def replay(arguments, binary, work):
    path = os.path.join(work, "throughput.evemu")
    events, frames = evemu_stream.write_stream(
        path, arguments.frames, arguments.contacts, 1000, True, description=DESCRIPTION
    )
    best = None
    for _ in range(arguments.rounds):
        began = time.monotonic()
        # Through GNU time, whose own small RSS is what the child inherits at fork (see throughput()).
        report = os.path.join(work, "replay.time")
        process = subprocess.Popen(
            ["/usr/bin/time", "-f", "%M", "-o", report, binary, "replay", "--fast", "-f", "jsonl", path],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - began
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError("replay failed: " + process.stderr.read().decode())
        cpu = usage.ru_utime + usage.ru_stime
        with open(report) as handle:
            peak = int(handle.read().split()[-1])
        log("replay --fast: %.3f s CPU, %.3f s wall, peak RSS %d KiB" % (cpu, wall, peak))
        if best is None or cpu < best["cpu_s"]:
            best = {"cpu_s": cpu, "wall_s": wall, "peak_rss_kib": peak}
    best.update({
        "frames": frames,
        "events": events,
        "file_mb": os.path.getsize(path) / 1e6,
        "cpu_s_per_million_events": best["cpu_s"] / events * 1e6,
        "frames_per_cpu_second": frames / best["cpu_s"],
        "frames_per_wall_second": frames / best["wall_s"],
    })
    os.unlink(path)
    return best


# MARK: - Idle


def idle(arguments, binary, work):
    device = Device(os.path.join(work, "idle"))
    process = start(device, [binary, "--device", NODE, "--format", "jsonl"], stdout=subprocess.PIPE)
    process.stdout.readline()  # the device record: the reader is attached
    wait_for_open(process, device.path)
    time.sleep(0.2)
    before = cpu_seconds(process.pid)
    began = time.monotonic()
    time.sleep(arguments.idle_seconds)
    during = cpu_seconds(process.pid) - before
    elapsed = time.monotonic() - began
    peak = status_kib(process.pid, "VmHWM")
    usage = stop(process)
    device.close()
    result = {
        "seconds": elapsed,
        "cpu_s_while_idle": during,
        "cpu_s_total_with_startup": usage.ru_utime + usage.ru_stime,
        "wakeups": usage.ru_nvcsw + usage.ru_nivcsw,
        "peak_rss_kib": peak,
    }
    log("idle: %.4f s CPU in %.1f s" % (during, elapsed))
    return result


# MARK: - Real-time load and latency


def paced_write(device, frames, interval):
    """Writes one frame per interval, each stamped with CLOCK_REALTIME just before its write.

    Returns the seconds taken and how many writes were more than one interval behind their schedule (this
    process was not scheduled in time: the machine, not the reader, was busy)."""
    late_writes = 0
    pack = EVENT.pack
    start_time = time.monotonic() + 0.05
    for index, events in enumerate(frames):
        due = start_time + index * interval
        while True:
            remaining = due - time.monotonic()
            if remaining <= 0:
                break
            time.sleep(remaining if remaining > 0.0003 else 0)
        if time.monotonic() - due > interval:
            late_writes += 1
        now = time.time()
        seconds = int(now)
        microseconds = int((now - seconds) * 1e6)
        os.write(device.fd, b"".join(pack(seconds, microseconds, t, c, v) for t, c, v in events))
    return time.monotonic() - start_time, late_writes


def realtime_baseline(arguments, name, command, work):
    """CPU of a reader that does not decode (cat) or only prints (evtest) under the same 1 kHz load."""
    seconds = min(arguments.realtime_seconds, 10)
    frames = list(evemu_stream.frames(int(seconds * arguments.rate), arguments.realtime_contacts))
    device = Device(os.path.join(work, "realtime-" + name))
    process = start(device, command)
    wait_for_open(process, device.path)
    time.sleep(0.2)
    before = cpu_seconds(process.pid)
    elapsed, _ = paced_write(device, frames, 1.0 / arguments.rate)
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
    device = Device(os.path.join(work, "realtime"))
    process = start(device, [binary, "--device", NODE, "--format", "jsonl", "--quiet"], stdout=subprocess.PIPE)
    process.stdout.readline()
    wait_for_open(process, device.path)
    time.sleep(0.2)
    arrivals = []

    def read_lines():
        # Line by line, each stamped on arrival: the wall clock when this process got it from the pipe.
        stream = process.stdout
        clock = time.time
        while True:
            line = stream.readline()
            if not line:
                return
            arrivals.append((clock(), line))

    reader = threading.Thread(target=read_lines, daemon=True)
    reader.start()
    before = cpu_seconds(process.pid)
    elapsed, late_writes = paced_write(device, frames, interval)
    while device.pending() > 0:
        time.sleep(0.005)
    wait_until_idle(process.pid, quiet=0.2)
    during = cpu_seconds(process.pid) - before
    peak = status_kib(process.pid, "VmHWM")
    usage = stop(process)
    reader.join(timeout=10)
    device.close()
    latencies = []
    for arrived, line in arrivals:
        record = json.loads(line)
        if record.get("type") == "frame":
            latencies.append(arrived - float(record["time"]))
    if len(latencies) != count:
        raise RuntimeError("real-time run: %d frames written, %d lines read" % (count, len(latencies)))
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]  # noqa: E731
    result = {
        "rate_hz": rate,
        "contacts": arguments.realtime_contacts,
        "frames": count,
        "seconds": elapsed,
        "cpu_s": during,
        "cpu_percent_of_one_core": during / elapsed * 100,
        "latency_ms": {"p50": pick(0.5) * 1e3, "p99": pick(0.99) * 1e3, "p999": pick(0.999) * 1e3,
                       "max": latencies[-1] * 1e3},
        "frames_later_than_one_interval": sum(1 for value in latencies if value > interval),
        "driver_writes_later_than_one_interval": late_writes,
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
    generator = evemu_stream.frames(total, arguments.contacts)
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
        "contacts": arguments.contacts,
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


def table(results):
    lines = []
    add = lines.append
    m = results["machine"]
    add("machine: %s, %d CPUs, Linux %s, %s" % (m["cpu"], m["nproc"], m["kernel"], m["swift"]))
    add("load average at start: %.2f %.2f %.2f" % tuple(m["load_average_at_start"]))
    if "throughput" in results:
        t = results["throughput"]
        add("")
        add("throughput: %d frames x %d moving contacts = %d events, one burst through umockdev" % (
            t["frames"], t["contacts"], t["events"]))
        add("  %-11s %12s %14s %10s %10s" % ("reader", "CPU s", "CPU s/M events", "wall s", "peak RSS"))
        for name in ("cat", "evtest", "plumometer"):
            r = t["readers"][name]
            add("  %-11s %12.3f %14.3f %10.2f %7.1f MB" % (
                name, r["cpu_s_during_stream"], r["cpu_s_per_million_events"], r["wall_s"],
                r["peak_rss_kib"] / 1024))
        add("  (plumometer - cat) / (evtest - cat) = %.2f   plumometer / evtest = %.2f" % (
            t["plumometer_minus_cat_over_evtest_minus_cat"], t["plumometer_over_evtest"]))
    if "replay" in results:
        r = results["replay"]
        add("")
        add("replay --fast (no kernel, no umockdev): %.3f s CPU for %d events = %.3f s/M events, "
            "%.0f frames/s, peak RSS %.1f MB (file %.0f MB)" % (
                r["cpu_s"], r["events"], r["cpu_s_per_million_events"], r["frames_per_wall_second"],
                r["peak_rss_kib"] / 1024, r["file_mb"]))
    if "idle" in results:
        i = results["idle"]
        add("")
        add("idle: %.1f ms CPU in %.1f s attached to a silent device (startup included: %.1f ms), "
            "peak RSS %.1f MB" % (i["cpu_s_while_idle"] * 1e3, i["seconds"], i["cpu_s_total_with_startup"] * 1e3,
                                  i["peak_rss_kib"] / 1024))
    if "realtime" in results:
        r = results["realtime"]
        lat = r["latency_ms"]
        add("")
        add("real time: %d Hz x %d contacts for %.1f s: %.2f%% of one core; latency event->line read: "
            "p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms; %d of %d frames later than %.1f ms "
            "(driver writes late: %d); peak RSS %.1f MB" % (
                r["rate_hz"], r["contacts"], r["seconds"], r["cpu_percent_of_one_core"], lat["p50"], lat["p99"],
                lat["p999"], lat["max"], r["frames_later_than_one_interval"], r["frames"], 1000 / r["rate_hz"],
                r["driver_writes_later_than_one_interval"], r["peak_rss_kib"] / 1024))
        add("  same load, other readers: cat %.2f%%, evtest %.2f%% of one core" % (
            r["baseline_cpu_percent"]["cat"], r["baseline_cpu_percent"]["evtest"]))
    if "soak" in results:
        s = results["soak"]
        add("")
        add("soak: %d frames x %d contacts live in %.1f s (%.1f s CPU): RSS after warm-up %.1f..%.1f MB "
            "over %d samples, last %.1f MB" % (
                s["frames"], s["contacts"], s["seconds"], s["cpu_s"], s["rss_kib_after_warmup_min"] / 1024,
                s["rss_kib_after_warmup_max"] / 1024, s["samples"], s["rss_kib_last"] / 1024))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description="plumometer benchmarks (see docs/performance.md)")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/plumometer"))
    parser.add_argument("--frames", type=int, default=100_000, help="throughput frames (default 100000)")
    parser.add_argument("--contacts", type=int, default=5, help="throughput contacts (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="throughput rounds, best taken (default 3)")
    parser.add_argument("--idle-seconds", type=float, default=10)
    parser.add_argument("--rate", type=float, default=1000)
    parser.add_argument("--realtime-seconds", type=float, default=30)
    parser.add_argument("--realtime-contacts", type=int, default=16)
    parser.add_argument("--soak-frames", type=int, default=1_000_000)
    parser.add_argument("--only", action="append", choices=["throughput", "replay", "idle", "realtime", "soak"])
    parser.add_argument("--json", help="also write the results as JSON to this file")
    arguments = parser.parse_args()
    chosen = arguments.only or ["throughput", "replay", "idle", "realtime", "soak"]
    results = {"machine": machine()}
    with tempfile.TemporaryDirectory(prefix="plumometer-benchmark-") as work:
        for name in chosen:
            results[name] = globals()[name](arguments, arguments.binary, work)
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
    print(table(results))


if __name__ == "__main__":
    main()
