#!/usr/bin/python3
# Runs docs/examples/compare-meta.py and checks what it prints: one line
# per frame, in order, with a finite PSNR that falls as the JPEG quality
# falls, and an SSIM in (0, 1].
#
#   check-compare-meta.py COMPARE_META_PY
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import math
import re
import subprocess
import sys

FRAMES = 8
LINE = re.compile(r"frame=(\d+) psnr-avg=(\S+) ssim-all=(\S+)")


def run(example, quality):
    res = subprocess.run(
        ["/usr/bin/python3", example, "--frames", str(FRAMES), "--quality",
         str(quality), "--backend", "cpu"],
        capture_output=True, text=True, timeout=100)
    errors, psnr = [], []
    if res.returncode != 0:
        errors.append(f"exit status {res.returncode}: {res.stderr}")
    lines = res.stdout.splitlines()
    if len(lines) != FRAMES:
        errors.append(f"{len(lines)} lines, expected {FRAMES}: {lines}")
    for i, line in enumerate(lines):
        m = LINE.fullmatch(line)
        if not m or int(m.group(1)) != i:
            errors.append(f"malformed line {i}: {line!r}")
            continue
        p, s = float(m.group(2)), float(m.group(3))
        if not math.isfinite(p) or not 0 < s <= 1:
            errors.append(f"line {i}: psnr {p} ssim {s}")
        psnr.append(p)
    return errors, psnr


def main():
    example = sys.argv[1]
    errors_hi, hi = run(example, 90)
    errors_lo, lo = run(example, 10)
    errors = errors_hi + errors_lo
    if not errors and not (sum(hi) / len(hi) > sum(lo) / len(lo)):
        errors.append(f"PSNR at quality 90 ({hi}) not above quality 10 ({lo})")
    for e in errors:
        print("FAIL", e)
    if not errors:
        print(f"ok: {FRAMES} frames, mean PSNR {sum(hi) / len(hi):.2f} dB "
              f"(q90) > {sum(lo) / len(lo):.2f} dB (q10)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
