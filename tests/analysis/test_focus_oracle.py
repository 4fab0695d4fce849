#!/usr/bin/python3
# The element's focus tiles (analysis/sharpness-focus.h, through
# tests/analysis/focus-tool) against the numpy oracle written from the same
# definition (focus_oracle.py), exactly: every tile's four sums and the
# frame's focus value to the last bit.  scikit-image's photographs at
# several sizes (tiles whole and cut on either side), blurred and with low
# contrast; frames with no tile and with no textured tile; and hand-worked
# bar patterns whose sums and blur are known.
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
from fractions import Fraction  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'oracle'))
import classical_oracle  # noqa: E402
import focus_oracle  # noqa: E402
import natural_images  # noqa: E402

BUILD = os.environ.get('SHARPNESS_BUILD_ROOT', 'build')
TOOL = os.environ.get('FOCUS_TOOL', os.path.join(BUILD, 'tests', 'analysis',
                                                 'focus-tool'))
TILE = focus_oracle.TILE


def tool_focus(frames, tmp):
    """The tool's (focus, tiles) of each uint8 frame of @frames (one size):
    focus the double it printed, tiles an int64 array (tiles_y, tiles_x,
    4)."""
    h, w = frames[0].shape
    path = os.path.join(tmp, 'frames.gray')
    np.ascontiguousarray(np.stack(frames), dtype=np.uint8).tofile(path)
    out = subprocess.run([TOOL, str(w), str(h), path], check=True,
                         capture_output=True, text=True).stdout
    got = []
    for line in out.splitlines():
        f = line.split()
        tx, ty = int(f[1]), int(f[2])
        sums = [int(v) for v in f[3:]]
        assert len(sums) == 4 * tx * ty, (w, h, line[:80])
        got.append((float(f[0]),
                    np.array(sums, dtype=np.int64).reshape(ty, tx, 4)))
    assert len(got) == len(frames), (w, h, len(got), len(frames))
    return got


def compare(frames, tmp, what):
    """Asserts the tool equals the oracle on @frames; returns the
    oracle's (focus, tiles) of each."""
    got = tool_focus(frames, tmp)
    want = []
    for k, f in enumerate(frames):
        t = focus_oracle.tiles(f)
        want.append((focus_oracle.focus(t), t))
        gf, gt = got[k]
        # Without a complete tile either count may read 0 (the oracle's
        # are floor ((W - 3) / 64) and floor ((H - 3) / 64) regardless).
        assert gt.shape == t.shape or gt.size == t.size == 0, \
            (what, k, gt.shape, t.shape)
        bad = np.argwhere(gt != t) if t.size else np.zeros((0, 3))
        assert bad.size == 0, (what, k, 'tile sums differ at (y, x, sum)',
                               bad[:4].tolist(), gt[tuple(bad[0])],
                               t[tuple(bad[0])])
        # Equal as doubles: %.17g reads back to the very double printed.
        assert gf == want[-1][0], (what, k, repr(gf), repr(want[-1][0]))
    return want


def bars(tiles_x, tiles_y, amplitude):
    """A frame of exactly tiles_x x tiles_y tiles, each with one vertical
    bar of @amplitude on 0 across its full height, at tile columns 24 ..
    39: a rising step at 24 and a falling one at 40."""
    w, h = 3 + TILE * tiles_x, 3 + TILE * tiles_y
    row = np.zeros(w, np.uint8)
    for i in range(tiles_x):
        x0 = focus_oracle.ORIGIN + TILE * i
        row[x0 + 24:x0 + 40] = amplitude
    return np.tile(row, (h, 1))


