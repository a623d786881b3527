"""Plot: the cost of `plot FILE -o X.svg` against `replay --fast` of the same long recording (goal: at most 1.5x)."""

import os
import re
import subprocess
import xml.etree.ElementTree as ElementTree

from plumobench.testbed import DESCRIPTION, log, median, output_directory, timed_run
import evemu_stream  # noqa: E402  (Benchmarks/, on the path through testbed)

SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def svg_readings(path):
    """The readings an SVG of `plot` says it drew: the "N readings" of its summary, which must all agree."""
    texts = ["".join(element.itertext()) for element in ElementTree.parse(path).iter(SVG_TEXT)]
    counts = {int(found) for text in texts for found in re.findall(r"(\d+) readings", text)}
    if len(counts) != 1:
        raise RuntimeError("plot: the SVG %s states %s reading counts, not one" % (path, sorted(counts) or "no"))
    return counts.pop()


def run(arguments, binary, work):
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


def report(r, add):
    """The section's lines, through `add`."""
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
