#!/usr/bin/python3
# The CPU compare backend against the independent numpy oracle
# (compare_oracle.py): bit-identical SSE sums and SSIM-ffmpeg values; Wang
# SSIM (with and without ssim.m's downsampling) and MS-SSIM within 1e-6
# relative; Wang SSIM also against scikit-image's structural_similarity.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_cases as cc                           # noqa: E402
import compare_oracle as oracle                      # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from skimage.metrics import structural_similarity  # noqa: E402

TOL = 1e-6


def rel(a, b):
    if a == b or (math.isnan(a) and math.isnan(b)):
        return 0.0
    return abs(a - b) / max(abs(b), 1e-300)


def main():
    failures = 0
    worst = {"wang": 0.0, "wangds": 0.0, "skimage": 0.0, "msssim": 0.0}

    def fail(msg):
        nonlocal failures
        failures += 1
        print("FAIL " + msg)

    with tempfile.TemporaryDirectory() as tmp:
        for name, fmt, w, h, ref, dist in cc.cases(tmp, quick=True):
            depth = cc.FORMATS[fmt][0]
            ours = cc.run_tool(fmt, w, h, ref, dist)
            refs = cc.read_frames(ref, fmt, w, h)
            dists = cc.read_frames(dist, fmt, w, h)
            for n, (r, d) in enumerate(zip(refs, dists), 1):
                p = oracle.psnr(r, d, depth)
                sse = [int(v) for v in ours["sse"][n].split()]
                if sse != p["sse"]:
                    fail("%s #%d sse %s != oracle %s" % (name, n, sse, p["sse"]))
                if ours["psnr"][n] != oracle.psnr_line(n, p):
                    fail("%s #%d psnr line %r != %r"
                         % (name, n, ours["psnr"][n], oracle.psnr_line(n, p)))
                s = oracle.ssim_ffmpeg(r, d, depth)
                got = [float(v) for v in ours["ssimv"][n].split()]
                want = s["ssim"] + [s["all"]]
                if got != want:
                    fail("%s #%d ssim-ffmpeg %r != oracle %r"
                         % (name, n, got, want))
                for kind, ds in (("wang", False), ("wangds", True)):
                    wv = oracle.ssim_wang(r, d, depth, ds)
                    got = [float(v) for v in ours[kind][n].split()]
                    for g, o in zip(got, wv["ssim"] + [wv["all"]]):
                        worst[kind] = max(worst[kind], rel(g, o))
                        if rel(g, o) > TOL:
                            fail("%s #%d %s %.12g != oracle %.12g"
                                 % (name, n, kind, g, o))
                got = [float(v) for v in ours["wang"][n].split()]
                for c, (rp, dp) in enumerate(zip(r, d)):
                    sk = structural_similarity(
                        rp.astype("float64"), dp.astype("float64"),
                        gaussian_weights=True, sigma=1.5,
                        use_sample_covariance=False,
                        data_range=float((1 << depth) - 1))
                    worst["skimage"] = max(worst["skimage"], rel(got[c], sk))
                    if rel(got[c], sk) > TOL:
                        fail("%s #%d plane %d wang %.12g != skimage %.12g"
                             % (name, n, c, got[c], sk))
                if ours["msssim"][n].strip() != "unsupported":
                    got = [float(v) for v in ours["msssim"][n].split()]
                    mv, ms, cs = oracle.ms_ssim(r[0], d[0], depth)
                    for g, o in zip(got, [mv] + ms + cs):
                        worst["msssim"] = max(worst["msssim"], rel(g, o))
                        if rel(g, o) > TOL:
                            fail("%s #%d ms-ssim %.12g != oracle %.12g"
                                 % (name, n, g, o))
            print("ok %-28s ms-ssim %s" % (name, ours["msssim"][1].split()[0]))
    print("worst relative differences: " + ", ".join(
        "%s %.2e" % kv for kv in worst.items()))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
