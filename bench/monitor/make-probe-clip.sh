#!/bin/sh
# The clip of the monitor's density benchmark with every probe feature
# (bench/monitor/bench-monitor.py --parts monitor,probe): the picture of
# make-bench-clips.sh's bench-1080p30.ts (1920x1080, 30 fps, 20 s, H.264
# about 2 Mbit/s with B pictures, moving test pattern with temporal noise,
# black from frame 300 to 389, a key frame every second) and what a
# broadcast channel carries beside it:
#   - CEA-608/708 captions on every picture (ATSC A/53 cc_data in SEI,
#     from tests/monitor/caption_stream.py's writer: a 160x90 captioned
#     stream is the overlay's main input, whose pictures' caption side
#     data FFmpeg's libx264 writes again, -a53cc);
#   - stereo 48 kHz MPEG-1 Layer II audio, 192 kbit/s: a 1 kHz tone at
#     -23 dBFS (EBU Tech 3341 case 1: -23 LUFS, inside R 128's limits);
#     Layer II because the GPU machine's staged runtime decodes it with
#     mpg123audiodec (libmpg123: small), where AAC would need FFmpeg's
#     libraries;
#   - a constant 3 Mbit/s (null packets) with a SCTE 35 PID in the PMT
#     and the SCTE 35 test stream's 8 cues (tests/transport's
#     ts-scte35-tool, the bad CRC_32 made good) at 1 to 8 s and again
#     every 10 s.
#
#   usage: bench/monitor/make-probe-clip.sh [DIR] [BUILDDIR]
#          (defaults: .bench-monitor and build; writes
#          DIR/bench-probe-1080p30.ts, about 7.5 MB, and the same at
#          320x180 for `bench-monitor.py --quick`, DIR/bench-probe-320x180.ts)
#
# Needs ffmpeg with libx264 and the mp2 encoder (Debian: ffmpeg), python3,
# and BUILDDIR/tests/transport/ts-scte35-tool.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
dir=${1:-.bench-monitor}
build=${2:-build}
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/tests/transport/ts-scte35-tool"
command -v ffmpeg >/dev/null || { echo "make-probe-clip.sh: ffmpeg missing" >&2; exit 1; }
[ -x "$tool" ] || { echo "make-probe-clip.sh: $tool missing (ninja -C $build tests/transport/ts-scte35-tool)" >&2; exit 1; }
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The captions: caption_stream's writer on a small picture (its cc_data
# sequence: a pop-on "HELLO", field 2 on every second picture, a DTVCC
# packet on every fifth), every picture captioned.
python3 - "$here/../../tests/monitor" "$tmp" <<'EOF'
import os
import sys
sys.path.insert(0, sys.argv[1])
import caption_stream as cs  # noqa: E402
tmp = sys.argv[2]
cs.encode('h264', os.path.join(tmp, 'small.h264'), 20, 30)
cs.add_captions('h264', os.path.join(tmp, 'small.h264'),
                os.path.join(tmp, 'cc.h264'), lambda picture: True)
cs.mux(os.path.join(tmp, 'cc.h264'), os.path.join(tmp, 'cc.ts'), 30,
       'mpegts')
EOF

# The picture is make-bench-clips.sh's; overlay keeps its main input's
# frame properties (the caption side data) and the test pattern covers
# it whole.  The audio is 833 Layer II frames of 1152 samples (19.992 s):
# a 20 s tone would end in a 834th frame, 16 ms past the video, and the
# multiplex's last PCR past 20 s, the benchmark's loop, so that each loop
# would start with the PCR stepping back (PCR_discontinuity_indicator_error).
make_clip () {   # SIZE VIDEO_BITRATE MUX_RATE OUT
  ffmpeg -nostdin -v error -y -i "$tmp/cc.ts" \
      -f lavfi -i "testsrc2=size=$1:rate=30:duration=20" \
      -f lavfi -i "sine=frequency=1000:sample_rate=48000:duration=20" \
      -filter_complex "[0:v]scale=$(echo "$1" | tr x :),format=yuv420p[cc];[cc][1:v]overlay=shortest=1,noise=alls=6:allf=t,drawbox=enable='between(n,300,389)':color=black:t=fill[v];[2:a]volume=-5dB,pan=stereo|c0=c0|c1=c0,atrim=end_sample=959616[a]" \
      -map '[v]' -map '[a]' \
      -c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p \
      -b:v "$2" -maxrate "$2" -bufsize "$2" -g 30 -bf 2 -a53cc 1 \
      -c:a mp2 -b:a 192k \
      -f mpegts -muxrate "$3" -mpegts_flags +resend_headers "$tmp/av.ts"
  "$tool" inject --no-bad-crc "$tmp/av.ts" "$4.part" 10
  mv "$4.part" "$4"
  echo "$4: $(du -h "$4" | cut -f1)"
}

make_clip 1920x1080 2M 3000000 "$dir/bench-probe-1080p30.ts"
make_clip 320x180 300k 1000000 "$dir/bench-probe-320x180.ts"
