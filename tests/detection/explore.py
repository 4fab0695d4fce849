#!/usr/bin/python3
# The data behind the defaults of docs/validation/detection.md: from the per-frame
# data collect.py caches (the element's scores, the frames' signatures and
# structure histograms), the distributions of the structure share and of
# each metric by kind of frame, and sweeps of each metric's rules through
# the Python replica of the blur rule (replica.py).  The numbers the doc
# reports for the chosen rules come from the element (evaluate.py).
#
# Usage: explore.py DIR [distributions|sweep|all]
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage')

import numpy as np  # noqa: E402

import replica  # noqa: E402
import rules  # noqa: E402
import scoring  # noqa: E402
import suite  # noqa: E402

LOWER = rules.LOWER_IS_SHARPER
WINDOW = 25


def load(workdir, clips):
    truth = suite.make(clips, workdir)
    data = {}
    for c in clips:
        p = os.path.join(workdir, c.name + '.npz')
        data[c.name] = dict(np.load(p))
    return truth, data


def metrics_of(data):
    ms = None
    for d in data.values():
        m = {k[6:] for k in d if k.startswith('score:')}
        ms = m if ms is None else ms & m
    return sorted(ms)


def labels(clip, entry):
    """Per-frame kind of frame: 'black', 'fade', 'frozen', the blur
    ('gauss 2.5', ...), 'smooth', 'upscaled' or 'textured'."""
    out = []
    black = np.zeros(clip.frames, bool)
    for s in entry['segments']:
        if s['kind'] == 'black':
            black[s['first']:s['last'] + 1] = True
    for i in range(clip.frames):
        e = clip._effect_at(i, ('fade-out', 'fade-in', 'black'))
        f = clip._effect_at(i, ('freeze',))
        b = clip._effect_at(clip.source_frame(i), suite.BLURS)
        if black[i] or (e and e[0] == 'black'):
            out.append('black')
        elif e:
            out.append('fade')
        elif f and i > f[1]:
            out.append('frozen')
        elif b:
            out.append('%s %g' % (b[0], b[3]))
        elif clip.category in ('smooth', 'upscaled'):
            out.append(clip.category)
        else:
            out.append('textured')
    return out


def skip_flags(clip, entry, d, flat=None):
    """Frames the element does not judge: black (blackdetect's frame rule on
    the gray image), frozen (freezedetect reports a freeze 2 s after its
    first frame) and, with @flat = (level, threshold), flat."""
    n = clip.frames
    hist = d['edges']
    skip = np.zeros(n, bool)
    luma = d['luma']
    skip |= luma[:, :suite.BLACK_PIXEL + 1].sum(axis=1) >= \
        suite.BLACK_PICTURE * luma.sum(axis=1)
    for s in entry['segments']:
        if s['kind'] == 'freeze':
            a = s['first'] + int(suite.FREEZE_MIN_DURATION * suite.FPS)
            skip[a:s['last'] + 1] = True
    if flat:
        skip |= replica.structure(hist, flat[0]) < flat[1]
    return skip


def blur_segments(clip, d, metric, threshold, relative, skip, cuts=True,
                  fixes=replica.FIXES):
    flags = replica.blur_flags(d['score:' + metric],
                               d['signature'] if cuts else None,
                               metric in LOWER, WINDOW, threshold, relative,
                               skip, fixes)
    return replica.segments(flags, suite.FPS, suite.MIN_DURATION,
                            suite.MAX_GAP), flags


def evaluate(clips, truth, data, metric, threshold, relative, flat=None,
             cuts=True, fixes=replica.FIXES):
    """Tally of blur segments of a rule over @clips (the replica)."""
    t = scoring.Tally()
    for c in clips:
        d = data[c.name]
        skip = skip_flags(c, truth[c.name], d, flat)
        segs, _ = blur_segments(c, d, metric, threshold, relative, skip,
                                cuts, fixes)
        t.add_clip(truth[c.name], {'blur': segs}, ('blur',))
    return t


def f1(t):
    rec, prec = t.summary(None, 'blur')
    if not rec or not prec:
        return 0.0
    return 2 * rec * prec / (rec + prec)


def rr(t):
    return '%s / %s' % tuple(scoring.fmt_rate(x) for x in
                             t.summary(None, 'blur'))


# Kinds of frame in the distribution tables, in order.
def kind_order(k):
    blur = k.split()[0] in suite.BLURS
    return (blur, k.split()[0], float(k.split()[1]) if blur else 0, k)


