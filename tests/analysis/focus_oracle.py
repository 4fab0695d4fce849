#!/usr/bin/python3
# A numpy oracle of the element's focus tiles (analysis/sharpness-focus.h):
# blur-effect's sums on the 64 x 64 tiles of a frame and the frame's focus
# value, the lowest blur-effect of its textured tiles, which gates the blur
# verdict's absolute test (a frame over blur-effect's absolute level stays
# blurry only when no textured part of it is sharp).
#
# Written from that definition on top of classical_oracle's slow integer
# maps (_int_filter, _int_sobel: scipy's whole-frame filters with 'reflect'
# borders, the way skimage.measure.blur_effect filters), not from the C
# nor from a fast path, so that the tool, the element and
# tests/detection/explore_tiles.py can all be checked against it:
#   - g: the frame's 8-bit gray image, W x H;
#   - per axis, at every pixel: sharp = 11 |S(g)|, lost = max (0, sharp -
#     |S(U(g))|) with S Sobel's derivative along the axis and U the 11-tap
#     sum along it (classical_oracle._sums_blur_effect's maps), counted at
#     the interior pixels 2 <= x <= W - 2, 2 <= y <= H - 2 only (the
#     interior _sums_blur_effect sums, where the frame's border reflection
#     reaches no Sobel window);
#   - tile (i, j): x in [2 + 64 i, 2 + 64 i + 63], y in [2 + 64 j, 2 + 64 j
#     + 63], complete tiles only: floor ((W - 3) / 64) x floor ((H - 3) /
#     64), row-major;
#   - its 4 sums: M1 and M2 of axis 0, M1 and M2 of axis 1;
#   - textured: M1 (axis 0) + M1 (axis 1) >= FLOOR * 4096 (a mean Sobel
#     variation of FLOOR a pixel over both axes);
#   - its blur: classical_oracle.score_from_sums ('blur-effect', sums,
#     4096);
#   - the focus value: the lowest blur of the textured tiles, 1.0 when no
#     tile is textured or there is no tile (nothing in the frame is sharp).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'oracle'))
import classical_oracle as co  # noqa: E402

TILE = 64
# The interior's first pixel on each axis, and its width W - 3.
ORIGIN = 2
FLOOR = 500


def tile_counts(width, height):
    """(tiles_x, tiles_y): the complete tiles of a @width x @height
    frame's interior."""
    return (max(0, (width - 3) // TILE), max(0, (height - 3) // TILE))


def _maps(g):
    """[sharp, lost] of axis 0 then of axis 1, whole-frame int64 maps,
    exactly as classical_oracle._sums_blur_effect makes them before it
    slices the interior."""
    out = []
    for axis in (0, 1):
        box = co._int_filter(g, np.ones(co.BLUR_EFFECT_H, dtype=np.int64),
                             axis)
        sharp = co.BLUR_EFFECT_H * np.abs(co._int_sobel(g, axis))
        lost = np.maximum(0, sharp - np.abs(co._int_sobel(box, axis)))
        out += [sharp, lost]
    return out


def tiles(gray):
    """The int64 array (tiles_y, tiles_x, 4) of the uint8 image @gray: per
    tile, M1 and M2 of axis 0, M1 and M2 of axis 1."""
    g8 = co._as_gray(gray)
    h, w = g8.shape
    tx, ty = tile_counts(w, h)
    out = np.zeros((ty, tx, 4), dtype=np.int64)
    if tx == 0 or ty == 0:
        return out
    maps = _maps(g8.astype(np.int64))
    for j in range(ty):
        y0 = ORIGIN + TILE * j
        for i in range(tx):
            x0 = ORIGIN + TILE * i
            for k, m in enumerate(maps):
                # A term is at most 11 x 4 x 255 and a tile has 4096:
                # int64 holds the sum with 40 bits to spare.
                out[j, i, k] = np.sum(m[y0:y0 + TILE, x0:x0 + TILE],
                                      dtype=np.int64)
    return out


def textured(sums, floor=FLOOR):
    """Whether a tile of 4 sums @sums is textured at @floor."""
    return int(sums[0]) + int(sums[2]) >= floor * TILE * TILE


def tile_blur(sums):
    """blur-effect of one tile's 4 sums, the correctly rounded double of
    the exact ratio (classical_oracle's Fractions)."""
    return co.score_from_sums('blur-effect', [int(v) for v in sums],
                              TILE * TILE)


def focus(tile_sums, floor=FLOOR):
    """The frame's focus value from its tiles (the array of tiles()): the
    lowest blur of its textured tiles, 1.0 when none is textured.  Each
    blur is the correctly rounded double of its exact ratio, so the
    minimum of the doubles is the double of the exact minimum (rounding
    keeps order)."""
    t = np.asarray(tile_sums).reshape(-1, 4)
    blurs = [tile_blur(s) for s in t if textured(s, floor)]
    return min(blurs) if blurs else 1.0
