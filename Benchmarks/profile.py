"""Where plumometer's instructions go per frame, read live: callgrind on the release build.

The reader runs under `valgrind --tool=callgrind` on the benchmark's emulated Magic Trackpad 2 (the FIFO-backed
umockdev node of run_benchmarks.Device, umockdev's per-read toll taken off by direct_io.so), once with no frames
and once with FRAMES frames of CONTACTS moving contacts, each stopped by SIGTERM once its output holds every frame.
The difference of the two runs, divided by FRAMES, is the cost of one frame in user space with start-up and exit
taken out; callgrind counts instructions, so the figures repeat on a loaded machine. Kernel work (the read
syscall, the write, scheduling) is not counted: run_benchmarks.py measures that as CPU time.

Parts are inclusive costs of named functions (matched by substrings of their mangled names, see PARTS), so a part
includes what it calls; "other" is the frame's total minus the parts. The reading part includes libevdev.

Usage: /usr/bin/python3 Benchmarks/profile.py [--frames 2000] [--contacts 16] [--binary B] [--keep DIR]
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import evemu_stream  # noqa: E402
from plumobench import testbed as bench  # noqa: E402

# Each part: a name, and substrings one of which a function's (mangled) name must contain. Parts must not nest,
# or a cost would be counted twice; the reading part's libevdev share is shown beside it.
PARTS = [
    ("reading: EvdevDevice.read (libevdev included)", ["15PlumometerLinux11EvdevDeviceC4read"]),
    ("decoder: ContactDecoder.consume", ["14PlumometerCore14ContactDecoderV7consume"]),
    ("tracker: WeightTracker.consume", ["14PlumometerCore13WeightTrackerV7consume"]),
    ("JSON line: JSONLinesFormatter.frame", ["16PlumometerOutput18JSONLinesFormatterV5frame"]),
    ("the write: LatestStateWriter.write", ["15PlumometerLinux17LatestStateWriterC5write"]),
]
LIBEVDEV = "libevdev_next_event"
# When the reader feeds a whole read to the decoder at once (ContactDecoder.consume(_:each:)), the per-event consume
# is inlined into it and the rest of the frame runs inside it, in the closure LiveSource.readable passes: the
# decoder's part is then the batch's cost minus that closure's.
DECODER_BATCH = "14PlumometerCore14ContactDecoderV7consume_4each"
DECODER_BATCH_BODY = ("10LiveSourceC8readable", "ContactFrameVKXEfU_")


def run(binary, work, frames, contacts, out):
    """Runs the reader under callgrind for `frames` frames; returns the path of its profile."""
    device = bench.Device(os.path.join(work, "profile-%d" % frames))
    profile = os.path.join(out, "callgrind.%d" % frames)
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + profile, binary, "--device", bench.NODE,
               "-f", "jsonl", "--quiet"]
    lines = os.path.join(out, "lines.%d" % frames)
    with open(lines, "wb") as sink:
        process = bench.start(device, command, stdout=sink)
    bench.wait_for_open(process, device.path, limit=120)
    deadline = time.monotonic() + 120
    while bench.count_lines(lines, b'{"type":"device"') < 1:
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError("the reader never wrote its device record: %s" % process.stderr.read().decode())
        time.sleep(0.1)
    if frames:
        data, _ = bench.encode(evemu_stream.frames(frames, contacts))
        device.write(data)
    # Every frame, then the last (nothing down): proof the reader read all of it before it is stopped.
    deadline = time.monotonic() + 600
    while bench.count_lines(lines, b'{"type":"frame"') < frames:
        if time.monotonic() > deadline or process.poll() is not None:
            raise RuntimeError("the reader wrote %d of %d frames: %s" % (
                bench.count_lines(lines, b'{"type":"frame"'), frames, process.stderr.read().decode()))
        time.sleep(0.2)
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=120)
    device.close()
    got = bench.count_lines(lines, b'{"type":"frame"')
    if got != frames:
        raise RuntimeError("the reader wrote %d frames for %d" % (got, frames))
    return profile


def inclusive(profile):
    """Total instructions and the inclusive instructions of every function, from callgrind_annotate."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", profile],
                          capture_output=True, text=True, check=True).stdout
    total = None
    functions = {}
    for line in text.splitlines():
        match = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(?:\S+:)?(\S.*?)\s*(?:\[[^\]]*\])?$", line)
        if "PROGRAM TOTALS" in line:
            total = int(line.split()[0].replace(",", ""))
        elif match and total is not None:
            # One function is listed once per source file its inlined code came from, each line inclusive of
            # the same calls: the largest is the function's own.
            name, cost = match.group(2), int(match.group(1).replace(",", ""))
            functions[name] = max(functions.get(name, 0), cost)
    if total is None:
        raise RuntimeError("callgrind_annotate printed no total for %s" % profile)
    return total, functions


def part_cost(functions, needles):
    """The largest inclusive cost among the functions matching a part: its entry point (specialisations and
    thunks of the same function call one another, so adding them would count one frame's work twice)."""
    if needles is PARTS[1][1]:
        batch = [cost for name, cost in functions.items() if DECODER_BATCH in name]
        if batch:
            body = [cost for name, cost in functions.items() if all(part in name for part in DECODER_BATCH_BODY)]
            return max(batch) - (max(body) if body else 0)
    costs = [cost for name, cost in functions.items() if any(needle in name for needle in needles)]
    return max(costs) if costs else 0


def main():
    parser = argparse.ArgumentParser(description="callgrind profile of plumometer per frame (docs/performance.md)")
    parser.add_argument("--binary", default=os.path.join(bench.ROOT, ".build/release/plumometer"))
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--contacts", type=int, default=16)
    parser.add_argument("--keep", help="keep the callgrind profiles in this directory")
    arguments = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        sys.exit("profile: valgrind is not installed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="plumometer-profile-") as work:
        out = arguments.keep or work
        os.makedirs(out, exist_ok=True)
        bench.build_helpers(work)
        base_total, base = inclusive(run(arguments.binary, work, 0, arguments.contacts, out))
        total, functions = inclusive(run(arguments.binary, work, arguments.frames, arguments.contacts, out))
    frames = arguments.frames
    per_frame = (total - base_total) / frames
    print("callgrind, %d frames x %d contacts, live through the emulated node; start-up (%d instructions in the "
          "run with no frames) taken out" % (frames, arguments.contacts, base_total))
    print("  %-52s %12s %7s" % ("part", "instr/frame", "share"))
    accounted = 0
    for name, needles in PARTS:
        cost = (part_cost(functions, needles) - part_cost(base, needles)) / frames
        accounted += cost
        extra = ""
        if name.startswith("reading"):
            evdev = (part_cost(functions, [LIBEVDEV]) - part_cost(base, [LIBEVDEV])) / frames
            extra = "  (libevdev_next_event %.0fk)" % (evdev / 1e3)
        print("  %-52s %11.1fk %6.0f%%%s" % (name, cost / 1e3, 100 * cost / per_frame, extra))
    print("  %-52s %11.1fk %6.0f%%" % ("other (the loop, polls, what the parts do not name)",
                                        (per_frame - accounted) / 1e3, 100 * (per_frame - accounted) / per_frame))
    print("  %-52s %11.1fk" % ("a frame, all of user space", per_frame / 1e3))


if __name__ == "__main__":
    main()
