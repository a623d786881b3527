#!/usr/bin/python3
"""Runs (or lists) the tests that carry a Swift Testing tag, on a toolchain whose `swift test` cannot filter by tag.

  Tests/Scripts/tagged_tests.py TAG [SWIFT-TEST-ARGUMENTS...]   run them: swift test --skip-build --filter ...
  Tests/Scripts/tagged_tests.py --list TAG                      print their ids, one a line

TAG is a tag's name (`foundByFuzzing`, `foundInReview`, `foundByFaultInjection`, `umockdev`, `slow`; see
Sources/PlumometerTestKit/Tags.swift). A test carries a tag given to it or to a suite around it. Needs a build
(`swift build --build-tests`): the ids come from the test bundle's own listing (its JSON event stream, whose test
records name their tags), and they become one `--filter` expression. Swift 6.4's `swift test --filter tag:TAG`
does the same without this script.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def listing():
    """Every test and suite of the built bundle as (kind, id, tags)."""
    binary = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    ).stdout.strip()
    bundle = os.path.join(binary, "plumometerPackageTests.xctest")
    if not os.access(bundle, os.X_OK):
        sys.exit("tagged_tests.py: %s is not built; run `swift build --build-tests` first" % bundle)
    with tempfile.TemporaryDirectory() as directory:
        stream = os.path.join(directory, "tests.jsonl")
        subprocess.run(
            [bundle, "--testing-library", "swift-testing", "--list-tests", "--event-stream-version", "0",
             "--event-stream-output-path", stream],
            cwd=ROOT, stdout=subprocess.DEVNULL, timeout=120, check=True,
        )
        with open(stream, encoding="utf-8") as handle:
            records = [json.loads(line) for line in handle if line.strip()]
    return [
        (record["payload"]["kind"], record["payload"]["id"], set(record["payload"].get("_tags") or []))
        for record in records
        if record.get("kind") == "test"
    ]


def tagged(tag):
    """The ids of the test functions that carry `tag`, themselves or through a suite."""
    tests = listing()
    suites = [test_id for kind, test_id, tags in tests if kind == "suite" and "." + tag in tags]
    result = []
    for kind, test_id, tags in tests:
        if kind != "function":
            continue
        inherited = any(test_id.startswith(suite + "/") for suite in suites)
        if "." + tag in tags or inherited:
            # The id without its source location: what `--filter` matches.
            result.append(test_id.rsplit("/", 1)[0] if re.search(r"\.swift:\d+:\d+$", test_id) else test_id)
    return sorted(set(result))


def main():
    arguments = sys.argv[1:]
    if not arguments or arguments[0] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if arguments else 2)
    if arguments[0] == "--list":
        if len(arguments) != 2:
            sys.exit("usage: tagged_tests.py --list TAG")
        print("\n".join(tagged(arguments[1])))
        return
    tag, rest = arguments[0], arguments[1:]
    ids = tagged(tag)
    if not ids:
        sys.exit("tagged_tests.py: no test carries the tag %s" % tag)
    expression = "|".join("^" + re.escape(test_id) for test_id in ids)
    command = ["swift", "test", "--skip-build", "--filter", expression] + rest
    sys.exit(subprocess.run(command, cwd=ROOT).returncode)


if __name__ == "__main__":
    main()
