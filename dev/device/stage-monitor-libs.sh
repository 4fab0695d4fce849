#!/usr/bin/env bash
# What sharpness-monitor and its benchmark need on a GPU machine beyond the
# staged GStreamer runtime (stage-gst-runtime.sh: core, playback, nvcodec,
# no network sources, no libsoup): the plugins of UDP/MPEG-TS channels
# and of the audio branch, the libraries the monitor links (libmicrohttpd,
# libsoup 3, libyaml, json-glib) and everything they load in turn, copied from this
# machine (Debian 12) into the same folder, so that its env.sh serves both.
#
#   usage: dev/device/stage-monitor-libs.sh [DEST] [BUILDDIR]
#          (defaults: .devgst and build; run after stage-gst-runtime.sh DEST)
#
# Files already in DEST are kept.  Prints what it added and the folder's
# size.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
DEST=${1:-.devgst}
BUILD=${2:-build}
MONITOR="$BUILD/tools/monitor/sharpness-monitor"
ARCH=x86_64-linux-gnu
GSTLIB=/usr/lib/$ARCH/gstreamer-1.0

[ -d "$DEST/lib" ] && [ -d "$DEST/plugins" ] || {
  echo "stage-monitor-libs.sh: $DEST is not a staged runtime (run" \
       "stage-gst-runtime.sh $DEST first)" >&2; exit 1; }
[ -x "$MONITOR" ] || {
  echo "stage-monitor-libs.sh: $MONITOR missing (build first)" >&2; exit 1; }

# udp: udpsrc; mpegtsdemux: tsdemux, tsparse; level, audioconvert,
# audioparsers: the silence branch (a channel with audio links it);
# mpg123: mpg123audiodec, the MPEG-1 Layer II decoder of the probe
# benchmark's audio (bench/monitor/make-probe-clip.sh; libmpg123 is
# small, FFmpeg's audio decoders are not);
# debugutilsbad: fpsdisplaysink, which counts the decoders-alone frames;
# srt, rtp, rtpmanager, rtsp: the other live URI schemes, for trying the
# monitor there beyond the benchmark.  Not FFmpeg's decoders (libav): their
# libraries would pass the size one carries (the GPU decodes there).
PLUGINS="udp mpegtsdemux level audioconvert audioparsers mpg123
 debugutilsbad srt rtp rtpmanager rtsp"
added=()
for n in $PLUGINS; do
  f="$GSTLIB/libgst$n.so"
  if [ -f "$f" ] && [ ! -e "$DEST/plugins/libgst$n.so" ]; then
    cp -L "$f" "$DEST/plugins/"
    added+=("plugins/libgst$n.so")
  fi
done

# The C and C++ runtime every machine has (the same list as
# stage-gst-runtime.sh).
skip='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libgcc_s|libstdc\+\+|libresolv|libutil)\.so'
# libsoup loads libgssapi/libkrb5 and friends through the dynamic linker:
# ldd lists them, so the closure below covers them.
for f in "$MONITOR" "$DEST"/plugins/*.so; do
  ldd "$f" 2>/dev/null | awk '/=> \//{print $3}'
done | sort -u | while read -r lib; do
  base=$(basename "$lib")
  [[ "$base" =~ $skip ]] && continue
  [ -e "$DEST/lib/$base" ] && continue
  cp -L "$lib" "$DEST/lib/$base"
  echo "  lib/$base"
done
for a in "${added[@]}"; do echo "  $a"; done
# What the staged folder still lacks: every library the monitor and the
# plugins need must resolve inside it (or be the C runtime).
missing=$(for f in "$MONITOR" "$DEST"/plugins/*.so; do
  LD_LIBRARY_PATH="$DEST/lib" ldd "$f" 2>/dev/null | awk '/not found/{print $1}'
done | sort -u)
[ -z "$missing" ] || { echo "stage-monitor-libs.sh: still missing: $missing" >&2; exit 1; }
du -sh "$DEST"
