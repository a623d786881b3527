"""`plumometer serve` under many clients: 100 Server-Sent Events clients on /readings while the emulated trackpad
sends frames at the demo's rate (46 Hz, three plums) for 30 s: whether every client got every frame, the latency
from the frame's write to its event read by a client, serve's CPU and memory (flat?); then 1 kHz x 16 contacts with
one client and with 100 (curl processes; the measured one's lines stamped by Benchmarks/paced_driver.c), to see
that clients do not slow the reader (the real-time section's load). Needs curl."""

import os
import re
import selectors
import socket
import subprocess
import threading
import time

from plumobench.realtime import paced_driver, paced_written
from plumobench.testbed import NODE, Device, cpu_seconds, log, start, status_kib, stop, wait_for_open, \
    wait_until_idle
import evemu_stream  # noqa: E402  (Benchmarks/, on the path through testbed)

FRAME_DATA = re.compile(rb'data: \{"type":"frame","time":([0-9.]+),"seq":([0-9]+),')
FRAME = re.compile(rb'event: frame\ndata: \{"type":"frame","time":([0-9.]+),"seq":([0-9]+),')


class Clients:
    """`count` clients of /readings in one thread: each keeps the sequence numbers of its frames; the first
    `measured` also time each frame's arrival (CLOCK_REALTIME) against the frame's own time, the driver's stamp."""

    def __init__(self, port, count, measured):
        self.selector = selectors.DefaultSelector()
        self.sequences = [[] for _ in range(count)]
        self.latencies = []
        self.received = [0] * count
        self.closed = [False] * count
        self.measured = measured
        self.buffers = [b""] * count
        for index in range(count):
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(b"GET /readings HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
            connection.setblocking(False)
            self.selector.register(connection, selectors.EVENT_READ, index)
        self.running = True
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while self.running:
            for key, _ in self.selector.select(timeout=0.2):
                index = key.data
                try:
                    data = key.fileobj.recv(262144)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                arrived = time.time()
                if not data:
                    self.closed[index] = True
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()
                    continue
                self.received[index] += len(data)
                buffer = self.buffers[index] + data
                end = buffer.rfind(b"\n\n")
                if end < 0:
                    self.buffers[index] = buffer
                    continue
                self.buffers[index] = buffer[end + 2:]
                for match in FRAME.finditer(buffer, 0, end + 2):
                    self.sequences[index].append(int(match.group(2)))
                    if index < self.measured:
                        self.latencies.append(arrived - float(match.group(1)))

    def stop(self):
        self.running = False
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def start_serving(binary, device):
    """serve reading the emulated `device` on a free loopback port, once it has opened the device: (process, URL)."""
    process = start(device, [binary, "serve", "--device", NODE, "--listen", "127.0.0.1:0"])
    line = process.stderr.readline().decode()
    match = re.search(r"serving (http://127\.0\.0\.1:[0-9]+/)", line)
    if not match:
        raise RuntimeError("serve said no URL: %s" % line)
    wait_for_open(process, device.path)
    return process, match.group(1)


def served(arguments, binary, work, name, rate, seconds, contacts, clients, measured):
    """One run: serve reading the emulated device, `clients` on /readings, frames paced at `rate`."""
    count = int(seconds * rate)
    frames = list(evemu_stream.frames(count, contacts))
    device = Device(os.path.join(work, name))
    process, url = start_serving(binary, device)
    port = int(url.rsplit(":", 1)[1].rstrip("/"))
    group = Clients(port, clients, measured)
    time.sleep(0.5)
    rss_before = status_kib(process.pid, "VmRSS")
    driver, _, _ = paced_driver(device, frames, rate, work, name)
    before = cpu_seconds(process.pid)
    elapsed, late = paced_written(driver, frames, rate)
    if driver.wait(timeout=30) != 0:
        raise RuntimeError("paced_driver failed")
    while device.pending() > 0:
        time.sleep(0.005)
    wait_until_idle(process.pid, quiet=0.3)
    during = cpu_seconds(process.pid) - before
    rss_after = status_kib(process.pid, "VmRSS")
    # The last frame's number, from the server itself: a client has every frame when it has each up to this one.
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET /api/state HTTP/1.0\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    last = int(re.search(rb'"frame":\{"type":"frame","time":[0-9.]+,"seq":([0-9]+),', answer).group(1))
    peak = status_kib(process.pid, "VmHWM")
    time.sleep(0.5)
    group.stop()
    stop(process)
    device.close()
    complete = sum(1 for s in group.sequences if s and s == list(range(s[0], last + 1)))
    latencies = sorted(group.latencies)
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")  # noqa: E731
    result = {
        "rate_hz": rate, "contacts": contacts, "frames": count, "seconds": elapsed, "clients": clients,
        "clients_with_every_frame": complete, "clients_dropped": sum(group.closed),  # closed by serve while it ran
        "last_seq": last,
        "cpu_percent_of_one_core": during / elapsed * 100,
        "latency_ms": {"p50": pick(0.5) * 1e3, "p99": pick(0.99) * 1e3, "max": (latencies or [float("nan")])[-1] * 1e3},
        "measured_clients": measured, "verified_clients": clients, "driver_writes_late": late,
        "rss_kib_before": rss_before, "rss_kib_after": rss_after, "peak_rss_kib": peak,
    }
    log("serve, %s: %d Hz x %d, %d clients: %d with every frame, %d dropped; %.2f%% of a core; latency p50 %.3f "
        "ms p99 %.3f ms; RSS %.1f -> %.1f MB" % (
            name, rate, contacts, clients, complete, result["clients_dropped"], result["cpu_percent_of_one_core"],
            result["latency_ms"]["p50"], result["latency_ms"]["p99"], rss_before / 1024, rss_after / 1024))
    return result


def served_fast(arguments, binary, work, name, clients):
    """1 kHz x 16 contacts (the real-time section's load) with `clients` curl processes on /readings: the first one's
    lines go to Benchmarks/paced_driver.c, which stamps each on arrival (C, so the client is no bottleneck); the
    others read to /dev/null. A curl that ends before it is stopped was dropped by serve."""
    rate, contacts = arguments.rate, 16
    count = int(arguments.serve_fast_seconds * rate)
    frames = list(evemu_stream.frames(count, contacts))
    device = Device(os.path.join(work, name))
    process, url = start_serving(binary, device)
    url += "readings"
    measuring = subprocess.Popen(["curl", "-sN", url], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    others = [subprocess.Popen(["curl", "-sN", "-o", "/dev/null", url], stdin=subprocess.DEVNULL)
              for _ in range(clients - 1)]
    time.sleep(1.0)
    rss_before = status_kib(process.pid, "VmRSS")
    drains_path = os.path.join(work, name + ".drains")
    driver, stamps_path, arrivals_path = paced_driver(device, frames, rate, work, name, measuring.stdout, drains_path)
    before = cpu_seconds(process.pid)
    elapsed, late = paced_written(driver, frames, rate)
    while device.pending() > 0:
        time.sleep(0.005)
    wait_until_idle(process.pid, quiet=0.3)
    during = cpu_seconds(process.pid) - before
    rss_after = status_kib(process.pid, "VmRSS")
    peak = status_kib(process.pid, "VmHWM")
    dropped = sum(1 for other in others if other.poll() is not None) + (measuring.poll() is not None)
    for client in others + [measuring]:
        client.terminate()
        client.wait()
    if driver.wait(timeout=60) != 0:
        raise RuntimeError("paced_driver failed")
    stop(process)
    device.close()
    with open(stamps_path, "rb") as handle:
        stamps = set(handle.read().split())
    latencies, sequences = [], []
    with open(arrivals_path, "rb") as handle:
        for entry in handle:
            arrived, text = entry.split(b"\t", 1)
            found = FRAME_DATA.match(text)
            if found:
                sequences.append(int(found.group(2)))
                if found.group(1) in stamps:
                    stamps.discard(found.group(1))
                    latencies.append(float(arrived) - float(found.group(1)))
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")  # noqa: E731
    with open(drains_path) as handle:
        drains = [int(line) for line in handle]
    if len(drains) != count:
        raise RuntimeError("paced_driver timed %d of %d frames' reads" % (len(drains), count))
    unread = sum(1 for d in drains if d < 0)
    drained = sorted(d for d in drains if d >= 0)
    drain = lambda q: drained[min(len(drained) - 1, int(q * len(drained)))] / 1e3 if drained else float("nan")  # noqa: E731
    every = bool(sequences) and sequences == list(range(sequences[0], sequences[-1] + 1)) and len(latencies) == count
    result = {
        "rate_hz": rate, "contacts": contacts, "frames": count, "seconds": elapsed, "clients": clients,
        "clients_with_every_frame": int(every), "clients_dropped": dropped, "last_seq": sequences[-1] if sequences else 0,
        "cpu_percent_of_one_core": during / elapsed * 100,
        "latency_ms": {"p50": pick(0.5) * 1e3, "p99": pick(0.99) * 1e3,
                       "max": (latencies or [float("nan")])[-1] * 1e3},
        # The reader's own side: from a frame's write to the FIFO empty again (serve had read it).
        "read_ms": {"p50": drain(0.5), "p99": drain(0.99), "max": drain(1.0)}, "frames_unread_at_next": unread,
        "measured_clients": 1, "verified_clients": 1, "driver_writes_late": late,
        "rss_kib_before": rss_before, "rss_kib_after": rss_after, "peak_rss_kib": peak,
    }
    log("serve, %s: %d Hz x %d, %d curl clients: the measured one %s every frame, %d dropped; %.2f%% of a core; "
        "latency p50 %.3f ms p99 %.3f ms; device read p50 %.3f ms p99 %.3f ms max %.3f ms, %d frames unread at the "
        "next; RSS %.1f -> %.1f MB" % (
            name, rate, contacts, clients, "got" if every else "did not get", dropped,
            result["cpu_percent_of_one_core"], result["latency_ms"]["p50"], result["latency_ms"]["p99"],
            result["read_ms"]["p50"], result["read_ms"]["p99"], result["read_ms"]["max"], unread,
            rss_before / 1024, rss_after / 1024))
    return result


def run(arguments, binary, work):
    clients = arguments.serve_clients
    return {
        "demo_rate": served(arguments, binary, work, "serve-demo", 46, arguments.serve_seconds, 3, clients, clients),
        "demo_rate_one_client": served(arguments, binary, work, "serve-demo-1", 46, arguments.serve_seconds, 3, 1, 1),
        "khz_one_client": served_fast(arguments, binary, work, "serve-khz-1", 1),
        "khz_many_clients": served_fast(arguments, binary, work, "serve-khz", clients),
    }


def report(r, add):
    """The section's lines, through `add`."""
    add("serve: Server-Sent Events clients of /readings while the emulated device sends frames (bypass toll); "
        "latency from the frame's write to its event read by a client")
    for key, label in (("demo_rate", "demo rate"), ("demo_rate_one_client", "demo rate"), ("khz_one_client", "1 kHz"),
                       ("khz_many_clients", "1 kHz")):
        if key not in r:
            continue
        x = r[key]
        add("  %s, %d Hz x %d contacts, %d client(s), %.1f s: %d of %d clients checked got every frame (%d dropped); "
            "%.2f%% of one core; latency p50 %.3f ms, p99 %.3f ms, max %.3f ms (%d measured); RSS %.1f MB before, "
            "%.1f MB after, peak %.1f MB; driver writes late: %d" % (
                label, x["rate_hz"], x["contacts"], x["clients"], x["seconds"], x["clients_with_every_frame"],
                x["verified_clients"], x["clients_dropped"], x["cpu_percent_of_one_core"], x["latency_ms"]["p50"],
                x["latency_ms"]["p99"], x["latency_ms"]["max"], x["measured_clients"], x["rss_kib_before"] / 1024,
                x["rss_kib_after"] / 1024, x["peak_rss_kib"] / 1024, x["driver_writes_late"]))
        if "read_ms" in x:
            add("    the device read (a frame's write to the FIFO empty again): p50 %.3f ms, p99 %.3f ms, max %.3f ms; "
                "%d frames still unread when the next was due" % (
                    x["read_ms"]["p50"], x["read_ms"]["p99"], x["read_ms"]["max"], x["frames_unread_at_next"]))
