#!/usr/bin/env python3
"""Drives `plumometer plot` on a FIFO that delivers nothing, or part of a recording and then nothing (for the CLI
tests), and prints what happened as one JSON object on stdout.

    plot_input.py stop BINARY KIND SIGNAL FILE OUT
        Starts `plot FIFO -o OUT` on a FIFO: KIND `empty` (nobody ever writes to it) or `head` (FILE's lines up to
        its last event frame but one are written and the FIFO is held open, so the rest never comes); or KIND
        `pipe`: `plot - -o OUT` with standard input a pipe holding the same head, held open. Sends SIGNAL
        (INT or TERM) after 0.5 s and reports the exit status, how long it took to exit after the signal ("hung"
        after 5 s, then killed), its stderr, and the size of OUT (null when it was not written).

The plot is started as a shell starts it: no signal blocked or ignored (the test runner blocks most, and children
inherit that)."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from replay_input import signal_and_wait, start


def head_of(recording):
    """The recording without its last event frame: everything before the last SYN_REPORT but one, ended there."""
    with open(recording, "rb") as handle:
        lines = handle.read().splitlines(keepends=True)
    reports = [index for index, line in enumerate(lines) if line.startswith(b"E:") and line.split()[2:5] ==
               [b"0000", b"0000", b"0000"]]
    return b"".join(lines[:reports[-2] + 1])


def stop(binary, kind, signal_name, recording, output):
    number = {"INT": signal.SIGINT, "TERM": signal.SIGTERM}[signal_name]
    directory = tempfile.mkdtemp(prefix="plot-input-")
    path = os.path.join(directory, "fifo")
    os.mkfifo(path)
    if os.path.exists(output):
        os.unlink(output)
    writer = None
    if kind == "pipe":
        reader, writer = os.pipe()
        os.write(writer, head_of(recording))
        process = start(binary, ["plot", "-", "-o", output], reader)
        os.close(reader)
    else:
        process = start(binary, ["plot", path, "-o", output], subprocess.DEVNULL)
    if kind == "head":
        # Opening for writing fails (ENXIO) until the plot has opened the FIFO for reading.
        deadline = time.monotonic() + 5
        while writer is None and time.monotonic() < deadline:
            try:
                writer = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                time.sleep(0.01)
        if writer is not None:
            os.set_blocking(writer, True)
            os.write(writer, head_of(recording))
    time.sleep(0.5)
    seconds, status = signal_and_wait(process, number)
    stdout, stderr = process.stdout.read(), process.stderr.read()
    if writer is not None:
        os.close(writer)
    os.unlink(path)
    os.rmdir(directory)
    size = os.path.getsize(output) if os.path.exists(output) else None
    return {"status": status, "seconds": seconds, "stdout": stdout.decode(errors="replace"),
            "stderr": stderr.decode(errors="replace"), "svg_bytes": size}


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if sys.argv[1] == "stop" and len(sys.argv) == 7:
        result = stop(*sys.argv[2:7])
    else:
        print("usage: plot_input.py stop BINARY KIND SIGNAL FILE OUT; see --help", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
