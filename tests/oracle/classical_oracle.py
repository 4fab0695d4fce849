#!/usr/bin/python3
# Independent numpy oracle for the classical sharpness metrics (the
# SHARPNESS_KIND_SUMS rows of the metric table).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Written from the specification (docs/reference/metrics.md, "Gray image" and
# "Classical focus measures"), not from the C code it checks.  Per-pixel
# terms are summed exactly as int64 arrays and Python ints; the final score
# is the correctly rounded double of the exact rational value (fractions),
# so any difference to the element beyond the last bit of its own final
# division is a real disagreement.

import math
from fractions import Fraction

import numpy as np
from scipy import ndimage

METRICS = ("variance", "roberts", "tenengrad", "laplacian", "smd", "smd2",
           "maxmin", "entropy", "blur-effect")

# Gradient metrics: these must fall as an image is blurred.
GRADIENT_METRICS = ("roberts", "tenengrad", "laplacian", "smd", "smd2",
                    "maxmin")
# Lower-is-sharper metrics: these must rise as an image is blurred.
RISING_METRICS = ("blur-effect",)


# --- Gray image ------------------------------------------------------------

# The gray conversion (the specification's "Gray image") is shared with the
# raw frame writer: tests/common/gray_image.py.
from gray_image import gray_from_rgb, gray_from_y16  # noqa: E402,F401


# --- Exact integer sums ----------------------------------------------------

def _total(terms):
    return int(np.sum(terms, dtype=np.int64))


def _sum_roberts(g):
    if g.shape[0] < 2 or g.shape[1] < 2:
        return 0
    d1 = np.abs(g[1:, 1:] - g[:-1, :-1])
    d2 = np.abs(g[1:, :-1] - g[:-1, 1:])
    return _total(d1) + _total(d2)


def _sobel(g):
    # Gx: right column minus left column, each weighted (1, 2, 1) down the
    # rows; Gy: bottom row minus top row, weighted (1, 2, 1) across.
    left = g[:-2, :-2] + 2 * g[1:-1, :-2] + g[2:, :-2]
    right = g[:-2, 2:] + 2 * g[1:-1, 2:] + g[2:, 2:]
    top = g[:-2, :-2] + 2 * g[:-2, 1:-1] + g[:-2, 2:]
    bottom = g[2:, :-2] + 2 * g[2:, 1:-1] + g[2:, 2:]
    return right - left, bottom - top


def _sum_tenengrad(g):
    if g.shape[0] < 3 or g.shape[1] < 3:
        return 0
    gx, gy = _sobel(g)
    return _total(gx * gx) + _total(gy * gy)


def _sum_laplacian(g):
    if g.shape[0] < 3 or g.shape[1] < 3:
        return 0
    c = g[1:-1, 1:-1]
    lx = np.abs(g[1:-1, 2:] + g[1:-1, :-2] - 2 * c)
    ly = np.abs(g[2:, 1:-1] + g[:-2, 1:-1] - 2 * c)
    return _total(lx) + _total(ly)


def _right_down(g):
    c = g[:-1, :-1]
    return np.abs(c - g[:-1, 1:]), np.abs(c - g[1:, :-1])


def _sum_smd(g):
    if g.shape[0] < 2 or g.shape[1] < 2:
        return 0
    dx, dy = _right_down(g)
    return _total(dx) + _total(dy)


def _sum_smd2(g):
    if g.shape[0] < 2 or g.shape[1] < 2:
        return 0
    dx, dy = _right_down(g)
    return _total(dx * dy)


def _sum_maxmin(g):
    h, w = g.shape
    if h < 3 or w < 3:
        return 0
    window = [g[dy:h - 2 + dy, dx:w - 2 + dx]
              for dy in range(3) for dx in range(3)]
    stack = np.stack(window)
    return _total(stack.max(axis=0) - stack.min(axis=0))


