#!/usr/bin/python3
# LPC-SI and CWTVNRS of the CPU backend along the project's Gaussian blur
# ramp (tests/common/natural_images.py).  Writes the scores and Spearman
# correlations as a markdown table (docs/validation/validation-lpc.md quotes it).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_lpc_blur_ramp.py TEST-LPC-MAPS [--output TABLE.md]
#
# Each image is blurred whole, then its centre (at most 255 x 257) is
# scored, to keep the run short.  Two ramps:
#   8-bit: natural_images.blur (rounded to uint8), what the element sees;
#   float: the same Gaussian without the rounding (internal API).
# Asserted, on every image, for both metrics and both ramps: the scores
# fall strictly from sigma 0 to sigma 3, and no frame blurred by more than
# sigma 2 scores above the sigma 2 frame.  Not asserted: a fall at every
# step beyond sigma 3.  There the scores sit on a floor (LPC-SI about 0.05
# on 8-bit frames, where the rounding's one-level contours are the most
# coherent features left; about 0.001-0.02 on float frames) and wander on
# it; the table shows by how much (docs/validation/validation-lpc.md).

import argparse
import os
import sys

# tests/common: shared modules, and a skip (exit 77) when a module is
# missing.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage')

import numpy as np  # noqa: E402
from scipy import ndimage, stats  # noqa: E402

import lpc_cases as cases  # noqa: E402

ramp = cases.natural_images
METRICS = ('lpc-si', 'cwtvnrs')
MAX_H, MAX_W = 255, 257
# Scores must fall strictly up to this sigma, and stay below the score of
# the previous sigma (the last moderate blur) beyond it.
MONOTONE_UP_TO = 3


def centre(img):
    h, w = img.shape
    y, x = max(0, (h - MAX_H) // 2), max(0, (w - MAX_W) // 2)
    return img[y:y + MAX_H, x:x + MAX_W]


def blur_float(gray, sigma):
    """natural_images.blur without the rounding to uint8."""
    img = gray.astype(np.float64)
    if sigma == 0:
        return img
    return ndimage.gaussian_filter(img, sigma, mode='reflect', truncate=4.0)


RAMPS = (('8-bit', ramp.blur), ('float', blur_float))


def spearman(scores):
    return stats.spearmanr(ramp.SIGMAS, scores).correlation


def table(rows):
    lines = []
    for kind, _ in RAMPS:
        for metric in METRICS:
            lines += ['%s, %s frames:' % (metric, kind), '',
                      '| image | ' +
                      ' | '.join('σ=%g' % s for s in ramp.SIGMAS) +
                      ' | Spearman |',
                      '|---|' + '---:|' * (len(ramp.SIGMAS) + 1)]
            for name, scores in rows:
                s = scores[kind][metric]
                lines.append('| %s | %s | %.3f |' % (
                    name, ' | '.join('%.4g' % v for v in s), spearman(s)))
            lines.append('')
    return '\n'.join(lines)


def check(name, kind, metric, scores):
    n = ramp.SIGMAS.index(MONOTONE_UP_TO)
    failures = []
    if not np.all(np.diff(scores[:n + 1]) < 0):
        failures.append('does not fall at every step up to sigma %g'
                        % MONOTONE_UP_TO)
    if not max(scores[n:]) < scores[n - 1]:
        failures.append('scores above the sigma %g frame beyond it'
                        % ramp.SIGMAS[n - 1])
    return ['%s: %s of %s frames %s: %s' % (
        name, metric, kind, f, ' '.join('%.4g' % v for v in scores))
        for f in failures]


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument('tool')
    parser.add_argument('--output')
    args = parser.parse_args(argv)

    backend = cases.Backend(args.tool)
    rows, failures = [], []
    for name, gray in ramp.ramp_images():
        scores = {}
        for kind, blur in RAMPS:
            results = [backend.run(centre(blur(gray, s)))
                       for s in ramp.SIGMAS]
            scores[kind] = {m: [r[m] for r in results] for m in METRICS}
            for m in METRICS:
                failures += check(name, kind, m, scores[kind][m])
        h, w = centre(gray).shape
        rows.append(('%s %dx%d' % (name, w, h), scores))

    scaffold.print_table(table(rows), args.output)
    return scaffold.verdict(failures)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
