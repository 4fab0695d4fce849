#!/usr/bin/python3
# Natural images through real pipelines (filesrc ! rawvideoparse !
# cudasharpness), every classical metric checked against the oracle.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Covers gray and 8-bit YUV luma planes, ten packed RGB orders (fixed-point
# luma), 10- and 16-bit samples (rounded to 8 bits, P010's high bits), odd
# sizes down to 1x1 and rows padded with random bytes.  Exact agreement is
# expected; the bound is 1e-9 relative.  The oracle's blur effect is also
# checked against skimage.measure.blur_effect itself on every frame where
# both axes vary (skimage divides 0 by 0 otherwise), within 1e-12.

import argparse
import os
import sys
import tempfile
import warnings

# tests/common: shared modules, and a skip (exit 77) when a module is
# missing.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage', 'gi')

import numpy as np  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from skimage.color import rgb2gray
    from skimage.measure import blur_effect

import classical_oracle as oracle  # noqa: E402
import element_runner  # noqa: E402
import natural_images as ni  # noqa: E402
import rawframes  # noqa: E402

REL_TOL = 1e-9
# Our integers against skimage's floats on gray / 255.
SKIMAGE_REL_TOL = 1e-12


def skimage_diff(gray):
    """Relative difference of the oracle's blur effect to skimage's on
    @gray, or None where an axis has no variation."""
    m1_0, _, m1_1, _ = oracle.sums(gray)["blur-effect"]
    if m1_0 == 0 or m1_1 == 0:
        return None
    return oracle.rel_diff(oracle.score("blur-effect", gray),
                           float(blur_effect(gray / 255.0)))


def y16_frames(fmt, names, seed):
    """Raw 16-bit samples of @fmt from the luminance of colour images,
    quantised to the format's depth (P010: random bits below the 10)."""
    depth, shift = rawframes.Y16_FORMATS[fmt]
    rng = np.random.default_rng(seed)
    frames = []
    for name in names:
        lum = rgb2gray(ni.load(name))
        v = np.rint(lum * ((1 << depth) - 1)).astype(np.uint16) << shift
        if shift:
            v |= rng.integers(0, 1 << shift, size=v.shape, dtype=np.uint16)
        frames.append(v)
    return frames


def cases():
    """(label, format, [plane-0 samples], row padding in bytes)."""
    gray = {n: ni.load(n) for n in ni.GRAY_NAMES}
    color = {n: ni.load(n) for n in ni.COLOR_NAMES}
    camera = gray["camera"]
    square = [gray[n] for n in ("camera", "brick", "grass", "gravel",
                                "moon")]
    out = [("gray 512x512 x5", "GRAY8", square, 0)]
    for n in ("text", "coins", "page", "clock"):
        out.append(("gray %s" % n, "GRAY8", [gray[n]], 0))

    # 8-bit YUV: only the Y plane counts; chroma is random.
    pair = [camera, gray["moon"]]
    for fmt in ("I420", "YV12", "NV12", "NV21", "Y41B", "Y42B", "Y444"):
        out.append(("yuv %s" % fmt, fmt, pair, 0))
    odd = [camera[:509, :511], gray["moon"][3:, 1:]]
    for fmt in ("I420", "NV12", "Y41B"):
        out.append(("yuv %s odd" % fmt, fmt, odd, 0))

    # Packed RGB, every byte order, then odd-sized colour photographs.
    rgb512 = [color["astronaut"], color["immunohistochemistry"]]
    for fmt in rawframes.RGB_FORMATS:
        out.append(("rgb %s" % fmt, fmt, rgb512, 0))
    for n in ("coffee", "chelsea", "rocket"):
        for fmt in ("RGB", "BGRx", "ARGB"):
            out.append(("rgb %s %s" % (fmt, n), fmt, [color[n]], 0))

    # 10- and 16-bit samples, square and odd widths/heights.
    for fmt in rawframes.Y16_FORMATS:
        for names in (("astronaut", "immunohistochemistry"), ("chelsea",),
                      ("rocket",)):
            out.append(("y16 %s %s" % (fmt, names[0]), fmt,
                        y16_frames(fmt, names, len(out)), 0))

    # Odd centre crops down to frames too small for any window.
    for w, h in ((511, 509), (255, 3), (3, 255), (37, 23), (13, 5), (4, 9),
                 (4, 4), (3, 3), (2, 2), (2, 5), (1, 7), (7, 1), (1, 1)):
        y, x = (camera.shape[0] - h) // 2, (camera.shape[1] - w) // 2
        out.append(("crop %dx%d" % (w, h), "GRAY8",
                    [camera[y:y + h, x:x + w]], 0))
    out.append(("crop I420 3x3", "I420", [camera[:3, :3]], 0))
    out.append(("crop BGRx 2x3", "BGRx", [color["coffee"][:3, :2]], 0))

    # Rows padded with random bytes.
    out.append(("pad GRAY8 +13", "GRAY8", [camera, gray["gravel"]], 13))
    out.append(("pad I420 +64", "I420", odd, 64))
    out.append(("pad NV12 +7", "NV12", pair, 7))
    out.append(("pad RGB +5", "RGB", [color["chelsea"]], 5))
    out.append(("pad BGRx +12", "BGRx", rgb512, 12))
    out.append(("pad P010 +32", "P010_10LE",
                y16_frames("P010_10LE", ("rocket",), 99), 32))
    out.append(("pad GRAY16 +6", "GRAY16_LE",
                y16_frames("GRAY16_LE", ("chelsea",), 98), 6))
    return out


