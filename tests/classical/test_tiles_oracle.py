#!/usr/bin/python3
# Tile sums and tile scores of the CPU backend against the numpy oracle
# (tests/oracle/classical_oracle.py: tile_sums, tile_scores) on the natural
# images, through `test-classical-tiles --dump`.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Sums must be equal; scores bit-identical (the oracle's scores are the
# correctly rounded values, and on images this size every C division is a
# single rounding of exact operands; entropy uses the same log2 in the same
# bin order).  Usage: test_tiles_oracle.py PATH/test-classical-tiles

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'common'))
sys.path.insert(0, os.path.join(HERE, '..', 'oracle'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage')

import numpy as np  # noqa: E402

import classical_oracle as oracle  # noqa: E402
import natural_images as ni  # noqa: E402

GRIDS = ((1, 1), (8, 4), (7, 5), (64, 64), (13, 1), (1, 64))


def main():
    if len(sys.argv) != 2:
        print("usage: %s PATH/test-classical-tiles" % sys.argv[0])
        return 2
    exe = sys.argv[1]
    failures = checks = 0
    names = list(ni.GRAY_NAMES) + list(ni.COLOR_NAMES)
    with tempfile.TemporaryDirectory() as tmp:
        for i, name in enumerate(names):
            g = np.ascontiguousarray(ni.gray_of(name))
            # Odd sizes too: crop a column and a row off every other image.
            if i % 2:
                g = np.ascontiguousarray(g[:-1, :-3])
            h, w = g.shape
            path = os.path.join(tmp, name + '.gray')
            g.tofile(path)
            for cols, rows in GRIDS if i < 3 else GRIDS[i % 3::3]:
                out = subprocess.run(
                    [exe, '--dump', path, str(w), str(h), str(cols),
                     str(rows)], check=True, capture_output=True, text=True)
                got = json.loads(out.stdout)
                want_sums = oracle.tile_sums(g, cols, rows)
                want_scores = oracle.tile_scores(g, cols, rows)
                for m in oracle.TILE_METRICS:
                    checks += 1
                    sums = [tuple(s) if isinstance(s, list) and
                            m == 'variance' else s for s in got[m]['sums']]
                    want = [tuple(s) if m == 'variance' else s
                            for s in want_sums[m]]
                    if sums != want:
                        failures += 1
                        bad = next(k for k in range(len(want))
                                   if sums[k] != want[k])
                        print("FAIL %s %dx%d grid %dx%d %s: tile %d sums "
                              "differ" % (name, w, h, cols, rows, m, bad))
                        continue
                    checks += 1
                    if got[m]['scores'] != want_scores[m]:
                        failures += 1
                        bad = next(k for k in range(len(want))
                                   if got[m]['scores'][k] !=
                                   want_scores[m][k])
                        print("FAIL %s %dx%d grid %dx%d %s: tile %d scores "
                              "%r, oracle %r" % (
                                  name, w, h, cols, rows, m, bad,
                                  got[m]['scores'][bad],
                                  want_scores[m][bad]))
    print("%d checks, %d failures" % (checks, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
