#!/bin/sh
# Quick start on Debian 12: install what is missing, build, then
#   ./quickstart.sh demo [FILE|URI]  print per-frame sharpness scores of a
#                                    test pattern, or of a video file or URI
#   ./quickstart.sh test             run the whole test suite (CPU tests; GPU
#                                    tests and tests whose Python modules are
#                                    missing skip visibly, with the reason)
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
cd "$(dirname "$0")"

mode=${1:-}
case "$mode" in
  demo|test) shift ;;
  *) echo "usage: $0 demo [FILE|URI] | $0 test" >&2; exit 2 ;;
esac

# Build tools, GStreamer 1.22 development files and plugins the tests use,
# the decoders common files need (gstreamer1.0-libav: 10-bit H.264, HEVC,
# ProRes... that the other plugin sets lack), libavutil (FFT of the
# perceptual metrics), json-glib (sharpness-scan --merge reads JSON back),
# the Python side of the validation (oracles, natural images, FFmpeg's
# blurdetect for comparison), and sharpness-monitor's (libmicrohttpd for its
# server, libsoup 3 for its webhooks and libyaml
# to build it; Prometheus and promtool, gst-rtsp-server's introspection and
# PIL for its tests, which skip with the reason without them).
PACKAGES="gcc meson ninja-build pkg-config
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev libgl-dev libavutil-dev libjson-glib-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-libav
  python3 python3-gi python3-gst-1.0 gir1.2-gstreamer-1.0
  gir1.2-gst-plugins-base-1.0 python3-numpy python3-scipy python3-skimage
  ffmpeg python3-jsonschema chromium
  libmicrohttpd-dev libsoup-3.0-dev libyaml-dev
  prometheus gir1.2-gst-rtsp-server-1.0 python3-pil"
# The test suite only: Slurm for the archive-scan job array (tests/slurm
# starts a cluster of its own, on 127.0.0.1 and for the length of the test;
# it needs root and skips, saying so, otherwise).  Debian's slurmctld and
# slurmd units do not start without /etc/slurm/slurm.conf, which the test
# does not write; munge's unit starts (a local socket, no network port).
# Alertmanager for the monitor's (tests/monitor starts its own, on
# 127.0.0.1; Debian's unit listens on every address, so the test does
# not use it).
[ "$mode" = test ] && PACKAGES="$PACKAGES slurm-wlm munge prometheus-alertmanager"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "Installing:$missing"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends $missing
fi

# nvcc is optional: with it (the CUDA toolkit in /usr/local/cuda) the CUDA
# backend is built as well; the plugin still loads on machines without a GPU.
if [ ! -f build/build.ninja ]; then
  meson setup build --buildtype=debugoptimized
fi
meson compile -C build

if [ "$mode" = demo ]; then
  export GST_PLUGIN_PATH_1_0="$PWD/build/gst"
  export GST_REGISTRY_1_0="$PWD/build/registry.bin"
  exec /usr/bin/python3 docs/examples/print-scores.py "$@"
fi

status=0
meson test -C build --print-errorlogs || status=$?
/usr/bin/python3 tests/summarize.py build/meson-logs/testlog.json || status=$?
exit $status
