#!/usr/bin/python3
# The evaluation of the held-out suite (issue 30; docs/validation/detection.md,
# "Held-out photographs"): runs the real cudasharpness element (CPU
# backend, the recommended defaults of rules.py, through element_runs.py
# as evaluate.py does) on the clips of heldout.py and reports, per half and
# per category: segment recall and precision of blur, the frames of false
# blur, strong-defocus recall, and black and freeze (FFmpeg's, matched as
# scoring.py does); and the false blur segments per channel-hour of the
# long sharp stream.
#
# Segment matching (blur), stated here and in the doc: the detected
# segments are the runs of blurry frames joined across MAX_GAP others and
# lasting MIN_DURATION (as evaluate.py and sharpness-scan make them).  A
# truth segment is found when detected segments cover at least half of its
# frames.  A detected segment is false when it overlaps no truth segment
# and is not wholly on `soft` frames (ramps of a pull too mild to label).
# Recall = found / truth segments; precision = (detected - false) /
# detected.  Frames of false blur: frames inside detected segments that
# are labelled sharp.  Strong defocus: truth segments of a disk blur whose
# radius reaches 0.5 % of the width, inside a shot (sharp frames of the
# shot before them).
#
# Usage: evaluate_heldout.py DIR [--half both|heldout|tuning] [--ci]
#          [--sizes 360,720,1080] [--variants N] [--json F] [--markdown F]
#          [--cached | --made | --listed] [--set PROPERTY=VALUE ...]
#        evaluate_heldout.py DIR --long MINUTES [--chunk MINUTES]
#   Per-clip results are kept in DIR/results (keyed by the clip and the
#   rule): a run that stops goes on where it stopped.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import hashlib
import json
import os
import sys
import time
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage', 'gi', 'PIL')

import numpy as np  # noqa: E402

import element_runs  # noqa: E402
import evaluate  # noqa: E402
import heldout  # noqa: E402
import photos  # noqa: E402
import replica  # noqa: E402
import rules  # noqa: E402
import scoring  # noqa: E402

RULE = 'defaults'
COVER = 0.5
STRONG_DISK_SHARE = 0.005


# The verdict's own version (analysis/sharpness-blur-detector.c): a
# result is kept for its clip, its rule's properties and this, so that
# results of an earlier verdict are never read as this one's.  'collapse'
# is issue 30's verdict (a collapse of structure and score within a shot
# is blur, never flat); 'cpbd' its absolute test confirmed by CPBD;
# 'focus' and by the focus of its textured tiles.
VERDICT = 'collapse-cpbd-focus-1'


# Properties set over the defaults' (--set), to measure the defaults
# beside a variant of them on the same clips.
OVERRIDES = {}


def _properties():
    return dict(rules.element_properties(RULE), **OVERRIDES)


def _rule_key():
    return hashlib.sha1(repr((VERDICT, sorted(_properties().items()))).
                        encode()).hexdigest()[:10]


def detect(path, frames_expected=None):
    """(blur segments, black segments, freeze segments, per-frame states,
    scores and CPBD) of the element with the defaults."""
    name = rules.element_name(RULE)
    res = element_runs.run(path, [(name, _properties())])
    r = res[name]
    frames = r['frames']
    if frames_expected is not None and len(frames) != frames_expected:
        raise RuntimeError('%s: %d frames for %d' % (path, len(frames),
                                                     frames_expected))
    states = [f['content-state'] for f in frames]
    blurry = np.array([s == 'blurry' for s in states])
    blur = replica.segments(blurry, heldout.FPS, rules.MIN_DURATION,
                            rules.MAX_GAP)
    out = {'blur': [list(s) for s in blur]}
    for kind in ('black', 'freeze'):
        out[kind] = [list(s) for s in
                     evaluate.event_segments(r['events'], kind, states)]
    out['events_blur'] = [list(s) for s in
                          evaluate.event_segments(r['events'], 'blur',
                                                  states)]
    out['states'] = ''.join({'blurry': 'B', 'flat': 'f', 'black': 'k',
                             'frozen': 'z'}.get(s, '.') for s in states)
    out['scores'] = [None if f['score'] is None else round(f['score'], 4)
                     for f in frames]
    out['cpbd'] = [None if f.get('cpbd') is None else round(f['cpbd'], 4)
                   for f in frames]
    return out


