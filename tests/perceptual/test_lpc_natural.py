#!/usr/bin/python3
# The CPU backend's LPC-SI and CWTVNRS, and their maps (LPC, TV, the
# re-blurred frame and its LPC and TV maps), against the independent numpy
# oracle lpc_oracle.py on natural and synthetic images, odd sizes included,
# and on blurred images whose gray levels are not integers.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_lpc_natural.py TEST-LPC-MAPS
#
# Maps must agree norm-wise, ||c - o|| <= 1e-6 ||o|| (plus 1e-9 RMS, for
# maps that are 0 in exact arithmetic and hold FFT rounding in the C), and
# scores to 1e-6 relative (plus 1e-12).

import os
import sys

# tests/common: shared modules, and a skip (exit 77) when a module is
# missing.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage')

import numpy as np  # noqa: E402

import lpc_cases as cases  # noqa: E402
import lpc_oracle as oracle  # noqa: E402

RELATIVE = 1e-6
MAP_RMS_FLOOR = 1e-9
SCORE_FLOOR = 1e-12


def map_error(got, want):
    """(relative norm-wise error, allowed)."""
    diff = np.linalg.norm(got - want)
    norm = np.linalg.norm(want)
    allowed = RELATIVE * norm + MAP_RMS_FLOOR * np.sqrt(want.size)
    return (diff / norm if norm > 0 else diff), diff <= allowed


def check(backend, label, gray):
    failures = []
    got = backend.run(gray, maps=True)
    want_maps = oracle.cwtvnrs_maps(gray)
    want = {'lpc-si': oracle.lpc_si_pool(want_maps['lpc']),
            'cwtvnrs': oracle.cwtvnrs_from_maps(want_maps)}

    h, w = gray.shape
    parts = []
    for name in cases.MAP_NAMES:
        err, ok = map_error(got['maps'][name], want_maps[name])
        parts.append('%s %.1e' % (name, err))
        if not ok:
            failures.append('%s: %s map relative error %.3g' % (label, name,
                                                                err))
    for metric in ('lpc-si', 'cwtvnrs'):
        g, o = got[metric], want[metric]
        parts.append('%s %.17g (oracle %.17g)' % (metric, g, o))
        if not abs(g - o) <= RELATIVE * abs(o) + SCORE_FLOOR:
            failures.append('%s: %s %.17g, oracle %.17g' % (label, metric, g,
                                                             o))
    print('%s %dx%d: %s' % (label, w, h, ', '.join(parts)))
    return failures


def main(tool):
    backend = cases.Backend(tool)
    failures = []
    for label, gray in (cases.natural_cases() + cases.synthetic_cases() +
                        cases.float_cases()):
        failures += check(backend, label, gray)
    return scaffold.verdict(failures)


if __name__ == '__main__':
    scaffold.run_main(main, 'TEST-LPC-MAPS')