# Blur effect (Crete-Roffet et al. 2007) as skimage.measure.blur_effect
# computes it on gray / 255 (h_size 11), with the fractions scaled out: the
# 11-tap mean is an 11-tap sum U and Sobel's [1, 2, 1] / 4 smoothing a
# [1, 2, 1] sum, so 44 * 255 times skimage's variations are integers:
# sharp = 11 |S(g)|, blur = |S(U(g))|.  Written the way skimage does it (the
# whole frame filtered with scipy's 'reflect' borders, then its interior
# sliced), not the way the backends do it.
BLUR_EFFECT_H = 11
_SOBEL_EDGE = np.array([1, 0, -1], dtype=np.int64)
_SOBEL_SMOOTH = np.array([1, 2, 1], dtype=np.int64)


def _int_filter(g, kernel, axis):
    # Exact: float64 holds every partial sum of these small integers.
    out = ndimage.correlate1d(g.astype(np.float64), kernel, axis=axis,
                              mode="reflect")
    return np.rint(out).astype(np.int64)


def _int_sobel(g, axis):
    e = _int_filter(g, _SOBEL_EDGE, axis)
    return _int_filter(e, _SOBEL_SMOOTH, 1 - axis)


def _sums_blur_effect(g):
    """(M1 of axis 0, M2 of axis 0, M1 of axis 1, M2 of axis 1)."""
    h, w = g.shape
    if h < 4 or w < 4:
        return (0, 0, 0, 0)
    interior = (slice(2, h - 1), slice(2, w - 1))
    out = []
    for axis in (0, 1):
        box = _int_filter(g, np.ones(BLUR_EFFECT_H, dtype=np.int64), axis)
        sharp = BLUR_EFFECT_H * np.abs(_int_sobel(g, axis))
        blur = np.abs(_int_sobel(box, axis))
        lost = np.maximum(0, sharp - blur)
        out += [_total(sharp[interior]), _total(lost[interior])]
    return tuple(out)


def _as_gray(gray):
    g = np.asarray(gray)
    if g.dtype != np.uint8 or g.ndim != 2:
        raise ValueError("expected a 2-D uint8 gray image, got %s %s"
                         % (g.dtype, g.shape))
    return g


def sums(gray):
    """Exact integer sums per metric: ints, except variance (S1, S2),
    entropy (the 256-bin histogram as a list of ints) and blur-effect
    (M1 and M2 of axis 0, then of axis 1)."""
    g8 = _as_gray(gray)
    g = g8.astype(np.int64)
    return {
        "variance": (_total(g), _total(g * g)),
        "roberts": _sum_roberts(g),
        "tenengrad": _sum_tenengrad(g),
        "laplacian": _sum_laplacian(g),
        "smd": _sum_smd(g),
        "smd2": _sum_smd2(g),
        "maxmin": _sum_maxmin(g),
        "entropy": [int(c) for c in np.bincount(g8.ravel(), minlength=256)],
        "blur-effect": _sums_blur_effect(g),
    }


# --- Scores ----------------------------------------------------------------

def score_from_sums(metric, s, n):
    """Double score of @metric from its exact sums over @n pixels."""
    if n <= 0:
        return 0.0
    if metric == "variance":
        s1, s2 = s
        # (S2 - S1^2/N) / N, exactly, rounded once.
        return float((Fraction(s2) - Fraction(s1 * s1, n)) / n)
    if metric == "entropy":
        e = 0.0
        for count in s:
            if count:
                p = count / n
                e -= p * math.log2(p)
        return max(e, 0.0)
    if metric == "blur-effect":
        # (M1 - M2) / M1 per axis, the larger; an axis without variation
        # (M1 = 0) has no say, and a frame with none at all scores 1.
        ratios = [Fraction(m1 - m2, m1) for m1, m2 in (s[:2], s[2:])
                  if m1 > 0]
        return float(max(ratios)) if ratios else 1.0
    return float(Fraction(s, n))


def score(metric, gray):
    g = _as_gray(gray)
    return score_from_sums(metric, sums(g)[metric], g.size)


def scores(gray):
    """{metric: score} for every metric of METRICS on one gray image."""
    g = _as_gray(gray)
    s = sums(g)
    return {m: score_from_sums(m, s[m], g.size) for m in METRICS}


