#!/bin/bash
# One batch on a GPU machine, from the repository root: the CUDA backend's
# test, its sanitizer runs, the kernel benchmark and the kernels' own
# durations under Nsight Compute.  Logs go to $OUT (default ./device-out).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: tests/cuda/run-on-device.sh BUILD_DIR [EXTRA_LIB_DIR]
# EXTRA_LIB_DIR holds shared libraries the build machine linked against
# that the GPU machine lacks (libavutil and its dependencies).
set -u
build=${1:?usage: $0 BUILD_DIR [EXTRA_LIB_DIR]}
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
if [ -n "${2:-}" ]; then
  export LD_LIBRARY_PATH="$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export PATH="$PATH:/usr/local/cuda/bin"
test_bin=$build/tests/cuda/test-cuda-classical
bench_bin=$build/bench/bench-cuda-kernels

step () {
  echo "=== $* ($(date -u +%H:%M:%S))"
}

step device
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,pcie.link.gen.current,pcie.link.width.current,temperature.gpu,power.draw \
    --format=csv
} 2>&1 | tee "$out/device.txt"

step test
for run in 1 2; do
  timeout 180 "$test_bin" >>"$out/test.log" 2>&1
  echo "test rc=$?" | tee -a "$out/test.log"
done
tail -6 "$out/test.log"

step bench
timeout 150 "$bench_bin" >"$out/bench.txt" 2>&1
echo "bench rc=$?" | tee -a "$out/bench.txt"

step bench-capture
# Capture-card layouts; "# ratio" lines: host-pinned over a plain pinned
# copy of the plane (UYVY 1080p laplacian: target <= 1.2).
timeout 150 "$bench_bin" --layout UYVY --layout v210 --layout GRAY8 \
  --frames 300 >"$out/bench-capture.txt" 2>&1
echo "bench-capture rc=$?" | tee -a "$out/bench-capture.txt"
grep '^# ratio' "$out/bench-capture.txt"

step memcheck
timeout 240 compute-sanitizer --tool memcheck --leak-check full \
  --error-exitcode 9 "$test_bin" >"$out/sanitizer.log" 2>&1
echo "memcheck rc=$?" | tee -a "$out/sanitizer.log"
tail -3 "$out/sanitizer.log"

step racecheck
timeout 60 compute-sanitizer --tool racecheck --racecheck-report all \
  --error-exitcode 9 "$test_bin" --tiny >>"$out/sanitizer.log" 2>&1
echo "racecheck rc=$?" | tee -a "$out/sanitizer.log"
tail -3 "$out/sanitizer.log"

step ncu
timeout 60 ncu --clock-control none --csv \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,launch__grid_size,launch__registers_per_thread \
  "$bench_bin" --frames 3 --warmup 1 --no-host >"$out/ncu.csv" 2>&1
echo "ncu rc=$?" | tee -a "$out/ncu.csv"

step sass
if command -v cuobjdump >/dev/null; then
  for o in "$build"/cuda/classical-*.o; do
    cuobjdump -sass "$o"
  done >/tmp/classical.sass 2>&1
  {
    echo "LDG.E.128 $(grep -c 'LDG.E.128' /tmp/classical.sass)"
    echo "LDG.E.U8 $(grep -c 'LDG.E.U8' /tmp/classical.sass)"
    echo "LDL $(grep -c 'LDL' /tmp/classical.sass) STL $(grep -c 'STL' /tmp/classical.sass)"
    for o in "$build"/cuda/classical-*.o; do
      cuobjdump -res-usage "$o" 2>&1 | grep -A1 'Function'
    done | head -120
  } >"$out/sass.txt"
fi
step done
