#!/usr/bin/python3
# Independent numpy/scipy oracle for LPC-SI, the S3 total-variation map and
# CWTVNRS, written from docs/reference/metrics.md (and the MATLAB code it cites:
# lpc_si.m with Kovesi's filter construction, s3_map.m), not from the C.
# It follows the MATLAB formulations literally (meshgrid, ifftshift, atan2
# of the rotated angle, arg of each response, full sort, fliplr padding);
# the C backend takes shortcuts that are equal in exact arithmetic.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# CLI: lpc_oracle.py GRAY-FILE WIDTH HEIGHT [--maps DIR]
#   prints "lpc-si <score>" and "cwtvnrs <score>"; with --maps, writes the
#   maps as raw float64 files into DIR.

import argparse
import math
import os
import sys

import numpy as np
from scipy import ndimage

# lpc_si.m
SCALES = (1.0, 1.5, 2.0)
WEIGHTS = (1.0, -3.0, 2.0)
C = 2.0
BETA_K = 1e-4
N_ORIENT = 8
MIN_WAVELENGTH = 4.0
SIGMA_ON_F = 0.75
D_THETA_ON_SIGMA = 1.5

# CWTVNRS (seed paper)
ALPHA = 0.5
T = 0.1


def matlab_round(x):
    """MATLAB round: half away from zero (numpy rounds half to even)."""
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def border(shape):
    return matlab_round(min(shape) / 16.0)


def crop(a, b):
    h, w = a.shape
    return a[b:h - b, b:w - b]


def axis_range(n):
    """Kovesi's frequency range of an axis of n samples (before
    ifftshift).  n = 1 would be 0/0 in MATLAB: the one sample is DC."""
    if n == 1:
        return np.zeros(1)
    if n % 2:
        return np.arange(-(n - 1) / 2, (n - 1) / 2 + 1) / (n - 1)
    return np.arange(-n / 2, n / 2) / n


def log_gabor_bank(shape):
    """filters[s][o], each of @shape, in FFT layout (DC at [0, 0])."""
    rows, cols = shape
    x, y = np.meshgrid(axis_range(cols), axis_range(rows))
    radius = np.sqrt(x ** 2 + y ** 2)
    theta = np.arctan2(-y, x)
    # Kovesi's lowpassfilter builds its own (unmodified) radius.
    lp = np.fft.ifftshift(1.0 / (1.0 + (radius / 0.45) ** (2 * 15)))
    radius = np.fft.ifftshift(radius)
    theta = np.fft.ifftshift(theta)
    radius[0, 0] = 1.0
    sintheta, costheta = np.sin(theta), np.cos(theta)
    theta_sigma = math.pi / N_ORIENT / D_THETA_ON_SIGMA

    filters = [[None] * N_ORIENT for _ in SCALES]
    for o in range(N_ORIENT):
        angl = o * math.pi / N_ORIENT
        ds = sintheta * math.cos(angl) - costheta * math.sin(angl)
        dc = costheta * math.cos(angl) + sintheta * math.sin(angl)
        dtheta = np.abs(np.arctan2(ds, dc))
        spread = np.exp(-dtheta ** 2 / (2 * theta_sigma ** 2))
        for s, scale in enumerate(SCALES):
            fo = 1.0 / (MIN_WAVELENGTH * scale)
            log_gabor = np.exp(-np.log(radius / fo) ** 2 /
                               (2 * math.log(SIGMA_ON_F) ** 2))
            log_gabor = log_gabor * lp
            log_gabor[0, 0] = 0.0
            filters[s][o] = log_gabor * spread
    return filters


def lpc_map(img):
    """LPC map of @img (2-D float64, gray levels 0..255)."""
    img = np.asarray(img, dtype=np.float64)
    b = border(img.shape)
    spectrum = np.fft.fft2(img)
    filters = log_gabor_bank(img.shape)
    num = np.zeros(img.shape)
    den = np.zeros(img.shape)
    for o in range(N_ORIENT):
        eo = [np.fft.ifft2(spectrum * filters[s][o])
              for s in range(len(SCALES))]
        phase = sum(w * np.angle(m) for w, m in zip(WEIGHTS, eo))
        lpc = np.maximum(np.cos(phase), 0.0)
        energy = np.abs(eo[0])
        centre = crop(energy, b)
        std = np.std(centre, ddof=1) if centre.size > 1 else 0.0
        energy = np.maximum(energy - (np.mean(centre) + 2 * std), 0.0)
        num += lpc * energy
        den += energy
    return num / (den + C)


def lpc_si_pool(lpc):
    s = np.sort(crop(lpc, border(lpc.shape)).ravel())[::-1]
    k = s.size
    if k == 1:
        return float(s[0])
    u = np.exp(-(np.arange(k) / (k - 1)) / BETA_K)
    return float(np.sum(s * u) / np.sum(u))


