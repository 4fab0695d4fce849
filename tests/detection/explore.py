#!/usr/bin/python3
# The data behind the defaults of docs/detection.md: from the per-frame
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
import scoring  # noqa: E402
import suite  # noqa: E402

LOWER = {'blur-effect', 'bliinds2'}
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


def blur_segments(clip, d, metric, threshold, relative, skip, cuts=True):
    flags = replica.blur_flags(d['score:' + metric],
                               d['signature'] if cuts else None,
                               metric in LOWER, WINDOW, threshold, relative,
                               skip)
    return replica.segments(flags, suite.FPS, suite.MIN_DURATION,
                            suite.MAX_GAP), flags


def evaluate(clips, truth, data, metric, threshold, relative, flat=None,
             cuts=True):
    t = scoring.Tally()
    frames = {}
    for c in clips:
        d = data[c.name]
        skip = skip_flags(c, truth[c.name], d, flat)
        segs, flags = blur_segments(c, d, metric, threshold, relative, skip,
                                    cuts)
        t.add_clip(truth[c.name], {'blur': segs}, ('blur',))
        frames[c.name] = flags
    return t, frames


def line(name, t, cats):
    cells = [scoring.fmt_cell(t.counts(c, 'blur')) for c in cats]
    return '| %s | %s | %s |' % (name, scoring.fmt_cell(t.counts(None,
                                                                 'blur')),
                                 ' | '.join(cells))


def distributions(clips, truth, data):
    """Percentiles of the structure share (several levels) and of every
    metric by kind of frame."""
    lab = {c.name: labels(c, truth[c.name]) for c in clips}
    kinds = sorted({k for v in lab.values() for k in v})
    print('## structure share by kind of frame: 1st / 5th / 50th / 95th '
          'percentile')
    for level in (2, 3, 4, 5, 6, 8, 10, 12, 16, 20):
        print('### level %d' % level)
        for k in kinds:
            v = np.concatenate([replica.structure(data[c.name]['edges'],
                                                  level)[np.array(lab[c.name])
                                                         == k]
                                for c in clips])
            if len(v):
                print('%-14s n=%5d  %.4f %.4f %.4f %.4f  min %.4f max %.4f'
                      % (k, len(v), *np.percentile(v, [1, 5, 50, 95]),
                         v.min(), v.max()))
    print('## metrics by kind of frame: 5th / 50th / 95th percentile')
    for m in metrics_of(data):
        print('### %s' % m)
        for k in kinds:
            v = np.concatenate([data[c.name]['score:' + m][np.array(
                lab[c.name]) == k] for c in clips])
            if len(v):
                print('%-14s n=%5d  %10.4f %10.4f %10.4f' % (
                    k, len(v), *np.percentile(v, [5, 50, 95])))


def sweep(clips, truth, data, flat=None):
    cats = [c for c in suite.CATEGORIES]
    print('| rule | all | %s |' % ' | '.join(cats))
    print('|---|---|%s|' % '|'.join('---' for _ in cats))
    for m in metrics_of(data):
        for r in (0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85):
            if m in LOWER and r < 0.5:
                continue
            t, _ = evaluate(clips, truth, data, m, 0, r, flat)
            print(line('%s relative %.2f' % (m, r), t, cats), flush=True)
    for th in (0.45, 0.5, 0.55, 0.6, 0.65):
        t, _ = evaluate(clips, truth, data, 'blur-effect', th, 0, flat)
        print(line('blur-effect absolute %.2f' % th, t, cats), flush=True)


def main():
    workdir = sys.argv[1]
    what = sys.argv[2] if len(sys.argv) > 2 else 'all'
    clips = suite.full_suite()
    truth, data = load(workdir, clips)
    if what in ('distributions', 'all'):
        distributions(clips, truth, data)
    if what in ('sweep', 'all'):
        sweep(clips, truth, data)


if __name__ == '__main__':
    main()
