#!/usr/bin/env python3
"""Stops a `plumometer` command with a signal wherever it waits (for the CLI tests) and prints what happened as one
JSON object on stdout.

    stop_anywhere.py BINARY SIGNAL STDOUT [--stdin FILE] -- ARGUMENTS...

Every `{fifo}` in ARGUMENTS becomes the path of a FIFO made for the run, which nothing opens; `{dir}` a fresh
directory. STDOUT is `read` (a pipe read to its end) or `stalled` (a pipe of one page nobody reads). With --stdin, FILE's bytes
are on standard input (a pipe that stays open), else it is /dev/null. After 0.5 s the command gets SIGNAL (INT, TERM
or HUP); the report holds its exit status, how long it took to exit after the signal ("hung" after 5 s, then
killed), its stderr, and what each `{fifo}` path is afterwards (`fifo` when it is still one).

The command is started as a shell starts it: no signal blocked or ignored (the test runner blocks most, and
children inherit that)."""

import fcntl
import json
import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time


def clean_signals():
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(number, signal.SIG_DFL)


def main():
    binary, signal_name, stdout_mode = sys.argv[1:4]
    rest = sys.argv[4:]
    stdin_file = None
    if rest[:1] == ["--stdin"]:
        stdin_file = rest[1]
        rest = rest[2:]
    assert rest[0] == "--"
    arguments = rest[1:]
    number = {"INT": signal.SIGINT, "TERM": signal.SIGTERM, "HUP": signal.SIGHUP}[signal_name]
    directory = tempfile.mkdtemp(prefix="stop-anywhere-")
    fifo = os.path.join(directory, "fifo")
    os.mkfifo(fifo)
    scratch = os.path.join(directory, "dir")
    os.mkdir(scratch)
    arguments = [a.replace("{fifo}", fifo).replace("{dir}", scratch) for a in arguments]

    keep = []
    stdin = subprocess.DEVNULL
    if stdin_file is not None:
        reader, writer = os.pipe()
        with open(stdin_file, "rb") as handle:
            data = handle.read()
        stdin = reader
        keep.append(writer)
        threading.Thread(target=lambda: os.write(writer, data[:60000]), daemon=True).start()
    out_reader, out_writer = os.pipe()
    if stdout_mode == "stalled":
        # One page: a few KiB of output already stall the writer.
        fcntl.fcntl(out_writer, fcntl.F_SETPIPE_SZ, 4096)
    err_reader, err_writer = os.pipe()
    process = subprocess.Popen([binary] + arguments, stdin=stdin, stdout=out_writer, stderr=err_writer,
                               preexec_fn=clean_signals)
    os.close(out_writer)
    os.close(err_writer)
    if stdin_file is not None:
        os.close(reader)
    collected = {"stdout": b"", "stderr": b""}

    def drain(descriptor, key):
        while True:
            chunk = os.read(descriptor, 65536)
            if not chunk:
                break
            collected[key] += chunk

    threads = [threading.Thread(target=drain, args=(err_reader, "stderr"), daemon=True)]
    if stdout_mode == "read":
        threads.append(threading.Thread(target=drain, args=(out_reader, "stdout"), daemon=True))
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    exited_before = process.poll() is not None
    process.send_signal(number)
    sent = time.monotonic()
    try:
        process.wait(timeout=5)
        seconds, status = time.monotonic() - sent, process.returncode
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        seconds, status = None, "hung"
    if stdout_mode != "read":
        os.close(out_reader)
    for thread in threads:
        thread.join(timeout=2)
    for descriptor in keep:
        os.close(descriptor)
    kind = "missing"
    if os.path.lexists(fifo):
        kind = "fifo" if stat.S_ISFIFO(os.lstat(fifo).st_mode) else "other"
    print(json.dumps({"status": status, "seconds": seconds, "exited_before_signal": exited_before,
                      "fifo": kind, "stdout": collected["stdout"].decode(errors="replace"),
                      "stderr": collected["stderr"].decode(errors="replace")}))


main()
