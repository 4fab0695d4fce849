#!/usr/bin/python3
# BLIINDS-II oracle: an independent numpy/scipy implementation of the metric
# as specified (docs/reference/metrics-bliinds2.md, Saad-Bovik-Charrier 2012 reference
# `bliinds2_feature_extraction.m` / `bliinds_prediction.m`), written from the
# spec only, to check the C backend against.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage:
#   bliinds2_oracle.py features GRAY.raw WIDTH HEIGHT [--model model-live.txt]
#       prints the 24 features then the predicted DMOS, one per line
#   bliinds2_oracle.py csv FEATURES.csv [--model model-live.txt]
#       prints the prediction of every row's 24 features, one per line

import argparse
import math
import os
import sys

import numpy as np
from scipy import fft, ndimage, special

N_FEATURES = 24
EPS_SHAPE = 1e-7        # zeta, gamma and orientation denominators
EPS_ENERGY = 1e-8       # subband energy ratios

# Shape parameter grid 0.03:0.001:10 as exact decimals, and the generalized
# Gaussian ratio r(g) = G(1/g) G(3/g) / G(2/g)^2 in double, as MATLAB's
# gamma().
GAMMA_GRID = (30 + np.arange(9971)) / 1000.0
GAMMA_RATIO = (special.gamma(1 / GAMMA_GRID) * special.gamma(3 / GAMMA_GRID)
               / special.gamma(2 / GAMMA_GRID) ** 2)
GAMMA_NOT_FOUND = 11.0

# DCT coefficient positions, 1-based (row, col) as in the spec.
ORIENT_1 = [(1, 2), (1, 3), (1, 4), (1, 5), (2, 3), (2, 4), (2, 5), (3, 5)]
ORIENT_2 = [(2, 2), (3, 3), (3, 4), (4, 3), (4, 4), (4, 5), (5, 4), (5, 5)]
ORIENT_3 = [(c, r) for (r, c) in ORIENT_1]
BAND_1 = [(1, 2), (2, 1), (1, 3), (3, 1), (2, 2)]
BAND_2 = [(4, 1), (5, 1), (3, 2), (4, 2), (5, 2), (2, 3), (3, 3), (4, 3),
          (1, 4), (2, 4), (3, 4), (1, 5), (2, 5)]
BAND_3 = [(3, 5), (4, 4), (5, 3), (4, 5), (5, 4), (5, 5)]

DEFAULT_MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             'data', 'model-live.txt')