def frame_kinds(clips, truth):
    """{clip: per-frame kind}: the blurs as 'gauss 2.5', the smooth scenes
    by clip, the noisy clips apart."""
    out = {}
    for c in clips:
        lab = labels(c, truth[c.name])
        if c.category == 'smooth':
            lab = [c.name if k == 'smooth' else k for k in lab]
        if c.category == 'noise':
            lab = ['noise, %s' % ('sharp' if k == 'textured' else k)
                   for k in lab]
        out[c.name] = np.array(lab)
    return out


def structure_table(clips, truth, data, levels=(3, 4, 5, 6, 8)):
    """min / median / max of the structure share per kind of frame and
    edge level."""
    lab = frame_kinds(clips, truth)
    kinds = sorted({k for v in lab.values() for k in v}, key=kind_order)
    print('| frames | n | %s |' % ' | '.join('level %d' % L
                                              for L in levels))
    print('|---|---:|%s|' % '|'.join('---' for _ in levels))
    for k in kinds:
        if k in ('black', 'frozen'):
            continue
        cells = []
        for L in levels:
            v = np.concatenate([replica.structure(data[c.name]['edges'],
                                                  L)[lab[c.name] == k]
                                for c in clips])
            cells.append('%.4f / %.4f / %.4f' % (v.min(), np.median(v),
                                                 v.max()))
        print('| %s | %d | %s |' % (k, len(v), ' | '.join(cells)))


def metric_table(clips, truth, data, metric, flat):
    """min / 1 % / median / 99 % / max of @metric per kind of frame, over
    the frames the element judges (not black, frozen or flat)."""
    lab = frame_kinds(clips, truth)
    kinds = sorted({k for v in lab.values() for k in v}, key=kind_order)
    print('| frames | n | min | 1 % | median | 99 % | max |')
    print('|---|---:|---:|---:|---:|---:|---:|')
    for k in kinds:
        v = []
        for c in clips:
            skip = skip_flags(c, truth[c.name], data[c.name], flat)
            v.append(data[c.name]['score:' + metric][(lab[c.name] == k) &
                                                      ~skip])
        v = np.concatenate(v)
        if len(v):
            print('| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f |' % (
                k, len(v), v.min(), np.percentile(v, 1), np.median(v),
                np.percentile(v, 99), v.max()))


RELATIVES = (0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9)


def relative_sweep(clips, truth, data, flat):
    """Each metric's relative rule at each r: recall / precision of blur
    segments; the best F1 (ties: the smaller r) in bold."""
    print('| metric | %s |' % ' | '.join('r %.2f' % r for r in RELATIVES))
    print('|---|%s|' % '|'.join('---' for _ in RELATIVES))
    best = {}
    for m in metrics_of(data):
        ts = [evaluate(clips, truth, data, m, 0, r, flat) for r in RELATIVES]
        k = max(range(len(ts)), key=lambda i: (f1(ts[i]), -i))
        best[m] = RELATIVES[k]
        print('| %s | %s |' % (m, ' | '.join(
            ('**%s**' if i == k else '%s') % rr(t)
            for i, t in enumerate(ts))), flush=True)
    return best


def grid(clips, truth, data, metric, flat, thresholds, relatives):
    """@metric with an absolute and a relative threshold together."""
    print('| threshold \\ relative | off | %s |' % ' | '.join(
        '%.2f' % r for r in relatives))
    print('|---|---|%s|' % '|'.join('---' for _ in relatives))
    for th in (0,) + tuple(thresholds):
        cells = [rr(evaluate(clips, truth, data, metric, th, r, flat))
                 if th or r else '—' for r in (0,) + tuple(relatives)]
        print('| %s | %s |' % ('off' if th == 0 else '%.2f' % th,
                               ' | '.join(cells)), flush=True)


def flat_sweep(clips, truth, data, metric, threshold, relative, settings):
    print('| flat-edge-level, flat-threshold | recall / precision |')
    print('|---|---|')
    for L, f in settings:
        t = evaluate(clips, truth, data, metric, threshold, relative,
                     (L, f) if f else None)
        print('| %s | %s |' % ('%d, %g' % (L, f) if f else 'off', rr(t)))


