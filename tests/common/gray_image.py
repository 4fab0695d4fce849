#!/usr/bin/python3
# The gray image every metric reads (docs/reference/metrics.md, "Gray image"), written
# from the specification: plane-0 sample formats and their 8-bit gray.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import numpy as np

# Luma/gray plane of 8-bit samples.
Y8_FORMATS = ("GRAY8", "I420", "YV12", "NV12", "NV21", "Y41B", "Y42B",
              "Y444")
# 16-bit little-endian containers: (significant bits, bit position).
Y16_FORMATS = {"GRAY16_LE": (16, 0), "I420_10LE": (10, 0),
               "P010_10LE": (10, 6)}
# Packed 8-bit RGB: the name spells the byte order; x and A are ignored.
RGB_FORMATS = ("RGB", "BGR", "RGBx", "BGRx", "xRGB", "xBGR", "RGBA",
               "BGRA", "ARGB", "ABGR")


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


def gray(fmt, samples):
    """The gray image of plane-0 @samples of @fmt: uint8 (H, W) for Y8
    formats, raw uint16 (H, W) for Y16 formats, uint8 (H, W, 3) RGB."""
    if fmt in Y8_FORMATS:
        return np.asarray(samples, dtype=np.uint8)
    if fmt in Y16_FORMATS:
        depth, shift = Y16_FORMATS[fmt]
        return gray_from_y16(samples, depth, shift)
    if fmt in RGB_FORMATS:
        return gray_from_rgb(samples[:, :, 0], samples[:, :, 1],
                             samples[:, :, 2])
    raise ValueError("unsupported format %s" % fmt)
