#!/usr/bin/python3
# An independent numpy implementation of the full-reference metrics, written
# from the definitions (docs/reference/cudacompare.md): FFmpeg's psnr and ssim filters
# (vf_psnr.c, vf_ssim.c with its x86 SSE4 row summation as fixed after
# FFmpeg 5.1: the valid windows only), Wang's
# ssim.m (with its automatic downsampling) and msssim.m.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import math

import numpy as np
from scipy import ndimage

MS_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def plane_weights(planes):
    sizes = [p.shape[0] * p.shape[1] for p in planes]
    total = sum(sizes)
    return [float(s) / total for s in sizes]


# ---- PSNR (vf_psnr.c) ----------------------------------------------------

def psnr_db(mse_sum, n_frames, mx):
    if mse_sum == 0:
        return math.inf
    return 10.0 * math.log10((mx * mx) / (mse_sum / n_frames))


def psnr(ref, dist, depth):
    """{sse, mse, psnr, mse_avg, psnr_avg} of lists of planes."""
    mx = (1 << depth) - 1
    sse = [int(((d.astype(np.int64) - r.astype(np.int64)) ** 2).sum())
           for r, d in zip(ref, dist)]
    mse = [s / float(r.shape[0] * r.shape[1]) for s, r in zip(sse, ref)]
    w = plane_weights(ref)
    mse_avg = 0.0
    for m, wi in zip(mse, w):
        mse_avg += m * wi
    average_max = 0.0
    for wi in w:
        average_max += mx * wi
    average_max = int(np.rint(average_max))
    return dict(sse=sse, mse=mse, psnr=[psnr_db(m, 1, mx) for m in mse],
                mse_avg=mse_avg, psnr_avg=psnr_db(mse_avg, 1, average_max))


def psnr_line(n, p, comps="yuv"):
    s = "n:%d mse_avg:%0.2f " % (n, p["mse_avg"])
    s += "".join("mse_%s:%0.2f " % (c, m) for c, m in zip(comps, p["mse"]))
    s += "psnr_avg:%0.2f " % p["psnr_avg"]
    s += "".join("psnr_%s:%0.2f " % (c, v) for c, v in zip(comps, p["psnr"]))
    return s.replace("nan", "nan")


# ---- SSIM, FFmpeg mode (vf_ssim.c) ---------------------------------------

def _seq_sum(values, dtype):
    """Left-to-right sum (np.cumsum is sequential, np.sum is not)."""
    if len(values) == 0:
        return dtype(0)
    return np.cumsum(np.asarray(values, dtype=dtype), dtype=dtype)[-1]


def _sse4_row(row, n):
    """ff_ssim_end_line_sse4 over the first @n of @row (float32 window
    values, followed by the values past the row): lanes i % 4 in double;
    the last group is added whole, then the windows past the row are
    subtracted again from the lanes the fixed asm uses (n % 4 == 1: window
    n stays in lane 1 and comes off lane 0; FFmpeg 5.1 got this case
    wrong)."""
    groups = (n + 3) // 4
    lanes = [0.0, 0.0, 0.0, 0.0]
    for g in range(groups):
        for k in range(4):
            lanes[k] += float(row[4 * g + k])
    rest = n % 4
    x = [float(row[4 * (groups - 1) + k]) for k in range(4)]
    if rest == 3:
        lanes[2] -= x[3]
    elif rest == 2:
        lanes[2] -= x[2]
        lanes[3] -= x[3]
    elif rest == 1:
        lanes[0] -= x[1]
        lanes[2] -= x[2]
        lanes[3] -= x[3]
    return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])


def ssim_ffmpeg_plane(ref, dist, depth):
    h4, w4 = ref.shape[0] >> 2, ref.shape[1] >> 2
    if h4 < 2 or w4 < 2:
        return math.nan
    a = dist[:4 * h4, :4 * w4].astype(np.int64)
    b = ref[:4 * h4, :4 * w4].astype(np.int64)

    def blocks(x):
        return x.reshape(h4, 4, w4, 4).sum(axis=(1, 3))

    s1, s2 = blocks(a), blocks(b)
    ss, s12 = blocks(a * a + b * b), blocks(a * b)

    def win(x):
        # three zero blocks past the row: FFmpeg's SSE4 tail reads them
        # (adds, then subtracts the windows made of them again)
        x = np.pad(x, ((0, 0), (0, 3)))
        return x[:-1, :-1] + x[:-1, 1:] + x[1:, :-1] + x[1:, 1:]

    s1, s2, ss, s12 = win(s1), win(s2), win(ss), win(s12)
    if depth > 8:
        mx = (1 << depth) - 1
        c1 = int(.01 * .01 * mx * mx * 64 + .5)
        c2 = int(.03 * .03 * mx * mx * 64 * 63 + .5)
    else:
        c1, c2 = 416, 235963
    vars_ = ss * 64 - s1 * s1 - s2 * s2
    covar = s12 * 64 - s1 * s2
    f = np.float32
    num = (2 * s1 * s2 + c1).astype(f) * (2 * covar + c2).astype(f)
    den = (s1 * s1 + s2 * s2 + c1).astype(f) * (vars_ + c2).astype(f)
    val = num / den                   # float32, correctly rounded
    total = 0.0
    n = w4 - 1
    for row in val:
        if depth > 8:
            r = float(_seq_sum(row[:n], np.float32))
        else:
            r = _sse4_row(row, n)
        total += r
    return total / ((w4 - 1) * (h4 - 1))