def run_clip(entry, workdir):
    """The element's result on one clip (cached in workdir/results)."""
    d = os.path.join(workdir, 'results')
    os.makedirs(d, exist_ok=True)
    f = os.path.join(d, '%s-%s-%s.json' % (os.path.splitext(entry['file'])[0],
                                           entry['key'], _rule_key()))
    if os.path.exists(f):
        with open(f) as fh:
            return json.load(fh)
    out = detect(os.path.join(workdir, entry['file']), entry['frames'])
    with open(f + '.part', 'w') as fh:
        json.dump(out, fh)
    os.rename(f + '.part', f)
    return out


def score_blur(entry, found):
    """{'truth', 'found', 'detected', 'false', 'false_frames',
    'strong', 'strong_found'} for one clip's blur."""
    lab = entry['labels']
    truth = [s for s in entry['segments'] if s['kind'] == 'blur']
    cover = np.zeros(entry['frames'], dtype=bool)
    for a, b in found:
        cover[a:b + 1] = True
    out = {'truth': len(truth), 'found': 0, 'detected': len(found),
           'false': 0, 'false_frames': 0, 'strong': 0, 'strong_found': 0,
           'missed': []}
    for s in truth:
        a, b = s['first'], s['last']
        hit = int(cover[a:b + 1].mean() >= COVER)
        out['found'] += hit
        if not hit:
            out['missed'].append([a, b, s['detail']])
        if s['kernel'] == 'disk' and s['in_shot'] and \
                s['disk_share'] >= STRONG_DISK_SHARE - 1e-9:
            out['strong'] += 1
            out['strong_found'] += hit
    for a, b in found:
        overlaps = any(s['first'] <= b and a <= s['last'] for s in truth)
        soft = all(c == 's' for c in lab[a:b + 1])
        if not overlaps and not soft:
            out['false'] += 1
        out['false_frames'] += int(sum(c == '.' for c in lab[a:b + 1]))
    return out


class Table:
    """Sums per (half, category)."""

    FIELDS = ('clips', 'frames', 'truth', 'found', 'detected', 'false',
              'false_frames', 'strong', 'strong_found', 'bf_hit',
              'bf_missed', 'bf_false')

    def __init__(self):
        self.n = {}

    def add(self, half, cat, **kw):
        c = self.n.setdefault((half, cat), dict.fromkeys(self.FIELDS, 0))
        for k, v in kw.items():
            c[k] += v

    def get(self, half, cat=None):
        out = dict.fromkeys(self.FIELDS, 0)
        for (h, c), v in self.n.items():
            if h == half and (cat is None or c == cat):
                for k in self.FIELDS:
                    out[k] += v[k]
        return out


def _rate(a, b):
    return '—' if b == 0 else '%.2f' % (a / b)


def cells(c):
    """The doc's cells of one row."""
    prec_n = c['detected'] - c['false']
    return ['%d' % c['clips'],
            '%s (%d/%d)' % (_rate(c['found'], c['truth']), c['found'],
                            c['truth']),
            '%s (%d/%d)' % (_rate(prec_n, c['detected']), prec_n,
                            c['detected']),
            '%d' % c['false'], '%d' % c['false_frames'],
            '%s (%d/%d)' % (_rate(c['strong_found'], c['strong']),
                            c['strong_found'], c['strong']) if c['strong']
            else '—',
            ('%d/%d, %d' % (c['bf_hit'], c['bf_hit'] + c['bf_missed'],
                            c['bf_false'])) if c['bf_hit'] + c['bf_missed'] +
            c['bf_false'] else '—']


HEAD = ('| category | clips | blur recall (found/true) | precision '
        '(right/detected) | false segments | false frames | strong defocus '
        'recall | black+freeze (found/true, false) |\n'
        '|---|---:|---|---|---:|---:|---|---|')


def table(t, half, cats):
    lines = [HEAD]
    for cat in list(cats) + [None]:
        c = t.get(half, cat)
        if cat is not None and c['clips'] == 0:
            continue
        lines.append('| %s | %s |' % (cat or '**all**',
                                       ' | '.join(cells(c))))
    return '\n'.join(lines)


