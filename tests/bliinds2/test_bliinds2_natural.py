#!/usr/bin/python3
# The CPU backend's 24 BLIINDS-II features and score against the numpy
# oracle on natural images (scikit-image data, colour ones through the
# fixed-point luma), odd-sized crops and small synthetic images.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_bliinds2_natural.py BLIINDS2-FEATURES
#
# Features must agree within 1e-6 relative and scores exactly.  Both sides
# compute in double, so the expected difference is rounding (~1e-14); the
# gamma table lookup and the 10% selections are discontinuous, so a flip
# at a knife edge would show as a jump far above that.  Differences above
# NOTICE are printed for investigation even when within the tolerance.

import os
import subprocess
import sys

# tests/common: shared modules, and a skip (exit 77) when a module is
# missing.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage')

import numpy as np  # noqa: E402

import bliinds2_cases as cases  # noqa: E402
import bliinds2_oracle as oracle  # noqa: E402

TOLERANCE = 1e-6
NOTICE = 1e-10


def relative(got, want):
    return np.abs(got - want) / np.maximum(np.abs(want), np.finfo(float).tiny)


def check_cli(backend, gray):
    """The oracle's command line reads the same raw file as the tool."""
    path = os.path.join(backend.tmp.name, 'cli.gray')
    gray.tofile(path)
    out = subprocess.run([sys.executable, oracle.__file__, 'features', path,
                          str(gray.shape[1]), str(gray.shape[0])],
                         capture_output=True, text=True, check=True).stdout
    values = np.array([float(v) for v in out.split()])
    f = oracle.features(gray)
    return values.size == 25 and np.array_equal(values[:24], f) and \
        values[24] == oracle.predict(oracle.load_model(), f)


def compare(tool, log=print):
    """[(label, W, H, largest relative feature difference, score, oracle
    score)] over every case, and the failures."""
    backend = cases.Backend(tool)
    model = oracle.load_model()
    rows, failures = [], []

    for label, gray in cases.natural_cases() + cases.synthetic_cases():
        got, score = backend.run(gray)
        want = oracle.features(gray)
        want_score = oracle.predict(model, want)
        rel = relative(got, want)
        rows.append((label, gray.shape[1], gray.shape[0], rel.max(), score,
                     want_score))
        log('%-24s %9s %5.0e %6.1f %6.1f' % (
            label, '%dx%d' % (gray.shape[1], gray.shape[0]), rel.max(),
            score, want_score))
        for i in np.flatnonzero(rel > NOTICE):
            log('  NOTE feature %d: C %.17g, oracle %.17g (%.1e)'
                % (i + 1, got[i], want[i], rel[i]))
        for i in np.flatnonzero(rel > TOLERANCE):
            failures.append('%s: feature %d differs by %.1e' % (label, i + 1,
                                                                rel[i]))
        if score != want_score:
            failures.append('%s: score %r, oracle %r' % (label, score,
                                                        want_score))

    if not check_cli(backend, cases.natural_cases()[0][1]):
        failures.append('oracle command line disagrees with the module')
    return rows, failures


def main(tool):
    print('%-24s %9s %5s %6s %6s' % ('image', 'size', 'max', 'score',
                                     'oracle'))
    rows, failures = compare(tool)
    print('largest relative feature difference: %.1e'
          % max(r[3] for r in rows))
    return scaffold.verdict(failures)


if __name__ == '__main__':
    scaffold.run_main(main, 'BLIINDS2-FEATURES')
