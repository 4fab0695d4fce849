#!/usr/bin/python3
# A numpy oracle of the element's CPBD counts (analysis/sharpness-cpbd.h),
# written from that definition, not from the C: whole-image arrays where
# the C walks a block's rows.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import numpy as np

BLOCK = 64
LEVEL = 16
LOW_CONTRAST = 50
BLOCK_EDGES = 8
MAX_SIDE = 5


def counts(gray):
    """(edge pixels of the edge blocks, those with width <= w_JNB) of the
    uint8 image @gray, after sharpness-cpbd.h."""
    g = gray.astype(np.int64)
    h, w = g.shape
    # Columns replicated: Sx at x - 1 and x + 1 of the border pixels, and
    # the walks, which stop there on equal values.
    pad = MAX_SIDE + 1
    p = np.pad(g, ((0, 0), (pad, pad)), mode='edge')
    v = np.zeros_like(p)
    v[1:-1] = p[:-2] + 2 * p[1:-1] + p[2:]
    sx = np.zeros_like(p)
    sx[:, 1:-1] = v[:, 2:] - v[:, :-2]
    a = np.abs(sx)
    c = slice(pad, pad + w)
    here = a[:, c]
    left = a[:, pad - 1:pad - 1 + w]
    right = a[:, pad + 1:pad + 1 + w]
    gx = p[:, pad + 1:pad + 1 + w] - p[:, pad - 1:pad - 1 + w]
    gy = np.zeros_like(g)
    gy[1:-1] = g[2:] - g[:-2]
    ax, ay = np.abs(gx), np.abs(gy)
    edge = (here > LEVEL) & (here >= left) & (here > right) & \
        ((ax + ay) ** 2 < 2 * ax * ax)
    edge[0] = edge[-1] = False
    edge[:, 0] = edge[:, -1] = False

    def side(direction, rising):
        # 1 + the steps going on monotonically from x + direction.
        s = np.ones_like(g)
        going = np.ones(g.shape, bool)
        for k in range(1, MAX_SIDE):
            inner = p[:, pad + direction * k:pad + direction * k + w]
            outer = p[:, pad + direction * (k + 1):
                      pad + direction * (k + 1) + w]
            ok = np.where(rising, outer > inner, outer < inner)
            going &= ok
            s += going
        return s

    width = side(1, gx > 0) + side(-1, gx < 0)
    edges = sharp = 0
    for y0 in range(0, h - BLOCK + 1, BLOCK):
        for x0 in range(0, w - BLOCK + 1, BLOCK):
            b = np.s_[y0:y0 + BLOCK, x0:x0 + BLOCK]
            contrast = int(g[b].max() - g[b].min())
            jnb = 5 if contrast <= LOW_CONTRAST else 3
            e = edge[b]
            n = int(e.sum())
            if n > BLOCK_EDGES:
                edges += n
                sharp += int((e & (width[b] <= jnb)).sum())
    return edges, sharp
