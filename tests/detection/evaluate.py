#!/usr/bin/python3
# The evaluator of docs/validation/detection.md: runs the real cudasharpness element
# (CPU backend) on every clip of the suite, one element per rule behind one
# decoder, turns the per-frame content states into segments (blurry frames
# with the segment tracker's semantics: rules.MIN_DURATION, rules.MAX_GAP;
# black and freeze from the element's events) and reports precision and
# recall of segments per category and kind (scoring.py).  It also replays
# each rule's blur decisions through the Python replica (replica.py) from
# the element's own scores and states, and counts the frames where the two
# disagree: the replica the rule sweeps used must be the element.
#
# Usage: evaluate.py DIR [--ci] [--rules NAME,... | --thresholds T,...]
#        [--categories C,...] [--json FILE]
#        [--markdown FILE]
#   DIR      where the suite's clips are made (kept between runs)
#   --ci     the CI subset (suite.ci_suite) instead of the full suite
#   --rules  rules.RULES names (default: all that the CPU scores live)
#   --thresholds T,...  instead, the defaults at each absolute threshold
#            (rules 'defaults-052' and so on; detection.md, issue 30's
#            choice of the level)
#   --categories C,...  only the clips of those categories
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage', 'gi')

import numpy as np  # noqa: E402

import element_runs  # noqa: E402
import replica  # noqa: E402
import rules  # noqa: E402
import scoring  # noqa: E402
import suite  # noqa: E402

STATE_OF_KIND = {'black': 'black', 'freeze': 'frozen'}
EVENT_OF_KIND = {'black': 'sharpness-black-end',
                 'freeze': 'sharpness-freeze-end',
                 'blur': 'sharpness-blurry-end'}


def event_segments(events, kind, states):
    """[(first, last)] of the element's end events of @kind.  Black and
    freeze ends name the first frame after the stretch (FFmpeg's end), or
    its last frame at the end of the stream; blurry ends name the last
    blurry frame."""
    out = []
    for name, ev in events:
        if name != EVENT_OF_KIND[kind]:
            continue
        a, b = int(ev['start-frame']), int(ev['end-frame'])
        if kind != 'blur' and not (b == len(states) - 1 and
                                   states[b] == STATE_OF_KIND[kind]):
            b -= 1
        out.append((a, b))
    return out


def replay(rule, frames, sigs):
    """The replica's states ('blurry', 'flat' or None) for the element's
    scores, structures and black and frozen states."""
    props = rules.properties(rule)
    metric = props['metric']
    br = replica.BlurRule(metric in rules.LOWER_IS_SHARPER,
                          props['window'], props['threshold'],
                          props['relative-threshold'],
                          cpbd_threshold=props.get('cpbd-threshold',
                                                   replica.CPBD_THRESHOLD),
                          focus_threshold=props.get('focus-threshold', 0.0))
    out = [None] * len(frames)
    for i, f in enumerate(frames):
        if f['content-state'] in ('black', 'frozen'):
            out[i] = f['content-state']
            continue
        if f['score'] is None:
            continue
        blurry = br.push(f['score'], sigs[i] if sigs is not None else None,
                         f['structure'], props.get('flat-threshold', 0.0),
                         cpbd=f.get('cpbd'), focus=f.get('focus'))
        out[i] = 'blurry' if blurry else 'flat' if br.flat else None
    return out


