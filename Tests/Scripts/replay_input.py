#!/usr/bin/env python3
"""Drives `plumometer replay` on inputs that arrive slowly or never (for the CLI tests), and prints what happened
as one JSON object on stdout.

    replay_input.py stop BINARY KIND SIGNAL [FILE]
        Starts `replay` on an input that has nothing to read yet -- KIND `fifo` (a FIFO nobody writes),
        `tty` (a terminal on stdin, `replay -`), `dev-stdin` (the same terminal as `/dev/stdin`) or `pipe`
        (stdin a pipe holding FILE's description and never closed) -- sends SIGNAL (INT or TERM) after 0.5 s,
        and reports the exit status and how long it took to exit after the signal ("hung" after 5 s, then killed).

    replay_input.py live BINARY FILE LINES [OPTIONS...]
        Pipes FILE into `replay - OPTIONS` as a live `evemu-record` would: the first LINES lines, then waits (at
        most 5 s) for a frame on stdout while the pipe is still open, then the rest, then closes it.

    replay_input.py peak BINARY ARGUMENTS...
        Runs `BINARY ARGUMENTS` with stdout discarded and reports its exit status, stderr and peak resident memory
        (`wait4`'s ru_maxrss, KiB).

The replay is started as a shell starts it: no signal blocked or ignored (the test runner blocks most, and children
inherit that)."""

import json
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import time


def clean_signals():
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(number, signal.SIG_DFL)


def start(binary, arguments, stdin):
    return subprocess.Popen([binary] + arguments, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=clean_signals)


def signal_and_wait(process, number):
    """Sends signal `number` and waits at most 5 s for the exit: (seconds it took, exit status), or (None, "hung")
    once it has been killed instead."""
    process.send_signal(number)
    sent = time.monotonic()
    try:
        process.wait(timeout=5)
        return time.monotonic() - sent, process.returncode
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None, "hung"


def stop(binary, kind, signal_name, recording=None):
    number = {"INT": signal.SIGINT, "TERM": signal.SIGTERM}[signal_name]
    directory = tempfile.mkdtemp(prefix="replay-input-")
    keep = []
    if kind == "fifo":
        path = os.path.join(directory, "fifo")
        os.mkfifo(path)
        process = start(binary, ["replay", "-f", "jsonl", path], subprocess.DEVNULL)
    elif kind in ("tty", "dev-stdin"):
        controller, terminal = pty.openpty()
        keep.append(controller)
        target = "-" if kind == "tty" else "/dev/stdin"
        process = start(binary, ["replay", "-f", "jsonl", target], terminal)
        os.close(terminal)
    else:
        reader, writer = os.pipe()
        with open(recording, "rb") as handle:
            head = handle.read()
        # The description only: everything before the first event line.
        cut = head.find(b"\nE:")
        os.write(writer, head[:cut + 1] if cut >= 0 else head)
        keep.append(writer)
        process = start(binary, ["replay", "-f", "jsonl", "-"], reader)
        os.close(reader)
    time.sleep(0.5)
    seconds, status = signal_and_wait(process, number)
    stdout, stderr = process.stdout.read(), process.stderr.read()
    for descriptor in keep:
        os.close(descriptor)
    return {"status": status, "seconds": seconds, "stdout": stdout.decode(errors="replace"),
            "stderr": stderr.decode(errors="replace")}


def live(binary, recording, head_lines, options):
    with open(recording, "rb") as handle:
        lines = handle.read().splitlines(keepends=True)
    process = start(binary, ["replay"] + options + ["-"], subprocess.PIPE)
    try:
        process.stdin.write(b"".join(lines[:head_lines]))
        process.stdin.flush()
    except BrokenPipeError:
        pass
    output = b""
    seen_frame_while_open = False
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 0.1)
        if ready:
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                break
            output += chunk
            if b'"type":"frame"' in output:
                seen_frame_while_open = True
                break
    try:
        process.stdin.write(b"".join(lines[head_lines:]))
        process.stdin.close()
    except BrokenPipeError:
        pass  # it stopped reading (an error): its status says why
    rest = process.stdout.read()
    stderr = process.stderr.read()
    process.wait(timeout=30)
    return {"status": process.returncode, "seen_frame_while_open": seen_frame_while_open,
            "stdout": (output + rest).decode(errors="replace"), "stderr": stderr.decode(errors="replace")}


def peak(binary, arguments):
    process = subprocess.Popen([binary] + arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, preexec_fn=clean_signals)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return {"status": process.returncode, "peak_kib": usage.ru_maxrss, "stderr": stderr.decode(errors="replace")}


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if sys.argv[1] == "stop":
        result = stop(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None)
    elif sys.argv[1] == "live":
        result = live(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:])
    elif sys.argv[1] == "peak":
        result = peak(sys.argv[2], sys.argv[3:])
    else:
        print("unknown mode %r; see --help" % sys.argv[1], file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
