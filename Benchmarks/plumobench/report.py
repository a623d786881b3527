"""The report: the machine a run was made on, and every section's table in one text."""

import os
import platform
import subprocess

from plumobench import idle, plot, realtime, replay, serve, soak, startup, throughput


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


# Each section's report, in the order the table prints them (the order the sections run in).
REPORTS = [
    ("throughput", throughput.report),
    ("startup", startup.report),
    ("replay", replay.report),
    ("replay_large", replay.report_large),
    ("plot", plot.report),
    ("idle", idle.report),
    ("realtime", realtime.report),
    ("serve", serve.report),
    ("soak", soak.report),
]


def table(results):
    lines = []
    add = lines.append
    m = results["machine"]
    add("machine: %s, %d CPUs, Linux %s, %s" % (m["cpu"], m["nproc"], m["kernel"], m["swift"]))
    add("load average at start: %.2f %.2f %.2f" % tuple(m["load_average_at_start"]))
    for name, report in REPORTS:
        if name in results:
            if name != "throughput":
                add("")
            report(results[name], add)
    return "\n".join(lines)
