#!/usr/bin/python3
# MS-SSIM as msssim.m (ours: compare_oracle.ms_ssim, which the CPU and CUDA
# backends match to 1e-6) beside the two variants most often met, on the
# same frames: TensorFlow's tf.image.ssim_multiscale (2x2 average pooling
# with 'VALID' padding, ReLU on each term) and pytorch-msssim (avg_pool2d
# padding odd edges with zeros counted, ReLU), both re-implemented here in
# numpy from their published code.  Prints a markdown table
# (docs/reference/cudacompare.md, "Other variants").  Not a test: a report.
#
# Usage: ms_ssim_variants.py
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_cases as cc                               # noqa: E402
import compare_oracle as oracle                          # noqa: E402
import numpy as np                                       # noqa: E402

WEIGHTS = np.array([0.0448, 0.2856, 0.3001, 0.2363, 0.1333])


def ssim_terms(x, y, L):
    """Mean SSIM and mean cs over the 'valid' region (the Gaussian map of
    ssim.m, which both variants use too)."""
    return oracle.ssim_index(x, y, L)


def tf_ms_ssim(x, y, L):
    """tf.image.ssim_multiscale: VALID 2x2 average pooling between scales
    (odd edges dropped), ReLU on each mean."""
    mcs = []
    for k in range(5):
        if k > 0:
            h, w = (x.shape[0] // 2) * 2, (x.shape[1] // 2) * 2
            x = x[:h, :w].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
            y = y[:h, :w].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
        s, c = ssim_terms(x, y, L)
        mcs.append(max(c, 0.0))
    terms = np.array(mcs[:-1] + [max(s, 0.0)])
    return float(np.prod(terms ** WEIGHTS))


def torch_avg_pool(img):
    """avg_pool2d (kernel 2, stride 2, padding = size % 2 on both sides,
    count_include_pad): zeros counted at padded edges."""
    ph, pw = img.shape[0] % 2, img.shape[1] % 2
    p = np.pad(img, ((ph, ph), (pw, pw)), mode="constant")
    h, w = (p.shape[0] // 2) * 2, (p.shape[1] // 2) * 2
    return p[:h, :w].reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))


def torch_ms_ssim(x, y, L):
    """pytorch-msssim's ms_ssim: ReLU on each term, its avg_pool2d."""
    mcs = []
    for k in range(5):
        s, c = ssim_terms(x, y, L)
        if k < 4:
            mcs.append(max(c, 0.0))
            x, y = torch_avg_pool(x), torch_avg_pool(y)
    terms = np.array(mcs + [max(s, 0.0)])
    return float(np.prod(terms ** WEIGHTS))


def main():
    w, h = 511, 393
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in cc.IMAGES:
            ref = cc.rgb_image(name, w, h)
            dists = {"blur 1.5": cc.blur(ref, 1.5),
                     "noise 5": cc.noise(ref, 5.0, 1),
                     "shift 1 px": cc.shift(ref)}
            if cc.have_ffmpeg():
                dists["JPEG q 8"] = cc.jpeg(ref, 8, tmp)
            ry = cc.to_planes(ref, "gray")[0].astype(np.float64)
            for dname, d in dists.items():
                dy = cc.to_planes(d, "gray")[0].astype(np.float64)
                ours = oracle.ms_ssim(ry, dy, 8)[0]
                rows.append((name, dname, ours, tf_ms_ssim(ry, dy, 255.0),
                             torch_ms_ssim(ry, dy, 255.0)))
    print("| image (%dx%d luma) | distortion | msssim.m (ours) | "
          "TensorFlow | pytorch-msssim |" % (w, h))
    print("|---|---|---:|---:|---:|")
    for r in rows:
        print("| %s | %s | %.6f | %.6f (%+.1e) | %.6f (%+.1e) |"
              % (r[0], r[1], r[2], r[3], r[3] - r[2], r[4], r[4] - r[2]))
    d = np.array([[r[3] - r[2], r[4] - r[2]] for r in rows])
    print("\nlargest |difference|: TensorFlow %.1e, pytorch-msssim %.1e"
          % tuple(np.abs(d).max(axis=0)))


if __name__ == "__main__":
    main()
