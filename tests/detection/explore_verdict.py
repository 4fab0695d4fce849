#!/usr/bin/python3
# The sweep that chose issue 30's verdict (docs/validation/detection.md,
# "Issue 30's verdict"), on the tuning half only: the element's scores of
# the clips already run (evaluate_heldout.py's results), each frame's
# structure and signature from the decoded clip (replica.py), and the
# verdict's variants replayed in Python.  The replica equals the element
# frame by frame at the chosen constants (test `detection` checks it on
# the suite's clips; the doc's tables come from the element).
#
# Usage: explore_verdict.py DIR [--half tuning] [--sizes 360,720,1080]
#                            [--thresholds 0.50,0.51,...]
#   DIR: an evaluate_heldout.py work directory (its clips and results);
#   per-clip features are kept in DIR/features.  --thresholds replaces the
#   variants by the verdict at each absolute level (the sweep that chose
#   the default, 0.52).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage', 'gi', 'PIL')

import numpy as np  # noqa: E402

import evaluate_heldout as ev  # noqa: E402
import replica  # noqa: E402

FPS = 25
FLAT_LEVEL, FLAT = 5, 0.02
WINDOW = 25

# The variants: the rule before (flat frames never judged), the collapse
# at several ratios, the absolute threshold, a relative threshold of its
# own for the collapse, a flat threshold scaled with the width, and an
# absolute level for flat frames with no textured reference.
BASE = dict(collapse=0.5, abs=0.5, rel=0.8, rel_c=None, flat_exp=0.0,
            flat_abs=0.0)
VARIANTS = [('before (no collapse)', dict(collapse=0.0))] + \
    [('collapse %.2f' % c, dict(collapse=c)) for c in (0.25, 0.5, 1.0)] + \
    [('collapse 0.5, threshold %.2f' % a, dict(abs=a))
     for a in (0.52, 0.54, 0.55, 0.56, 0.58, 0.6, 0.65, 0.7)] + \
    [('collapse 0.5, relative %.2f' % r, dict(rel=r)) for r in (0.75, 0.85)] + \
    [('collapse 0.5, its own relative 0.9', dict(rel_c=0.9)),
     ('collapse 0.5, flat threshold x 640/width', dict(flat_exp=1.0)),
     ('collapse 0.5, flat frames over 0.7 blurry at a shot\'s start',
      dict(flat_abs=0.7))]


def features(workdir, name, e):
    """(scores, structure, signatures, element states) of one clip."""
    d = os.path.join(workdir, 'features')
    os.makedirs(d, exist_ok=True)
    f = os.path.join(d, name + '.npz')
    if not os.path.exists(f):
        res = sorted(glob.glob(os.path.join(workdir, 'results', '%s-%s-*.json'
                                            % (name, e['key']))))
        if not res:
            return None
        with open(res[0]) as fh:
            r = json.load(fh)
        g = replica.decode_gray(os.path.join(workdir, e['file']),
                                int(e['width']), int(e['height']))
        hist = np.array([replica.edge_histogram(x) for x in g])
        np.savez_compressed(
            f + '.part.npz',
            scores=np.array([np.nan if s is None else s
                             for s in r['scores']]),
            structure=replica.structure(hist, FLAT_LEVEL),
            sigs=np.array([replica.signature(x) for x in g]),
            states=np.array(list(r['states'])))
        os.rename(f + '.part.npz', f)
    z = np.load(f)
    return z['scores'], z['structure'], z['sigs'], ''.join(z['states'])


