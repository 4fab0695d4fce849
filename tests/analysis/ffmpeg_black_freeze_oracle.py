#!/usr/bin/python3
# An independent numpy oracle of FFmpeg's blackdetect and freezedetect
# filters, written from FFmpeg's C code (libavfilter/vf_blackdetect.c,
# vf_freezedetect.c, scene_sad.c; libavutil/imgutils.c, pixdesc.c,
# timestamp.[ch], eval.c; FFmpeg 5.1 and 7.1), not from this project's C
# library: it reads FFmpeg's rawvideo files itself, describes the pixel
# formats as pixdesc.c does and derives the compared plane sizes with
# imgutils.c's arithmetic.  All times are in time-base ticks, as in FFmpeg.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

# ---- Pixel formats (pixdesc.c) ---------------------------------------------
# name: (log2_chroma_w, log2_chroma_h, [(plane, step, offset, depth)...])
# step and offset in bytes; every format here is little-endian.


def _planar(cw, ch, nb, depth, alpha=False):
    step = 1 if depth <= 8 else 2
    comps = [(p, step, 0, depth) for p in range(nb)]
    if alpha:
        comps.append((3, step, 0, depth))
    return (cw, ch, comps)


PIX_FMTS = {
    "gray": (0, 0, [(0, 1, 0, 8)]),
    "gray10le": (0, 0, [(0, 2, 0, 10)]),
    "gray16le": (0, 0, [(0, 2, 0, 16)]),
    "yuv420p": _planar(1, 1, 3, 8),
    "yuvj420p": _planar(1, 1, 3, 8),
    "yuv422p": _planar(1, 0, 3, 8),
    "yuvj422p": _planar(1, 0, 3, 8),
    "yuv444p": _planar(0, 0, 3, 8),
    "yuvj444p": _planar(0, 0, 3, 8),
    "yuv410p": _planar(2, 2, 3, 8),
    "yuv420p10le": _planar(1, 1, 3, 10),
    "yuv422p10le": _planar(1, 0, 3, 10),
    "yuv444p10le": _planar(0, 0, 3, 10),
    "yuva420p": _planar(1, 1, 3, 8, alpha=True),
    "nv12": (1, 1, [(0, 1, 0, 8), (1, 2, 0, 8), (1, 2, 1, 8)]),
    "nv21": (1, 1, [(0, 1, 0, 8), (1, 2, 1, 8), (1, 2, 0, 8)]),
    "uyvy422": (1, 0, [(0, 2, 1, 8), (0, 4, 0, 8), (0, 4, 2, 8)]),
    "yuyv422": (1, 0, [(0, 2, 0, 8), (0, 4, 1, 8), (0, 4, 3, 8)]),
}

YUVJ = ("yuvj411p", "yuvj420p", "yuvj422p", "yuvj440p", "yuvj444p")


def depth_of(fmt):
    return PIX_FMTS[fmt][2][0][3]


def linesize(fmt, width, plane):
    """av_image_get_linesize: bytes of one row of @plane."""
    cw, _, comps = PIX_FMTS[fmt]
    max_step, max_comp = [0] * 4, [0] * 4
    for i, (p, step, _, _) in enumerate(comps):
        if step > max_step[p]:
            max_step[p] = step
            max_comp[p] = i
    s = cw if max_comp[plane] in (1, 2) else 0
    return max_step[plane] * ((width + (1 << s) - 1) >> s)


def n_planes(fmt):
    return 1 + max(c[0] for c in PIX_FMTS[fmt][2])


def raw_planes(fmt, width, height):
    """FFmpeg's rawvideo frame layout (av_image_fill_arrays, align 1):
    [(offset, linesize, rows)] per plane; chroma rows rounded up."""
    _, ch, _ = PIX_FMTS[fmt]
    out, off = [], 0
    for p in range(n_planes(fmt)):
        ls = linesize(fmt, width, p)
        rows = -((-height) >> ch) if p in (1, 2) else height
        out.append((off, ls, rows))
        off += ls * rows
    return out, off


