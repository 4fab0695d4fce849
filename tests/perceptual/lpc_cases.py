#!/usr/bin/python3
# Test images for LPC-SI and CWTVNRS, and a runner for the CPU backend's
# test-lpc-maps tool.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import numpy as np
from scipy import ndimage

# tests/common (on sys.path through scaffold): the natural images and blur
# ramp, and the tool runner.
import natural_images
from gray_tool import GrayTool

MAP_NAMES = ('lpc', 'tv', 'reblurred', 'lpc_reblurred', 'tv_reblurred')


def natural_cases():
    """[(label, gray uint8 image)]: natural images kept small for the
    oracle's sake (at most 512 x 512), half of them with odd sides."""
    g = dict(natural_images.ramp_images())
    return [
        ('camera', g['camera']),
        ('camera[:257,:301]', g['camera'][:257, :301]),
        ('astronaut[3:300,1:388]', g['astronaut'][3:300, 1:388]),
        ('coffee[::2,::2]', g['coffee'][::2, ::2]),
        ('chelsea', g['chelsea']),
        ('moon[5:262,7:300]', g['moon'][5:262, 7:300]),
        ('text', g['text']),
        ('coins', g['coins']),
        ('page', g['page']),
        ('clock[:299,:399]', g['clock'][:299, :399]),
        ('gravel[::2,::2]', g['gravel'][::2, ::2]),
        ('rocket[:384,:512]', g['rocket'][:384, :512]),
    ]


def synthetic_cases():
    """Tiny sizes (down to 1 x 1, where the reference code itself would
    fail), flat images, stripes and a checkerboard."""
    rng = np.random.default_rng(20261)
    stripes = np.zeros((61, 67), np.uint8)
    stripes[:, ::3] = 200
    checker = ((np.indices((90, 95)) // 5).sum(axis=0) % 2 * 255)
    return [
        ('random', rng.integers(0, 256, (1, 1), dtype=np.uint8)),
        ('random', rng.integers(0, 256, (3, 2), dtype=np.uint8)),
        ('random', rng.integers(0, 256, (9, 9), dtype=np.uint8)),
        ('random', rng.integers(0, 256, (8, 13), dtype=np.uint8)),
        ('random', rng.integers(0, 256, (40, 1), dtype=np.uint8)),
        ('random', rng.integers(0, 256, (97, 131), dtype=np.uint8)),
        ('flat', np.full((80, 96), 128, np.uint8)),
        ('stripes', stripes),
        ('checker', checker.astype(np.uint8)),
    ]


def float_cases():
    """Gray levels that are not integers (the internal API only): blurred
    images before any rounding."""
    g = dict(natural_images.ramp_images())
    return [
        ('camera[:200,:233] sigma 1.3, float',
         ndimage.gaussian_filter(g['camera'][:200, :233].astype(np.float64),
                                 1.3)),
        ('chelsea[::2,::2] sigma 0.7, float',
         ndimage.gaussian_filter(g['chelsea'][::2, ::2].astype(np.float64),
                                 0.7)),
    ]


class Backend(GrayTool):
    """Runs test-lpc-maps on gray images."""

    def __init__(self, tool):
        super().__init__(tool, 'lpc-')

    def run(self, gray, maps=False, repeat=0):
        """{'lpc-si': score, 'cwtvnrs': score} of @gray: a uint8 image (the
        backend's scores of a GRAY8 plane) or a float64 one (the internal
        API's); with @maps also the maps, with @repeat also the timing
        lines."""
        h, w = gray.shape
        f64 = gray.dtype == np.float64
        args = ['--f64'] if f64 else []
        if maps:
            args += ['--maps', self.tmp.name]
        if repeat:
            args += ['--repeat', str(repeat)]
        res = self.run_tool(gray, args, f64=f64)
        out = {}
        for line in res.stdout.splitlines():
            name, value = line.split()
            out[name] = float(value)
        if set(out) != {'lpc-si', 'cwtvnrs'}:
            raise RuntimeError('%s printed %r' % (self.tool, res.stdout))
        if maps:
            out['maps'] = {
                n: np.fromfile(self.path(n + '.f64'),
                               dtype=np.float64).reshape(h, w)
                for n in MAP_NAMES}
        if repeat:
            out['timing'] = res.stderr.strip()
        return out
