#!/bin/bash
# One batch on a GPU machine: device name, the pinned-pool negotiation seen
# through GST_DEBUG, the CUDA element tests, then the benchmark.  Logs,
# CSV and markdown go to OUTDIR.
#
#   bench/cudasharpness/gpu-session.sh BUILDDIR OUTDIR [bench-sharpness options]
#
# Run from the source root with GStreamer (and the plugin, through
# GST_PLUGIN_PATH_1_0=BUILDDIR/gst) set up.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
build=$1
out=$2
shift 2
mkdir -p "$out"
export SHARPNESS_SOURCE_ROOT=$PWD

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
    --format=csv 2>&1 | tee "$out/device.txt"
date -u '+%Y-%m-%d %H:%M UTC' | tee -a "$out/device.txt"

# Does upstream take the pool the element proposes?  videotestsrc at 1080p.
GST_DEBUG=sharpnessgpu:6,basesrc:4,videotestsrc:4 timeout 60 \
    gst-launch-1.0 videotestsrc num-buffers=5 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! \
    cudasharpness backend=cuda ! fakesink >"$out/pool-debug.log" 2>&1
echo "pool negotiation: $(grep -c 'proposing pinned pool' "$out/pool-debug.log") proposal(s)"

timeout 200 "$build/tests/elements/cudasharpness/test-cudasharpness-cuda" >"$out/test-cudasharpness-cuda.log" 2>&1
echo "test-cudasharpness-cuda: exit $?"
tail -n 5 "$out/test-cudasharpness-cuda.log"

timeout 420 "$build/bench/bench-sharpness" \
    --tiles "$build/bench/tiles.bin" --csv "$out/bench.csv" \
    --markdown "$out/bench.md" "$@" 2>"$out/bench.log"
echo "bench-sharpness: exit $?"
