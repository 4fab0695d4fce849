#!/usr/bin/python3
# Scores the Gaussian blur ramp of every natural test image through the
# element, and the rank correlation of each metric with the blur.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os

import numpy as np
from scipy.stats import spearmanr

import classical_oracle as oracle
import element_runner
import natural_images as ni
import rawframes


def write_ramp(directory, name, gray):
    """One GRAY8 file holding the blur ramp of @gray, a frame per sigma."""
    frames = [ni.blur(gray, s) for s in ni.SIGMAS]
    path = os.path.join(directory, "ramp-%s.raw" % name)
    return rawframes.write(path, "GRAY8", frames), frames


def score(directory, backend="cpu"):
    """[(name, raw file, frames, {metric: [element score per sigma]})] for
    every ramp image; the raw files stay in @directory."""
    out = []
    for name, gray in ni.ramp_images():
        raw, frames = write_ramp(directory, name, gray)
        out.append((name, raw, frames,
                    element_runner.run(raw, oracle.METRICS, backend)))
    return out


def spearman(values, sigmas=ni.SIGMAS):
    """Spearman rank correlation of @values with @sigmas (-1: the score
    falls with every step of blur, +1: it rises; nan for a constant
    score)."""
    if len(set(values)) == 1:
        return float("nan")
    return float(spearmanr(sigmas, values).correlation)


def strictly_decreasing(values):
    return bool(np.all(np.diff(np.asarray(values, dtype=np.float64)) < 0))


def strictly_increasing(values):
    return bool(np.all(np.diff(np.asarray(values, dtype=np.float64)) > 0))


def sigma_label(s):
    return "%g" % s
