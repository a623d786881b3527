"""Idle: the CPU time and wake-ups of a reader attached to a silent device (goal: no wake-ups)."""

import os
import subprocess
import time

from plumobench.testbed import NODE, Device, cpu_seconds, log, start, status_kib, stop, wait_for_open


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


def run(arguments, binary, work):
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


def report(i, add):
    """The section's line, through `add`."""
    add("idle: %.1f ms CPU and %d wake-ups in %.1f s attached to a silent device (startup included: %.1f ms), "
        "peak RSS %.1f MB" % (i["cpu_s_while_idle"] * 1e3, i["wakeups_while_idle"], i["seconds"],
                              i["cpu_s_total_with_startup"] * 1e3, i["peak_rss_kib"] / 1024))
