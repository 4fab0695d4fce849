#!/usr/bin/python3
# Gray test images for BLIINDS-II and a runner for the CPU backend's
# bliinds2-features tool.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import numpy as np

# tests/common (on sys.path through scaffold): the natural images and blur
# ramp, and the tool runner.
import natural_images
from gray_tool import GrayTool


def natural_cases():
    """[(label, gray uint8 image)]: every natural image, plus crops whose
    sizes are odd and not multiples of 3 (partial blocks, odd scales)."""
    cases = natural_images.ramp_images()
    gray = dict(cases)
    cases += [
        ('camera[:511,:509]', gray['camera'][:511, :509]),
        ('astronaut[3:500,1:388]', gray['astronaut'][3:500, 1:388]),
        ('coffee[:, :599]', gray['coffee'][:, :599]),
        ('moon[5:262,7:300]', gray['moon'][5:262, 7:300]),
        ('text[:171,:445]', gray['text'][:171, :445]),
    ]
    return cases


def synthetic_cases():
    """Small and structured images: minimum sizes, flat areas, stripes and
    checkerboards whose DCTs have coefficients that vanish exactly."""
    rng = np.random.default_rng(20260)
    stripes = np.zeros((61, 67), np.uint8)
    stripes[::4] = 200
    checker = ((np.indices((90, 95)) // 5).sum(axis=0) % 2 * 255)
    return [
        ('random 4x4', rng.integers(0, 256, (4, 4), dtype=np.uint8)),
        ('random 5x7', rng.integers(0, 256, (5, 7), dtype=np.uint8)),
        ('random 13x11', rng.integers(0, 256, (13, 11), dtype=np.uint8)),
        ('random 97x131', rng.integers(0, 256, (97, 131), dtype=np.uint8)),
        ('flat 48x64', np.full((48, 64), 128, np.uint8)),
        ('black 20x22', np.zeros((20, 22), np.uint8)),
        ('stripes 61x67', stripes),
        ('checker 90x95', checker.astype(np.uint8)),
    ]


class Backend(GrayTool):
    """Runs the bliinds2-features tool on gray images."""

    def __init__(self, tool):
        super().__init__(tool, 'bliinds2-')

    def run(self, gray, repeat=0):
        """(24 features, score) of the uint8 image @gray; with @repeat, also
        the tool's timing line."""
        res = self.run_tool(gray, ['--repeat', str(repeat)] if repeat else [])
        values = [float(v) for v in res.stdout.split()]
        if len(values) != 25:
            raise RuntimeError('%s printed %d values' % (self.tool,
                                                          len(values)))
        if repeat:
            return np.array(values[:24]), values[24], res.stderr.strip()
        return np.array(values[:24]), values[24]
