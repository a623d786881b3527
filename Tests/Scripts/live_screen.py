#!/usr/bin/python3
"""Runs a command on a pseudo-terminal of a given size and reads what it draws with a real terminal emulator (pyte).

    live_screen.py --columns 80 --rows 24 [--step SPEC]... -- COMMAND [ARG]...

Each --step is done in order, reading the terminal's output all the while:
    wait:SECONDS           let the program run
    until:TEXT             wait (at most 20 s) until TEXT is on the screen
    key:TEXT               type TEXT
    resize:COLUMNSxROWS    change the window size (TIOCSWINSZ on the pty, then SIGWINCH to the program)
    snap                   record the screen now
After the steps the program is given 10 s to end (then SIGTERM) and the screen is recorded once more.

Prints JSON: {"status": exit status, "screens": [screen, ...]}, each screen {"columns", "rows", "lines": [text],
"cells": [[[char, fg, bold], ...], ...]} with pyte's colour names ("default", "brown" for SGR 33, ...).
"""
import argparse
import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time

import pyte


def set_size(fd, columns, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--columns", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--step", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command

    screen = pyte.Screen(options.columns, options.rows)
    stream = pyte.ByteStream(screen)
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    set_size(fd, options.columns, options.rows)
    status = None

    def signal_program(number):
        try:
            os.kill(pid, number)
        except ProcessLookupError:
            pass

    signal_program(signal.SIGWINCH)

    def pump(seconds):
        nonlocal status
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([fd], [], [], min(left, 0.05))
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    return
                stream.feed(data)
            if status is None:
                done, code = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = os.waitstatus_to_exitcode(code)

    def snapshot():
        cells = []
        for row in range(screen.lines):
            line = screen.buffer[row]
            cells.append([[line[column].data, line[column].fg, line[column].bold] for column in range(screen.columns)])
        return {"columns": screen.columns, "rows": screen.lines, "lines": list(screen.display), "cells": cells}

    screens = []
    for step in options.step:
        kind, _, value = step.partition(":")
        if kind == "wait":
            pump(float(value))
        elif kind == "until":
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not any(value in line for line in screen.display):
                pump(0.05)
        elif kind == "key":
            os.write(fd, value.encode())
            pump(0.1)
        elif kind == "resize":
            columns, rows = (int(part) for part in value.split("x"))
            screen.resize(rows, columns)
            set_size(fd, columns, rows)
            signal_program(signal.SIGWINCH)
            pump(0.3)
        elif kind == "snap":
            screens.append(snapshot())
        else:
            sys.exit("live_screen.py: unknown step " + step)
    deadline = time.monotonic() + 10
    while status is None and time.monotonic() < deadline:
        pump(0.1)
        if status is None:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(code)
    if status is None:
        signal_program(signal.SIGTERM)
        _, code = os.waitpid(pid, 0)
        status = os.waitstatus_to_exitcode(code)
    screens.append(snapshot())
    json.dump({"status": status, "screens": screens}, sys.stdout)


if __name__ == "__main__":
    main()
