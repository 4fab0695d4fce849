#!/usr/bin/python3
# Evaluation of blurry-frame rules on clips with known blurs (clips.py):
# per-frame recall and precision, and segments found / false segments,
# for the relative rule as it was, the fixed rule (blurry frames kept out
# of the reference, re-seeded at scene cuts) and the content-normalised
# blur effect (Crete-Roffet et al. 2007, skimage.measure.blur_effect).
# The table goes into docs/reference/sharpness-scan.md.  Not a CI test (minutes of CPU).
#
# Usage: rule_eval.py WORKDIR   (clips and score caches are kept there)
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage')

import numpy as np  # noqa: E402
from skimage.measure import blur_effect  # noqa: E402

import clips  # noqa: E402

GRID = 8
CUT_DISTANCE = 8.0
SEED = 3
STALE = 16


def decode_gray(path, w, h):
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-f',
                          'rawvideo', '-pix_fmt', 'gray', '-'],
                         check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, h, w)


def laplacian(g):
    """Mean |second differences| (the element's laplacian up to borders)."""
    f = g.astype(np.int32)
    dx = np.abs(f[1:-1, :-2] - 2 * f[1:-1, 1:-1] + f[1:-1, 2:])
    dy = np.abs(f[:-2, 1:-1] - 2 * f[1:-1, 1:-1] + f[2:, 1:-1])
    return float((dx + dy).mean())


