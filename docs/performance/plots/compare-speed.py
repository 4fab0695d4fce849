#!/usr/bin/python3
# docs/performance/compare-speed.png: cudacompare per pair against NPP, FFmpeg and the
# CPU backend, from the figures of docs/performance/gpu-runs.md, 2026-11-23b (batch 5,
# NVIDIA H200, 1080p 4:2:0 8-bit, medians of the two runs).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import os

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

metrics = ['PSNR\n(3 planes)', 'SSIM\n(FFmpeg mode; NPP: luma)',
           'SSIM Wang\n(luma)', 'MS-SSIM\n(luma)']
# microseconds per pair; None: not available
rows = [
    ('cudacompare, CUDA (H200)', [15.0, 36.3, 53.6, 114.0]),
    ('NPP 13.0.2 (H200)', [48.2, 32.7, None, 288.4]),
    ('FFmpeg 5.1.9, CPU time, 16 threads', [1350, 2100, None, None]),
    ('cudacompare, CPU backend, 1 thread', [3350, 9850, 237000, 312700]),
]
colours = ['#2a9d8f', '#e9c46a', '#f4a261', '#9aa5b1']

fig, ax = plt.subplots(figsize=(8, 4.2))
h = 0.8 / len(rows)
for i, (name, vals) in enumerate(rows):
    for j, v in enumerate(vals):
        if v is None:
            continue
        y = j + (i - (len(rows) - 1) / 2) * h
        ax.barh(y, v, height=h, color=colours[i],
                label=name if j == next(k for k, x in enumerate(vals)
                                        if x is not None) else None)
        ax.text(v * 1.08, y, ('%.0f µs' % v) if v < 1000 else
                ('%.1f ms' % (v / 1000)), va='center', fontsize=7)
ax.set_xscale('log')
ax.set_xlim(5, 2e6)
ax.set_yticks(range(len(metrics)))
ax.set_yticklabels(metrics, fontsize=8)
ax.invert_yaxis()
ax.set_xlabel('time per 1080p pair (log scale, lower is better)')
ax.legend(fontsize=7, loc='upper right')
ax.grid(axis='x', which='both', alpha=0.2)
fig.tight_layout()
fig.savefig(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                         'compare-speed.png'), dpi=110)
