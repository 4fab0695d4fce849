#!/usr/bin/python3
# The detection suite's CI subset (suite.CI_CLIPS, made once per build tree
# in tests/detection/data) through the real element with the recommended
# defaults (rules.DEFAULTS): recall and precision of blur, black and freeze
# segments must not fall below what docs/validation/detection.md reports for this
# subset (the table after its ci-subset marker), the element's blurry-segment events must
# be the segments of its per-frame states, the Python replica of the
# blur rule must decide every frame as the element did, and the element's
# flat defaults must be the measured ones (rules.FLAT).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage', 'gi', 'PIL')

import subprocess  # noqa: E402

import clip_cache  # noqa: E402
import element_runs  # noqa: E402
import evaluate  # noqa: E402
import natural_images  # noqa: E402
import rules  # noqa: E402
import scoring  # noqa: E402
import suite  # noqa: E402

BUILD = os.environ.get('SHARPNESS_BUILD_ROOT', '.')
# The clips, made once in CI's clip cache (both GStreamer parts and later
# runs), in a folder of their generator's source: suite.py keys a clip by
# its definition and RENDER_VERSION, not by its code.
WORK = clip_cache.folder('detection', os.path.join(BUILD, 'tests',
                                                   'detection', 'data'),
                         sources=[suite.__file__, natural_images.__file__])
DOC = os.path.join(scaffold.SOURCE_ROOT, 'docs', 'validation',
                   'detection.md')
# The table of docs/validation/detection.md this test holds the element to.
MARKER = '<!-- ci-subset: the table test_detection.py checks -->'

failures = []


def check(cond, what):
    print('%s: %s' % ('ok' if cond else 'FAIL', what), flush=True)
    if not cond:
        failures.append(what)


def documented():
    """{kind: (recall, precision)} of the defaults on the CI subset, from
    the doc's table after MARKER ('| all | kind | r / p (...) |' rows)."""
    with open(DOC, encoding='utf-8') as f:
        text = f.read()
    if MARKER not in text:
        raise AssertionError('%s: no CI subset table (%s)' % (DOC, MARKER))
    out = {}
    for line in text[text.index(MARKER):].splitlines()[1:]:
        if not line.startswith('|'):
            if out:
                break
            continue
        m = re.match(r'\|\s*\*\*all\*\*\s*\|\s*(\w+)\s*\|\s*([0-9.—]+)\s*/'
                     r'\s*([0-9.—]+)', line)
        if m:
            rate = [None if x == '—' else float(x) for x in m.groups()[1:]]
            out[m.group(1)] = tuple(rate)
    return out


def have_x264():
    if not shutil.which('ffmpeg'):
        return False
    res = subprocess.run(['ffmpeg', '-hide_banner', '-encoders'],
                         capture_output=True, text=True)
    return 'libx264' in res.stdout


def main():
    if not element_runs.have_element():
        scaffold.skip('cudasharpness not found (GST_PLUGIN_PATH_1_0?)')
    if not have_x264():
        scaffold.skip('ffmpeg with libx264 missing')
    # The element's flat defaults are the ones measured here: a change to
    # either must come with a new measurement.
    got = element_runs.element_defaults(list(rules.FLAT))
    check(all(abs(got[k] - v) < 1e-12 for k, v in rules.FLAT.items()),
          'the element\'s flat defaults %s are the measured ones %s' % (
              got, rules.FLAT))
    want = documented()
    check(set(want) == set(scoring.KINDS),
          'the doc gives the CI subset\'s %s rows (%s)' % (
              '/'.join(scoring.KINDS), sorted(want)))
    clips = suite.ci_suite()
    truth = suite.make(clips, WORK)
    tallies, mismatch, ev = evaluate.evaluate(clips, truth, WORK,
                                              ['defaults'])
    t = tallies['defaults']
    print(evaluate.table(tallies, ['defaults'],
                         [c for c in suite.CATEGORIES
                          if any(x.category == c for x in clips)]))
    for kind in scoring.KINDS:
        rec, prec = t.summary(None, kind)
        wrec, wprec = want.get(kind, (None, None))
        for name, got, doc in (('recall', rec, wrec),
                               ('precision', prec, wprec)):
            # Two decimals, as the doc prints them.
            ok = doc is None if got is None else \
                doc is not None and round(got, 2) >= doc
            check(ok, '%s %s %s, documented %s' % (
                kind, name, scoring.fmt_rate(got), scoring.fmt_rate(doc)))
    check(mismatch['defaults'] == 0,
          'replica and element agree on every frame (%d differ)' %
          mismatch['defaults'])
    check(ev['defaults'] == 0,
          'blurry-segment events = segments of the states (%d clips '
          'differ)' % ev['defaults'])
    if failures:
        print('%d check(s) failed' % len(failures))
        sys.exit(1)
    print('detection: all checks passed')


if __name__ == '__main__':
    main()
