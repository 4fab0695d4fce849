#!/usr/bin/python3
# The natural test images: scikit-image's bundled data (no download), and
# the Gaussian blur ramp built from them.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import warnings

import numpy as np
from scipy import ndimage

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from skimage import data

from gray_image import RGB_FORMATS, gray_from_rgb

# Gray photographs (uint8) shipped inside python3-skimage 0.19.
GRAY_NAMES = ("camera", "brick", "grass", "gravel", "moon", "text", "coins",
              "page", "clock")
# Colour photographs (uint8 RGB).
COLOR_NAMES = ("astronaut", "coffee", "chelsea", "rocket",
               "immunohistochemistry")

# Blur ramp: Gaussian standard deviations in pixels; 0 is the original.
SIGMAS = (0, 0.5, 1, 1.5, 2, 3, 4, 6, 8)


def load(name):
    img = getattr(data, name)()
    if img.dtype != np.uint8:
        raise ValueError("%s is %s, not uint8" % (name, img.dtype))
    return img


def gray_of(name):
    """The gray image of @name: as stored, or the fixed-point luma of the
    colour image (the element's own RGB rule)."""
    img = load(name)
    if img.ndim == 2:
        return img
    return gray_from_rgb(img[:, :, 0], img[:, :, 1], img[:, :, 2])


def blur(gray, sigma):
    """@gray (uint8) blurred by a Gaussian of standard deviation @sigma:
    scipy.ndimage.gaussian_filter in float64, mirror ('reflect') borders,
    kernel truncated at 4 sigma, then rounded half to even and clipped to
    uint8.  sigma 0 returns the image unchanged."""
    if sigma == 0:
        return gray.copy()
    out = ndimage.gaussian_filter(gray.astype(np.float64), sigma,
                                  mode="reflect", truncate=4.0)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def ramp_images():
    """[(name, gray image)] of every image whose blur ramp is scored."""
    return [(n, gray_of(n)) for n in GRAY_NAMES + COLOR_NAMES]


def frames_of(name, crop, fmt):
    """Two frames of @name cropped to @crop, as plane-0 samples of @fmt
    (for rawframes.write): the gray image and its sigma-2 blur, or the
    colour image and its upside-down copy."""
    if fmt in RGB_FORMATS:
        img = load(name)[crop]
        return [img, img[::-1].copy()]
    gray = gray_of(name)[crop]
    return [gray, blur(gray, 2)]
