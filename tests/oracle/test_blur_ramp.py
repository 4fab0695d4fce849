#!/usr/bin/python3
# Blur ramps through the element: every gradient metric must fall with each
# step of Gaussian blur (Spearman -1 against sigma) on every natural image,
# and the blur effect (lower = sharper) must rise with each step up to
# sigma 4 and keep a Spearman of at least 0.95 beyond: it saturates, and on
# the smooth, low-contrast `moon` the 8-bit rounding of the sigma 8 frame
# (sharp 1-level steps the re-blur removes) lowers it by 0.004 from sigma
# 6 (docs/validation/validation-classical.md).  Variance and entropy are reported
# only: blur need not lower them.
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

# tests/common: shared modules, and a skip (exit 77) when a module is
# missing.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage', 'gi')

import blur_ramp  # noqa: E402
import classical_oracle as oracle  # noqa: E402
import element_runner  # noqa: E402
import natural_images as ni  # noqa: E402


# Rising metrics: strictly up to this step of ni.SIGMAS (sigma 4), and at
# least this rank correlation over the whole ramp.
RISE_UNTIL = ni.SIGMAS.index(4)
RISE_SPEARMAN = 0.95


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
        for m in oracle.RISING_METRICS:
            if not (blur_ramp.strictly_increasing(got[m][:RISE_UNTIL + 1])
                    and blur_ramp.spearman(got[m]) >= RISE_SPEARMAN):
                failures += 1
                print("FAIL %s %s does not rise with blur (Spearman %.3f): %s"
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
    print("all %d gradient metrics fall and %d rise with blur on %d "
          "images" % (len(oracle.GRADIENT_METRICS),
                      len(oracle.RISING_METRICS), len(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
