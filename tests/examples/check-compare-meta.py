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
                          backend_cuda_errors, error_run, input_errors,
                          make_clip, make_inputs, run, stalled_errors,
                          success_errors, unknown_value_errors,
                          unscored_errors, verdict)

FRAMES = 8
LINE = re.compile(r"frame=(\d+) psnr-avg=(\S+) ssim-all=(\S+)")


def frame_lines(name, result, frames):
    """(errors, PSNR per frame) of a run that must print @frames lines
    and exit 0."""
    errors, psnr = success_errors(name, result), []
    lines = result[1].splitlines()
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
        errors += input_errors(example, inputs, before=[clip],
                               label="%s (distorted)")
        errors += stalled_errors(example, r"no frame for 2 s", before=[clip],
                                 name="stalled distorted source")
    errors += unknown_value_errors(example, "metrics", "sharpness")

    errors += backend_cuda_errors(
        example, lambda name, result, n: frame_lines(name, result, n)[0])

    # Without a GPU, backend=auto leaves MS-SSIM out, with one warning
    # that is the reason (not "no reference frame").
    ms = run(example, ["--frames", "3", "--metrics", "ms-ssim"])
    if ms[0] == 0 and ms[1]:
        got = ms[1].splitlines()
        if len(got) != 3 or not all(re.fullmatch(
                rf"frame={i} ms-ssim=\S+", g) for i, g in enumerate(got)):
            errors.append(f"ms-ssim (a GPU): {got}")
    else:
        errors += unscored_errors("ms-ssim without a GPU", ms, [
            f"frame={i} MS-SSIM was not computed: MS-SSIM is too slow on "
            "the CPU" for i in range(3)])
    return verdict(errors, f"ok: {FRAMES} frames, mean PSNR "
                   f"{sum(hi) / len(hi):.2f} dB (q90) > "
                   f"{sum(lo) / len(lo):.2f} dB (q10); another size scaled; "
                   "every error path ends promptly with its cause")


if __name__ == "__main__":
    sys.exit(main())
