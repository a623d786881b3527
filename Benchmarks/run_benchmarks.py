#!/usr/bin/python3
"""plumometer's benchmarks: CPU per frame against evtest, `libinput record`, a C floor and cat, start-up, the pure
pipeline, memory on a large recording, idle cost, real-time load and latency, `serve` with 100 clients, and a soak. Run by
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

The sections are modules of the package beside this file, `plumobench/`, one per section (each with its `run` and
its `report`), over `plumobench/testbed.py` (the emulated device, the C helpers, and a process's CPU time, memory
and I/O read from /proc); `plumobench/report.py` prints the table.
"""

import argparse
import json
import os
import tempfile

from plumobench import idle, plot, realtime, replay, report, serve, soak, startup, testbed, throughput

# Every section, in the order a full run takes them.
SECTIONS = {
    "throughput": throughput.run,
    "startup": startup.run,
    "replay": replay.run,
    "replay_large": replay.run_large,
    "plot": plot.run,
    "idle": idle.run,
    "realtime": realtime.run,
    "serve": serve.run,
    "soak": soak.run,
}


def main():
    parser = argparse.ArgumentParser(description="plumometer benchmarks (see docs/performance.md)")
    parser.add_argument("--binary", default=os.path.join(testbed.ROOT, ".build/release/plumometer"))
    parser.add_argument("--frames", type=int, default=100_000, help="throughput frames (default 100000)")
    parser.add_argument("--contacts", type=int, action="append",
                        help="throughput contacts, repeatable (default: 5 and 16)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved throughput rounds, median taken (default 3)")
    parser.add_argument("--toll", choices=["bypass", "umockdev", "both"], default="both",
                        help="umockdev's per-read toll: taken off by direct_io.so, kept, or both (default)")
    parser.add_argument("--sink", dest="sinks", action="append", choices=throughput.SINKS,
                        help="where readers write in the bypass-toll runs, repeatable (default: null and file)")
    parser.add_argument("--umockdev-sinks", action="append", choices=throughput.SINKS,
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
    parser.add_argument("--serve-clients", type=int, default=100, help="serve's /readings clients (default 100)")
    parser.add_argument("--serve-seconds", type=float, default=30, help="serve at the demo's rate (default 30)")
    parser.add_argument("--serve-fast-seconds", type=float, default=10, help="serve at --rate (default 10)")
    parser.add_argument("--soak-frames", type=int, default=1_000_000)
    parser.add_argument("--only", action="append", choices=list(SECTIONS))
    parser.add_argument("--json", help="also write the results as JSON to this file")
    arguments = parser.parse_args()
    arguments.contacts = arguments.contacts or [5, 16]
    arguments.sinks = arguments.sinks or list(throughput.SINKS)
    arguments.umockdev_sinks = arguments.umockdev_sinks or ["file"]
    chosen = arguments.only or list(SECTIONS)
    results = {"machine": report.machine()}
    with tempfile.TemporaryDirectory(prefix="plumometer-benchmark-") as work:
        testbed.build_helpers(work)
        for name in chosen:
            results[name] = SECTIONS[name](arguments, arguments.binary, work)
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
    print(report.table(results))


if __name__ == "__main__":
    main()
