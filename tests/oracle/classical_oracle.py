#!/usr/bin/python3
# Independent numpy oracle for the eight classical sharpness metrics.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Written from the specification (docs/metrics.md, "Gray image" and
# "Classical focus measures"), not from the C code it checks.  Per-pixel
# terms are summed exactly as int64 arrays and Python ints; the final score
# is the correctly rounded double of the exact rational value (fractions),
# so any difference to the element beyond the last bit of its own final
# division is a real disagreement.

import math
from fractions import Fraction

import numpy as np

METRICS = ("variance", "roberts", "tenengrad", "laplacian", "smd", "smd2",
           "maxmin", "entropy")

# Gradient metrics: these must fall as an image is blurred.
GRADIENT_METRICS = ("roberts", "tenengrad", "laplacian", "smd", "smd2",
                    "maxmin")


# --- Gray image ------------------------------------------------------------

def gray_from_rgb(r, g, b):
    """Fixed-point BT.601 luma (77 R + 150 G + 29 B + 128) >> 8, as uint8."""
    r, g, b = (np.asarray(c, dtype=np.int64) for c in (r, g, b))
    return ((77 * r + 150 * g + 29 * b + 128) >> 8).astype(np.uint8)


def gray_from_y16(raw, depth, shift=0):
    """Round 16-bit container samples holding @depth significant bits at bit
    @shift to 8 bits: min(255, (v + (1 << (s-1))) >> s), s = depth - 8."""
    v = np.asarray(raw, dtype=np.int64) >> shift
    s = depth - 8
    if s > 0:
        v = (v + (1 << (s - 1))) >> s
    return np.minimum(v, 255).astype(np.uint8)


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


def _as_gray(gray):
    g = np.asarray(gray)
    if g.dtype != np.uint8 or g.ndim != 2:
        raise ValueError("expected a 2-D uint8 gray image, got %s %s"
                         % (g.dtype, g.shape))
    return g


def sums(gray):
    """Exact integer sums per metric: ints, except variance (S1, S2) and
    entropy (the 256-bin histogram as a list of ints)."""
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
    return float(Fraction(s, n))


def score(metric, gray):
    g = _as_gray(gray)
    return score_from_sums(metric, sums(g)[metric], g.size)


def scores(gray):
    """{metric: score} for all eight metrics of one gray image."""
    g = _as_gray(gray)
    s = sums(g)
    return {m: score_from_sums(m, s[m], g.size) for m in METRICS}


def rel_diff(a, b):
    """|a - b| relative to the larger magnitude; 0 when both are 0."""
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0.0 else abs(a - b) / scale
