#!/usr/bin/python3
# Runs docs/examples/compare-meta.py as a user would and checks what it
# prints.  Success: one line per frame, in order, with a finite PSNR that
# falls as the JPEG quality falls and an SSIM in (0, 1]; two files of
# different sizes (the distorted one scaled to the reference's).
# Errors: a missing reference or distorted file, a text file, garbage,
# a clip no decoder reads, a refused URI, an unknown metric, --backend cuda
# without a GPU and a source that stalls each end promptly with exit
# status 1 and one "error: " line naming the cause; MS-SSIM left out on
# the CPU prints the element's warning as the reason of every frame.
#
#   check-compare-meta.py COMPARE_META_PY
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

from example_runs import (CAUSES, LAUNCH_TIMEOUT, PROMPT,  # noqa: E402
                          error_run, make_clip, make_inputs, run,
                          silent_server)

FRAMES = 8
LINE = re.compile(r"frame=(\d+) psnr-avg=(\S+) ssim-all=(\S+)")


def frame_lines(name, result, frames):
    """(errors, PSNR per frame) of a run that must print @frames lines
    and exit 0."""
    rc, out, err, secs = result
    errors, psnr = [], []
    if rc is None:
        errors.append(f"{name}: still running after {secs:.0f} s (a hang)")
    elif rc != 0:
        errors.append(f"{name}: exit status {rc}: {err}")
    lines = out.splitlines()
    if len(lines) != frames:
        errors.append(f"{name}: {len(lines)} lines, expected {frames}: "
                      f"{lines}")
    for i, line in enumerate(lines):
        m = LINE.fullmatch(line)
        if not m or int(m.group(1)) != i:
            errors.append(f"{name}: malformed line {i}: {line!r}")
            continue
        p, s = float(m.group(2)), float(m.group(3))
        if not math.isfinite(p) or not 0 < s <= 1:
            errors.append(f"{name}: line {i}: psnr {p} ssim {s}")
        psnr.append(p)
    return errors, psnr


def pattern(example, quality):
    return frame_lines(f"quality {quality}", run(
        example, ["--frames", str(FRAMES), "--quality", str(quality),
                  "--backend", "cpu"], LAUNCH_TIMEOUT), FRAMES)


def main():
    example = sys.argv[1]
    errors_hi, hi = pattern(example, 90)
    errors_lo, lo = pattern(example, 10)
    errors = errors_hi + errors_lo
    if not errors and not (sum(hi) / len(hi) > sum(lo) / len(lo)):
        errors.append(f"PSNR at quality 90 ({hi}) not above quality 10 "
                      f"({lo})")

    with tempfile.TemporaryDirectory() as tmp:
        clip, inputs = make_inputs(tmp)
        # The same clip downscaled: the example scales it back up.
        small = make_clip(os.path.join(tmp, "small.avi"), 320, 240, 6,
                          scale_to=(160, 120))
        ref = make_clip(os.path.join(tmp, "ref.avi"), 320, 240, 6)
        e, psnr = frame_lines("a distorted file of another size", run(
            example, ["--backend", "cpu", ref, small], PROMPT * 2), 6)
        errors += e
        if not e and min(psnr) < 30:
            errors.append(f"another size: PSNR {psnr}, want > 30 dB for a "
                          "clip scaled down and up")
        errors += error_run("missing reference", run(
            example, ["--backend", "cpu", inputs["missing file"], clip]),
            CAUSES["missing file"])
        for name, path in inputs.items():
            errors += error_run(f"{name} (distorted)", run(
                example, ["--backend", "cpu", clip, path]), CAUSES[name])
        with silent_server() as uri:
            errors += error_run("stalled distorted source", run(
                example, ["--timeout", "2", clip, uri]), r"no frame for 2 s")
    errors += error_run("unknown metric",
                        run(example, ["--metrics", "sharpness"]),
                        r'could not set property "metrics".*"sharpness"')

    # Without a GPU: the element's start fails, with an error to print.
    cuda = run(example, ["--frames", "3", "--backend", "cuda"])
    if cuda[0] == 0 and cuda[1]:
        errors += frame_lines("backend cuda (a GPU)", cuda, 3)[0]
    else:
        errors += error_run("backend cuda", cuda, r"CUDA")

    # Without a GPU, backend=auto leaves MS-SSIM out, with one warning
    # that is the reason (not "no reference frame").
    ms = run(example, ["--frames", "3", "--metrics", "ms-ssim"])
    if ms[0] == 0 and ms[1]:
        got = ms[1].splitlines()
        if len(got) != 3 or not all(re.fullmatch(
                rf"frame={i} ms-ssim=\S+", g) for i, g in enumerate(got)):
            errors.append(f"ms-ssim (a GPU): {got}")
    else:
        want = [f"frame={i} MS-SSIM was not computed: MS-SSIM is too slow "
                "on the CPU" for i in range(3)]
        got = [line for line in ms[2].splitlines() if "frame=" in line]
        if ms[0] != 1 or len(got) != 3 or \
                not all(g.startswith(w) for g, w in zip(got, want)):
            errors.append(f"ms-ssim without a GPU: exit status {ms[0]}, "
                          f"want 1 and lines starting {want}; stderr:\n"
                          f"{ms[2]}")

    for e in errors:
        print("FAIL", e)
    if not errors:
        print(f"ok: {FRAMES} frames, mean PSNR {sum(hi) / len(hi):.2f} dB "
              f"(q90) > {sum(lo) / len(lo):.2f} dB (q10); another size "
              "scaled; every error path ends promptly with its cause")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
