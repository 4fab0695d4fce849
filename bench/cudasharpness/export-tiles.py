#!/usr/bin/python3
# Natural picture tiles for bench-sharpness: every 256x256 block that fits
# in scikit-image's bundled photographs, as 8-bit I420 (BT.601 luma by the
# element's fixed-point rule, Cb/Cr averaged over 2x2).  The benchmark tiles
# them into frames of any size at their native scale, so large frames keep
# the fine detail of photographs instead of being smooth upscales.
#
#   export-tiles.py OUTPUT
#
# OUTPUT: the line "sharpness-tiles <size> <count>\n", then <count> tiles
# of Y (size*size bytes), Cb and Cr (size*size/4 bytes each).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
import warnings

import numpy as np

# tests/common: the element's gray (luma) rule.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'tests', 'common'))
from gray_image import gray_from_rgb  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from skimage import data  # noqa: E402

SIZE = 256
# Photographs shipped with scikit-image (no download needed).
NAMES = ("astronaut", "coffee", "chelsea", "rocket", "immunohistochemistry",
         "camera", "brick", "grass", "gravel", "moon", "coins", "clock")


def planes(img):
    """Y, Cb, Cr (uint8) of a gray or RGB uint8 image."""
    if img.ndim == 2:
        chroma = np.full(img.shape, 128.0)
        return img, chroma, chroma
    r, g, b = (img[:, :, i].astype(np.int64) for i in range(3))
    y = gray_from_rgb(r, g, b)
    cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b
    cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b
    return y, cb, cr


def subsample(c):
    c = c[: c.shape[0] // 2 * 2, : c.shape[1] // 2 * 2]
    c = (c[0::2, 0::2] + c[1::2, 0::2] + c[0::2, 1::2] + c[1::2, 1::2]) / 4
    return np.clip(np.rint(c), 0, 255).astype(np.uint8)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tiles = []
    for name in NAMES:
        img = getattr(data, name)()
        if img.ndim == 3:
            img = img[:, :, :3]
        y, cb, cr = planes(img)
        for ty in range(y.shape[0] // SIZE):
            for tx in range(y.shape[1] // SIZE):
                win = np.s_[ty * SIZE:(ty + 1) * SIZE, tx * SIZE:(tx + 1) * SIZE]
                tiles.append(np.ascontiguousarray(y[win]).tobytes() +
                             subsample(cb[win]).tobytes() +
                             subsample(cr[win]).tobytes())
    with open(sys.argv[1], "wb") as f:
        f.write(b"sharpness-tiles %d %d\n" % (SIZE, len(tiles)))
        for t in tiles:
            f.write(t)


if __name__ == "__main__":
    main()