def read_raw(path, fmt, width, height):
    """The frames of a rawvideo file: a list of per-frame plane lists, each
    plane a 2-D array of samples (uint8, or uint16 for 16-bit storage) of
    linesize / bytes-per-sample columns."""
    planes, size = raw_planes(fmt, width, height)
    data = np.fromfile(path, dtype=np.uint8)
    if data.size % size:
        raise ValueError("%s: %d bytes is not a whole number of %d-byte "
                         "frames" % (path, data.size, size))
    wide = depth_of(fmt) > 8
    frames = []
    for i in range(data.size // size):
        f = data[i * size:(i + 1) * size]
        pl = []
        for off, ls, rows in planes:
            a = f[off:off + ls * rows].reshape(rows, ls)
            if wide:
                a = a.view("<u2")
            pl.append(a)
        frames.append(pl)
    return frames


def luma(fmt, planes, width, height):
    """Component 0 of the frame as a (height, width) array of values."""
    _, _, comps = PIX_FMTS[fmt]
    p, step, off, depth = comps[0]
    a = planes[p]
    if depth > 8:
        return a[:height, :width]
    return a[:height, off:off + step * width:step]


def read_v210(path, width, height):
    """The frames of a raw v210 file as yuv422p10 planes [Y, U, V] (what
    FFmpeg's v210 decoder hands to the filters).  A row is (w + 47) / 48 *
    128 bytes; each 16 bytes are four little-endian 32-bit words of three
    10-bit fields (bits 0, 10, 20) holding 6 pixels:
    Cb0 Y0 Cr0 | Y1 Cb1 Y2 | Cr1 Y3 Cb2 | Y4 Cr2 Y5."""
    stride = (width + 47) // 48 * 128
    words = stride // 4
    data = np.fromfile(path, dtype="<u4")
    n = data.size // (words * height)
    cw = (width + 1) // 2
    out = []
    for i in range(n):
        w = data[i * words * height:(i + 1) * words * height].reshape(
            height, words // 4, 4)
        f0, f1, f2 = (lambda v: v & 1023, lambda v: (v >> 10) & 1023,
                      lambda v: (v >> 20) & 1023)
        y = np.stack([f1(w[..., 0]), f0(w[..., 1]), f2(w[..., 1]),
                      f1(w[..., 2]), f0(w[..., 3]), f2(w[..., 3])], axis=2)
        u = np.stack([f0(w[..., 0]), f1(w[..., 1]), f2(w[..., 2])], axis=2)
        v = np.stack([f2(w[..., 0]), f0(w[..., 2]), f1(w[..., 3])], axis=2)
        out.append([y.reshape(height, -1)[:, :width].astype(np.uint16),
                    u.reshape(height, -1)[:, :cw].astype(np.uint16),
                    v.reshape(height, -1)[:, :cw].astype(np.uint16)])
    return out


# ---- blackdetect -------------------------------------------------------------

def pixel_black_th_i(pixel_black_th, depth, full):
    """filter_frame (7.1) / config_input (5.1): computed in double, stored
    in an unsigned int (truncation).  Python floats are IEEE doubles and
    evaluate left to right as C does here."""
    mx = (1 << depth) - 1
    factor = 1 << (depth - 8)
    if full:
        v = pixel_black_th * mx
    else:
        v = 16 * factor + pixel_black_th * (235 - 16) * factor
    return int(v)


def full_range(version, fmt, frame_range):
    """5.1: ff_fmt_is_in (inlink->format, yuvj_formats) only.  7.1:
    picref->color_range == AVCOL_RANGE_JPEG || yuvj format, where
    buffersrc.c gives a frame with no range (@frame_range None) the range
    of its link, which avfiltergraph.c's pick_format makes JPEG for the
    formats that are not "regular YUV" (fewer than 3 components: gray).
    @frame_range: None, 'tv' or 'pc'."""
    yuvj = fmt in YUVJ
    if version is not None and version < (7, 0):
        return yuvj
    if frame_range is None:
        frame_range = 'pc' if len(PIX_FMTS[fmt][2]) < 3 else 'tv'
    return frame_range == 'pc' or yuvj


def black_count(y, th):
    return int(np.count_nonzero(y <= th))


@dataclass
class BlackEvents:
    # lavfi.black_start metadata: (frame, pts); lavfi.black_end: (frame, pts)
    meta_start: list = field(default_factory=list)
    meta_end: list = field(default_factory=list)
    # the log line: (start pts, end pts) in ticks, at EOF included
    intervals: list = field(default_factory=list)
    black: list = field(default_factory=list)    # per frame


def blackdetect(counts, pixels, pts, pic_th, d_seconds, tb):
    """The state machine of filter_frame and uninit.  @pts in ticks of
    @tb (a Fraction)."""
    min_ticks = int(d_seconds / (tb.numerator / tb.denominator))
    ev = BlackEvents()
    started = False
    start = last = None
    for i, (c, p) in enumerate(zip(counts, pts)):
        ratio = float(c) / float(pixels)
        is_black = ratio >= pic_th
        ev.black.append(is_black)
        if is_black:
            if not started:
                started, start = True, p
                ev.meta_start.append((i, p))
        elif started:
            started = False
            ev.meta_end.append((i, p))
            if p - start >= min_ticks:
                ev.intervals.append((start, p))
        last = p
    # uninit: black_end = last_picref_pts (the FIXME: not + duration)
    if started and last - start >= min_ticks:
        ev.intervals.append((start, last))
    return ev


# ---- freezedetect ------------------------------------------------------------

def compared_geometry(fmt, width, height):
    """config_input: width[p] = linesize >> (depth > 8), height[p] = h >>
    log2_chroma_h for planes 1, 2; planes of width 0 skipped."""
    _, ch, _ = PIX_FMTS[fmt]
    depth = depth_of(fmt)
    geo = []
    for p in range(4):
        w = linesize(fmt, width, p) if p < n_planes(fmt) else 0
        w >>= 1 if depth > 8 else 0
        h = height >> ch if p in (1, 2) else height
        if w:
            geo.append((p, w, h))
    return geo


def sad(frame, ref, geo):
    """ff_scene_sad_c / ff_scene_sad16_c summed over the planes."""
    total = 0
    for p, w, h in geo:
        a = frame[p][:h, :w].astype(np.int64)
        b = ref[p][:h, :w].astype(np.int64)
        total += int(np.abs(a - b).sum())
    return total


def mafd(s, count, depth):
    return float(s) / float(count) / float(1 << depth)


def rescale_q(a, bq, cq):
    """av_rescale_q, AV_ROUND_NEAR_INF, for a >= 0."""
    b = bq.numerator * cq.denominator
    c = cq.numerator * bq.denominator
    return (a * b + c // 2) // c


M_LOG2_10 = 3.32192809488736234787


def noise_from_text(text):
    """av_strtod's dB suffix: ff_exp10 (d / 20) = exp2 (M_LOG2_10 * x)."""
    if text.endswith("dB"):
        return math.exp2(M_LOG2_10 * (float(text[:-2]) / 20))
    return float(text)


@dataclass
class FreezeEvents:
    # per frame: (frame, {key: value}) with key start/duration/end;
    # start, end in ticks, duration in microseconds
    meta: list = field(default_factory=list)
    sad: list = field(default_factory=list)     # per frame, None first
    mafd: list = field(default_factory=list)
    frozen: list = field(default_factory=list)


def freezedetect(frames, geo, depth, pts, tb, noise, d_us, frame_rate=None):
    """activate(): the reference, frozen test and metadata."""
    ev = FreezeEvents()
    count = sum(w * h for _, w, h in geo)
    ref = ref_pts = None
    ref_n = 0
    s_frozen = False
    us = Fraction(1, 1000000)
    for i, (f, p) in enumerate(zip(frames, pts)):
        n = i + 1
        frozen = False
        if ref is not None:
            if p < ref_pts:
                duration = (rescale_q(n - ref_n, 1 / frame_rate, us)
                            if frame_rate else 0)
            else:
                duration = rescale_q(p - ref_pts, tb, us)
            s = sad(f, ref, geo)
            m = mafd(s, count, depth)
            frozen = m <= noise
            ev.sad.append(s)
            ev.mafd.append(m)
            meta = {}
            if duration >= d_us:
                if not s_frozen:
                    meta["freeze_start"] = ref_pts
                if not frozen:
                    meta["freeze_duration"] = duration
                    meta["freeze_end"] = p
                s_frozen = frozen
            if meta:
                ev.meta.append((i, meta))
        else:
            ev.sad.append(None)
            ev.mafd.append(None)
        ev.frozen.append(frozen)
        if not frozen:
            ref, ref_pts, ref_n = f, p, n
    return ev


# ---- Timestamps as FFmpeg prints them (av_ts2timestr) -----------------------

def ts2timestr(ts, tb, version):
    """5.1: "%.6g" of av_q2d (tb) * ts; 7.1: av_ts_make_time_string2, "%.*f"
    with 6 decimals (more below 1 s) and the trailing zeros cut."""
    val = (tb.numerator / tb.denominator) * float(ts)
    if version is not None and version < (7, 0):
        return "%.6g" % val
    if val == 0:
        log = -math.inf
    else:
        log = math.floor(math.log10(abs(val)))
    precision = int(-log + 5) if (math.isfinite(log) and log < 0) else 6
    s = "%.*f" % (precision, val)
    last = len(s) - 1
    while last and s[last] == "0":
        last -= 1
    while last and s[last] != "f" and (s[last] < "0" or s[0] > "9"):
        last -= 1
    return s[:last + 1]