def evaluate_clips(clips, truth, workdir, log=print):
    t = Table()
    per_clip = {}
    for c in clips:
        e = truth[c.name]
        t0 = time.time()
        r = run_clip(e, workdir)
        b = score_blur(e, [tuple(x) for x in r['blur']])
        bf = [0, 0, 0]
        for kind in ('black', 'freeze'):
            tr = [(s['first'], s['last']) for s in e['segments']
                  if s['kind'] == kind]
            bf = [x + y for x, y in zip(bf, scoring.match(
                tr, [tuple(x) for x in r[kind]]))]
        t.add(e['half'], e['category'], clips=1, frames=e['frames'],
              truth=b['truth'], found=b['found'], detected=b['detected'],
              false=b['false'], false_frames=b['false_frames'],
              strong=b['strong'], strong_found=b['strong_found'],
              bf_hit=bf[0], bf_missed=bf[1], bf_false=bf[2])
        per_clip[c.name] = dict(b, black_freeze=bf,
                                events_agree=r['blur'] == r['events_blur'])
        log('%-36s %5.1f s  blur %d/%d, false %d%s' % (
            c.name, time.time() - t0, b['found'], b['truth'], b['false'],
            ('  missed ' + ', '.join('%d-%d %s' % tuple(m)
                                      for m in b['missed']))
            if b['missed'] else ''))
    return t, per_clip


# ---- the long sharp stream ---------------------------------------------

def _long_shot(start, chunk, half, a, scores):
    """[the shot's scene, its first frame in the chunk, the median score
    of its frames before @a (None when the segment opens it)] of the
    segment of the sharp stream that starts at frame @a of the chunk
    from @start seconds: where a false segment lies."""
    shots, first, _ = heldout.long_shots(chunk * 60, start, half)
    for s0, n, scene in shots:
        if s0 <= first + a < s0 + n:
            b = max(s0 - first, 0)
            before = [x for x in (scores or [])[b:a] if x is not None]
            return [repr(scene), s0 - first,
                    float(np.median(before)) if before else None]
    return [None, None, None]


def run_long(workdir, minutes, chunk, half='heldout', first=0.0,
             log=print):
    """The sharp stream over @half's photographs in @chunk-minute files
    (each through a fresh element), from @first up to @minutes; returns
    the totals.  Runs from different @first share the files' results, so
    that parts of the stream may be run side by side.
    The tuning half's stream is where a false segment's cause is looked
    for: the held-out one is only measured."""
    d = os.path.join(workdir, 'long' if half == 'heldout' else
                     'long-' + half)
    os.makedirs(d, exist_ok=True)
    tot = {'seconds': 0.0, 'segments': 0, 'frames_blurry': 0, 'chunks': 0,
           'flat_frames': 0, 'false': []}
    k = int(round(first / chunk))
    while k * chunk < minutes:
        start = k * chunk * 60.0
        key = 'long-%04d-%g-v%d-%s' % (k, chunk, heldout.LONG_VERSION,
                                       _rule_key())
        rf = os.path.join(d, key + '.json')
        if os.path.exists(rf):
            with open(rf) as f:
                r = json.load(f)
        else:
            t0 = time.time()
            path = os.path.join(d, key + '.ts')
            n, cuts, _ = heldout.write_long(path, workdir, chunk, start,
                                            half)
            res = detect(path, n)
            r = {'frames': n, 'cuts': cuts, 'blur': res['blur'],
                 'states': res['states'], 'scores': res['scores'],
                 'cpbd': res['cpbd']}
            os.remove(path)
            with open(rf + '.part', 'w') as f:
                json.dump(r, f)
            os.rename(rf + '.part', rf)
            log('long chunk %d (%g min from %g s): %d false segments, '
                '%.0f s' % (k, chunk, start, len(r['blur']),
                            time.time() - t0))
        tot['seconds'] += r['frames'] / heldout.FPS
        tot['segments'] += len(r['blur'])
        tot['frames_blurry'] += r['states'].count('B')
        tot['flat_frames'] += r['states'].count('f')
        tot['false'] += [[k, a, b] + _long_shot(start, chunk, half, a,
                                                 r.get('scores'))
                         for a, b in r['blur']]
        tot['chunks'] += 1
        k += 1
    h = tot['seconds'] / 3600
    tot['per_hour'] = tot['segments'] / h if h else None
    return tot


