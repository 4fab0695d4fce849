#!/usr/bin/python3
# Runs docs/examples/read-meta.py as a user would and checks what it
# prints.  Success: one line per frame, in order, each with a known
# metric, a finite score and a flag, for a test pattern and for a file.
# Errors: a missing file, a text file, garbage, a clip no
# decoder reads, a refused URI, an unknown metric, --backend cuda without
# a GPU and a source that stalls each end promptly with exit status 1 and
# one "error: " line naming the cause; a metric left unscored on the CPU
# prints the element's warning as the reason of every frame.
#
#   check-read-meta.py READ_META_PY
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import math
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
                          stalled_errors, success_errors, unknown_value_errors,
                          unscored_errors, verdict)

FRAMES = 12
LINE = re.compile(r"frame=(\d+) metric=(\S+) score=(\S+) blurry=(true|false)")


def frame_lines(name, result, frames, metric, expect_blurry=None):
    """Errors of a run that must print @frames valid lines and exit 0."""
    errors = success_errors(name, result)
    lines = result[1].splitlines()
    if len(lines) != frames:
        errors.append(f"{name}: {len(lines)} lines, expected {frames}")
    for i, line in enumerate(lines):
        m = LINE.fullmatch(line)
        if not m:
            errors.append(f"{name}: malformed line: {line!r}")
            continue
        score = float(m.group(3))
        if int(m.group(1)) != i or m.group(2) != metric:
            errors.append(f"{name}: line {i}: {line!r}")
        if not math.isfinite(score) or score <= 0:
            errors.append(f"{name}: line {i}: score {score} (noise is "
                          "sharp)")
        if expect_blurry is not None and \
                (m.group(4) == "true") != expect_blurry:
            errors.append(f"{name}: line {i}: blurry={m.group(4)}")
    return errors


def main():
    example = sys.argv[1]
    errors = []

    def pattern(metric, threshold, blurry):
        return frame_lines(
            f"{metric} threshold {threshold:g}",
            run(example, ["--frames", str(FRAMES), "--metric", metric,
                          "--backend", "cpu", "--threshold", str(threshold)],
                LAUNCH_TIMEOUT), FRAMES, metric, blurry)

    errors += pattern("laplacian", 0.0, False)
    # A threshold above any Tenengrad score (< 2080800) flags every frame.
    errors += pattern("tenengrad", 1e12, True)

    with tempfile.TemporaryDirectory() as tmp:
        clip, inputs = make_inputs(tmp)
        errors += frame_lines("a file", run(example, ["--backend", "cpu",
                                                      clip], LAUNCH_TIMEOUT),
                              4, "laplacian")
        errors += input_errors(example, inputs)
    errors += unknown_value_errors(example, "metric", "sharpest")
    errors += stalled_errors(example, r"no frame for 2 s")

    errors += backend_cuda_errors(
        example, lambda name, result, n: frame_lines(name, result, n,
                                                     "laplacian"))

    # docs/reference/cudasharpness.md's example: without a GPU,
    # backend=auto lets LPC-SI frames pass unscored, with one warning that
    # is the reason.
    lpc = run(example, ["--frames", "3", "--metric", "lpc-si"])
    if lpc[0] == 0 and lpc[1]:
        errors += frame_lines("lpc-si (a GPU)", lpc, 3, "lpc-si")
    else:
        errors += unscored_errors("lpc-si without a GPU", lpc, [
            f"frame={i} has no sharpness meta: lpc-si is too slow on the "
            "CPU" for i in range(3)])
    return verdict(errors, "read-meta.py: frames of a pattern and a file; "
                   "every error path ends promptly with its cause")


if __name__ == "__main__":
    sys.exit(main())
