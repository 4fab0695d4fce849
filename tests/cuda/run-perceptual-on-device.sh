#!/bin/bash
# One batch on a GPU machine for the perceptual metrics, from the
# repository root: the comparison with the CPU (twice), memcheck on the
# small cases, the timing table and the kernels' durations under Nsight
# Compute.  Logs go to $OUT (default ./device-out).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: tests/cuda/run-perceptual-on-device.sh TEST_BINARY [EXTRA_LIB_DIR]
# EXTRA_LIB_DIR holds shared libraries the build machine linked against
# that the GPU machine lacks (libavutil, for the CPU reference's FFT).
set -u
bin=${1:?usage: $0 TEST_BINARY [EXTRA_LIB_DIR]}
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
if [ -n "${2:-}" ]; then
  export LD_LIBRARY_PATH="$2${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export PATH="$PATH:/usr/local/cuda/bin"

step () {
  echo "=== $* ($(date -u +%H:%M:%S))"
}

step device
{
  date -u
  nvidia-smi --format=csv \
    --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu
  ls -l /usr/local/cuda/lib64/libcufft.so* 2>&1
  nproc
} 2>&1 | tee "$out/device.txt"

step test
timeout 240 "$bin" >"$out/test.log" 2>&1
echo "test rc=$?" | tee -a "$out/test.log"
grep -E "FAIL|largest|failure" "$out/test.log"

# The other LPC paths (cuda/lpc-map-cuda.h): plain launches, chunks of two
# orientations (the carried-over map sums), the sequence of before.
for v in NO_GRAPH=1 LPC_BATCH=2; do
  step "test SHARPNESS_CUDA_$v"
  log="$out/test-$(echo "$v" | tr ' =' '__').log"
  # $v unquoted: the last entry is two assignments.
  env SHARPNESS_CUDA_$v timeout 240 "$bin" >"$log" 2>&1
  echo "test rc=$?" | tee -a "$log"
  grep -E "FAIL|largest|failure" "$log"
done

step bench
timeout 300 "$bin" --bench >"$out/bench.txt" 2>&1
echo "bench rc=$?" | tee -a "$out/bench.txt"
cat "$out/bench.txt"

step memcheck
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin" \
  --small >"$out/memcheck.log" 2>&1
echo "memcheck rc=$?" | tee -a "$out/memcheck.log"
grep -E "ERROR SUMMARY|FAIL" "$out/memcheck.log" | head

step ncu
timeout 120 ncu --clock-control none --csv \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
  "$bin" --profile >"$out/ncu.csv" 2>&1
echo "ncu rc=$?" | tee -a "$out/ncu.csv"
step done
