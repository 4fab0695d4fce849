#!/usr/bin/python3
# The element's CPBD counts (analysis/sharpness-cpbd.h, through
# tests/analysis/cpbd-tool) against the numpy oracle written from the same
# definition (cpbd_oracle.py), to the pixel: scikit-image's photographs at
# several sizes (64-pixel blocks whole and cut), blurred and with low
# contrast; and hand-worked edges whose widths are known.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage')

import subprocess  # noqa: E402
import tempfile  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpbd_oracle  # noqa: E402
import natural_images  # noqa: E402

BUILD = os.environ.get('SHARPNESS_BUILD_ROOT', 'build')
TOOL = os.environ.get('CPBD_TOOL', os.path.join(BUILD, 'tests', 'analysis',
                                                'cpbd-tool'))


def tool_counts(frames, tmp):
    """The tool's (edges, sharp) of each uint8 frame of @frames (one
    size)."""
    h, w = frames[0].shape
    path = os.path.join(tmp, 'frames.gray')
    np.ascontiguousarray(np.stack(frames), dtype=np.uint8).tofile(path)
    out = subprocess.run([TOOL, str(w), str(h), path], check=True,
                         capture_output=True, text=True).stdout
    return [tuple(map(int, line.split())) for line in out.splitlines()]


def edge_image(profile, w=192, h=128):
    """Rows of @profile (values left to right, then held) placed at column
    80, a vertical edge across the whole frame."""
    row = np.full(w, profile[0], np.uint8)
    row[80:80 + len(profile)] = profile
    row[80 + len(profile):] = profile[-1]
    return np.tile(row, (h, 1))


def hand_worked(tmp):
    # A step of 0 -> 200: its Sobel maximum is a plateau of two columns,
    # one pixel per row kept; width 2 (1 + 1 a side, no further step),
    # sharp at w_JNB 3 (contrast 200 > 50).  Rows 1 .. 126 of the two
    # complete 64 x 64 blocks it crosses (x 64 .. 127): 126 edges.
    step = edge_image([0, 200])
    # A linear ramp of 8 steps of 25: width 8 at its centre, blurred.
    ramp = edge_image([0, 25, 50, 75, 100, 125, 150, 175, 200])
    # The same step at contrast 40 and a 4-step ramp at contrast 40:
    # w_JNB 5, the ramp (width 4 or 5) sharp too.
    low_step = edge_image([100, 140])
    low_ramp = edge_image([100, 110, 120, 130, 140])
    # A step of 2 levels: |Sx| = 4 x 2 = 8, under the level 16: no edge.
    faint = edge_image([100, 102])
    frames = [step, ramp, low_step, low_ramp, faint]
    got = tool_counts(frames, tmp)
    want = [cpbd_oracle.counts(f) for f in frames]
    assert got == want, (got, want)
    assert got[0] == (126, 126), got[0]
    assert got[1][0] == 126 and got[1][1] == 0, got[1]
    assert got[2] == (126, 126), got[2]
    assert got[3][0] > 0 and got[3][1] == got[3][0], got[3]
    assert got[4] == (0, 0), got[4]
    # A 45-degree edge: no width measured (the authors' angle rule).
    diag = np.fromfunction(lambda y, x: np.where(x > y + 20, 200, 0),
                           (128, 192)).astype(np.uint8)
    assert tool_counts([diag], tmp) == [cpbd_oracle.counts(diag)] == \
        [(0, 0)]
    print('hand-worked edges: step %s, ramp %s, low-contrast step %s, ramp '
          '%s, faint %s, diagonal (0, 0)' % tuple(got))


def natural(tmp):
    names = natural_images.GRAY_NAMES + natural_images.COLOR_NAMES
    checked = 0
    for name in names:
        base = natural_images.gray_of(name)
        for w, h in ((320, 240), (333, 197), (130, 70), (64, 64)):
            if base.shape[0] < h or base.shape[1] < w:
                continue
            crop = base[:h, :w]
            frames = [crop, natural_images.blur(crop, 1.5),
                      natural_images.blur(crop, 4),
                      (crop // 4 + 96).astype(np.uint8)]
            got = tool_counts(frames, tmp)
            want = [cpbd_oracle.counts(f) for f in frames]
            assert got == want, (name, w, h, got, want)
            checked += len(frames)
            if name == 'camera' and w == 320:
                print('camera 320x240, (edges, sharp) of the photograph, '
                      'blurred sigma 1.5 and 4, at low contrast: %s' % got)
    # Frames smaller than a block, or too thin for an edge pixel.
    for w, h in ((63, 200), (200, 63), (1, 1), (3, 3), (200, 2)):
        f = natural_images.gray_of('camera')[:h, :w]
        assert tool_counts([f], tmp) == [cpbd_oracle.counts(f)] == [(0, 0)]
    print('%d natural frames: the tool equals the oracle' % checked)


def main():
    if not os.path.exists(TOOL):
        print('no %s: build the tests first' % TOOL)
        return 1
    with tempfile.TemporaryDirectory(prefix='cpbd-') as tmp:
        hand_worked(tmp)
        natural(tmp)
    return 0


if __name__ == '__main__':
    sys.exit(main())
