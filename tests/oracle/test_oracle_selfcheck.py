#!/usr/bin/python3
# Checks the oracle itself: hand-worked tiny images, the gray conversions,
# and a per-pixel loop transcription of the specification on random frames.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import os
import sys
from fractions import Fraction

# tests/common: shared modules, and a skip (exit 77) when a module is
# missing.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy')

import numpy as np  # noqa: E402

import classical_oracle as oracle  # noqa: E402

failures = 0


def check(what, got, want):
    global failures
    if got != want:
        failures += 1
        print("FAIL %s: got %r, want %r" % (what, got, want))


def check_scores(name, gray, want):
    got = oracle.scores(np.array(gray, dtype=np.uint8))
    for metric in oracle.METRICS:
        if want.get(metric) is not None:
            check("%s %s" % (name, metric), got[metric], float(want[metric]))


# 2x2 [[1, 3], [4, 8]], N = 4.  Mean 4, squared deviations 9+1+0+16 = 26.
# Roberts: |8-1| + |4-3| = 8.  SMD: |1-3| + |1-4| = 5; SMD2: 2*3 = 6.
# No 3x3 interior; four distinct levels: 2 bits.
check_scores("2x2", [[1, 3], [4, 8]], {
    "variance": Fraction(26, 4), "roberts": Fraction(8, 4),
    "tenengrad": 0, "laplacian": 0, "smd": Fraction(5, 4),
    "smd2": Fraction(6, 4), "maxmin": 0, "entropy": 2})

# 3x3 [[1, 2, 3], [4, 3, 6], [7, 8, 10]], N = 9.
# Variance: S1 = 44, S2 = 288 -> (288 - 44^2/9) / 9 = 656/81.
# Roberts per 2x2 cell: (|3-1|+|4-2|) + (|6-2|+|3-3|) + (|8-4|+|7-3|)
#   + (|10-3|+|8-6|) = 4 + 4 + 8 + 9 = 25.
# Sobel at the centre: Gx = (3+12+10) - (1+8+7) = 9,
#   Gy = (7+16+10) - (1+4+3) = 25 -> 81 + 625 = 706.
# Laplacian at the centre: |6+4-6| + |8+2-6| = 8.  Max-min: 10 - 1 = 9.
# SMD per cell: (1+3) + (1+1) + (1+3) + (3+5) = 18; SMD2: 3 + 1 + 3 + 15 = 22.
# Entropy: seven levels once, level 3 twice -> log2(9) - 2/9.
check_scores("3x3", [[1, 2, 3], [4, 3, 6], [7, 8, 10]], {
    "variance": Fraction(656, 81), "roberts": Fraction(25, 9),
    "tenengrad": Fraction(706, 9), "laplacian": Fraction(8, 9),
    "smd": Fraction(18, 9), "smd2": Fraction(22, 9),
    "maxmin": Fraction(9, 9), "entropy": None})  # irrational: below
got = oracle.score("entropy", np.array([[1, 2, 3], [4, 3, 6], [7, 8, 10]],
                                       dtype=np.uint8))
if abs(got - (math.log2(9) - 2 / 9)) > 1e-15:
    failures += 1
    print("FAIL 3x3 entropy: got %r" % got)

# A flat frame has no variance, no gradients and no entropy; 1x1 and
# single-row frames have no window at all.  Blur effect: no variation on
# either axis scores 1, the blurriest (docs/reference/metrics.md).
no_variation = dict({m: 0 for m in oracle.METRICS}, **{"blur-effect": 1})
check_scores("flat", np.full((4, 5), 77), no_variation)
check_scores("1x1", [[200]], no_variation)

# Blur effect of a step, 4 rows of 0 0 0 0 255 255 255 255 (W = 8, H = 4).
# Axis 0: equal rows, no variation (M1 = 0: no say).  Axis 1, interior row
# y = 2, columns x = 2 .. 6; the columns smoothed down by (1, 2, 1) are
# c = 4 g = 0 0 0 0 1020 1020 1020 1020, mirrored: c[-k] = c[k - 1],
# c[7 + k] = c[8 - k].
#   sharp = 11 |c[x+1] - c[x-1]|: 0, 11220, 11220, 0, 0 (x = 2 .. 6)
#   blur = |c[x+6] + c[x+5] - c[x-5] - c[x-6]|, at x = 3:
#     c[9] + c[8] - c[-2] - c[-3] = c[6] + c[7] - c[1] - c[2] = 2040;
#     at x = 4: c[10] + c[9] - c[-1] - c[-2] = c[5] + c[6] - c[0] - c[1]
#     = 2040
#   M1 = 22440, M2 = 2 (11220 - 2040) = 18360: (M1 - M2) / M1 = 2/11.
# Transposed, axis 0 carries it.
step = np.array([[0] * 4 + [255] * 4] * 4, dtype=np.uint8)
check("step sums", oracle.sums(step)["blur-effect"], (0, 0, 22440, 18360))
check("step", oracle.score("blur-effect", step), float(Fraction(2, 11)))
check("step transposed sums", oracle.sums(step.T.copy())["blur-effect"],
      (22440, 18360, 0, 0))
# Under 4 rows or columns there is no interior.
check("3x9 blur-effect", oracle.score("blur-effect", step[:3]), 1.0)
check("1-row roberts", oracle.score("roberts",
      np.array([[0, 255, 0, 255]], dtype=np.uint8)), 0.0)
check("1-row variance", oracle.score("variance",
      np.array([[0, 255, 0, 255]], dtype=np.uint8)), 255.0 * 255.0 / 4.0)

