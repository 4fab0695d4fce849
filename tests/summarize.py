#!/usr/bin/python3
# Summarise meson testlog.json files: list every skipped test with its
# reason (the "skipped: ..." line it printed: "no CUDA device", "numpy
# missing"), every failed test with the last lines of its output (a CI log
# is often read from its tail only), and end with "N passed, N failed, N
# skipped" over all of them (tests/run-suite.sh runs the suite as several
# meson test runs, each with its own log).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: summarize.py BUILD/meson-logs/testlog.json [MORE.json...]
# Exits 1 when a test failed or none passed.
import json
import sys

FAILED_TAIL_LINES = 12


def skip_reason(test):
    """The last "skipped: <reason>" line of the test's output, or a note
    that it gave none."""
    lines = []
    for stream in ("stdout", "stderr"):
        lines += (test.get(stream) or "").splitlines()
    reasons = [l.strip() for l in lines
               if l.strip().lower().startswith("skipped")]
    if not reasons:
        return "skipped (no reason printed)"
    reason = reasons[-1]
    return reason if ":" in reason else "skipped"


def output_tail(test, count=FAILED_TAIL_LINES):
    """The last lines the test printed (stdout, then stderr)."""
    lines = []
    for stream in ("stdout", "stderr"):
        lines += (test.get(stream) or "").splitlines()
    return [l for l in lines if l.strip()][-count:]


def main(paths):
    passed, failed, skipped = [], [], []
    tests = []
    for path in paths:
        with open(path, encoding="utf-8") as log:
            tests += [json.loads(line) for line in log]
    for test in tests:
        result = test["result"]
        if result in ("OK", "EXPECTEDFAIL"):
            passed.append(test["name"])
        elif result == "SKIP":
            skipped.append((test["name"], skip_reason(test)))
        else:
            failed.append((test["name"], result, output_tail(test)))

    for name, reason in skipped:
        print(f"{name}: {reason}")
    for name, result, tail in failed:
        print(f"FAILED {name}: {result}; the last lines it printed:")
        for line in tail:
            print(f"    {line}")
    print(f"{len(passed)} passed, {len(failed)} failed, "
          f"{len(skipped)} skipped")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: summarize.py BUILD/meson-logs/testlog.json "
                 "[MORE.json...]")
    sys.exit(main(sys.argv[1:]))
