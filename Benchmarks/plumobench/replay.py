"""Replay: the pure pipeline (`replay --fast`, no kernel, no umockdev) on an evemu and a `libinput record` recording
beside cat and `libinput analyze recording`, and the memory of a replay of a very large recording."""

import os
import re
import signal
import subprocess
import time

from plumobench.testbed import DESCRIPTION, NODE, Device, count_lines, encode, log, median, start, timed_run, \
    wait_for_open
import evemu_stream  # noqa: E402  (Benchmarks/, on the path through testbed)


# The replay section's runs see the system's tools first (`libinput analyze` is Debian's, on /usr/bin/python3).
SYSTEM_PATH = dict(os.environ, PATH="/usr/bin:/bin")


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


def run(arguments, binary, work):
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


def run_large(arguments, binary, work):
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


def report(r, add):
    """The section's table, through `add`."""
    add("replay --fast -f jsonl > /dev/null (no kernel, no umockdev), %d contacts, medians of %d interleaved rounds: "
        "an evemu recording of %d frames (%.0f MB) and a libinput record YAML recording of %d frames (%.0f MB)" % (
            r["contacts"], r["rounds"], r["frames"], r["file_mb"], r["yaml_frames"], r["yaml_mb"]))
    add("  %-24s %10s %10s %14s %14s %10s %10s" % ("reader", "CPU s", "wall s", "frames/s CPU", "frames/s wall",
                                                  "MB/s CPU", "MB/s wall"))
    for name, x in r.get("readers", {}).items():
        add("  %-24s %10.3f %10.3f %14.0f %14.0f %10.1f %10.1f" % (
            name, x["cpu_s_median"], x["wall_s_median"], x["frames_per_cpu_second"],
            x["frames_per_wall_second"], x["mb_per_cpu_second"], x["mb_per_wall_second"]))


def report_large(r, add):
    """The section's lines, through `add`."""
    add("replay --fast of a %.0f MB recording: %d frames, all counted, in %.1f s; peak RSS %.1f MB" % (
        r["file_mb"], r["frames"], r["wall_s"], r["peak_rss_kib"] / 1024))
    if "to_null" in r:
        n, c = r["to_null"], r["cat"]
        add("  to /dev/null: %.1f s wall, %.1f s CPU: %.0f frames/s and %.1f MB/s (wall), peak RSS %.1f MB; "
            "cat of the same file %.2f s wall, %.0f MB/s" % (
                n["wall_s"], n["cpu_s"], n["frames_per_wall_second"], n["mb_per_wall_second"],
                n["peak_rss_kib"] / 1024, c["wall_s"], c["mb_per_wall_second"]))