def block_dcts(img):
    """blkproc(I, [3 3], [1 1], @dct2): 5x5 windows at stride 3 over the
    image zero-padded to a multiple of 3 plus a 1-pixel zero border.
    Returns (ceil(H/3), ceil(W/3), 5, 5) orthonormal DCT-II blocks."""
    h, w = img.shape
    bh, bw = -(-h // 3), -(-w // 3)
    padded = np.zeros((3 * bh + 2, 3 * bw + 2))
    padded[1:h + 1, 1:w + 1] = img
    win = np.lib.stride_tricks.sliding_window_view(padded, (5, 5))[::3, ::3]
    assert win.shape[:2] == (bh, bw)
    coef = dct5(dct5(win, axis=3), axis=2)
    # The parity form is the orthonormal DCT-II: scipy's agrees to rounding.
    assert np.allclose(coef, fft.dctn(win, type=2, norm='ortho', axes=(2, 3)),
                       rtol=0, atol=1e-9)
    return coef


def dct5(x, axis):
    """Orthonormal 5-point DCT-II along @axis in the spec's parity form:
    odd outputs from x[n] - x[4-n], even ones (but the DC) from
    x[n] - x[2], so coefficients that vanish because a row/column is
    constant or mirror-symmetric are exact zeros, not rounding noise."""
    n = np.arange(5)
    c = np.array([np.sqrt((1 if k == 0 else 2) / 5)
                  * np.cos(np.pi * (2 * n + 1) * k / 10) for k in range(5)])
    x0, x1, x2, x3, x4 = np.moveaxis(x, axis, 0)
    odd0, odd1 = x0 - x4, x1 - x3
    even0, even1 = (x0 - x2) + (x4 - x2), (x1 - x2) + (x3 - x2)
    out = [c[0, 0] * (x0 + x1 + x2 + x3 + x4),
           c[1, 0] * odd0 + c[1, 1] * odd1,
           c[2, 0] * even0 + c[2, 1] * even1,
           c[3, 0] * odd0 + c[3, 1] * odd1,
           c[4, 0] * even0 + c[4, 1] * even1]
    return np.moveaxis(np.stack(out), 0, axis)


def pick(coef, positions):
    rows = [r - 1 for (r, _) in positions]
    cols = [c - 1 for (_, c) in positions]
    return coef[:, :, rows, cols]


def ac_coefficients(coef):
    """The 24 coefficients after (1,1), column-major (MATLAB's x(:))."""
    bh, bw = coef.shape[:2]
    return np.swapaxes(coef, 2, 3).reshape(bh, bw, 25)[:, :, 1:]


def cv_abs(x):
    """std(|x|) / (mean(|x|) + 1e-7) along the last axis, std with N-1."""
    a = np.abs(x)
    return a.std(axis=-1, ddof=1) / (a.mean(axis=-1) + EPS_SHAPE)


def gamma_lookup(rho):
    """First g(j) with r(j) >= rho > r(j+1), else 11."""
    assert np.all(np.diff(GAMMA_RATIO) < 0), 'r(g) must fall strictly'
    # r falls, so #{j : r(j) >= rho} - 1 is the only candidate j.
    count = np.searchsorted(-GAMMA_RATIO, -rho.ravel(), side='right')
    j = count - 1
    found = (count >= 1) & (count <= len(GAMMA_GRID) - 1)
    g = np.where(found, GAMMA_GRID[np.clip(j, 0, len(GAMMA_GRID) - 1)],
                 GAMMA_NOT_FOUND)
    return g.reshape(rho.shape)


def block_maps(img):
    """The four per-block maps: zeta, gamma, energy ratio, orientation."""
    coef = block_dcts(img)
    ac = ac_coefficients(coef)

    zeta = cv_abs(ac)

    mean = ac.mean(axis=-1, keepdims=True)
    var = ac.var(axis=-1, ddof=1)
    mean_abs_dev = np.abs(ac - mean).mean(axis=-1)
    gamma = gamma_lookup(var / (mean_abs_dev ** 2 + EPS_SHAPE))

    v1 = pick(coef, BAND_1).var(axis=-1, ddof=1)
    v2 = pick(coef, BAND_2).var(axis=-1, ddof=1)
    v3 = pick(coef, BAND_3).var(axis=-1, ddof=1)
    low = (v1 + v2) / 2
    r1 = np.abs(v3 - low) / (v3 + low + EPS_ENERGY)
    r2 = np.abs(v2 - v1) / (v3 + v1 + EPS_ENERGY)   # v3: the reference's quirk
    energy = (r1 + r2) / 2

    orient = np.stack([cv_abs(pick(coef, ORIENT_1)),
                       cv_abs(pick(coef, ORIENT_2)),
                       cv_abs(pick(coef, ORIENT_3))], axis=-1)
    orientation = orient.var(axis=-1, ddof=1)
    return zeta, gamma, energy, orientation


def pool(values, descending):
    """[mean of all, mean of the first ceil(n/10) after sorting]."""
    v = np.sort(values.ravel())
    if descending:
        v = v[::-1]
    return [v.mean(), v[:math.ceil(v.size / 10)].mean()]


def scale_features(img):
    zeta, gamma, energy, orientation = block_maps(img)
    return (pool(zeta, True) + pool(gamma, False) + pool(energy, True)
            + pool(orientation, True))


def gaussian_kernel():
    """fspecial('gaussian', 3, 0.5)."""
    x = np.arange(-1, 2)
    k = np.exp(-(x[:, None] ** 2 + x[None, :] ** 2) / (2 * 0.5 ** 2))
    return k / k.sum()


def downscale(img):
    """imfilter(I, h) ('same', zero padded correlation), then
    I(2:2:end, 2:2:end)."""
    out = ndimage.correlate(img, gaussian_kernel(), mode='constant', cval=0.0)
    return out[1::2, 1::2]


def features(gray):
    """The 24 BLIINDS-II features of an 8-bit gray image (H x W array)."""
    img = np.asarray(gray, dtype=np.float64)
    if img.shape[0] < 4 or img.shape[1] < 4:
        raise ValueError('BLIINDS-II needs at least 4x4 pixels')
    f = []
    for scale in range(3):
        if scale:
            img = downscale(img)
        f += scale_features(img)
    return np.array(f)


def load_model(path=DEFAULT_MODEL):
    values = {}
    rows = []
    with open(path) as fh:
        lines = [l.split() for l in fh if l.strip() and not l.startswith('#')]
    for i, words in enumerate(lines):
        if words[0] == 'sigma_inv':
            rows = [[float(v) for v in l] for l in lines[i + 1:i + 26]]
            break
        values[words[0]] = [float(v) for v in words[1:]]
    model = {
        'b': values['b'][0],
        'gamma': values['gamma'][0],
        'mu': np.array(values['mu']),
        'sigma_inv': np.array(rows),
    }
    assert model['mu'].shape == (25,) and model['sigma_inv'].shape == (25, 25)
    return model


def predict(model, f):
    """Grid 0, 0.5, .., 99.5 at the index of the first maximum of p(d),
    d = 1, 1.5, .., 100 (so d - 1, at most 99)."""
    d = 1 + 0.5 * np.arange(199)
    x = np.empty((d.size, 25))
    x[:, :24] = f
    x[:, 24] = d
    dx = x - model['mu']
    q = np.einsum('ij,jk,ik->i', dx, model['sigma_inv'], dx)
    p = np.exp(-(model['b'] * q) ** model['gamma'])
    return 0.5 * int(np.argmax(p))


def score(gray, model=None):
    return predict(model or load_model(), features(gray))


def read_gray(path, width, height):
    data = np.fromfile(path, dtype=np.uint8)
    if data.size != width * height:
        raise ValueError(f'{path}: {data.size} bytes, expected '
                         f'{width}x{height}')
    return data.reshape(height, width)


def main(argv):
    parser = argparse.ArgumentParser(description="BLIINDS-II numpy oracle")
    parser.add_argument('--model', default=DEFAULT_MODEL)
    sub = parser.add_subparsers(dest='mode', required=True)
    pf = sub.add_parser('features')
    pf.add_argument('raw')
    pf.add_argument('width', type=int)
    pf.add_argument('height', type=int)
    pc = sub.add_parser('csv')
    pc.add_argument('csv')
    args = parser.parse_args(argv)

    model = load_model(args.model)
    if args.mode == 'features':
        f = features(read_gray(args.raw, args.width, args.height))
        for v in f:
            print(repr(float(v)))
        print(repr(predict(model, f)))
    else:
        table = np.loadtxt(args.csv, delimiter=',', skiprows=1)
        for row in table:
            print(repr(predict(model, row[:24])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