class Variant(replica.BlurRule):
    """replica.BlurRule (the verdict) with the variants' knobs."""

    def __init__(self, p, width):
        super().__init__(True, WINDOW, p['abs'], p['rel'])
        self.p, self.width = p, width

    def judge(self, score, sig, structure, absolute=None):
        p = self.p
        flat = FLAT * (640.0 / self.width) ** p['flat_exp']
        if p['collapse'] == 0.0:
            # The rule before: a flat frame is never pushed.
            if structure < flat:
                return 'f'
            return 'B' if self.push(score, sig) else '.'
        replica.COLLAPSE_RATIO = p['collapse']
        keep = self.relative
        if p['rel_c'] and structure < flat:
            self.relative = p['rel_c']
        fresh = not self.hist
        b = self.push(score, sig, structure, flat, absolute)
        self.relative = keep
        if self.flat and p['flat_abs'] and fresh and score > p['flat_abs']:
            self.flat = False
            return 'B'
        return 'B' if b else 'f' if self.flat else '.'


def cpbd_counts(workdir, name, e, tool):
    """Per-frame (edges, sharp) CPBD counts of one clip
    (analysis/sharpness-cpbd.h, through tests/analysis/cpbd-tool on the
    decoded gray frames), kept in DIR/features."""
    f = os.path.join(workdir, 'features', name + '.cpbd.npz')
    if not os.path.exists(f):
        g = replica.decode_gray(os.path.join(workdir, e['file']),
                                int(e['width']), int(e['height']))
        out = subprocess.run([tool, str(e['width']), str(e['height'])],
                             input=np.ascontiguousarray(g).tobytes(),
                             capture_output=True, check=True).stdout
        c = np.array([list(map(int, x.split())) for x in
                      out.decode().splitlines()], dtype=np.int64)
        np.savez_compressed(f + '.part.npz', edges=c[:, 0], sharp=c[:, 1])
        os.rename(f + '.part.npz', f)
    z = np.load(f)
    return z['edges'], z['sharp']


def blur_cpbd(edges, sharp):
    """1 - CPBD (higher is blurrier): 1 without edges, as the authors'
    CPBD is 0 then."""
    return 1.0 - sharp / edges if edges else 1.0


# The CPBD variants of the absolute test (--cpbd): where it judges (every
# frame, or a shot's start: fewer than SEED sharp frames since the cut,
# where only the absolute level judges) and how (1 - CPBD over T alone,
# or with blur-effect over A: both, or either).  'later' is the absolute
# test after a shot's start: blur-effect over 0.52 as today, or none.
def cpbd_variants(ts):
    v = [('blur-effect > 0.52 (today)', None)]
    for t in ts:
        v += [('1-CPBD > %.2f, every frame' % t, dict(t=t, where='all')),
              ('1-CPBD > %.2f at a shot\'s start, none later' % t,
               dict(t=t, where='start')),
              ('1-CPBD > %.2f at a shot\'s start, blur-effect > 0.52 later'
               % t, dict(t=t, where='start', later=0.52)),
              ('1-CPBD > %.2f and blur-effect > 0.52, every frame' % t,
               dict(t=t, where='all', both=0.52)),
              ('1-CPBD > %.2f or blur-effect > 0.60, every frame' % t,
               dict(t=t, where='all', either=0.60))]
    return v


def cpbd_absolute(c, score, cp):
    """The absolute test of CPBD variant @c for a frame of blur-effect
    @score and 1 - CPBD @cp: a callable for replica.BlurRule.push."""
    def test(rule):
        start = len(rule.hist) < rule.quota
        if c['where'] == 'start' and not start:
            return c.get('later') is not None and score > c['later']
        blurry = cp > c['t']
        if c.get('both') is not None:
            blurry = blurry and score > c['both']
        if c.get('either') is not None:
            blurry = blurry or score > c['either']
        return blurry
    return test


