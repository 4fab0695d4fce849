#!/bin/sh
# The clips of sharpness-monitor's benchmark (bench/monitor/bench-monitor.py),
# made on a machine with an H.264 encoder so that the GPU machine, which
# has none, only sends and decodes them:
#   DIR/bench-1080p30.ts  1920x1080, 30 fps, 20 s, H.264 about 2 Mbit/s
#                         (small enough to carry; looped by the senders)
#   DIR/bench-320x180.ts  the same at 320x180, for `bench-monitor.py --quick`
# Both: moving test pattern with temporal noise (so every frame costs the
# decoder and the scorer real work), black from frame 300 to 389 (10 s to
# 13 s: the alarm-latency probe), a key frame every second, MPEG-TS, no
# audio.  bench-monitor.py relies on these numbers.
#
#   usage: bench/monitor/make-bench-clips.sh [DIR]   (default .bench-monitor)
#
# Needs ffmpeg with libx264 (Debian: ffmpeg).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
dir=${1:-.bench-monitor}
mkdir -p "$dir"
command -v ffmpeg >/dev/null || { echo "make-bench-clips.sh: ffmpeg missing" >&2; exit 1; }

make_clip () {   # SIZE BITRATE OUT
  ffmpeg -nostdin -v error -y -f lavfi \
      -i "testsrc2=size=$1:rate=30:duration=20" \
      -vf "noise=alls=6:allf=t,drawbox=enable='between(n,300,389)':color=black:t=fill" \
      -c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p \
      -b:v "$2" -maxrate "$2" -bufsize "$2" -g 30 -bf 2 \
      -f mpegts -mpegts_flags +resend_headers "$3.part"
  mv "$3.part" "$3"
  echo "$3: $(du -h "$3" | cut -f1)"
}

make_clip 1920x1080 2M "$dir/bench-1080p30.ts"
make_clip 320x180 300k "$dir/bench-320x180.ts"
