#!/usr/bin/env python3
"""Writes the fuzzing seed corpus (Fuzz/Seeds) from the project's own fixtures.

A dozen small seeds: libFuzzer grows its working corpus from them in Fuzz/.build, which is not committed.
Run from anywhere: python3 Fuzz/make-seeds.py
"""
import pathlib
import re
import struct

here = pathlib.Path(__file__).resolve().parent
root = here.parent
fixtures = root / "Tests" / "Fixtures"
seeds = here / "Seeds"


def write(kind, name, data):
    directory = seeds / kind
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(data)


# evemu: the head of the bundled demo (a protocol B pressure trackpad) and four damaged recordings.
demo = (root / "Sources" / "PlumometerDemo" / "DemoRecording.generated.swift").read_text()
text = re.search(r'#"""\n(.*?)"""#', demo, re.S).group(1)
write("evemu", "demo-head.evemu", ("\n".join(text.splitlines()[:160]) + "\n").encode())
for name in ["crlf.evemu", "truncated-event.evemu", "undeclared-axis.evemu", "negative-slot.evemu"]:
    write("evemu", name, (fixtures / "Recordings" / "malformed" / name).read_bytes())

# libinput record: the two-device recording and two damaged ones.
write("libinput-record", "two-devices.yml", (fixtures / "Recordings" / "libinput-record-two-devices.yml").read_bytes())
for name in ["yaml-short-event.yml", "yaml-unclosed-list.yml"]:
    write("libinput-record", name, (fixtures / "Recordings" / "malformed" / name).read_bytes())

# Decoder: event fixtures in the harness's 7-byte records (see Fuzz/Harnesses/DecoderFuzz.swift).
KEYS = [0x14A, 0x145, 0x14D, 0x140, 0x148, 0x14E, 0x110]


def decoder_seed(events_file, device_kind):
    out = bytearray([device_kind, 0, 0])
    last = 0.0
    for line in (fixtures / "Events" / events_file).read_text().splitlines():
        if not line.startswith("E:"):
            continue
        _, time, etype, code, value = line.split()
        step = max(0, min(0xFC, round((float(time) - last) * 1000)))
        last = float(time)
        etype, code, value = int(etype, 16), int(code, 16), int(value)
        if etype == 3:
            record = (0, 0xC0 | code)
        elif etype == 1 and code in KEYS:
            record = (9, KEYS.index(code))
        elif etype == 0 and code in (0, 2, 3):
            record = {0: (6, 0), 2: (8, 0), 3: (10, 0)}[code]
        else:
            continue
        out += bytes([record[0], record[1], step]) + struct.pack("<i", value)
    out += bytes([13, 0, 0]) + struct.pack("<i", 0)  # an all-lift at the end
    return bytes(out)


for name, kind in [("multitouch-contacts", 0), ("syn-dropped", 0), ("protocol-a", 2), ("single-touch", 3)]:
    write("decoder", name + ".bin", decoder_seed(name + ".events", kind))
