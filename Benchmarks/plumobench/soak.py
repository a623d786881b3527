"""Soak: many frames through the live path, RSS sampled as they flow (it must stay flat)."""

import os
import time

from plumobench.testbed import Device, NODE, encode, io_counter, log, start, status_kib, stop, wait_for_open, \
    wait_until_idle
import evemu_stream  # noqa: E402  (Benchmarks/, on the path through testbed)


def run(arguments, binary, work):
    """Many frames through the live path, RSS sampled as they flow."""
    total = arguments.soak_frames
    block = 10_000
    device = Device(os.path.join(work, "soak"))
    process = start(device, [binary, "--device", NODE, "--format", "jsonl", "--quiet"])
    wait_for_open(process, device.path)
    time.sleep(0.2)
    samples = []
    generator = evemu_stream.frames(total, arguments.contacts[0])
    written = 0
    began = time.monotonic()
    while written < total:
        batch = []
        for _ in range(min(block, total - written)):
            batch.append(next(generator))
        data, _ = encode(batch)
        device.write(data)
        written += len(batch)
        samples.append((written, status_kib(process.pid, "VmRSS")))
    while device.pending() > 0:
        time.sleep(0.01)
    wait_until_idle(process.pid)
    elapsed = time.monotonic() - began
    writes = io_counter(process.pid, "syscw")  # write() calls
    samples.append((written, status_kib(process.pid, "VmRSS")))
    usage = stop(process)
    device.close()
    if writes < total:
        raise RuntimeError("soak: %d lines for %d frames" % (writes, total))
    warm = [rss for frames, rss in samples if frames >= total // 10]
    result = {
        "frames": total,
        "contacts": arguments.contacts[0],
        "seconds": elapsed,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "rss_kib_after_warmup_first": warm[0],
        "rss_kib_after_warmup_min": min(warm),
        "rss_kib_after_warmup_max": max(warm),
        "rss_kib_last": samples[-1][1],
        "peak_rss_kib": max(rss for _, rss in samples),
        "samples": len(samples),
    }
    log("soak: %d frames, RSS after warm-up %d..%d KiB" % (total, min(warm), max(warm)))
    return result


def report(s, add):
    """The section's line, through `add`."""
    add("soak: %d frames x %d contacts live in %.1f s (%.1f s CPU): RSS after warm-up %.1f..%.1f MB "
        "over %d samples, last %.1f MB" % (
            s["frames"], s["contacts"], s["seconds"], s["cpu_s"], s["rss_kib_after_warmup_min"] / 1024,
            s["rss_kib_after_warmup_max"] / 1024, s["samples"], s["rss_kib_last"] / 1024))
