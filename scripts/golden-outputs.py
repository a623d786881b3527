#!/usr/bin/env python3
"""Digests of plumometer's outputs on every recording we have, to prove a refactoring changed no byte.

    scripts/golden-outputs.py --check  [--binary PATH]   compare with Tests/Fixtures/Golden/outputs.tsv
    scripts/golden-outputs.py --update [--binary PATH]   rewrite that file from the binary's outputs

Each row is one run: `replay --fast` (or `demo --fast`) of one recording with one set of options, and the
SHA-256 and line count of its stdout and its exit status. Recordings: the demo, the CLI fixtures under
Tests/Fixtures/CLI, and every public recording in ../shared/fixtures (rows for those are checked only when
that directory is there, and skipped with a note otherwise; its files are never copied into the project).

Only digests are kept, so the file stays small; when a row differs, build the old revision and diff the two
outputs of that row's command. A change that alters outputs on purpose (a new rule, a new field) runs
--update and says why in its commit message.
"""

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "Tests" / "Fixtures" / "Golden" / "outputs.tsv"
# The instant every run's wall clock reads (2026-01-01T00:00:00Z): see WallClock in the CLI.
WALL_CLOCK = "1767225600"

# Option sets for every recording, and a wider set for the demo (the one session with grams, several
# objects, lifts and a tare-worthy start).
COMMON = [["-f", "jsonl"], ["-f", "csv"], ["-f", "text"]]
WIDE = COMMON + [
    ["-f", "jsonl", "--tare"],
    ["-f", "jsonl", "--interval", "100"],
    ["-f", "csv", "--smooth"],
    ["-f", "text", "--unit", "oz"],
    ["-f", "text", "--unit", "ct", "--max-contacts", "1"],
    ["-f", "jsonl", "--max-contacts", "2", "--interval", "250"],
]


def shared_root():
    override = os.environ.get("PLUMOMETER_SHARED_FIXTURES")
    root = Path(override) if override else ROOT.parent / "shared" / "fixtures"
    return root if root.is_dir() else None


def recordings():
    """(key, working directory, argv prefix, option sets) for every run, in a stable order.

    A recording's path is in its output (the `device` field), so each is named relative to a directory that does
    not depend on where the checkout is: the package root for ours, the fixtures directory for the shared ones."""
    runs = [("demo", ROOT, ["demo", "--fast"], WIDE)]
    for path in sorted((ROOT / "Tests" / "Fixtures" / "CLI").glob("*.evemu")):
        runs.append(("project:CLI/" + path.name, ROOT, ["replay", "--fast", str(path.relative_to(ROOT))], WIDE))
    for path in sorted((ROOT / "Tests" / "Fixtures" / "Recordings").glob("*.yml")):
        # A libinput recording may hold several devices: each is chosen with -d.
        picks = [["-d", "0", "-f", "jsonl"]] + [["-d", "1"] + options for options in COMMON]
        relative = str(path.relative_to(ROOT))
        runs.append(("project:Recordings/" + path.name, ROOT, ["replay", "--fast", relative], picks))
    shared = shared_root()
    if shared:
        for path in sorted(shared.rglob("*")):
            if path.suffix in (".evemu", ".events"):
                relative = str(path.relative_to(shared))
                runs.append(("shared:" + relative, shared, ["replay", "--fast", relative], COMMON))
    return runs


def run(binary, argv, scratch, directory):
    env = dict(os.environ)
    env["XDG_CONFIG_HOME"] = scratch  # no saved profile of this machine changes grams
    env["PLUMOMETER_WALL_CLOCK"] = WALL_CLOCK  # the device records' wall_time, fixed so the digests are too
    env.pop("NO_COLOR", None)
    result = subprocess.run(
        [binary] + argv, stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=120, cwd=directory
    )
    digest = hashlib.sha256(result.stdout).hexdigest()
    return result.returncode, result.stdout.count(b"\n"), digest


def main():
    global TABLE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="compare with the stored digests (exit 1 on a difference)")
    mode.add_argument("--update", action="store_true", help="rewrite the stored digests")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "plumometer"))
    parser.add_argument("--table", help="the digests file (default Tests/Fixtures/Golden/outputs.tsv)")
    args = parser.parse_args()
    if args.table:
        TABLE = Path(args.table).resolve()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"golden-outputs: {args.binary} is not an executable; build first (swift build)")

    import tempfile

    scratch = tempfile.mkdtemp(prefix="plumometer-golden-")
    rows = {}
    binary = os.path.abspath(args.binary)
    for key, directory, prefix, option_sets in recordings():
        for options in option_sets:
            status, lines, digest = run(binary, prefix + options, scratch, directory)
            rows[(key, " ".join(options))] = (str(status), str(lines), digest)

    if args.update:
        TABLE.parent.mkdir(parents=True, exist_ok=True)
        previous = {}
        if TABLE.exists():
            previous = {tuple(r[:2]): r for r in read_table()}
        if not shared_root():
            # Keep the shared rows of a machine that has ../shared, rather than drop them.
            rows.update({k: tuple(v[2:]) for k, v in previous.items() if k[0].startswith("shared:")})
        with TABLE.open("w") as table:
            table.write("# recording\toptions\tstatus\tlines\tsha256 of stdout  (scripts/golden-outputs.py --update)\n")
            for (key, options), values in sorted(rows.items()):
                table.write("\t".join((key, options) + tuple(values)) + "\n")
        print(f"golden-outputs: wrote {len(rows)} rows to {TABLE}")
        return 0

    expected = read_table()
    failures = 0
    checked = 0
    skipped = 0
    for row in expected:
        key, options = row[0], row[1]
        if (key, options) not in rows:
            if key.startswith("shared:") and not shared_root():
                skipped += 1
                continue
            print(f"MISSING  {key} [{options}]: the recording is gone")
            failures += 1
            continue
        checked += 1
        got = rows.pop((key, options))
        if got != tuple(row[2:]):
            failures += 1
            print(f"DIFFERS  {key} [{options}]: status/lines {row[2]}/{row[3]} -> {got[0]}/{got[1]}")
    for key, options in sorted(rows):
        failures += 1
        print(f"NEW      {key} [{options}]: not in the table (run --update if it is meant to be there)")
    print(f"golden-outputs: {checked} compared, {failures} differ, {skipped} skipped" + (" (../shared/fixtures absent)" if skipped else ""))
    return 1 if failures else 0


def read_table():
    rows = []
    for line in TABLE.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        rows.append(tuple(line.split("\t")))
    return rows


if __name__ == "__main__":
    sys.exit(main())
