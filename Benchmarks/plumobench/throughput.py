"""Throughput: one burst of frames through every reader (cat, evtest, libinput record, evemu-record, the C floor,
plumometer), with umockdev's per-read toll taken off and kept, each reader's output to /dev/null and to a file, and
proof that each read everything. Issue #24's goals are checked here."""

import os
import re
import time

from plumobench.testbed import (EVENT_SIZE, HELPERS, NODE, Device, count_lines, cpu_seconds, encode, io_counter,
                                log, median, output_directory, start, status_kib, stop, wait_for_open,
                                wait_until_idle)
import evemu_stream  # noqa: E402  (Benchmarks/, on the path through testbed)


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


def run(arguments, binary, work):
    """Every reader, at each contact count, with umockdev's toll taken off (both sinks) and kept (the file sink
    only, unless --umockdev-sinks says otherwise: the toll is the same for every sink)."""
    tolls = ["bypass", "umockdev"] if arguments.toll == "both" else [arguments.toll]
    runs = []
    for toll in tolls:
        sinks = arguments.sinks if toll == "bypass" else arguments.umockdev_sinks
        for contacts in arguments.contacts:
            runs.append(throughput_run(arguments, binary, work, contacts, toll, sinks))
    return {"runs": runs}


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


def report(result, add):
    """The section's tables and issue #24's goals, a line at a time through `add`."""
    results = {"throughput": result}  # throughput_goals reads a whole run's results
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