def hand_worked(tmp):
    # A step of 0 -> a on constant columns: Sobel along axis 1 is 4 a at
    # the step's two columns (c - 1 and c), so sharp = 11 x 4 a there;
    # the 11-tap sum U rises by a a column over 11 columns, |S (U)| =
    # 4 x 2a at those two, so lost = 44 a - 8 a = 36 a.  Two steps 16
    # apart (U reaches 6 columns, Sobel one more: no overlap) give per
    # tile M1 = 4 x 44 a x 64 rows, M2 = 4 x 36 a x 64 and axis 0 none
    # (columns are constant, and reflect keeps them so): blur = 8 / 44.
    a = 200
    sharp = bars(4, 3, a)
    m1, m2 = 4 * 44 * a * TILE, 4 * 36 * a * TILE
    # 2 252 800 >= 500 x 4096 = 2 048 000: textured.
    assert m1 >= focus_oracle.FLOOR * TILE * TILE
    two_11 = float(Fraction(2, 11))
    # The same bars at half the amplitude: 1 126 400, not textured.
    faint = bars(4, 3, a // 2)
    # The bars blurred (sigma 2: the profile stays monotone and inside its
    # tile, so M1 telescopes to the same 4 x 44 a x 64) except tile
    # column 1, kept sharp: its blur is the lowest, the focus value.
    blurred = natural_images.blur(sharp, 2)
    mixed = blurred.copy()
    cols = slice(focus_oracle.ORIGIN + TILE, focus_oracle.ORIGIN + 2 * TILE)
    mixed[:, cols] = sharp[:, cols]
    # And with tile column 1 sharp but faint: untextured, so the focus
    # value is the blurred tiles' blur.
    faint_mixed = blurred.copy()
    faint_mixed[:, cols] = faint[:, cols]
    frames = [sharp, faint, blurred, mixed, faint_mixed]
    want = compare(frames, tmp, 'bars')
    expect_sharp = np.tile(np.array([0, 0, m1, m2], np.int64), (3, 4, 1))
    assert np.array_equal(want[0][1], expect_sharp), want[0][1][0, 0]
    assert want[0][0] == two_11, want[0][0]
    assert np.array_equal(want[1][1], expect_sharp // 2), want[1][1][0, 0]
    assert want[1][0] == 1.0, want[1][0]
    blur_b = focus_oracle.tile_blur(want[2][1][0, 0])
    assert (want[2][1][..., 0] == 0).all() and \
        (want[2][1][..., 2] == m1).all(), want[2][1][0, 0]
    assert blur_b > 0.4 and want[2][0] == blur_b, (blur_b, want[2][0])
    assert want[3][0] == two_11, want[3][0]
    assert np.array_equal(want[3][1][:, 1], expect_sharp[:, 1])
    assert want[4][0] == blur_b, (want[4][0], blur_b)
    print('hand-worked bars: sharp tiles (%d, %d, %d, %d), focus %r (2/11); '
          'faint: untextured, focus 1; blurred sigma 2: focus %.6f; one '
          'sharp tile column among blurred ones: focus %r; faint among '
          'blurred: %.6f' % (tuple(expect_sharp[0, 0]) + (
              want[0][0], want[2][0], want[3][0], want[4][0])))


def edge_cases(tmp):
    cam = natural_images.gray_of('camera')
    # Too small for a whole tile on one side: no tile, focus 1.
    for w, h in ((66, 200), (200, 66), (66, 66), (4, 4), (1, 1)):
        got = compare([cam[:h, :w]], tmp, '%dx%d' % (w, h))[0]
        assert got[0] == 1.0 and got[1].size == 0, (w, h, got)
    # 67 x 67: exactly one tile, the interior 2 .. 64 + 1.
    one = compare([cam[100:167, 100:167]], tmp, '67x67')[0]
    assert one[1].shape == (1, 1, 4), one[1].shape
    # A flat frame: every sum 0, no tile textured, focus 1.
    flat = np.full((720, 1280), 128, np.uint8)
    got = compare([flat], tmp, 'flat')[0]
    assert got[0] == 1.0 and not got[1].any() and \
        got[1].shape == (11, 19, 4), got
    # Where the interior is exactly whole tiles (W, H = 3 + 64 k) the
    # tiles cover all of it: their sums add up to blur-effect's own.
    g = cam[:3 + 7 * TILE, :3 + 6 * TILE]
    t = compare([g], tmp, 'whole interior')[0][1]
    assert tuple(int(v) for v in t.sum(axis=(0, 1))) == \
        classical_oracle._sums_blur_effect(g.astype(np.int64))
    print('edge cases: no tile (66, 4 and 1 pixels wide or high), one tile '
          '(67 x 67), flat 1280 x 720 (focus 1), tiles adding up to the '
          "frame's blur-effect sums")


def frame_of(name, w, h):
    """@name's gray image cut to @w x @h, mirrored out ('symmetric') where
    it is smaller: a natural picture at 1280 x 720."""
    g = natural_images.gray_of(name)
    g = np.pad(g, ((0, max(0, h - g.shape[0])), (0, max(0, w - g.shape[1]))),
               mode='symmetric')
    return np.ascontiguousarray(g[:h, :w])


def versions(g):
    """The photograph, Gaussian-blurred (sigma 1.5 and 4) and at half and
    a quarter of its contrast (the quarter mostly under the floor)."""
    return [g, natural_images.blur(g, 1.5), natural_images.blur(g, 4),
            (g // 2 + 64).astype(np.uint8), (g // 4 + 96).astype(np.uint8)]


def natural(tmp):
    names = natural_images.GRAY_NAMES + natural_images.COLOR_NAMES
    checked = 0
    # Every photograph at sizes where tiles are cut on the right, the
    # bottom or both (67 and 131 whole, 66 none, 200 = 3 + 3 x 64 + 5).
    for name in names:
        for w, h in ((67, 67), (131, 70), (200, 66), (333, 197)):
            want = compare(versions(frame_of(name, w, h)), tmp,
                           '%s %dx%d' % (name, w, h))
            checked += len(want)
    # A few at the stream sizes and odd ones.
    for name in ('camera', 'astronaut', 'coffee', 'grass'):
        for w, h in ((640, 360), (1280, 720), (721, 405)):
            want = compare(versions(frame_of(name, w, h)), tmp,
                           '%s %dx%d' % (name, w, h))
            checked += len(want)
            if name == 'camera' and w == 640:
                print('camera 640x360, focus of the photograph, blurred '
                      'sigma 1.5 and 4, at half and a quarter contrast: %s' %
                      ', '.join('%.6f' % f for f, _ in want))
    print('%d natural frames: the tool equals the oracle' % checked)


def main():
    if not os.path.exists(TOOL):
        print('no %s: build the tests first' % TOOL)
        return 1
    with tempfile.TemporaryDirectory(prefix='focus-') as tmp:
        hand_worked(tmp)
        edge_cases(tmp)
        natural(tmp)
    return 0


if __name__ == '__main__':
    sys.exit(main())
