#!/usr/bin/python3
# The element's CPBD (analysis/sharpness-cpbd.h, through cpbd-tool)
# against the authors' code (Narvekar & Karam's CPBD_compute.m, as ported
# to Python by python-cpbd, github.com/0x64746b/python-cpbd, whose
# cpbd/compute.py and cpbd/octave.py the caller fetches: they are not in
# this repository) on natural frames: every STEP-th frame of the 640x360
# clips of a half of an evaluate_heldout.py work directory, labelled sharp
# or blurry.  Reported: Pearson and Spearman correlation, and how often
# both call a frame blurry (1 - CPBD > T) alike, for the port as
# published (its Sobel threshold is Octave's default) and with the
# threshold CPBD_compute.m passes MATLAB's edge() (2: |Sx| / 8 > 2).
#
# Usage: compare_cpbd_authors.py DIR --port PORT_DIR [--half tuning]
#          [--step 50] [--per-clip 3] [--thresholds 0.6,0.7,0.8,0.9]
#          [--json F]
#          [--cpbd-tool build/tests/analysis/cpbd-tool]
#   PORT_DIR holds compute.py and octave.py of python-cpbd (its import
#   lines `from scipy.ndimage import imread` and `from cpbd.octave import
#   sobel` are skipped: the first is gone from SciPy, the second is
#   octave.py in PORT_DIR).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import json
import os
import subprocess
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage')

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

import replica  # noqa: E402


def load_port(port_dir):
    """python-cpbd's compute module, from its files in @port_dir."""
    sys.path.insert(0, port_dir)
    import octave  # noqa: F401  (python-cpbd's cpbd/octave.py)
    with open(os.path.join(port_dir, 'compute.py')) as f:
        src = ''.join(line for line in f if line.strip() not in (
            'from scipy.ndimage import imread',
            'from cpbd.octave import sobel'))
    mod = types.ModuleType('cpbd_port')
    mod.__dict__['sobel'] = octave.sobel
    exec(compile(src, os.path.join(port_dir, 'compute.py'), 'exec'),
         mod.__dict__)
    return mod, octave


def matlab_sobel(octave):
    """The port's sobel() with CPBD_compute.m's explicit threshold 2 on
    MATLAB's Sobel (the kernel / 8): squared strength over 4."""
    from scipy.ndimage import convolve
    from skimage.filters.edges import HSOBEL_WEIGHTS

    def sobel(image):
        h1 = np.array(HSOBEL_WEIGHTS)
        h1 /= np.sum(abs(h1))
        strength2 = np.square(convolve(image, h1.T))
        strength2[strength2 <= 4.0] = 0
        return octave._simple_thinning(strength2)
    return sobel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('workdir')
    ap.add_argument('--port', required=True)
    ap.add_argument('--half', default='tuning')
    ap.add_argument('--step', type=int, default=50)
    ap.add_argument('--per-clip', type=int, default=3)
    ap.add_argument('--thresholds', default='0.6,0.7,0.8,0.9')
    ap.add_argument('--json', help='the per-frame values, written here')
    ap.add_argument('--cpbd-tool', default=os.path.join(
        'build', 'tests', 'analysis', 'cpbd-tool'))
    args = ap.parse_args()
    port, octave = load_port(args.port)
    published = port.sobel
    with open(os.path.join(args.workdir, 'truth.json')) as f:
        truth = json.load(f)
    rows = []
    for name, e in sorted(truth.items()):
        if e['half'] != args.half or str(e['size']) != '360' or \
                not os.path.exists(os.path.join(args.workdir, e['file'])):
            continue
        g = replica.decode_gray(os.path.join(args.workdir, e['file']),
                                int(e['width']), int(e['height']))
        picked = [i for i in range(0, len(g), args.step)
                  if e['labels'][i] in '.B'][:args.per_clip]
        if not picked:
            continue
        out = subprocess.run(
            [args.cpbd_tool, str(e['width']), str(e['height'])],
            input=np.ascontiguousarray(g[picked]).tobytes(),
            capture_output=True, check=True).stdout.decode().split('\n')
        for i, line in zip(picked, out):
            edges, sharp = map(int, line.split())
            mine = sharp / edges if edges else 0.0
            port.sobel = published
            a = port.compute(g[i])
            port.sobel = matlab_sobel(octave)
            b = port.compute(g[i])
            rows.append((e['labels'][i] == 'B', mine, a, b))
        print('%s: %d frames' % (name, len(rows)), file=sys.stderr,
              flush=True)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump([list(map(float, x)) for x in rows], f)
    r = np.array(rows, dtype=float)
    print('%d frames of the %s half (%d blurred)' % (
        len(r), args.half, int(r[:, 0].sum())))
    print('| the authors\' code | Pearson | Spearman | ' + ' | '.join(
        'same call at 1 - CPBD > %s' % t
        for t in args.thresholds.split(',')) + ' |')
    print('|---|---:|---:|' + '---:|' * len(args.thresholds.split(',')))
    for k, label in ((2, 'python-cpbd as published'),
                     (3, 'python-cpbd, MATLAB\'s Sobel threshold 2')):
        agree = ['%.3f' % np.mean((1 - r[:, 1] > t) == (1 - r[:, k] > t))
                 for t in map(float, args.thresholds.split(','))]
        print('| %s | %.3f | %.3f | %s |' % (
            label, stats.pearsonr(r[:, 1], r[:, k])[0],
            stats.spearmanr(r[:, 1], r[:, k])[0], ' | '.join(agree)))


if __name__ == '__main__':
    main()
