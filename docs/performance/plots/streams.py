#!/usr/bin/python3
# docs/performance/streams.png: many streams per GPU (issue 11): aggregate frames/s and
# p99 latency per frame against the number of streams, from the CSV files
# of `bench-sharpness --streams` (docs/streams-h200-*.csv, NVIDIA H200,
# 1080p NV12 frames already in CUDA memory; docs/performance/gpu-runs.md, 2026-11-23c,
# batches 16 and 18b).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import csv
import glob
import os

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
docs = os.path.dirname(here)

series = {}
for path in sorted(glob.glob(os.path.join(docs, 'streams-h200-*.csv'))):
    with open(path, newline='') as f:
        for row in csv.DictReader(f):
            if row['complete'] != '1':
                continue
            key = (row['metric'], row['service'])
            series.setdefault(key, []).append(
                (int(row['streams']), float(row['fps']),
                 int(row['p99_ns']) / 1000.0))

fig, (ax_fps, ax_p99) = plt.subplots(1, 2, figsize=(10, 4))
for (metric, service), pts in sorted(series.items()):
    pts.sort()
    n = [p[0] for p in pts]
    label = '%s, service %s' % (metric, service)
    style = '-o' if service == 'on' else '--x'
    ax_fps.plot(n, [p[1] for p in pts], style, label=label)
    ax_p99.plot(n, [p[2] for p in pts], style, label=label)

for ax in (ax_fps, ax_p99):
    ax.set_xscale('log', base=2)
    ax.set_xlabel('streams (pipelines in one process)')
    ax.grid(True, which='both', alpha=0.3)
ax_fps.set_ylabel('frames/s, all streams')
ax_fps.set_ylim(bottom=0)
ax_fps.axhline(100000, color='grey', lw=0.8, ls=':')
ax_p99.set_ylabel('p99 time in the element per frame (µs)')
ax_p99.set_yscale('log')
ax_p99.axhline(1000, color='grey', lw=0.8, ls=':')
# Without the service the 64- and 128-stream cases never finished (killed
# after 200 and 100 s; the runs produced no rows).
ax_fps.annotate('service off, 64 and 128 streams:\nnever finished',
                xy=(64, 0), xytext=(12, 30000), fontsize=8,
                arrowprops=dict(arrowstyle='->', color='grey'))
ax_fps.legend(fontsize=8)
fig.suptitle('cudasharpness, 1080p frames in CUDA memory, NVIDIA H200')
fig.tight_layout()
fig.savefig(os.path.join(docs, 'streams.png'), dpi=110)
