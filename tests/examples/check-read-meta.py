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

from example_runs import (CAUSES, LAUNCH_TIMEOUT, error_run,  # noqa: E402
                          make_inputs, run, silent_server)

FRAMES = 12
LINE = re.compile(r"frame=(\d+) metric=(\S+) score=(\S+) blurry=(true|false)")


def frame_lines(name, result, frames, metric, expect_blurry=None):
    """Errors of a run that must print @frames valid lines and exit 0."""
    rc, out, err, secs = result
    errors = []
    if rc is None:
        errors.append(f"{name}: still running after {secs:.0f} s (a hang)")
    elif rc != 0:
        errors.append(f"{name}: exit status {rc}: {err}")
    lines = out.splitlines()
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
        for name, path in inputs.items():
            errors += error_run(name, run(example, ["--backend", "cpu",
                                                    path]), CAUSES[name])
    errors += error_run("unknown metric",
                        run(example, ["--metric", "sharpest"]),
                        r'could not set property "metric".*"sharpest"')
    with silent_server() as uri:
        errors += error_run("stalled source",
                            run(example, ["--timeout", "2", uri]),
                            r"no frame for 2 s")

    # Without a GPU: the element's start fails, with an error to print.
    cuda = run(example, ["--frames", "3", "--backend", "cuda"])
    if cuda[0] == 0 and cuda[1]:
        errors += frame_lines("backend cuda (a GPU)", cuda, 3, "laplacian")
    else:
        errors += error_run("backend cuda", cuda, r"CUDA")

    # docs/reference/cudasharpness.md's example: without a GPU, backend=auto lets LPC-SI
    # frames pass unscored, with one warning that is the reason.
    lpc = run(example, ["--frames", "3", "--metric", "lpc-si"])
    if lpc[0] == 0 and lpc[1]:
        errors += frame_lines("lpc-si (a GPU)", lpc, 3, "lpc-si")
    else:
        want = [f"frame={i} has no sharpness meta: lpc-si is too slow on "
                "the CPU" for i in range(3)]
        got = [line for line in lpc[2].splitlines() if "frame=" in line]
        if lpc[0] != 1 or len(got) != 3 or \
                not all(g.startswith(w) for g, w in zip(got, want)):
            errors.append(f"lpc-si without a GPU: exit status {lpc[0]}, "
                          f"want 1 and lines starting {want}; stderr:\n"
                          f"{lpc[2]}")

    for e in errors:
        print("FAIL", e)
    if not errors:
        print("read-meta.py: frames of a pattern and a file; every error "
              "path ends promptly with its cause")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