def rel_diff(a, b):
    """|a - b| relative to the larger magnitude; 0 when both are 0."""
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0.0 else abs(a - b) / scale


# --- Tiles (docs/reference/tiles.md) -------------------------------------------------
# Tile (c, r) of a W x H image cut in cols x rows spans columns
# floor(c*W/cols) .. floor((c+1)*W/cols) - 1 and the same for rows; each
# per-pixel term counts in the tile of its anchor (the centre of a 3x3
# window, g[y][x] of a 2x2 one, the pixel itself for variance and entropy).

# The metrics with tile sums (the eight classical ones).
TILE_METRICS = ("variance", "roberts", "tenengrad", "laplacian", "smd",
                "smd2", "maxmin", "entropy")
TILE_GRADIENT_METRICS = ("roberts", "tenengrad", "laplacian", "smd", "smd2",
                         "maxmin")


def tile_bounds(n, parts):
    """[floor(i * n / parts) for i in 0 .. parts]."""
    return [i * n // parts for i in range(parts + 1)]


def term_maps(gray):
    """Per-metric int64 maps of the image's size: each term at its anchor
    pixel, 0 where the window does not fit."""
    g = _as_gray(gray).astype(np.int64)
    h, w = g.shape
    maps = {m: np.zeros((h, w), dtype=np.int64)
            for m in TILE_GRADIENT_METRICS}
    if h >= 2 and w >= 2:
        maps["roberts"][:-1, :-1] = (np.abs(g[1:, 1:] - g[:-1, :-1]) +
                                     np.abs(g[1:, :-1] - g[:-1, 1:]))
        dx, dy = _right_down(g)
        maps["smd"][:-1, :-1] = dx + dy
        maps["smd2"][:-1, :-1] = dx * dy
    if h >= 3 and w >= 3:
        gx, gy = _sobel(g)
        maps["tenengrad"][1:-1, 1:-1] = gx * gx + gy * gy
        c = g[1:-1, 1:-1]
        maps["laplacian"][1:-1, 1:-1] = (
            np.abs(g[1:-1, 2:] + g[1:-1, :-2] - 2 * c) +
            np.abs(g[2:, 1:-1] + g[:-2, 1:-1] - 2 * c))
        window = np.stack([g[dy:h - 2 + dy, dx:w - 2 + dx]
                           for dy in range(3) for dx in range(3)])
        maps["maxmin"][1:-1, 1:-1] = window.max(axis=0) - window.min(axis=0)
    return maps


def tile_sums(gray, cols, rows):
    """{metric: [per-tile sums, row-major]} in the form of sums()."""
    g8 = _as_gray(gray)
    g = g8.astype(np.int64)
    h, w = g.shape
    xb, yb = tile_bounds(w, cols), tile_bounds(h, rows)
    maps = term_maps(g8)
    out = {m: [] for m in TILE_METRICS}
    for r in range(rows):
        for c in range(cols):
            sl = (slice(yb[r], yb[r + 1]), slice(xb[c], xb[c + 1]))
            t = g[sl]
            out["variance"].append((_total(t), _total(t * t)))
            out["entropy"].append(
                [int(k) for k in np.bincount(g8[sl].ravel(), minlength=256)])
            for m in TILE_GRADIENT_METRICS:
                out[m].append(_total(maps[m][sl]))
    return out


def tile_scores(gray, cols, rows):
    """{metric: [per-tile scores, row-major]}: each tile's sums over its
    own pixel count."""
    g = _as_gray(gray)
    h, w = g.shape
    xb, yb = tile_bounds(w, cols), tile_bounds(h, rows)
    s = tile_sums(g, cols, rows)
    out = {}
    for m in TILE_METRICS:
        out[m] = [score_from_sums(m, s[m][r * cols + c],
                                  (xb[c + 1] - xb[c]) * (yb[r + 1] - yb[r]))
                  for r in range(rows) for c in range(cols)]
    return out
