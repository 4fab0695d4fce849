#!/bin/bash
# One batch for cudacompare on a GPU machine: the element's GPU test, the
# core's GPU test and per-pair kernel table, the element's per-pair cost,
# and the nvh264dec x 2 pipeline against the two decoders alone.  Logs go
# to OUTDIR.
#
#   bench/compare/gpu-compare-session.sh BUILDDIR OUTDIR [CLIPDIR]
#
# Run from the source root with GStreamer (and the plugin, through
# GST_PLUGIN_PATH_1_0=BUILDDIR/gst) set up; CLIPDIR (default build-bench)
# holds ref-1080p.h264 and dist-1080p.h264 from make-bench-clips.sh.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
build=$1
out=$2
clips=${3:-build-bench}
mkdir -p "$out"
export SHARPNESS_SOURCE_ROOT=$PWD

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
    --format=csv 2>&1 | tee "$out/device.txt"
gst-inspect-1.0 cudacompare >"$out/inspect.txt" 2>&1
echo "gst-inspect cudacompare: exit $?"

# Does upstream take the pinned pool the element proposes?
GST_DEBUG=sharpnessgpu:6,cudacompare:4 timeout 60 gst-launch-1.0 \
    cudacompare name=c backend=cuda ! fakesink \
    videotestsrc num-buffers=5 ! video/x-raw,format=NV12,width=1920,height=1080 ! c.ref_sink \
    videotestsrc num-buffers=5 pattern=ball ! video/x-raw,format=NV12,width=1920,height=1080 ! c.dist_sink \
    >"$out/pool-debug.log" 2>&1
echo "pool: $(grep -c 'proposed a pool' "$out/pool-debug.log") proposal(s)"

for t in tests/elements/cudacompare/test-cudacompare-cuda tests/compare/test-cuda-compare; do
  timeout 500 "$build/$t" >"$out/$(basename "$t").log" 2>&1
  echo "$(basename "$t"): exit $?"
  tail -n 4 "$out/$(basename "$t").log"
done

timeout 300 "$build/bench/bench-cuda-compare" >"$out/bench-cuda-compare.txt" 2>&1
echo "bench-cuda-compare: exit $?"
timeout 500 "$build/bench/bench-cudacompare" element \
    >"$out/bench-element.txt" 2>&1
echo "bench-cudacompare element: exit $?"
cat "$out/bench-element.txt"
if [ -s "$clips/ref-1080p.h264" ]; then
  for m in psnr+ssim psnr+ssim+ms-ssim; do
    timeout 500 "$build/bench/bench-cudacompare" pipeline \
        "$clips/ref-1080p.h264" "$clips/dist-1080p.h264" 5 "$m" \
        >>"$out/bench-pipeline.txt" 2>&1
    echo "bench-cudacompare pipeline $m: exit $?"
  done
  cat "$out/bench-pipeline.txt"
else
  echo "no clips in $clips: run bench/compare/make-bench-clips.sh first"
fi