def ssim_db(ssim, weight=1.0):
    if abs(weight - ssim) > 1e-9:
        return 10.0 * math.log10(weight / (weight - ssim))
    return math.inf


def ssim_ffmpeg(ref, dist, depth):
    vals = [ssim_ffmpeg_plane(r, d, depth) for r, d in zip(ref, dist)]
    al = 0.0
    for v, wi in zip(vals, plane_weights(ref)):
        al += wi * v
    return dict(ssim=vals, all=al, db=ssim_db(al))


def ssim_line(n, s, comps="YUV"):
    out = "n:%d " % n
    out += "".join("%s:%f " % (c, v) for c, v in zip(comps, s["ssim"]))
    return out + "All:%f (%f)" % (s["all"], s["db"])


# ---- Wang et al. 2004 (ssim.m) and msssim.m --------------------------------

def fspecial_gaussian(size=11, sigma=1.5):
    r = (size - 1) / 2.0
    y, x = np.mgrid[-r:r + 1, -r:r + 1]
    g = np.exp(-(x * x + y * y) / (2.0 * sigma * sigma))
    return g / g.sum()


def filter_valid(img, win):
    """filter2 (win, img, 'valid') (win is symmetric: correlation)."""
    k = win.shape[0]
    full = ndimage.correlate(img, win, mode="constant", cval=0.0)
    r = k // 2
    return full[r:img.shape[0] - r, r:img.shape[1] - r]


def ssim_index(img1, img2, L):
    """(mssim, mcs) of ssim_index_new in msssim.m, 'valid' region."""
    win = fspecial_gaussian()
    c1, c2 = (0.01 * L) ** 2, (0.03 * L) ** 2
    mu1, mu2 = filter_valid(img1, win), filter_valid(img2, win)
    s11 = filter_valid(img1 * img1, win) - mu1 * mu1
    s22 = filter_valid(img2 * img2, win) - mu2 * mu2
    s12 = filter_valid(img1 * img2, win) - mu1 * mu2
    cs = (2 * s12 + c2) / (s11 + s22 + c2)
    smap = ((2 * mu1 * mu2 + c1) * (2 * s12 + c2)) / \
        ((mu1 * mu1 + mu2 * mu2 + c1) * (s11 + s22 + c2))
    return float(smap.mean()), float(cs.mean())


def box_downsample(img, f):
    """imfilter (img, ones (f) / f^2, 'symmetric', 'same') (1:f:end, 1:f:end)."""
    lo = (f + 1) // 2 - 1
    hi = f - 1 - lo
    p = np.pad(img, ((lo, hi), (lo, hi)), mode="symmetric")
    h, w = img.shape
    acc = np.zeros_like(img)
    for a in range(f):
        for b in range(f):
            acc += p[a:a + h, b:b + w] / float(f * f)
    return acc[::f, ::f]


def downsample_factor(h, w):
    m = min(h, w)
    return max(1, int(math.floor(m / 256.0 + 0.5)))


def ssim_wang_plane(ref, dist, depth, downsample=False):
    x, y = ref.astype(np.float64), dist.astype(np.float64)
    if downsample:
        f = downsample_factor(*x.shape)
        if f > 1:
            x, y = box_downsample(x, f), box_downsample(y, f)
    return ssim_index(x, y, float((1 << depth) - 1))[0]


def ssim_wang(ref, dist, depth, downsample=False):
    vals = [ssim_wang_plane(r, d, depth, downsample) for r, d in zip(ref, dist)]
    al = 0.0
    for v, wi in zip(vals, plane_weights(ref)):
        al += wi * v
    return dict(ssim=vals, all=al)


def ms_ssim(ref, dist, depth):
    """msssim.m ('product') on one plane: (ms_ssim, [mssim], [mcs])."""
    x, y = ref.astype(np.float64), dist.astype(np.float64)
    L = float((1 << depth) - 1)
    ms, cs = [], []
    for lv in range(5):
        s, c = ssim_index(x, y, L)
        ms.append(s)
        cs.append(c)
        if lv < 4:
            x, y = box_downsample(x, 2), box_downsample(y, 2)
    val = 1.0
    for lv in range(4):
        val *= cs[lv] ** MS_WEIGHTS[lv] if cs[lv] >= 0 else math.nan
    val *= ms[4] ** MS_WEIGHTS[4] if ms[4] >= 0 else math.nan
    return val, ms, cs
