#!/usr/bin/python3
"""Runs a command on a pseudo-terminal of a given size and reads what it draws with a real terminal emulator (pyte).

    live_screen.py --columns 80 --rows 24 [--step SPEC]... -- COMMAND [ARG]...

Each --step is done in order, reading the terminal's output all the while:
    wait:SECONDS           let the program run
    until:TEXT             wait (at most 20 s) until TEXT is on the screen
    key:TEXT               type TEXT
    ctrl:LETTER            type the control character (ctrl:Z is Ctrl-Z, 0x1a; ctrl:D is Ctrl-D)
    signal:NAME            send the program a signal (signal:TSTP, signal:CONT, signal:INT, ...)
    until-state:LETTER     wait (at most 20 s) until the program's state in /proc/PID/stat is LETTER (T: stopped)
With --job-control, signals go to the job's process group and its state is that of every process in it.
    hangup                 close the terminal (the program's side hangs up) and stop reading it
    snap                   record the screen now
After the steps the program is given 10 s to end (then SIGTERM) and the screen is recorded once more.
With --no-keyboard the program's standard input is /dev/null instead of the terminal. With --job-control it runs
as a shell runs a job: in a process group of its own, the terminal's foreground one, under a session leader that
waits for it (without it the program leads the session, whose process group the kernel treats as orphaned: it does
not stop it for a SIGTSTP with the default action).

The screen keeps a main and an alternate screen (xterm's mode 1049, which pyte lacks): leaving the alternate
screen shows the main one again as it was.

Prints JSON: {"status": exit status, "seconds": from start to exit, "screens": [screen, ...]}, each screen
{"columns", "rows", "lines": [text], "cells": [[[char, fg, bold], ...], ...], "alternate": on the alternate screen,
"cursor_hidden", "line_mode": the terminal in canonical mode with echo (as a shell leaves it), "state": the
program's /proc state letter or null once it has ended} with pyte's colour names ("default", "brown" for SGR 33).
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


ALTERNATE = 1049 << 5  # pyte stores private modes shifted by 5


class TwoScreens(pyte.Screen):
    """A pyte screen with xterm's alternate screen: mode 1049 saves the cursor and the main screen's cells, and
    clears; resetting it brings both back."""

    def __init__(self, columns, rows):
        super().__init__(columns, rows)
        self.saved_main = None

    def set_mode(self, *modes, **kwargs):
        if kwargs.get("private") and 1049 in modes:
            if self.saved_main is None:
                self.saved_main = ({row: dict(line) for row, line in self.buffer.items()}, self.cursor.x, self.cursor.y)
            self.erase_in_display(2)
        super().set_mode(*modes, **kwargs)

    def reset_mode(self, *modes, **kwargs):
        super().reset_mode(*modes, **kwargs)
        if kwargs.get("private") and 1049 in modes and self.saved_main is not None:
            cells, x, y = self.saved_main
            self.saved_main = None
            self.erase_in_display(2)
            for row, line in cells.items():
                self.buffer[row].update(line)
            self.cursor.x, self.cursor.y = x, y
            self.dirty.update(range(self.lines))


def set_size(fd, columns, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def process_state(pid):
    """The state letter of /proc/PID/stat (R, S, T, Z...), or None when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None


def run_as_job(command, reported):
    """In the session leader on the terminal: starts `command` as the foreground job, reports its process id on
    `reported`, waits for it to end (not merely stop, as a shell's `wait` would) and ends the same way."""
    job = os.fork()
    if job == 0:
        os.setpgid(0, 0)
        # Taking the terminal from the background would otherwise stop the job (SIGTTOU).
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        os.tcsetpgrp(1, os.getpid())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        os.execvp(command[0], command)
    os.write(reported, str(job).encode())
    os.close(reported)
    _, code = os.waitpid(job, 0)
    if os.WIFSIGNALED(code):
        signal.signal(os.WTERMSIG(code), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(code))
    os._exit(os.waitstatus_to_exitcode(code))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--columns", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--step", action="append", default=[])
    parser.add_argument("--no-keyboard", action="store_true")
    parser.add_argument("--job-control", action="store_true")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command

    screen = TwoScreens(options.columns, options.rows)
    stream = pyte.ByteStream(screen)
    started = time.monotonic()
    ended = None
    report, reported = os.pipe()
    child, fd = pty.fork()
    if child == 0:
        if options.no_keyboard:
            null = os.open("/dev/null", os.O_RDONLY)
            os.dup2(null, 0)
        if options.job_control:
            run_as_job(command, reported)
        os.execvp(command[0], command)
    os.close(reported)
    # The program: the child itself, or its job.
    pid = int(os.read(report, 32) or child) if options.job_control else child
    os.close(report)
    set_size(fd, options.columns, options.rows)
    status = None

    def signal_program(number):
        try:
            # A shell signals a job's whole process group (`fg`, `kill %1`): the program and any wrapper around it.
            if options.job_control:
                os.killpg(pid, number)
            else:
                os.kill(pid, number)
        except ProcessLookupError:
            pass

    def program_state():
        """The program's state letter; for a job, that of its whole process group once all agree (else "+")."""
        if not options.job_control:
            return process_state(pid)
        states = set()
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        fields = stat.read().rpartition(")")[2].split()
                except (FileNotFoundError, ProcessLookupError):
                    continue
                if len(fields) > 2 and int(fields[2]) == pid:
                    states.add(fields[0])
        return None if not states else states.pop() if len(states) == 1 else "+"

    signal_program(signal.SIGWINCH)

    def reap():
        nonlocal status, ended
        if status is None:
            done, code = os.waitpid(child, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(code)
                ended = time.monotonic()

    def pump(seconds):
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            if fd is None:
                time.sleep(min(left, 0.05))
                reap()
                continue
            ready, _, _ = select.select([fd], [], [], min(left, 0.05))
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    reap()
                    return
                stream.feed(data)
            reap()

    def snapshot():
        cells = []
        for row in range(screen.lines):
            line = screen.buffer[row]
            cells.append([[line[column].data, line[column].fg, line[column].bold] for column in range(screen.columns)])
        line_mode = None
        if fd is not None:
            # The master shares the terminal's settings with the program's side.
            flags = termios.tcgetattr(fd)[3]
            line_mode = bool(flags & termios.ICANON) and bool(flags & termios.ECHO)
        return {
            "columns": screen.columns,
            "rows": screen.lines,
            "lines": list(screen.display),
            "cells": cells,
            "alternate": ALTERNATE in screen.mode,
            "cursor_hidden": screen.cursor.hidden,
            "line_mode": line_mode,
            "state": program_state() if status is None else None,
        }

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
        elif kind == "ctrl":
            os.write(fd, bytes([ord(value.upper()) & 0x1F]))
            pump(0.1)
        elif kind == "signal":
            signal_program(getattr(signal, "SIG" + value))
            pump(0.1)
        elif kind == "until-state":
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and program_state() != value:
                pump(0.05)
            # What the program wrote before it stopped.
            pump(0.1)
        elif kind == "hangup":
            os.close(fd)
            fd = None
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
        # A stopped program would not act on SIGTERM until continued.
        signal_program(signal.SIGTERM)
        signal_program(signal.SIGCONT)
        _, code = os.waitpid(child, 0)
        status = os.waitstatus_to_exitcode(code)
        ended = time.monotonic()
    if fd is not None:
        pump(0.05)
    screens.append(snapshot())
    json.dump({"status": status, "seconds": round(ended - started, 3), "screens": screens}, sys.stdout)


if __name__ == "__main__":
    main()
