"""Real time: 1 kHz reports of 16 contacts, each frame stamped just before it is written: CPU per report interval and
the latency from event to line read, beside cat and evtest under the same load and the machine's own punctuality."""

import json
import os
import select
import subprocess
import time

from plumobench.testbed import CLOCK_TICKS, HELPERS, NODE, Device, cpu_seconds, encode, log, start, status_kib, \
    stop, wait_for_open, wait_until_idle
import evemu_stream  # noqa: E402  (Benchmarks/, on the path through testbed)


def paced_driver(device, frames, rate, work, name, reader_stdout=None, drains=None):
    """Starts Benchmarks/paced_driver.c writing `frames` into the device at `rate`, each stamped with
    CLOCK_REALTIME just before its write(); with `reader_stdout` (a pipe), it also stamps each line read from it on
    arrival; with `drains` (a path), it writes there how long each frame stayed unread in the FIFO. Returns the
    process and the paths of its stamps (a frame's time as the reader prints it) and arrivals
    ("seconds.nanoseconds<TAB>line")."""
    path = os.path.join(work, name + ".frames")
    with open(path, "wb") as handle:
        handle.write(encode(frames)[0])  # the driver stamps each frame anew
    stamps = arrivals = "-"
    if reader_stdout is not None:
        stamps, arrivals = os.path.join(work, name + ".stamps"), os.path.join(work, name + ".arrivals")
    driver = subprocess.Popen([HELPERS["paced_driver"], device.path, path, str(rate), stamps, arrivals]
                              + ([drains] if drains else []),
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


def run(arguments, binary, work):
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
    stop(process)
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


def report(r, add):
    """The section's lines, through `add`."""
    lat = r["latency_ms"]
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