def evaluate(clips, truth, workdir, names, log=print):
    """{rule: Tally}, {rule: replica mismatches}, {rule: event
    mismatches}."""
    tallies = {n: scoring.Tally() for n in names}
    mismatch = {n: 0 for n in names}
    event_mismatch = {n: 0 for n in names}
    props = [(rules.element_name(n), rules.element_properties(n))
             for n in names]
    for c in clips:
        entry = truth[c.name]
        path = os.path.join(workdir, entry['file'])
        t0 = time.time()
        res = element_runs.run(path, props)
        gray = replica.decode_gray(path, entry['width'], entry['height'],
                                   entry['codec'] == 'h264-10')
        sigs = [replica.signature(g) for g in gray]
        for n in names:
            r = res[rules.element_name(n)]
            frames = r['frames']
            if len(frames) != entry['frames']:
                raise RuntimeError('%s: %d frames for %d' % (
                    c.name, len(frames), entry['frames']))
            states = [f['content-state'] for f in frames]
            blurry = np.array([s == 'blurry' for s in states])
            found = {'blur': replica.segments(blurry, suite.FPS,
                                              rules.MIN_DURATION,
                                              rules.MAX_GAP)}
            for kind in ('black', 'freeze'):
                found[kind] = event_segments(r['events'], kind, states)
            if found['blur'] != event_segments(r['events'], 'blur', states):
                event_mismatch[n] += 1
                log('  %s %s: blurry events %s, from the states %s' % (
                    n, c.name, event_segments(r['events'], 'blur', states),
                    found['blur']))
            tallies[n].add_clip(entry, found)
            rep = replay(n, frames, sigs)
            mismatch[n] += sum(
                (r == 'blurry') != (st == 'blurry') or
                (r == 'flat') != (st == 'flat')
                for r, st in zip(rep, states))
        log('%-20s %5.1f s' % (c.name, time.time() - t0))
    return tallies, mismatch, event_mismatch


def table(tallies, names, categories, kinds=scoring.KINDS):
    """Markdown: one row per category and kind with a true or a found
    segment there (every category has its blur row, so that one with
    nothing to find, such as glitches, shows its false segments, or none),
    one column per rule; cells 'recall / precision (found/true, false)'."""
    lines = ['| category | kind | %s |' % ' | '.join(names),
             '|---|---|%s|' % '|'.join('---' for _ in names)]
    for cat in categories + [None]:
        for kind in kinds:
            cells = [tallies[n].counts(cat, kind) for n in names]
            if not any(sum(x) for x in cells) and cat is not None and \
                    kind != 'blur':
                continue
            lines.append('| %s | %s | %s |' % (
                cat or '**all**', kind,
                ' | '.join(scoring.fmt_cell(x) for x in cells)))
    return '\n'.join(lines)


def to_json(tallies, mismatch, event_mismatch, names, categories):
    out = {}
    for n in names:
        t = tallies[n]
        cells = {}
        for cat in categories + [None]:
            for kind in scoring.KINDS + (None,):
                hit, missed, false = t.counts(cat, kind)
                rec, prec = t.rates((hit, missed, false))
                cells['%s/%s' % (cat or 'all', kind or 'all')] = {
                    'found': hit, 'missed': missed, 'false': false,
                    'recall': rec, 'precision': prec}
        out[n] = {'properties': rules.element_properties(n),
                  'cells': cells, 'replica_mismatched_frames': mismatch[n],
                  'event_mismatched_clips': event_mismatch[n]}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('workdir')
    ap.add_argument('--ci', action='store_true')
    ap.add_argument('--rules', default=','.join(rules.LIVE_RULES))
    ap.add_argument('--thresholds')
    ap.add_argument('--categories')
    ap.add_argument('--json')
    ap.add_argument('--markdown')
    args = ap.parse_args()
    if not element_runs.have_element():
        scaffold.skip('cudasharpness not found (GST_PLUGIN_PATH_1_0?)')
    names = args.rules.split(',')
    if args.thresholds:
        names = []
        for t in args.thresholds.split(','):
            names.append('defaults-%s' % t.replace('.', ''))
            rules.RULES[names[-1]] = dict(rules.DEFAULTS, threshold=float(t))
    clips = suite.ci_suite() if args.ci else suite.full_suite()
    if args.categories:
        clips = [c for c in clips if c.category in args.categories.split(',')]
    truth = suite.make(clips, args.workdir)
    cats = [c for c in suite.CATEGORIES
            if any(x.category == c for x in clips)]
    tallies, mismatch, ev = evaluate(clips, truth, args.workdir, names)
    md = table(tallies, names, cats)
    print(md)
    for n in names:
        print('%s: replica mismatched frames %d, clips whose blurry events '
              'differ from the states %d' % (n, mismatch[n], ev[n]))
    if args.markdown:
        with open(args.markdown, 'w') as f:
            f.write(md + '\n')
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(to_json(tallies, mismatch, ev, names, cats), f,
                      indent=1)


if __name__ == '__main__':
    main()
