#!/usr/bin/python3
# Cost per frame against resolution, one panel per metric, from the CSV of
# bench-sharpness: the element on CUDA memory, on pinned and on pageable
# system memory, the CPU backend, the kernels alone, and as references the
# pinned host-to-device copy of the luma plane and videoanalyse.
#
#   plot.py CSV PNG
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import csv
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# mode -> (label, style); per-metric modes first, then per-resolution ones.
SERIES = {
    "cuda-memory": ("element, CUDA memory", dict(color="tab:green", marker="o")),
    "pinned": ("element, pinned system memory", dict(color="tab:blue", marker="s")),
    "pageable": ("element, pageable system memory",
                 dict(color="tab:cyan", marker="^")),
    "cpu": ("element, backend=cpu", dict(color="tab:red", marker="v")),
    "kernel": ("kernels alone (CUDA events)",
               dict(color="tab:olive", marker=".", linestyle=":")),
    "h2d-pinned": ("pinned H2D copy of the luma plane",
                   dict(color="black", linestyle="--")),
    "videoanalyse": ("videoanalyse (I420)", dict(color="tab:gray", linestyle="-.")),
}
PER_RESOLUTION = ("h2d-pinned", "videoanalyse")


def load(path):
    """{(metric, mode): [(pixels, median ns)]} of the rows that measured."""
    data = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if not row["median_ns"]:
                continue
            pixels = int(row["width"]) * int(row["height"])
            data[(row["metric"], row["mode"])].append(
                (pixels, int(row["median_ns"]), row["resolution"]))
    return data


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = load(sys.argv[1])
    metrics = []
    for metric, _ in data:
        if metric != "-" and metric not in metrics:
            metrics.append(metric)
    if not metrics:
        sys.exit("no measurements in %s" % sys.argv[1])

    cols = min(4, len(metrics))
    rows = math.ceil(len(metrics) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows),
                             squeeze=False, sharex=True)
    for i, metric in enumerate(metrics):
        ax = axes[i // cols][i % cols]
        ticks = {}
        for mode, (label, style) in SERIES.items():
            key = ("-" if mode in PER_RESOLUTION else metric, mode)
            points = sorted(data.get(key, []))
            if not points:
                continue
            ax.plot([p[0] for p in points], [p[1] / 1000 for p in points],
                    label=label, **style)
            ticks.update({p[0]: p[2] for p in points})
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks(list(ticks))
        ax.set_xticklabels(list(ticks.values()))
        ax.minorticks_off()
        ax.set_title(metric)
        ax.grid(True, which="major", alpha=0.3)
        if i % cols == 0:
            ax.set_ylabel("us per frame (median)")
    for j in range(len(metrics), rows * cols):
        axes[j // cols][j % cols].set_visible(False)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, frameon=False)
    fig.suptitle("cudasharpness: cost per frame against resolution (NV12)")
    # Room at the bottom for the legend: about 0.9 inch whatever the rows.
    fig.tight_layout(rect=(0, 0.9 / (3.4 * rows), 1, 0.97))
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
