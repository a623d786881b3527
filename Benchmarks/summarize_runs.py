"""The median and range of several `run_benchmarks.py --json` runs, figure by figure, with each goal (issues #16
and #24: the CPU goals use the bypass toll with every reader's output to /dev/null).

Usage: python3 Benchmarks/summarize_runs.py RUN1.json RUN2.json RUN3.json

Prints one line per figure: the median over the runs, the range in brackets, and for a goal whether its median and
every run meet it. Standard library only; reads nothing but the JSON files the benchmark wrote.
"""

import json
import sys


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def figure(values, digits=2, unit=""):
    return "%.*f%s (%.*f..%.*f)" % (digits, median(values), unit, digits, min(values), digits, max(values))


def throughput(run, toll, contacts, sink):
    """The readers of one throughput table; runs written before the sinks were measured have the file sink only."""
    for entry in run.get("throughput", {}).get("runs", []):
        if entry["toll"] == toll and entry["contacts"] == contacts:
            if "sinks" not in entry:
                return entry["readers"] if sink == "file" else None
            return entry["sinks"].get(sink, {}).get("readers")
    return None


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    runs = []
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as handle:
            runs.append(json.load(handle))
    print("%d runs; machine: %s" % (len(runs), runs[0]["machine"]))
    goals = []

    def goal(name, values, limit, digits=2, unit="", below=True):
        met_median = median(values) <= limit if below else median(values) >= limit
        met_all = all((value <= limit) if below else (value >= limit) for value in values)
        verdict = "met in every run" if met_all else ("met in the median" if met_median else "NOT MET")
        goals.append("  %-58s %s  goal %s %s%s: %s" % (
            name, figure(values, digits, unit), "<=" if below else ">=", limit, unit, verdict))

    for toll in ("bypass", "umockdev"):
        for sink in ("null", "file"):
            for contacts in (5, 16):
                readers = [throughput(run, toll, contacts, sink) for run in runs]
                if any(r is None for r in readers):
                    continue
                print("throughput, %s toll, output to %s, %d contacts (ratio to evtest net of cat; us per frame net; "
                      "peak RSS MB):" % (toll, "/dev/null" if sink == "null" else "a file", contacts))
                for name in readers[0]:
                    if name == "cat":
                        continue
                    ratio = [r[name]["ratio_to_evtest_net_of_cat"] for r in readers]
                    micro = [r[name]["cpu_us_per_frame_net_of_cat"] for r in readers]
                    rss = [r[name]["peak_rss_kib"] / 1024 for r in readers]
                    print("  %-16s %s   %s us   %s MB" % (name, figure(ratio), figure(micro, 1), figure(rss, 1)))
                ours = [r["plumometer"]["ratio_to_evtest_net_of_cat"] for r in readers]
                theirs = [r["libinput-record"]["ratio_to_evtest_net_of_cat"] for r in readers]
                if toll == "bypass" and sink == "null":
                    goal("CPU, /dev/null, %d contacts, x evtest (issue #24)" % contacts, ours, 0.30)
                    if contacts == 5:
                        goal("CPU, /dev/null, %d contacts, x libinput record (issue #24)" % contacts,
                             [r["plumometer"]["ratio_to_libinput_record_net_of_cat"] for r in readers], 0.5)
                if toll == "bypass" and sink == "file":
                    goal("RSS while streaming, %d contacts" % contacts,
                         [r["plumometer"]["peak_rss_kib"] / 1024 for r in readers], 10, 1, " MB")
                if sink == "file":
                    goal("plumometer minus libinput record, %s, file, %d contacts (x evtest)" % (toll, contacts),
                         [a - b for a, b in zip(ours, theirs)], 0.0)
    if all("readers" in run.get("replay", {}) for run in runs):
        print("replay --fast -f jsonl > /dev/null, %d contacts (frames/s and MB/s of wall time):" % (
            runs[0]["replay"]["contacts"]))
        for name in runs[0]["replay"]["readers"]:
            entries = [run["replay"]["readers"][name] for run in runs]
            print("  %-24s %s frames/s   %s MB/s   (%d frames, %.1f MB)" % (
                name, figure([e["frames_per_wall_second"] for e in entries], 0),
                figure([e["mb_per_wall_second"] for e in entries], 1), entries[0]["frames"], entries[0]["file_mb"]))
    if all("startup" in run for run in runs):
        startup = [run["startup"] for run in runs]
        print("start-up:")
        print("  --version, net of /bin/true          %s" % figure([s["version_ms_net_of_true"] for s in startup], 2, " ms"))
        print("  --version peak RSS                   %s" % figure([s["version_rss_kib"] / 1024 for s in startup], 1,
                                                                 " MB"))
        print("  first record under umockdev          %s" % figure(
            [s["first_record_ms_net_of_umockdev_true"] for s in startup], 2, " ms"))
        print("  the C floor's open of the same node  %s" % figure(
            [s["c_floor_opened_ms_net_of_umockdev_true"] for s in startup], 2, " ms"))
        goal("start-up to the first record, net of the C floor's open",
             [s["first_record_ms_net_of_c_floor_opened"] for s in startup], 4, 2, " ms")
    if all("idle" in run for run in runs):
        idle = [run["idle"] for run in runs]
        goal("idle: wake-ups in %.0f s" % idle[0]["seconds"], [i["wakeups_while_idle"] for i in idle], 0, 0)
    if all("realtime" in run for run in runs):
        realtime = [run["realtime"] for run in runs]
        print("real time, %d Hz x %d contacts, %.0f s:" % (realtime[0]["rate_hz"], realtime[0]["contacts"],
                                                         realtime[0]["seconds"]))
        print("  CPU per report interval              %s" % figure([r["cpu_us_per_report_interval"] for r in realtime], 1,
                                                                 " us"))
        print("  percent of one core                  %s" % figure([r["cpu_percent_of_one_core"] for r in realtime], 2,
                                                                 "%"))
        for key in ("p50", "p999", "max"):
            print("  latency %-28s %s" % (key, figure([r["latency_ms"][key] for r in realtime], 3, " ms")))
        print("  frames later than one interval       %s" % figure(
            [r["frames_later_than_one_interval"] for r in realtime], 0))
        print("  driver writes late                   %s" % figure(
            [r["driver_writes_later_than_one_interval"] for r in realtime], 0))
        if all("hypervisor_steal_s" in r for r in realtime):
            print("  CPU stolen by the hypervisor         %s" % figure([r["hypervisor_steal_s"] for r in realtime], 2,
                                                                     " s"))
        if all("machine_wakeups" in r for r in realtime):
            print("  the machine: sleeps woken > 1 interval late, of %d  %s" % (
                realtime[0]["machine_wakeups"]["deadlines"],
                figure([r["machine_wakeups"]["sleeps_late"] for r in realtime], 0)))
        goal("1 kHz x 16: event-to-line p99", [r["latency_ms"]["p99"] for r in realtime], 1.0, 3, " ms")
    if all("replay_large" in run for run in runs):
        large = [run["replay_large"] for run in runs]
        print("large replay: %.0f MB, %d frames, %s" % (large[0]["file_mb"], large[0]["frames"],
                                                      figure([l["wall_s"] for l in large], 1, " s")))
        goal("replay of a 1 GB recording, peak RSS", [l["peak_rss_kib"] / 1024 for l in large], 64, 1, " MB")
        if all("to_null" in l for l in large):
            print("  to /dev/null: %s frames/s, %s MB/s; cat of the same file %s MB/s" % (
                figure([l["to_null"]["frames_per_wall_second"] for l in large], 0),
                figure([l["to_null"]["mb_per_wall_second"] for l in large], 1),
                figure([l["cat"]["mb_per_wall_second"] for l in large], 0)))
    if all("plot" in run for run in runs):
        plot = [run["plot"] for run in runs]
        goal("plot CPU, x replay --fast -f jsonl (issue #15)", [p["cpu_ratio"] for p in plot], 1.5)
    if all("soak" in run for run in runs):
        print("soak: RSS after warm-up, last sample %s" % figure(
            [run["soak"]["rss_kib_last"] / 1024 for run in runs if "rss_kib_last" in run["soak"]] or [0], 1, " MB"))
    print("goals:")
    print("\n".join(goals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
