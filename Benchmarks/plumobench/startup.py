"""Start-up: `--version`, and spawn to the first device record on a device, beside evtest and the C floor."""

import os
import signal
import subprocess
import time

from plumobench.testbed import HELPERS, NODE, Device, log, median


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


def run(arguments, binary, work):
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


def report(s, add):
    """The section's lines, through `add`."""
    add("start-up (medians of %d, net of spawning /bin/true the same way): --version %.2f ms, %.1f MB; "
        "evtest --version %.2f ms, %.1f MB; spawn to the first device record (umockdev) %.2f ms" % (
            s["runs"], s["version_ms_net_of_true"], s["version_rss_kib"] / 1024,
            s["evtest_version_ms_net_of_true"], s["evtest_rss_kib"] / 1024,
            s["first_record_ms_net_of_umockdev_true"]))
    add("  the C floor (libevdev) opens the same node in %.2f ms: plumometer's own start-up to the first "
        "record %.2f ms" % (s["c_floor_opened_ms_net_of_umockdev_true"], s["first_record_ms_net_of_c_floor_opened"]))