def score_clip(e, out):
    """evaluate_heldout's counts of one clip for the states @out."""
    flags = np.array([c == 'B' for c in out])
    r = ev.score_blur(e, replica.segments(flags, FPS, 0.5, 2))
    return {k: r[k] for k in ('truth', 'found', 'detected', 'false',
                              'strong', 'strong_found')}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('workdir')
    ap.add_argument('--half', default='tuning')
    ap.add_argument('--sizes', default='360,720,1080')
    ap.add_argument('--thresholds', default=None)
    ap.add_argument('--cpbd', default=None,
                    help='1 - CPBD thresholds: the absolute test\'s CPBD '
                    'variants instead of the verdict\'s')
    ap.add_argument('--cpbd-tool', default=os.path.join(
        'build', 'tests', 'analysis', 'cpbd-tool'))
    args = ap.parse_args()
    if args.cpbd is not None:
        return sweep_cpbd(args)
    variants = VARIANTS if args.thresholds is None else \
        [('threshold %.2f' % a, dict(abs=a))
         for a in map(float, args.thresholds.split(','))]
    with open(os.path.join(args.workdir, 'truth.json')) as f:
        truth = json.load(f)
    sizes = args.sizes.split(',')
    clips = {}
    for n, e in sorted(truth.items()):
        if e['half'] == args.half and str(e['size']) in sizes and \
                os.path.exists(os.path.join(args.workdir, e['file'])):
            ft = features(args.workdir, n, e)
            if ft is not None:
                clips[n] = (e, ft)
    print('%d clips of the %s half' % (len(clips), args.half))
    print('| variant | recall | precision | false | strong defocus |')
    print('|---|---|---|---:|---|')
    for label, v in variants:
        p = dict(BASE, **v)
        tot = dict.fromkeys(('truth', 'found', 'detected', 'false', 'strong',
                             'strong_found'), 0)
        for n, (e, (sc, st, sg, states)) in clips.items():
            rule = Variant(p, int(e['width']))
            out = [states[i] if states[i] in 'kz' else
                   rule.judge(sc[i], sg[i], st[i]) for i in range(len(sc))]
            for k, x in score_clip(e, out).items():
                tot[k] += x
        print('| %s | %.3f (%d/%d) | %.3f | %d | %d/%d |' % (
            label, tot['found'] / max(1, tot['truth']), tot['found'],
            tot['truth'], (tot['detected'] - tot['false']) /
            max(1, tot['detected']), tot['false'], tot['strong_found'],
            tot['strong']), flush=True)
    replica.COLLAPSE_RATIO = BASE['collapse']


def sweep_cpbd(args):
    """The CPBD variants of the absolute test on the clips of a half."""
    with open(os.path.join(args.workdir, 'truth.json')) as f:
        truth = json.load(f)
    sizes = args.sizes.split(',')
    clips = {}
    for n, e in sorted(truth.items()):
        if e['half'] == args.half and str(e['size']) in sizes and \
                os.path.exists(os.path.join(args.workdir, e['file'])):
            ft = features(args.workdir, n, e)
            if ft is not None:
                clips[n] = (e, ft, cpbd_counts(args.workdir, n, e,
                                               args.cpbd_tool))
    print('%d clips of the %s half' % (len(clips), args.half))
    print('| absolute test | recall | precision | false | strong defocus |')
    print('|---|---|---|---:|---|')
    p = dict(BASE, abs=0.52)
    for label, c in cpbd_variants(list(map(float, args.cpbd.split(',')))):
        tot = dict.fromkeys(('truth', 'found', 'detected', 'false', 'strong',
                             'strong_found'), 0)
        for n, (e, (sc, st, sg, states), (ce, cs)) in clips.items():
            rule = Variant(p, int(e['width']))
            out = []
            for i in range(len(sc)):
                if states[i] in 'kz':
                    out.append(states[i])
                    continue
                ab = None if c is None else \
                    cpbd_absolute(c, sc[i], blur_cpbd(ce[i], cs[i]))
                out.append(rule.judge(sc[i], sg[i], st[i], ab))
            for k, x in score_clip(e, out).items():
                tot[k] += x
        print('| %s | %.3f (%d/%d) | %.3f | %d | %d/%d |' % (
            label, tot['found'] / max(1, tot['truth']), tot['found'],
            tot['truth'], (tot['detected'] - tot['false']) /
            max(1, tot['detected']), tot['false'], tot['strong_found'],
            tot['strong']), flush=True)
    replica.COLLAPSE_RATIO = BASE['collapse']


if __name__ == '__main__':
    main()
