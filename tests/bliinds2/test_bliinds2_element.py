#!/usr/bin/python3
# BLIINDS-II through the element: `filesrc ! rawvideoparse ! cudasharpness
# metric=bliinds2 backend=cpu ! fakesink` must post, for every frame, the
# score the CPU backend gives that frame's gray image.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_bliinds2_element.py BLIINDS2-FEATURES
# Exits 77 (skipped) when a Python module or the element is missing.

import os
import sys

# tests/common: shared modules, and a skip (exit 77) when a module is
# missing.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage', 'gi')

import bliinds2_cases as cases  # noqa: E402
import element_runner  # noqa: E402
import rawframes  # noqa: E402
from natural_images import frames_of  # noqa: E402


def unavailable():
    """Why the element cannot be tested here, or None."""
    try:
        element_runner.require_element()
    except element_runner.PipelineError as e:
        return str(e)
    return None


def through_element(tool):
    """[(image, format, W, H, element scores, backend scores)], failures."""
    backend = cases.Backend(tool)
    rows, failures = [], []
    whole, odd = (slice(None), slice(None)), (slice(1, 300), slice(0, 451))
    runs = [('camera', whole, 'GRAY8'), ('camera', odd, 'I420'),
            ('chelsea', whole, 'RGB'), ('coffee', odd, 'BGRx')]
    for name, crop, fmt in runs:
        samples = frames_of(name, crop, fmt)
        path = os.path.join(backend.tmp.name, '%s.%s' % (name, fmt))
        raw = rawframes.write(path, fmt, samples, pad=8)
        got = element_runner.run(raw, ['bliinds2'])['bliinds2']
        want = [backend.run(rawframes.gray(fmt, s))[1] for s in samples]
        rows.append((name, fmt, raw.width, raw.height, got, want))
        if got != want:
            failures.append('%s %s: element %s, backend %s' % (name, fmt, got,
                                                               want))
    return rows, failures


def main(tool):
    why = unavailable()
    if why:
        print('skipped: %s' % why)
        return 77

    rows, failures = through_element(tool)
    for name, fmt, w, h, got, want in rows:
        print('%s %s %dx%d: element %s, backend %s' % (name, fmt, w, h, got,
                                                        want))
    return scaffold.verdict(failures)


if __name__ == '__main__':
    scaffold.run_main(main, 'BLIINDS2-FEATURES')
