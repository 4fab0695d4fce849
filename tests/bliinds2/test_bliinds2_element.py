#!/usr/bin/python3
# BLIINDS-II through the element: `filesrc ! rawvideoparse ! cudasharpness
# metric=bliinds2 backend=cpu ! fakesink` must post, for every frame, the
# score the CPU backend gives that frame's gray image.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_bliinds2_element.py BLIINDS2-FEATURES
# Exits 77 (skipped) when PyGObject or the element is missing.

import os
import sys

import bliinds2_cases as cases

try:
    import element_runner
    import rawframes
except (ImportError, ValueError) as e:
    element_runner = rawframes = None
    missing = 'PyGObject: %s' % e


def unavailable():
    """Why the element cannot be tested here, or None."""
    if element_runner is None:
        return missing
    try:
        element_runner.require_element()
    except element_runner.PipelineError as e:
        return str(e)
    return None

ramp = cases.natural_images


def frames_of(name, crop, fmt):
    """Two frames of @name cropped to @crop, as plane-0 samples of @fmt:
    the gray image and its sigma-2 blur, or the colour image and its
    upside-down copy."""
    if fmt in rawframes.RGB_FORMATS:
        img = ramp.load(name)[crop]
        return [img, img[::-1].copy()]
    gray = ramp.gray_of(name)[crop]
    return [gray, ramp.blur(gray, 2)]


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
    for f in failures:
        print('FAIL:', f)
    return 1 if failures else 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: test_bliinds2_element.py BLIINDS2-FEATURES')
    sys.exit(main(sys.argv[1]))
