#!/bin/bash
# Everything this project checks and times on a GPU machine, in one batch:
# the GPU tests of every library and element, then the benchmarks that
# compare builds or settings in the same run.  Logs, CSV and a summary go
# to OUTDIR; the last lines printed are the summary.
#
#   tests/gpu-batch.sh BUILDDIR OUTDIR [OLD_BUILDDIR]
#
# Run from the source root with GStreamer set up (on the GPU machine:
# source .devgst/env.sh).  BUILDDIR is this tree's build (made with
# -Dcuda-archs for the GPU); OLD_BUILDDIR, when given, another build whose
# element is timed beside this one on the same frames (a regression check).
# SHARPNESS_GPU_BATCH_SKIP (words: tests, bench, capture, streams) leaves
# parts out.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
build=$(cd "$1" && pwd)
out=$2
old=${3:+$(cd "$3" && pwd)}
skip=" ${SHARPNESS_GPU_BATCH_SKIP:-} "
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"
export SHARPNESS_SOURCE_ROOT=$PWD SHARPNESS_BUILD_ROOT=$build
export GST_REGISTRY_1_0="$out/registry.bin"

note () {
  echo "$*" | tee -a "$summary"
}

# run NAME TIMEOUT COMMAND...: its output in NAME.log, its status noted.
run () {
  local name=$1 limit=$2 rc
  shift 2
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  rc=$?
  note "$(printf '%-34s exit %3d  %s' "$name" "$rc" \
      "$(grep -E 'Checks:|checks|passed|failures|FAIL|skipped' "$out/$name.log" | tail -n 1 | cut -c1-90)")"
}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm \
      --format=csv
  date -u '+%Y-%m-%d %H:%M UTC'
  nproc
} 2>&1 | tee "$out/device.txt"

if [[ $skip != *" tests "* ]]; then
  export GST_PLUGIN_PATH_1_0="$build/gst"
  run test-cuda-classical 600 "$build/tests/cuda/test-cuda-classical"
  run test-cuda-perceptual 600 "$build/tests/cuda/test-cuda-perceptual"
  run test-cuda-service 600 "$build/tests/cuda/test-cuda-service"
  [ -x "$build/tests/cuda/test-cuda-content" ] &&
    run test-cuda-content 300 "$build/tests/cuda/test-cuda-content"
  run test-cuda-compare 500 "$build/tests/compare/test-cuda-compare"
  for c in general nvdec stream-order; do
    run "test-cudasharpness-cuda-$c" 300 \
        "$build/tests/elements/cudasharpness/test-cudasharpness-cuda" "$c"
  done
  run test-cudacompare-cuda 500 \
      "$build/tests/elements/cudacompare/test-cudacompare-cuda"
fi

if [[ $skip != *" bench "* ]]; then
  # The capture formats and plain planes against a pinned copy of the
  # plane, same run ("# ratio" lines).
  [[ $skip != *" capture "* ]] &&
    run bench-cuda-kernels-capture 300 "$build/bench/bench-cuda-kernels" \
        --layout UYVY --layout v210 --layout GRAY8 --frames 300
  # Black + freeze (+ flat) beside laplacian, 1080p in CUDA memory: the
  # "# overhead" lines are each pass's wall p50 over the metric alone's.
  run bench-cuda-kernels-content 300 "$build/bench/bench-cuda-kernels" \
      --content-pass-only
  # The element, 1080p: this build with content detection off (the work the
  # old build does), black and freeze only (the overhead target), on (the
  # default), and the old build, on the same frames.
  export GST_PLUGIN_PATH_1_0="$build/gst"
  run bench-new-detect-off 420 "$build/bench/bench-sharpness" \
      --tiles "$build/bench/tiles.bin" --resolutions 1080p \
      --metrics laplacian,tenengrad,blur-effect --cpu-seconds 0.3 \
      --element-props "detect=0" --csv "$out/bench-new-detect-off.csv" \
      --markdown "$out/bench-new-detect-off.md"
  run bench-new-black-freeze 420 "$build/bench/bench-sharpness" \
      --tiles "$build/bench/tiles.bin" --resolutions 1080p \
      --metrics laplacian,tenengrad,blur-effect --cpu-seconds 0.3 \
      --element-props "detect=black+freeze" \
      --csv "$out/bench-new-black-freeze.csv" \
      --markdown "$out/bench-new-black-freeze.md"
  run bench-new-default 420 "$build/bench/bench-sharpness" \
      --tiles "$build/bench/tiles.bin" --resolutions 1080p \
      --metrics laplacian,tenengrad,blur-effect --cpu-seconds 0.3 \
      --csv "$out/bench-new-default.csv" \
      --markdown "$out/bench-new-default.md"
  # The overhead target resolved against run-to-run noise: black + freeze
  # switched on and off within one pipeline, every classical metric; and
  # at kernel level for each of them.
  run bench-alternate-black-freeze 300 "$build/bench/bench-sharpness" \
      --tiles "$build/bench/tiles.bin" \
      --alternate detect=0,black+freeze \
      --csv "$out/bench-alternate-black-freeze.csv" \
      --markdown "$out/bench-alternate-black-freeze.md"
  for m in variance roberts tenengrad laplacian smd smd2 maxmin entropy; do
    run "bench-cuda-kernels-content-$m" 120 \
        "$build/bench/bench-cuda-kernels" --content-pass-only \
        --content-metric "$m" --content-nv12-only
  done
  if [ -n "$old" ]; then
    export GST_PLUGIN_PATH_1_0="$old/gst"
    run bench-old 420 "$old/bench/bench-sharpness" \
        --tiles "$build/bench/tiles.bin" --resolutions 1080p \
        --metrics laplacian,tenengrad,blur-effect --cpu-seconds 0.3 \
        --csv "$out/bench-old.csv" --markdown "$out/bench-old.md"
  fi
fi

if [[ $skip != *" streams "* ]]; then
  export GST_PLUGIN_PATH_1_0="$build/gst"
  run bench-streams 500 "$build/bench/bench-sharpness" --streams 1,8,64 \
      --metrics laplacian --element-props "detect=0" \
      --csv "$out/bench-streams.csv" --markdown "$out/bench-streams.md"
fi

echo "=== summary"
cat "$summary"