def listed_clips(workdir, halves, sizes):
    """The clips of @halves and @sizes that DIR/truth.json lists and DIR
    holds, whatever generator made them: a work directory made before the
    photograph set changed is evaluated as it is."""
    with open(os.path.join(workdir, 'truth.json')) as f:
        t0 = json.load(f)
    return [types.SimpleNamespace(name=n, half=e['half'],
                                  category=e['category'])
            for n, e in sorted(t0.items())
            if e['half'] in halves and str(e['size']) in sizes and
            os.path.exists(os.path.join(workdir, e['file']))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('workdir')
    ap.add_argument('--half', default='both')
    ap.add_argument('--ci', action='store_true')
    ap.add_argument('--sizes', default='360,720,1080')
    ap.add_argument('--variants', type=int)
    ap.add_argument('--categories')
    ap.add_argument('--long', type=float)
    ap.add_argument('--chunk', type=float, default=5.0)
    ap.add_argument('--long-from', type=float, default=0.0,
                    help='the minute of the sharp stream to start from (a '
                    'multiple of --chunk)')
    ap.add_argument('--long-half', default='heldout',
                    choices=photos.HALVES,
                    help='the photographs of the sharp stream (tuning: '
                    'where a false segment is studied)')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--cached', action='store_true',
                    help='only the clips already made and run (the '
                    'tables of a run still going on)')
    ap.add_argument('--made', action='store_true',
                    help='only the clips already made (none is made): '
                    'the tables of a partial set of clips, run now')
    ap.add_argument('--listed', action='store_true',
                    help='the clips DIR/truth.json lists and DIR holds, '
                    'as an earlier generator made them (none is made)')
    ap.add_argument('--set', action='append', default=[],
                    metavar='PROPERTY=VALUE',
                    help='an element property over the defaults (a '
                    'variant measured beside them; results kept apart)')
    ap.add_argument('--json')
    ap.add_argument('--markdown')
    args = ap.parse_args()
    for kv in args.set:
        k, _, v = kv.partition('=')
        if not v:
            ap.error('--set %s: PROPERTY=VALUE' % kv)
        OVERRIDES[k] = float(v)
    if not element_runs.have_element():
        scaffold.skip('cudasharpness not found (GST_PLUGIN_PATH_1_0?)')
    if args.long:
        tot = run_long(args.workdir, args.long, args.chunk,
                       args.long_half, args.long_from)
        print('sharp stream: %.1f min, %d false blur segments (%s per '
              'channel-hour), %d blurry frames, %d flat frames' % (
                  tot['seconds'] / 60, tot['segments'],
                  '%.2f' % tot['per_hour'] if tot['per_hour'] is not None
                  else '—', tot['frames_blurry'], tot['flat_frames']))
        for k, a, b, scene, s0, before in tot['false']:
            print('  chunk %d frames %d-%d: shot from %s, score before %s: '
                  '%s' % (k, a, b, s0, 'none' if before is None else
                          '%.3f' % before, scene))
        if args.json:
            with open(args.json, 'w') as f:
                json.dump(tot, f, indent=1)
        return
    halves = photos.HALVES[::-1] if args.half == 'both' else (args.half,)
    if args.listed:
        clips = listed_clips(args.workdir, halves, args.sizes.split(','))
    elif args.ci:
        clips = heldout.ci_suite(halves)
    else:
        sizes = tuple(int(s) for s in args.sizes.split(','))
        clips = [c for h in halves
                 for c in heldout.full_suite(h, sizes, args.variants)]
    if args.categories:
        cats = args.categories.split(',')
        clips = [c for c in clips if c.category in cats]
    # Made and run a category at a time (results as they come).
    truth = {}
    t = Table()
    per_clip = {}
    for h in halves:
        for cat in heldout.CATEGORIES:
            sel = [c for c in clips if c.half == h and c.category == cat]
            if not sel:
                continue
            if args.listed:
                with open(os.path.join(args.workdir, 'truth.json')) as f:
                    t0 = json.load(f)
                truth.update({c.name: t0[c.name] for c in sel})
            elif args.cached or args.made:
                with open(os.path.join(args.workdir, 'truth.json')) as f:
                    t0 = json.load(f)
                sel = [c for c in sel if c.name in t0 and
                       t0[c.name]['key'] == c.key() and os.path.exists(
                           os.path.join(args.workdir, 'results', '%s-%s-%s.json'
                                        % (c.name, c.key(), _rule_key()))
                           if args.cached else c.path(args.workdir))]
                truth.update({c.name: t0[c.name] for c in sel})
                if not sel:
                    continue
            else:
                truth.update(heldout.make(sel, args.workdir, args.jobs))
            tt, pc = evaluate_clips(sel, truth, args.workdir)
            for k, v in tt.n.items():
                t.add(*k, **v)
            per_clip.update(pc)
    md = []
    for h in halves:
        md.append('%s half:\n\n%s\n' % (h, table(t, h, heldout.CATEGORIES)))
    print('\n'.join(md))
    bad = [n for n, v in per_clip.items() if not v['events_agree']]
    print('clips whose blurry events differ from the states: %d %s' % (
        len(bad), bad[:5]))
    if args.markdown:
        with open(args.markdown, 'w') as f:
            f.write('\n'.join(md))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'table': {'%s/%s' % k: v for k, v in t.n.items()},
                       'clips': per_clip}, f, indent=1)


if __name__ == '__main__':
    main()