def lpc_si(img):
    return lpc_si_pool(lpc_map(img))


def _spatial_map(img, pad_len):
    """s3_map.m's spatial_map(img, pad_len)."""
    blk = 8
    rows, cols = img.shape
    if min(rows, cols) > pad_len:
        # The reference, literally: fliplr/flipud of p leading and p + 1
        # trailing samples.
        p = np.hstack([img[:, :pad_len][:, ::-1], img,
                       img[:, cols - pad_len - 1:][:, ::-1]])
        p = np.vstack([p[:pad_len][::-1], p, p[rows - pad_len - 1:][::-1]])
    else:
        # Too small for the reference (it would index column 0): the same
        # symmetric extension, repeated.
        p = np.pad(img, ((pad_len, pad_len + 1), (pad_len, pad_len + 1)),
                   mode='symmetric')
    nr, nc = p.shape
    res = np.zeros((nr, nc))
    # for r = blk/2+1 : blk : nr-blk/2 (1-based block centres)
    for r in range(blk // 2 + 1, nr - blk // 2 + 1, blk):
        for c in range(blk // 2 + 1, nc - blk // 2 + 1, blk):
            g = p[r - blk // 2 - 1:r + blk // 2 - 1,
                  c - blk // 2 - 1:c + blk // 2 - 1]
            a, b_ = g[:-1, :-1], g[:-1, 1:]
            c_, d = g[1:, :-1], g[1:, 1:]
            tv = (np.abs(a - b_) + np.abs(a - c_) + np.abs(a - d) +
                  np.abs(d - c_) + np.abs(c_ - b_) + np.abs(d - b_)) / 255
            res[r - blk // 2 - 1:r + blk // 2 - 1,
                c - blk // 2 - 1:c + blk // 2 - 1] = tv.max() / 4
    return res[pad_len:nr - pad_len - 1, pad_len:nc - pad_len - 1]


def tv_map(img):
    img = np.asarray(img, dtype=np.float64)
    return np.maximum(_spatial_map(img, 8), _spatial_map(img, 4))


def gaussian_kernel():
    """fspecial('gaussian', 11, 1)."""
    x, y = np.meshgrid(np.arange(-5, 6), np.arange(-5, 6))
    h = np.exp(-(x ** 2 + y ** 2) / 2.0)
    h[h < np.finfo(float).eps * h.max()] = 0
    return h / h.sum()


def reblur(img):
    """imfilter(img, fspecial('gaussian', 11, 1)): correlation, zero
    padding, same size."""
    return ndimage.correlate(np.asarray(img, dtype=np.float64),
                             gaussian_kernel(), mode='constant', cval=0.0)


def cwtvnrs_maps(img):
    x = np.asarray(img, dtype=np.float64)
    y = reblur(x)
    return {'reblurred': y,
            'lpc': lpc_map(x), 'tv': tv_map(x),
            'lpc_reblurred': lpc_map(y), 'tv_reblurred': tv_map(y)}


def cwtvnrs_from_maps(m):
    b = border(m['lpc'].shape)
    s3x = crop(m['lpc'] ** ALPHA * m['tv'] ** (1 - ALPHA), b)
    s3y = crop(m['lpc_reblurred'] ** ALPHA * m['tv_reblurred'] ** (1 - ALPHA),
               b)
    sim = (2 * s3x * s3y + T) / (s3x ** 2 + s3y ** 2 + T)
    s3m = np.maximum(s3x, s3y)
    den = np.sum(s3m)
    return float(1 - np.sum(sim * s3m) / den) if den > 0 else 0.0


def cwtvnrs(img):
    return cwtvnrs_from_maps(cwtvnrs_maps(img))


def read_gray(path, width, height):
    data = np.fromfile(path, dtype=np.uint8)
    if data.size != width * height:
        raise ValueError('%s: %d bytes, not %dx%d' % (path, data.size, width,
                                                     height))
    return data.reshape(height, width)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('gray')
    ap.add_argument('width', type=int)
    ap.add_argument('height', type=int)
    ap.add_argument('--maps', help='directory for the float64 maps')
    args = ap.parse_args(argv)
    img = read_gray(args.gray, args.width, args.height)
    maps = cwtvnrs_maps(img)
    print('lpc-si %.17g' % lpc_si_pool(maps['lpc']))
    print('cwtvnrs %.17g' % cwtvnrs_from_maps(maps))
    if args.maps:
        os.makedirs(args.maps, exist_ok=True)
        for name, a in maps.items():
            a.astype(np.float64).tofile(os.path.join(args.maps,
                                                     name + '.f64'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
