#!/usr/bin/python3
# Runs docs/examples/read-meta.py and checks what it prints: one line per
# frame, in order, each with a known metric, a finite score and a flag.
#
#   check-read-meta.py READ_META_PY
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import math
import re
import subprocess
import sys

FRAMES = 12
LINE = re.compile(r"frame=(\d+) metric=(\S+) score=(\S+) blurry=(true|false)")


def check(example, metric, threshold, expect_blurry):
    run = subprocess.run(
        ["/usr/bin/python3", example, "--frames", str(FRAMES), "--metric",
         metric, "--backend", "cpu", "--threshold", str(threshold)],
        capture_output=True, text=True, timeout=100)
    lines = run.stdout.splitlines()
    errors = []
    if run.returncode != 0:
        errors.append(f"exit status {run.returncode}: {run.stderr}")
    if len(lines) != FRAMES:
        errors.append(f"{len(lines)} lines, expected {FRAMES}")
    for i, line in enumerate(lines):
        m = LINE.fullmatch(line)
        if not m:
            errors.append(f"malformed line: {line!r}")
            continue
        score = float(m.group(3))
        if int(m.group(1)) != i or m.group(2) != metric:
            errors.append(f"line {i}: {line!r}")
        if not math.isfinite(score) or score <= 0:
            errors.append(f"line {i}: score {score} (a ball pattern is sharp)")
        if (m.group(4) == "true") != expect_blurry:
            errors.append(f"line {i}: blurry={m.group(4)}")
    if errors:
        print(run.stdout + run.stderr)
        print("\n".join(errors))
    return not errors


def main():
    example = sys.argv[1]
    ok = check(example, "laplacian", 0.0, False)
    # A threshold above any Tenengrad score (< 2080800) flags every frame.
    ok = check(example, "tenengrad", 1e12, True) and ok
    if ok:
        print(f"read-meta.py printed {FRAMES} valid lines per run")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
