#!/bin/sh
# One task of an archive scan split into N shards: task I scans the inputs
# I, I+N, I+2N... of LIST (sharpness-scan --shard I/N) and writes
# OUTDIR/part-I.json; `sharpness-scan --merge` then makes one JSON, CSV and
# report of the whole archive from the parts (docs/scan.md, "Archives").
#
#   Slurm:       sbatch --array=0-15 [--gpus=1 --cpus-per-task=8] \
#                    scan-array.sh [--csv] [--report] LIST OUTDIR [OPTIONS...]
#   Kubernetes:  an Indexed Job runs it with JOB_COMPLETION_INDEX and
#                SHARD_COUNT set (docs/scan.md has the manifest)
#   Anywhere:    SHARD_INDEX=I SHARD_COUNT=N scan-array.sh ...
#
#   --csv, --report  also write OUTDIR/part-I.csv, OUTDIR/part-I.html
#   OPTIONS          more sharpness-scan options, the same for every task
#                    (--json-full: parts from which --merge can also write
#                    the CSV and the report of the whole archive)
#
# The shard comes from SHARD_INDEX, else SLURM_ARRAY_TASK_ID, else
# JOB_COMPLETION_INDEX; the count from SHARD_COUNT, else
# SLURM_ARRAY_TASK_COUNT.  The array must be 0..N-1; to rerun task 7 of
# 16 alone: SHARD_COUNT=16 sbatch --array=7 scan-array.sh ... (sbatch
# passes the environment on).  SHARPNESS_SCAN names the tool (default:
# sharpness-scan from PATH).  The exit status is sharpness-scan's: 143
# when Slurm's time limit stopped it (the part is complete for what was
# scanned and names the rest in not_scanned).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#SBATCH --job-name=sharpness-scan
set -eu

usage() {
  echo "usage: scan-array.sh [--csv] [--report] LIST OUTDIR [SHARPNESS-SCAN OPTIONS...]" >&2
  exit 2
}

csv=0 report=0
while [ $# -gt 0 ]; do
  case "$1" in
    --csv) csv=1; shift ;;
    --report) report=1; shift ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || usage
list=$1 out=$2
shift 2

index=${SHARD_INDEX:-${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:-}}}
count=${SHARD_COUNT:-${SLURM_ARRAY_TASK_COUNT:-}}
if [ -z "$index" ] || [ -z "$count" ]; then
  echo "scan-array.sh: not a task of a job array: set SHARD_INDEX and" \
    "SHARD_COUNT, or run it with sbatch --array=0-N" >&2
  exit 2
fi
if [ "$index" -ge "$count" ]; then
  echo "scan-array.sh: task $index of $count: the array must be 0-$((count - 1))" \
    "(or set SHARD_COUNT)" >&2
  exit 2
fi

mkdir -p "$out"
part="$out/part-$index"
set -- --quiet --input-list "$list" --shard "$index/$count" \
  --json "$part.json" "$@"
[ "$csv" = 0 ] || set -- "$@" --csv "$part.csv"
[ "$report" = 0 ] || set -- "$@" --report "$part.html"
echo "scan-array.sh: shard $index/$count of $list -> $part.*" >&2
exec "${SHARPNESS_SCAN:-sharpness-scan}" "$@"
