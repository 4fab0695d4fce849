#!/bin/sh
# The 1080p H.264 pair for `bench-cudacompare pipeline` (a reference
# encode at CRF 18 and a distorted one at CRF 32 of the same frames of
# FFmpeg's testsrc2; a few MB each, under the device tool's carry limit),
# then FFmpeg's own psnr and ssim
# filters timed on the same two files on THIS machine (software decoding,
# all threads): the CPU figures beside the GPU pipeline's.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: bench/compare/make-bench-clips.sh [OUT_DIR [FRAMES]]
#   (default build-bench, 600 frames; /build*/ is git-ignored: carry it)
set -eu
out=${1:-build-bench}
frames=${2:-600}
mkdir -p "$out"
src="testsrc2=size=1920x1080:rate=60"
if [ ! -s "$out/ref-1080p.h264" ] || [ ! -s "$out/dist-1080p.h264" ]; then
  for q in 18 32; do
    ffmpeg -nostdin -v error -y -f lavfi -i "$src" -frames:v "$frames" \
      -pix_fmt yuv420p -c:v libx264 -preset veryfast -crf "$q" -bf 0 \
      -f h264 "$out/crf$q.h264"
  done
  mv "$out/crf18.h264" "$out/ref-1080p.h264"
  mv "$out/crf32.h264" "$out/dist-1080p.h264"
fi
ls -l "$out"/*.h264

t () {
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

{
  echo "# FFmpeg $(ffmpeg -version | head -1 | cut -d' ' -f3) on $(nproc) CPU threads" \
    "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $frames frames 1080p"
  in="-i $out/ref-1080p.h264 -i $out/dist-1080p.h264"
  dec=$(t ffmpeg -nostdin $in -map 0 -map 1 -f null -)
  psnr=$(t ffmpeg -nostdin $in -lavfi "[1][0]psnr" -f null -)
  ssim=$(t ffmpeg -nostdin $in -lavfi "[1][0]ssim" -f null -)
  both=$(t ffmpeg -nostdin $in -lavfi "[1][0]psnr;[1][0]ssim" -f null -)
  printf "%-34s %8s %8s\n" "ffmpeg run" "s" "pairs/s"
  for row in "decode both:$dec" "decode + psnr:$psnr" "decode + ssim:$ssim" \
      "decode + psnr + ssim:$both"; do
    name=${row%%:*}; secs=${row#*:}
    printf "%-34s %8.2f %8.1f\n" "$name" "$secs" "$(echo "$frames / $secs" | bc -l)"
  done
} | tee "$out/ffmpeg-times.txt"

# The filters alone on decoded frames (raw yuv420p, 120 frames: no decoder
# in the timing), with FFmpeg's -benchmark CPU times (less sensitive to a
# busy machine than the wall time).
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
ffmpeg -nostdin -v error -i "$out/ref-1080p.h264" -frames:v 120 -f rawvideo "$raw/ref.yuv"
ffmpeg -nostdin -v error -i "$out/dist-1080p.h264" -frames:v 120 -f rawvideo "$raw/dist.yuv"
rawin="-f rawvideo -pix_fmt yuv420p -s 1920x1080 -i $raw/dist.yuv -f rawvideo -pix_fmt yuv420p -s 1920x1080 -i $raw/ref.yuv"
{
  echo "# FFmpeg filters on 120 raw 1080p yuv420p pairs (-benchmark: wall, user CPU)"
  for f in "null" "psnr" "ssim" "psnr;[0][1]ssim"; do
    if [ "$f" = null ]; then lavfi="[0][1]hstack"; name="read + hstack (floor)"; \
    else lavfi="[0][1]$f"; name=$f; fi
    b=$(ffmpeg -nostdin -benchmark $rawin -lavfi "$lavfi" -f null - 2>&1 | grep -o 'utime=[^ ]* stime=[^ ]* rtime=[^ ]*')
    printf "%-26s %s\n" "$name" "$b"
  done
} | tee -a "$out/ffmpeg-times.txt"
