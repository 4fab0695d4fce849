#!/usr/bin/python3
# Texture-independent absolute judges, measured on the tuning half (docs/
# validation/detection.md, "Absolute judges measured"): on every STEP-th
# frame of the 640x360 clips of an evaluate_heldout.py work directory,
# labelled sharp or blurry, how well blur-effect (the element's score),
# the share of edge pixels, Marziliano's mean edge width and CPBD tell the
# blurred frames from the sharp ones, soft sharp content included.
#
# The edge width and the first CPBD here are whole-frame approximations
# (horizontal Sobel, edge pixels the local maxima of |Gx| along a row over
# EDGE_LEVEL, width the run of monotone samples on both sides after
# Marziliano et al., ICIP 2002; the JNB width 5 for a contrast <= 50 and 3
# above and P = 1 - exp (-(w / w_JNB)^3.6), CPBD the share of edges with
# P <= 0.63 after Narvekar & Karam, IEEE TIP 2011, without their 64 x 64
# blocks and Canny edges).  The last row is the element's CPBD
# (analysis/sharpness-cpbd.h: the authors' blocks, widths and threshold;
# compare_cpbd_authors.py compares it with their code), through
# tests/analysis/cpbd-tool.
#
# Usage: explore_cpbd.py DIR [--half tuning] [--step 6] [--cpbd-tool T]
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy')

import numpy as np  # noqa: E402

import explore_verdict  # noqa: E402
import replica  # noqa: E402

EDGE_LEVEL = 32.0
MAX_WIDTH = 40
MIN_EDGES = 50
SOFT = ('shallow-dof', 'upscaled', 'compression')


def widths(g):
    """(mean edge width in pixels, CPBD) of gray frame @g, or None with
    fewer than MIN_EDGES edge pixels."""
    g = g.astype(np.float32)
    gx = np.zeros_like(g)
    gx[1:-1, 1:-1] = (g[:-2, 2:] + 2 * g[1:-1, 2:] + g[2:, 2:]) - \
        (g[:-2, :-2] + 2 * g[1:-1, :-2] + g[2:, :-2])
    a = np.abs(gx)
    m = a > EDGE_LEVEL
    m[:, 1:-1] &= (a[:, 1:-1] >= a[:, :-2]) & (a[:, 1:-1] > a[:, 2:])
    ys, xs = np.nonzero(m)
    if len(ys) < MIN_EDGES:
        return None
    s = np.sign(gx[ys, xs])
    w_ = g.shape[1]
    d = np.zeros_like(g)
    d[:, :-1] = g[:, 1:] - g[:, :-1]
    ends = []
    for step in (1, -1):
        run = np.zeros(len(ys), int)
        alive = np.ones(len(ys), bool)
        x = xs.copy()
        for _ in range(MAX_WIDTH):
            ok = alive & ((x < w_ - 1) if step > 0 else (x > 0))
            idx = x[ok] if step > 0 else x[ok] - 1
            ok[ok] = d[ys[ok], idx] * s[ok] > 0
            run += ok
            x = np.where(ok, x + step, x)
            alive = ok
        ends.append((run, x))
    w = ends[0][0] + ends[1][0]
    contrast = np.abs(g[ys, ends[0][1]] - g[ys, ends[1][1]])
    wjnb = np.where(contrast <= 50, 5.0, 3.0)
    p = 1 - np.exp(-np.abs(w / wjnb) ** 3.6)
    return float(w.mean()), float((p <= 0.63).mean())


def auc(x, y):
    o = np.argsort(x)
    r = np.empty(len(x))
    r[o] = np.arange(1, len(x) + 1)
    n1 = y.sum()
    return (r[y].sum() - n1 * (n1 + 1) / 2) / (n1 * (len(y) - n1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('workdir')
    ap.add_argument('--half', default='tuning')
    ap.add_argument('--step', type=int, default=6)
    ap.add_argument('--cpbd-tool', default=os.path.join(
        'build', 'tests', 'analysis', 'cpbd-tool'))
    args = ap.parse_args()
    with open(os.path.join(args.workdir, 'truth.json')) as f:
        truth = json.load(f)
    rows = []
    for name, e in sorted(truth.items()):
        if e['half'] != args.half or str(e['size']) != '360':
            continue
        res = sorted(glob.glob(os.path.join(args.workdir, 'results', '%s-%s-*'
                                            '.json' % (name, e['key']))))
        if not res:
            continue
        with open(res[0]) as f:
            r = json.load(f)
        g = replica.decode_gray(os.path.join(args.workdir, e['file']),
                                int(e['width']), int(e['height']))
        ce, cs = explore_verdict.cpbd_counts(args.workdir, name, e,
                                             args.cpbd_tool)
        for i in range(0, int(e['frames']), args.step):
            if e['labels'][i] not in '.B' or r['states'][i] in 'kz' or \
                    r['scores'][i] is None:
                continue
            wc = widths(g[i])
            if wc is None:
                continue
            st = replica.structure(replica.edge_histogram(g[i]), 5)[0]
            rows.append((e['category'] in SOFT, e['labels'][i] == 'B',
                         r['scores'][i], -float(st), wc[0], 1 - wc[1],
                         explore_verdict.blur_cpbd(ce[i], cs[i])))
    a = np.array(rows, dtype=float)
    soft, blur = a[:, 0] > 0, a[:, 1] > 0
    print('%d frames: %d blurred, %d sharp (%d soft)' % (
        len(a), blur.sum(), (~blur).sum(), (soft & ~blur).sum()))
    print('| measure (higher = blurrier) | AUC | blurred frames over the '
          'sharp frames\' 95th / 99th percentile | median: sharp soft, '
          'other sharp, blurred | sharp frames\' 95th, 99th percentile |')
    print('|---|---:|---|---|---|')
    for k, name in ((2, 'blur-effect'), (3, 'structure (negated)'),
                    (4, 'mean edge width (px)'), (5, '1 - CPBD'),
                    (6, '1 - CPBD, the element\'s')):
        x = a[:, k]
        hits = ['%.2f' % (x[blur] > np.percentile(x[~blur], q)).mean()
                for q in (95, 99)]
        print('| %s | %.3f | %s | %.3f, %.3f, %.3f | %s |' % (
            name, auc(x, blur), ' / '.join(hits), np.median(x[~blur & soft]),
            np.median(x[~blur & ~soft]), np.median(x[blur]),
            ', '.join('%.3f' % np.percentile(x[~blur], q) for q in (95, 99))))


if __name__ == '__main__':
    main()