def compare(backend="cpu", log=print):
    """Runs every case; returns (rows, compared, exact, worst, failures),
    rows being (label, format, width, height, frames, max rel diff)."""
    rows = []
    failures = compared = exact = 0
    worst = 0.0
    sk_compared = 0
    sk_worst = 0.0
    with tempfile.TemporaryDirectory(prefix="sharpness-oracle-") as tmp:
        for i, (label, fmt, frames, pad) in enumerate(cases()):
            path = os.path.join(tmp, "case%03d.raw" % i)
            raw = rawframes.write(path, fmt, frames, pad=pad, seed=i)
            try:
                got = element_runner.run(raw, oracle.METRICS, backend)
            except element_runner.PipelineError as e:
                failures += 1
                log("FAIL %s: %s" % (label, e))
                continue
            finally:
                os.unlink(path)
            grays = [rawframes.gray(fmt, f) for f in frames]
            want = [oracle.scores(g) for g in grays]
            for k, g in enumerate(grays):
                d = skimage_diff(g)
                if d is None:
                    continue
                sk_compared += 1
                sk_worst = max(sk_worst, d)
                if not d <= SKIMAGE_REL_TOL:
                    failures += 1
                    log("FAIL %s frame %d: blur-effect oracle vs skimage "
                        "rel diff %.3g" % (label, k, d))
            case_worst = 0.0
            for m in oracle.METRICS:
                for k, w in enumerate(want):
                    g = got[m][k]
                    d = oracle.rel_diff(g, w[m])
                    compared += 1
                    exact += g == w[m]
                    case_worst = max(case_worst, d)
                    if not d <= REL_TOL:
                        failures += 1
                        log("FAIL %s frame %d %s: element %.17g, oracle "
                            "%.17g" % (label, k, m, g, w[m]))
            worst = max(worst, case_worst)
            rows.append((label, fmt, raw.width, raw.height, len(frames),
                         case_worst))
            log("%-28s %-10s %4dx%-4d x%d  max rel diff %.3g"
                % rows[-1])
    log("blur-effect: oracle vs skimage.measure.blur_effect on %d frames, "
        "max rel diff %.3g (bound %g)" % (sk_compared, sk_worst,
                                          SKIMAGE_REL_TOL))
    return rows, compared, exact, worst, failures


def main():
    parser = argparse.ArgumentParser(
        description="Natural images through cudasharpness against the oracle.")
    parser.add_argument("--backend", default="cpu")
    args = parser.parse_args()

    element_runner.require_element()
    _, compared, exact, worst, failures = compare(args.backend)
    print("%d scores compared, %d bit-exact, max rel diff %.3g (bound %g)"
          % (compared, exact, worst, REL_TOL))
    if failures:
        print("%d failure(s)" % failures)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