def fixes_table(clips, truth, data, flat, rules_):
    """The rule as it was and with each change of this branch."""
    steps = [('as it was', frozenset()),
             ('+ judged from 3 frames on', frozenset({'seed'})),
             ('+ a far sharper frame restarts the reference',
              frozenset({'seed', 'prove'})),
             ('+ the end of every blur restarts it',
              frozenset({'seed', 'prove', 'end'})),
             ('+ cuts against the shot\'s motion', replica.FIXES)]
    print('| rule | %s |' % ' | '.join(n for n, _ in rules_))
    print('|---|%s|' % '|'.join('---' for _ in rules_))
    for name, fx in steps:
        cells = []
        for _, (m, th, r) in rules_:
            cells.append(rr(evaluate(clips, truth, data, m, th, r, flat,
                                     fixes=fx)))
        print('| %s | %s |' % (name, ' | '.join(cells)), flush=True)


def cut_table(clips, data):
    """Signature distances: at cuts (and to and from black), and the
    largest elsewhere, with its ratio to the median of the 5 before."""
    print('| clip | at cuts: distance (ratio) | elsewhere: largest '
          'distance, largest ratio where the distance > %g |'
          % replica.CUT_DISTANCE)
    print('|---|---|---|')
    for c in clips:
        sig = data[c.name]['signature'].astype(np.float64)
        d = np.r_[0, np.abs(np.diff(sig, axis=0)).mean(axis=1)]
        ratio = np.array([d[i] / max(np.median(d[max(1, i - 5):i]), 1e-9)
                          if i > 1 else np.inf for i in range(len(d))])
        cuts = [s[0] for s in c.shots[1:]]
        edges = set(cuts)
        for e in c.effects:
            if e[0] in ('black', 'freeze', 'fade-out', 'fade-in'):
                edges |= {e[1], e[1] + e[2]}
        other = [i for i in range(2, len(d)) if i not in edges]
        big = [ratio[i] for i in other if d[i] > replica.CUT_DISTANCE]
        if not cuts and d[other].max() < 4:
            continue
        print('| %s | %s | %.1f, %s |' % (
            c.name, ', '.join('%.1f (%.0f)' % (d[k], ratio[k])
                              for k in cuts) or '—',
            d[other].max(), '%.2f' % max(big) if big else '—'))


def main():
    workdir = sys.argv[1]
    what = sys.argv[2] if len(sys.argv) > 2 else 'all'
    clips = suite.full_suite()
    truth, data = load(workdir, clips)
    flat = FLAT
    if what in ('structure', 'all'):
        print('\n### structure share (min / median / max)\n')
        structure_table(clips, truth, data)
    if what in ('metric', 'all'):
        print('\n### blur-effect by kind of frame\n')
        metric_table(clips, truth, data, 'blur-effect', flat)
    if what in ('relative', 'all'):
        print('\n### relative rules\n')
        best = relative_sweep(clips, truth, data, flat)
        print('\nbest: %s' % best)
    if what in ('grid', 'all'):
        print('\n### blur-effect, absolute and relative\n')
        grid(clips, truth, data, 'blur-effect', flat,
             (0.45, 0.5, 0.55, 0.6), (0.7, 0.75, 0.8, 0.85, 0.9))
    if what in ('flat', 'all'):
        print('\n### flat settings, with the defaults\n')
        flat_sweep(clips, truth, data, 'blur-effect', DEFAULT_T, DEFAULT_R,
                   [(5, 0), (4, 0.01), (3, 0.02), (4, 0.02), (4, 0.06),
                    (5, 0.01), (5, 0.02), (5, 0.05), (6, 0.017),
                    (8, 0.01)])
    if what in ('fixes', 'all'):
        print('\n### the relative rule\'s changes\n')
        fixes_table(clips, truth, data, flat, [
            ('laplacian r 0.6', ('laplacian', 0, 0.6)),
            ('blur-effect r 0.8', ('blur-effect', 0, 0.8)),
            ('defaults', ('blur-effect', DEFAULT_T, DEFAULT_R))])
    if what in ('cuts', 'all'):
        print('\n### signature distances\n')
        cut_table(clips, data)


# The recommended flat rule and blur-effect thresholds.
FLAT = (rules.DEFAULTS['flat-edge-level'], rules.DEFAULTS['flat-threshold'])
DEFAULT_T = rules.DEFAULTS['threshold']
DEFAULT_R = rules.DEFAULTS['relative-threshold']


if __name__ == '__main__':
    main()
