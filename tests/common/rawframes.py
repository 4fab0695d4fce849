#!/usr/bin/python3
# Raw video frames for rawvideoparse: GStreamer's default plane layout
# (optionally with wider rows), the sample data in plane 0 and random bytes
# everywhere a metric must not look (chroma planes, row padding, x/alpha).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

from dataclasses import dataclass

import numpy as np

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import GstVideo  # noqa: E402

# The format tables and gray(fmt, samples), the oracle's gray image of
# plane-0 samples, live in gray_image.py (no GStreamer needed there).
from gray_image import (RGB_FORMATS, Y16_FORMATS, Y8_FORMATS,  # noqa: E402,F401
                        gray)


@dataclass
class RawFile:
    """A file of @n_frames frames and how rawvideoparse must read it."""
    path: str
    format: str
    width: int
    height: int
    strides: list
    offsets: list
    frame_size: int
    n_frames: int


def _layout(fmt, width, height, pad):
    """Strides, offsets and size of GStreamer's default layout of @fmt with
    every row widened by @pad bytes (same number of rows per plane)."""
    info = GstVideo.VideoInfo.new()
    if not info.set_format(GstVideo.VideoFormat.from_string(fmt), width,
                           height):
        raise ValueError("bad video format %s %dx%d" % (fmt, width, height))
    n = info.finfo.n_planes
    ends = list(info.offset[1:n]) + [info.size]
    rows = [(ends[i] - info.offset[i]) // info.stride[i] for i in range(n)]
    strides = [info.stride[i] + pad for i in range(n)]
    offsets = []
    size = 0
    for i in range(n):
        offsets.append(size)
        size += strides[i] * rows[i]
    return strides, offsets, size


def plane0_bytes(fmt, samples):
    """Rows of plane 0 as a (H, row bytes) uint8 array.  @samples: uint8
    (H, W) for Y8 formats, raw uint16 (H, W) for Y16 formats, uint8
    (H, W, 3) RGB for RGB formats (x/alpha get random bytes)."""
    if fmt in Y8_FORMATS:
        rows = np.ascontiguousarray(samples, dtype=np.uint8)
    elif fmt in Y16_FORMATS:
        rows = np.ascontiguousarray(samples, dtype="<u2").view(np.uint8)
    elif fmt in RGB_FORMATS:
        h, w, _ = samples.shape
        rng = np.random.default_rng(len(fmt) * 7919 + w * h)
        px = rng.integers(0, 256, size=(h, w, len(fmt)), dtype=np.uint8)
        for comp, channel in (("R", 0), ("G", 1), ("B", 2)):
            px[:, :, fmt.index(comp)] = samples[:, :, channel]
        rows = px
    else:
        raise ValueError("unsupported format %s" % fmt)
    return rows.reshape(rows.shape[0], -1)


def write(path, fmt, frames, pad=0, seed=0):
    """Writes @frames (plane-0 samples, all the same size) as raw @fmt to
    @path; everything but the pixels of plane 0 is random."""
    height, width = frames[0].shape[:2]
    strides, offsets, size = _layout(fmt, width, height, pad)
    rng = np.random.default_rng(seed)
    with open(path, "wb") as f:
        for samples in frames:
            if samples.shape[:2] != (height, width):
                raise ValueError("frames differ in size")
            buf = rng.integers(0, 256, size=size, dtype=np.uint8)
            rows = plane0_bytes(fmt, samples)
            plane0 = buf[offsets[0]:offsets[0] + strides[0] * height]
            plane0 = plane0.reshape(height, strides[0])
            plane0[:, :rows.shape[1]] = rows
            f.write(buf.tobytes())
    return RawFile(path, fmt, width, height, strides, offsets, size,
                   len(frames))