def signature(g):
    """The C signature (analysis/sharpness-blur-detector.c), same sampling."""
    h, w = g.shape
    step = max(1, min(w, h) // 128)
    ys = np.arange(step // 2, h, step)
    xs = np.arange(step // 2, w, step)
    s = g[np.ix_(ys, xs)].astype(np.float64)
    cy = ys * GRID // h
    cx = xs * GRID // w
    out = np.zeros((GRID, GRID))
    for i in range(GRID):
        for j in range(GRID):
            out[i, j] = s[np.ix_(cy == i, cx == j)].mean()
    return out.ravel()


def scores(clip, workdir):
    cache = os.path.join(workdir, clip.name + '.npz')
    if os.path.exists(cache):
        return dict(np.load(cache))
    path = os.path.join(workdir, clip.name + '.mp4')
    if not os.path.exists(path):
        clip.encode(path, 'h264')
    frames = decode_gray(path, clip.width, clip.height)
    lap = np.array([laplacian(g) for g in frames])
    sig = np.array([signature(g) for g in frames])
    be = np.array([blur_effect(g, h_size=11) for g in frames])
    np.savez(cache, laplacian=lap, signature=sig, blur_effect=be)
    return dict(laplacian=lap, signature=sig, blur_effect=be)


def relative_rule(s, sig, r, window, lower=False, keep_blurry=False,
                  cuts=True, recovery=True):
    """Replica of analysis/sharpness-blur-detector.c's relative test;
    keep_blurry=True, cuts=False, recovery=False is the old rule."""
    hist = []
    quota = window
    last = None
    since = 0
    level = []
    out = np.zeros(len(s), dtype=bool)
    worse = (lambda a, b: a > b) if lower else (lambda a, b: a < b)
    for i, x in enumerate(s):
        cut = False
        if cuts and last is not None:
            cut = np.abs(sig[i] - last).mean() > CUT_DISTANCE
        last = sig[i]
        if cut or (not keep_blurry and since >= STALE * window):
            hist, quota, since, level = [], min(window, SEED), 0, []
        b = False
        if not cut and len(hist) >= quota:
            m = np.median(hist)
            b = x * r > m if lower else x < r * m
        if b and recovery and level:
            lv = sorted(level)[len(level) // 2]
            k = np.sqrt(r)
            if worse(lv, x * k if not lower else x / k):
                hist, quota, since, level = [], min(window, SEED), 0, []
                b = False
        out[i] = b
        if b and not keep_blurry:
            since += 1
            level = (level + [x])[-3:]
            continue
        level = []
        hist.append(x)
        hist = hist[-window:]
        since = 0
    return out


def segments(blurry, fps, min_duration=0.5, max_gap=2):
    """analysis/sharpness-blur-segments.c on frame flags: [(first, last)]."""
    segs, run, gap = [], None, 0
    for i, b in enumerate(blurry):
        if b:
            run = [i, i] if run is None else [run[0], i]
            gap = 0
        elif run is not None:
            gap += 1
            if gap > max_gap:
                segs.append(run)
                run = None
    if run is not None:
        segs.append(run)
    return [(a, b) for a, b in segs if (b - a + 1) / fps >= min_duration]


def score_rule(clip, blurry):
    truth = clip.blurry()
    tp = int((blurry & truth).sum())
    rec = tp / truth.sum()
    prec = tp / blurry.sum() if blurry.sum() else 1.0
    found = segments(blurry, clip.fps)
    want = [s for s in clip.segments() if (s[1] - s[0] + 1) / clip.fps >= 0.5]
    hit = sum(any(a <= w1 and w0 <= b for a, b in found) for w0, w1 in want)
    false = sum(not any(a <= w1 and w0 <= b for w0, w1 in clip.segments())
                for a, b in found)
    return rec, prec, hit, len(want), false


def main():
    workdir = sys.argv[1] if len(sys.argv) > 1 else '/tmp/rule-eval'
    os.makedirs(workdir, exist_ok=True)
    data = [(c, scores(c, workdir)) for c in clips.eval_clips()]
    lap = lambda d: (d['laplacian'], d['signature'])  # noqa: E731
    be = lambda d: (d['blur_effect'], d['signature'])  # noqa: E731
    rules = [
        ('laplacian, old rule: relative 0.5, window 25',
         lambda d: relative_rule(*lap(d), 0.5, 25, keep_blurry=True,
                                 cuts=False, recovery=False)),
        ('laplacian, + blurry frames kept out of the reference',
         lambda d: relative_rule(*lap(d), 0.5, 25, cuts=False,
                                 recovery=False)),
        ('laplacian, + re-seed at cuts',
         lambda d: relative_rule(*lap(d), 0.5, 25, recovery=False)),
        ('laplacian, + re-seed at the end of a blur (new rule, r 0.5)',
         lambda d: relative_rule(*lap(d), 0.5, 25)),
        ('laplacian, new rule, r 0.6',
         lambda d: relative_rule(*lap(d), 0.6, 25)),
        ('laplacian, new rule, r 0.4',
         lambda d: relative_rule(*lap(d), 0.4, 25)),
        ('blur-effect, new rule, r 0.75',
         lambda d: relative_rule(*be(d), 0.75, 25, lower=True)),
    ]
    for t in (0.35, 0.4, 0.45, 0.5, 0.55):
        rules.append(('blur-effect, absolute %.2f' % t,
                      lambda d, t=t: d['blur_effect'] > t))
    for name, rule in rules:
        cells = []
        tot = np.zeros(5)
        for c, d in data:
            res = score_rule(c, rule(d))
            tot += res
            cells.append('%.2f / %.2f, %d/%d, %d' % res)
        print('| %s | %s |' % (name, ' | '.join(cells)))
    print()
    for c, d in data:
        t = c.blurry()
        print('%s: laplacian sharp median %.2f blurry median %.2f; '
              'blur-effect sharp %.3f..%.3f blurry %.3f..%.3f; '
              'cut distances %s; max non-cut distance %.2f' % (
                  c.name, np.median(d['laplacian'][~t]),
                  np.median(d['laplacian'][t]),
                  d['blur_effect'][~t].min(), d['blur_effect'][~t].max(),
                  d['blur_effect'][t].min(), d['blur_effect'][t].max(),
                  ['%.1f' % np.abs(d['signature'][k] -
                                   d['signature'][k - 1]).mean()
                   for k in c.cuts()],
                  max(np.abs(d['signature'][k] - d['signature'][k - 1]).mean()
                      for k in range(1, c.frames) if k not in c.cuts())))


if __name__ == '__main__':
    main()
