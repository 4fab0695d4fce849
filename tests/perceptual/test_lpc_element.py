#!/usr/bin/python3
# LPC-SI and CWTVNRS through the element: `filesrc ! rawvideoparse !
# cudasharpness metric=lpc-si|cwtvnrs backend=cpu ! fakesink` must post,
# for every frame, the score the CPU backend gives that frame's gray image
# (the same code on the same gray levels: equal to the last bit).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_lpc_element.py TEST-LPC-MAPS
# Exits 77 (skipped) when a Python module or the element is missing.

import os
import sys

# tests/common: shared modules, and a skip (exit 77) when a module is
# missing.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage', 'gi')

import element_runner  # noqa: E402
import lpc_cases as cases  # noqa: E402
import rawframes  # noqa: E402
from natural_images import frames_of  # noqa: E402

METRICS = ['lpc-si', 'cwtvnrs']


def main(tool):
    try:
        element_runner.require_element()
    except element_runner.PipelineError as e:
        print('skipped: %s' % e)
        return 77

    backend = cases.Backend(tool)
    failures = []
    runs = [('camera', (slice(0, 256), slice(0, 320)), 'GRAY8'),
            ('camera', (slice(1, 258), slice(3, 304)), 'I420'),
            ('chelsea', (slice(0, 201), slice(0, 299)), 'RGB'),
            ('coffee', (slice(0, 199), slice(5, 262)), 'BGRx')]
    for name, crop, fmt in runs:
        samples = frames_of(name, crop, fmt)
        path = os.path.join(backend.tmp.name, '%s.%s' % (name, fmt))
        raw = rawframes.write(path, fmt, samples, pad=8)
        got = element_runner.run(raw, METRICS)
        want = [backend.run(rawframes.gray(fmt, s)) for s in samples]
        for metric in METRICS:
            w = [s[metric] for s in want]
            print('%s %s %dx%d %s: element %s, backend %s' % (
                name, fmt, raw.width, raw.height, metric, got[metric], w))
            if got[metric] != w:
                failures.append('%s %s %s: element %s, backend %s' % (
                    name, fmt, metric, got[metric], w))
    return scaffold.verdict(failures)


if __name__ == '__main__':
    scaffold.run_main(main, 'TEST-LPC-MAPS')
