"""Running the built plumometer in the guest: one-shot commands and a stream read record by record."""

import json
import os
import queue
import signal
import subprocess
import threading
import time

BINARY = os.environ.get("PLUMOMETER_BINARY", "plumometer")


class Failure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def run(*args, timeout=60):
    """Run plumometer ARGS to completion: (exit status, stdout, stderr)."""
    done = subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr


def run_json(*args, timeout=60):
    status, out, err = run(*args, timeout=timeout)
    check(status == 0, f"plumometer {' '.join(args)} exited {status}: {err.strip()}")
    try:
        return json.loads(out)
    except ValueError as error:
        raise Failure(f"plumometer {' '.join(args)} wrote no JSON ({error}): {out[:300]!r}")


class Stream:
    """`plumometer stream -f jsonl ARGS` with its records queued as they arrive."""

    def __init__(self, *args, command="stream"):
        self.args = [command, *args] if command != "stream" else ["stream", "-f", "jsonl", *args]
        self.proc = subprocess.Popen(
            [BINARY, *self.args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True
        )
        self.records = queue.Queue()
        self.all = []
        self.stderr = []
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        for line in self.proc.stdout:
            try:
                record = json.loads(line)
            except ValueError:
                record = {"type": "unparsable", "line": line}
            self.all.append(record)
            self.records.put(record)
        self.records.put(None)

    def _read_err(self):
        for line in self.proc.stderr:
            self.stderr.append(line.rstrip("\n"))

    def next(self, timeout):
        """The next record, or None when none came within timeout seconds (or the stream ended)."""
        try:
            return self.records.get(timeout=timeout)
        except queue.Empty:
            return None

    def next_of(self, kind, timeout):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            record = self.next(left)
            if record is None or record.get("type") == kind:
                return record

    def pending(self, quiet):
        """Every record until none has come for `quiet` seconds."""
        got = []
        while True:
            record = self.next(quiet)
            if record is None:
                return got
            got.append(record)

    def stop(self, sig=signal.SIGINT, timeout=15):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise Failure(f"plumometer {' '.join(self.args)} did not stop within {timeout} s of {sig.name}")
        return status

    def tail(self):
        return " | ".join(self.stderr[-5:])


def pressures(frame):
    """{contact id: raw pressure} of a frame record."""
    return {c["id"]: c["pressure"] for c in frame.get("contacts", [])}
