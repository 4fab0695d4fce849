#!/usr/bin/python3
# LPC-SI and CWTVNRS of the CPU backend along the project's Gaussian blur
# ramp (tests/oracle/natural_images.py): both should fall with every step
# of blur.  Writes the scores and Spearman correlations as a markdown table
# (docs/validation-lpc.md quotes it).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_lpc_blur_ramp.py TEST-LPC-MAPS [--output TABLE.md]
#
# Each image is blurred whole, then its centre (at most 383 x 385, odd
# sides) is scored, to keep the run short.  Asserted: LPC-SI falls
# strictly at every step on every image (Spearman -1); CWTVNRS the same.

import argparse
import sys

import numpy as np
from scipy import stats

import lpc_cases as cases

ramp = cases.natural_images
METRICS = ('lpc-si', 'cwtvnrs')
MAX_H, MAX_W = 383, 385


def centre(img):
    h, w = img.shape
    y, x = max(0, (h - MAX_H) // 2), max(0, (w - MAX_W) // 2)
    return img[y:y + MAX_H, x:x + MAX_W]


def table(rows):
    lines = []
    for metric in METRICS:
        lines += ['%s:' % metric, '',
                  '| image | size | ' +
                  ' | '.join('σ=%g' % s for s in ramp.SIGMAS) +
                  ' | Spearman |',
                  '|---|---|' + '---:|' * (len(ramp.SIGMAS) + 1)]
        for name, size, scores in rows:
            s = scores[metric]
            lines.append('| %s | %dx%d | %s | %.3f |' % (
                name, size[1], size[0], ' | '.join('%.4g' % v for v in s),
                stats.spearmanr(ramp.SIGMAS, s).correlation))
        lines.append('')
    return '\n'.join(lines)


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument('tool')
    parser.add_argument('--output')
    args = parser.parse_args(argv)

    backend = cases.Backend(args.tool)
    rows, failures = [], []
    for name, gray in ramp.ramp_images():
        frames = [centre(ramp.blur(gray, s)) for s in ramp.SIGMAS]
        results = [backend.run(f) for f in frames]
        scores = {m: [r[m] for r in results] for m in METRICS}
        rows.append((name, frames[0].shape, scores))
        for m in METRICS:
            if not np.all(np.diff(scores[m]) < 0):
                failures.append('%s: %s does not fall at every step: %s' % (
                    name, m, ' '.join('%.4g' % v for v in scores[m])))

    text = table(rows)
    print(text)
    if args.output:
        with open(args.output, 'w') as f:
            f.write(text)
    for f in failures:
        print('FAIL:', f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
