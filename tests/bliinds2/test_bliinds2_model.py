#!/usr/bin/python3
# The embedded LIVE model against the release's text conversion: every
# number of the C table, then every prediction on the 982 LIVE training
# vectors against a direct double-precision evaluation by the oracle, and
# the Spearman correlation of the predictions with the DMOS.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_bliinds2_model.py TEST-BLIINDS2-MODEL FEATURES.csv

import os
import subprocess
import sys

# tests/common: shared modules, and a skip (exit 77) when a module is
# missing.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy')

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

import bliinds2_oracle as oracle  # noqa: E402

EXPECTED_SPEARMAN = 0.942
SPEARMAN_TOLERANCE = 0.001


def run(cmd):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit('FAIL: %s exited %d\n%s' % (' '.join(cmd), res.returncode,
                                              res.stderr))
    return res.stdout


def check_table(tool, model):
    """The C table, printed with %.17g, equals the text file bit for bit."""
    got = [float(v) for v in run([tool, '--dump-model']).split()]
    want = ([model['b'], model['gamma']] + list(model['mu'])
            + list(model['sigma_inv'].ravel()))
    if len(got) != len(want):
        return ['model dump has %d numbers, want %d' % (len(got), len(want))]
    return ['model number %d: C %r, file %r' % (i, g, w)
            for i, (g, w) in enumerate(zip(got, want)) if g != w]


def evaluate(tool, csv):
    """(rows, predictions equal to the oracle, Spearman, failures)."""
    model = oracle.load_model()
    failures = check_table(tool, model)

    table = np.loadtxt(csv, delimiter=',', skiprows=1)
    got = np.array([float(v) for v in run([tool, csv, '--print']).split()])
    want = np.array([oracle.predict(model, row[:24]) for row in table])
    if got.shape != want.shape:
        sys.exit('FAIL: %d predictions for %d rows' % (got.size, want.size))
    for i in np.flatnonzero(got != want):
        failures.append('row %d: C predicts %r, oracle %r' % (i + 1, got[i],
                                                              want[i]))

    rho = stats.spearmanr(got, table[:, 24]).correlation
    if not abs(rho - EXPECTED_SPEARMAN) <= SPEARMAN_TOLERANCE:
        failures.append('Spearman %.6f, expected %.3f +- %.3f'
                        % (rho, EXPECTED_SPEARMAN, SPEARMAN_TOLERANCE))
    return len(table), int(np.sum(got == want)), rho, failures


def main(tool, csv):
    rows, equal, rho, failures = evaluate(tool, csv)
    print('%d rows: %d predictions equal to the oracle, Spearman %.6f'
          % (rows, equal, rho))
    return scaffold.verdict(failures)


if __name__ == '__main__':
    scaffold.run_main(main, 'TEST-BLIINDS2-MODEL', 'FEATURES.csv')
