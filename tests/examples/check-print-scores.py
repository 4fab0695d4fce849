#!/usr/bin/python3
# Runs docs/examples/print-scores.py as a user would and checks what it
# prints.  Success: one line per frame and a summary, for the test pattern
# (sharp, then blurred half-way: lower scores) and for a file.  Errors
#: a missing file, a text file, garbage, a clip no decoder
# reads, a refused URI, an unknown metric, --backend cuda without a GPU
# and a source that stalls each end promptly with exit status 1 and one
# "error: " line naming the cause.
#
#   check-print-scores.py PRINT_SCORES_PY
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('gi')

from example_runs import (LAUNCH_TIMEOUT, backend_cuda_errors,  # noqa: E402
                          input_errors, make_inputs, run,
                          stalled_errors, unknown_value_errors, verdict)

FRAMES = 8
LINE = re.compile(r"frame +(\d+)  t= *(\S+)s  laplacian= *(\S+)( +BLURRY)?")
SUMMARY = re.compile(r"summary: (\d+) frames, .* (\d+) unscored")


def scores(name, result, frames):
    """(errors, scores) of a run that must print @frames lines and a
    summary of @frames scored frames, and exit 0."""
    rc, out, err, secs = result
    if rc is None:
        return [f"{name}: still running after {secs:.0f} s (a hang)"], []
    errors, values = [], []
    if rc != 0:
        errors.append(f"{name}: exit status {rc}: {err}")
    lines = out.splitlines()
    if len(lines) != frames + 1:
        errors.append(f"{name}: {len(lines)} lines, expected {frames} and "
                      f"a summary: {lines}")
        return errors, values
    for i, line in enumerate(lines[:-1]):
        m = LINE.fullmatch(line)
        if not m or int(m.group(1)) != i:
            errors.append(f"{name}: malformed line {i}: {line!r}")
        else:
            values.append(float(m.group(3)))
    m = SUMMARY.match(lines[-1])
    if not m or (int(m.group(1)), int(m.group(2))) != (frames, 0):
        errors.append(f"{name}: summary {lines[-1]!r}")
    return errors, values


def main():
    example = sys.argv[1]
    errors, values = scores("pattern", run(
        example, ["--frames", str(FRAMES), "--backend", "cpu"],
        LAUNCH_TIMEOUT), FRAMES)
    half = FRAMES // 2
    if not errors and not max(values[half:]) < min(values[:half]):
        errors.append(f"pattern: the blurred half is not below the sharp "
                      f"one: {values}")

    with tempfile.TemporaryDirectory() as tmp:
        clip, inputs = make_inputs(tmp)
        errors += scores("a file", run(example, ["--backend", "cpu", clip],
                                       LAUNCH_TIMEOUT), 4)[0]
        errors += input_errors(example, inputs)
    errors += unknown_value_errors(example, "metric", "sharpest")
    errors += stalled_errors(example, r"no progress for 2 s")
    errors += backend_cuda_errors(
        example, lambda name, result, n: scores(name, result, n)[0])
    return verdict(errors, "print-scores.py: frames of a pattern and a "
                   "file; every error path ends promptly with its cause")


if __name__ == "__main__":
    sys.exit(main())