# Gray conversions, worked by hand.
# (77*10 + 150*20 + 29*30 + 128) = 4768 -> 4768 >> 8 = 18.
check("rgb 10,20,30", int(oracle.gray_from_rgb(10, 20, 30)), 18)
check("rgb white", int(oracle.gray_from_rgb(255, 255, 255)), 255)
check("rgb black", int(oracle.gray_from_rgb(0, 0, 0)), 0)
# 10-bit: (v + 2) >> 2, clamped: 513 -> 128, 514 -> 129, 1023 -> 255.
check("y10 513", int(oracle.gray_from_y16(513, 10)), 128)
check("y10 514", int(oracle.gray_from_y16(514, 10)), 129)
check("y10 1023", int(oracle.gray_from_y16(1023, 10)), 255)
# P010: the same samples in the high 10 bits; the low 6 bits do not count.
check("p010 514", int(oracle.gray_from_y16((514 << 6) | 0x3f, 10, 6)), 129)
# 16-bit: (v + 128) >> 8: 0x1234 = 4660 -> 18, 0xffff -> 255.
check("y16 0x1234", int(oracle.gray_from_y16(0x1234, 16)), 18)
check("y16 0xffff", int(oracle.gray_from_y16(0xFFFF, 16)), 255)


# A literal per-pixel transcription of the spec table, for random frames.
def loop_sums(g):
    h, w = len(g), len(g[0])
    s = dict.fromkeys(oracle.METRICS, 0)
    s["variance"] = (sum(map(sum, g)), sum(v * v for row in g for v in row))
    hist = [0] * 256
    for row in g:
        for v in row:
            hist[v] += 1
    s["entropy"] = hist
    for y in range(h - 1):
        for x in range(w - 1):
            s["roberts"] += (abs(g[y + 1][x + 1] - g[y][x])
                             + abs(g[y + 1][x] - g[y][x + 1]))
            dx = abs(g[y][x] - g[y][x + 1])
            dy = abs(g[y][x] - g[y + 1][x])
            s["smd"] += dx + dy
            s["smd2"] += dx * dy
    s["blur-effect"] = loop_blur_effect(g)
    for y in range(1, h - 1):
        for x in range(1, w - 1):
            gx = sum(k * (g[y + d][x + 1] - g[y + d][x - 1])
                     for d, k in ((-1, 1), (0, 2), (1, 1)))
            gy = sum(k * (g[y + 1][x + d] - g[y - 1][x + d])
                     for d, k in ((-1, 1), (0, 2), (1, 1)))
            s["tenengrad"] += gx * gx + gy * gy
            s["laplacian"] += (abs(g[y][x + 1] + g[y][x - 1] - 2 * g[y][x])
                               + abs(g[y + 1][x] + g[y - 1][x] - 2 * g[y][x]))
            nb = [g[y + j][x + i] for j in (-1, 0, 1) for i in (-1, 0, 1)]
            s["maxmin"] += max(nb) - min(nb)
    return s


def mirror(i, n):
    # Edge sample repeated: ... 1 0 | 0 1 ... n-1 | n-1 n-2 ..., any i.
    i %= 2 * n
    return i if i < n else 2 * n - 1 - i


def loop_blur_effect(g):
    # The spec literally: the 11-tap box sum along the axis at every pixel
    # (mirrored), Sobel of frame and box (edge along the axis, 1 2 1
    # across), over the interior rows and columns 2 .. size - 2.
    h, w = len(g), len(g[0])
    out = []
    for axis in (0, 1):
        def at(img, y, x):
            return img[mirror(y, h)][mirror(x, w)]

        def sobel(img, y, x):
            t = 0
            for d, k in ((-1, 1), (0, 2), (1, 1)):
                if axis == 0:
                    t += k * (at(img, y + 1, x + d) - at(img, y - 1, x + d))
                else:
                    t += k * (at(img, y + d, x + 1) - at(img, y + d, x - 1))
            return t

        box = [[sum(at(g, y + k, x) if axis == 0 else at(g, y, x + k)
                    for k in range(-5, 6)) for x in range(w)]
               for y in range(h)]
        m1 = m2 = 0
        for y in range(2, h - 1):
            for x in range(2, w - 1):
                sharp = 11 * abs(sobel(g, y, x))
                m1 += sharp
                m2 += max(0, sharp - abs(sobel(box, y, x)))
        out += [m1, m2]
    return tuple(out)


rng = np.random.default_rng(20260101)
for h, w in ((1, 1), (1, 6), (6, 1), (2, 3), (3, 2), (3, 3), (4, 7),
             (9, 5), (16, 17), (4, 4), (5, 13), (12, 6), (23, 19)):
    for trial in range(3):
        img = rng.integers(0, 256, size=(h, w), dtype=np.uint8)
        if trial == 1:
            img = np.where(img > 127, 255, 0).astype(np.uint8)  # extremes
        want = loop_sums(img.tolist())
        got = oracle.sums(img)
        for metric in oracle.METRICS:
            check("loop %dx%d #%d %s" % (w, h, trial, metric),
                  got[metric], want[metric])

# Largest terms stay exact: a 0/255 checkerboard at 1080p.
board = ((np.indices((1080, 1920)).sum(axis=0) % 2) * 255).astype(np.uint8)
check("checker tenengrad", oracle.sums(board)["tenengrad"],
      # Interior: Gx = Gy = 0 on a checkerboard (symmetric columns/rows).
      0)
check("checker laplacian", oracle.sums(board)["laplacian"],
      1918 * 1078 * 2 * 510)
check("checker smd2", oracle.sums(board)["smd2"], 1919 * 1079 * 255 * 255)

if failures:
    print("%d oracle self-check(s) failed" % failures)
    sys.exit(1)
print("oracle self-checks passed")
