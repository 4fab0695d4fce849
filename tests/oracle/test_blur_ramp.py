#!/usr/bin/python3
# Blur ramps through the element: every gradient metric must fall with each
# step of Gaussian blur (Spearman -1 against sigma) on every natural image.
# Variance and entropy are reported only: blur need not lower them.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The blur is natural_images.blur(): scipy.ndimage.gaussian_filter on the
# uint8 gray image in float64 (mirror borders, truncated at 4 sigma), then
# rounded to uint8.  A markdown table of the correlations (and of the
# scores of one image) goes to --output.

import argparse
import os
import sys
import tempfile

import blur_ramp
import classical_oracle as oracle
import element_runner
import natural_images as ni


def markdown(results, detail="camera"):
    lines = ["| image | size | " + " | ".join(oracle.METRICS) + " |",
             "|---|---|" + "---:|" * len(oracle.METRICS)]
    for name, _, frames, got in results:
        h, w = frames[0].shape
        lines.append("| %s | %dx%d | " % (name, w, h) + " | ".join(
            "%.3f" % blur_ramp.spearman(got[m]) for m in oracle.METRICS)
            + " |")
    lines += ["", "Scores of `%s` along the ramp:" % detail, "",
              "| sigma | " + " | ".join(oracle.METRICS) + " |",
              "|---:|" + "---:|" * len(oracle.METRICS)]
    for name, _, frames, got in results:
        if name != detail:
            continue
        for k, s in enumerate(ni.SIGMAS):
            lines.append("| %s | " % blur_ramp.sigma_label(s) + " | ".join(
                "%.6g" % got[m][k] for m in oracle.METRICS) + " |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(
        description="Gradient metrics must fall along blur ramps.")
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--output", default=os.path.join(
        os.environ.get("SHARPNESS_BUILD_ROOT", "."), "blur-ramp.md"))
    args = parser.parse_args()

    element_runner.require_element()
    with tempfile.TemporaryDirectory(prefix="sharpness-ramp-") as tmp:
        try:
            results = blur_ramp.score(tmp, args.backend)
        except element_runner.PipelineError as e:
            print("FAIL: %s" % e)
            return 1

    failures = 0
    for name, _, frames, got in results:
        for k, frame in enumerate(frames):
            want = oracle.scores(frame)
            for m in oracle.METRICS:
                if not oracle.rel_diff(got[m][k], want[m]) <= 1e-9:
                    failures += 1
                    print("FAIL %s sigma %s %s: element %.17g, oracle %.17g"
                          % (name, blur_ramp.sigma_label(ni.SIGMAS[k]), m,
                             got[m][k], want[m]))
        for m in oracle.GRADIENT_METRICS:
            if not blur_ramp.strictly_decreasing(got[m]):
                failures += 1
                print("FAIL %s %s does not fall with blur (Spearman %.3f): %s"
                      % (name, m, blur_ramp.spearman(got[m]),
                         ", ".join("%.6g" % v for v in got[m])))

    table = markdown(results)
    with open(args.output, "w") as f:
        f.write(table)
    print(table)
    print("table written to %s" % args.output)
    if failures:
        print("%d failure(s)" % failures)
        return 1
    print("all %d gradient metrics fall monotonically on %d images"
          % (len(oracle.GRADIENT_METRICS), len(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
