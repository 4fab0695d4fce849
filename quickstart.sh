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

# The demo's: build tools, GStreamer 1.22 development files, libavutil (FFT
# of the perceptual metrics), json-glib (the build's configuration step
# needs it for sharpness-scan), gst-plugins-base (the test pattern and the
# scaling that defocuses it) and the Python bindings print-scores.py runs
# on; nothing the demo does not run, since every package is time on a
# newcomer's first run (docs/ci.md: what each set costs).
PACKAGES="gcc meson ninja-build pkg-config
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libavutil-dev
  libjson-glib-dev gstreamer1.0-tools gstreamer1.0-plugins-base
  python3 python3-gi python3-gst-1.0 gir1.2-gstreamer-1.0"
# The CUDA backend's, where nvcc is (as meson finds it): the CUDA library
# of gst-plugins-bad and the OpenGL headers it includes.  That development
# package brings OpenCV's with it (VTK, Qt, MPI...): not for a machine
# that cannot build the CUDA backend anyway.
CUDA_PACKAGES="libgstreamer-plugins-bad1.0-dev libgl-dev"
# A file or URI to decode (the demo given one, and the tests): demuxers,
# parsers and decoders (gstreamer1.0-libav for 10-bit H.264, HEVC,
# ProRes... that the other plugin sets lack).
DECODER_PACKAGES="gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-libav"
if [ "$mode" = test ] || command -v nvcc >/dev/null ||
   [ -x /usr/local/cuda/bin/nvcc ]; then
  PACKAGES="$PACKAGES $CUDA_PACKAGES"
fi
# The demo's source: its first argument that is not an option or an
# option's value (print-scores.py's --metric, --frames, --backend and
# --timeout take one).
source=""
skip=0
for a in "$@"; do
  if [ $skip = 1 ]; then skip=0; continue; fi
  case "$a" in
    --metric|--frames|--backend|--timeout) skip=1 ;;
    -*) ;;
    *) source=$a; break ;;
  esac
done
if [ "$mode" = test ] || [ -n "$source" ]; then
  PACKAGES="$PACKAGES $DECODER_PACKAGES"
fi
# The test suite's on top: the Python side of the validation (oracles,
# natural images, FFmpeg's blurdetect for comparison, the report schema),
# sharpness-monitor's libraries (libmicrohttpd for its server, libsoup 3
# for its webhooks, libyaml, libebur128 for loudness) and its tests' parts
# (iproute2 for the multicast test's network namespace, Prometheus and
# promtool, Alertmanager, Chromium, gst-rtsp-server's introspection, PIL),
# and Slurm for the archive-scan job array (tests/slurm starts a cluster
# of its own, on 127.0.0.1 and for the length of the test; it needs root
# and skips, saying so, otherwise).  Debian's slurmctld and slurmd units
# do not start without /etc/slurm/slurm.conf, which the test does not
# write; munge's unit starts (a local socket, no network port).  The
# tests start their own Alertmanager on 127.0.0.1 (Debian's unit listens
# on every address).  The last two lines are the held-out detection suite's
# photographs (tests/detection/photos.py: wallpapers, GCompris' activities,
# OpenCV's samples, Palapeli's puzzles, Matplotlib's sample data).  A test
# whose part is missing skips with the reason.
[ "$mode" = test ] && PACKAGES="$PACKAGES gir1.2-gst-plugins-base-1.0
  python3-numpy python3-scipy
  python3-skimage ffmpeg python3-jsonschema chromium
  libmicrohttpd-dev libsoup-3.0-dev libyaml-dev libebur128-dev iproute2
  prometheus prometheus-alertmanager gir1.2-gst-rtsp-server-1.0 python3-pil
  slurm-wlm munge
  gnome-backgrounds mate-backgrounds ukui-wallpapers plasma-workspace-wallpapers lomiri-wallpapers lomiri-wallpapers-16.04 lomiri-wallpapers-20.04
  gcompris-qt-data opencv-doc palapeli-data python-matplotlib-data"

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "Installing:$missing"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  # The package lists only: their translations (Translation-en, 6 MB of
  # descriptions) are not needed to install.
  $sudo apt-get update -q -o Acquire::Languages=none
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends $missing
fi

# nvcc is optional: with it (the CUDA toolkit in /usr/local/cuda) the CUDA
# backend is built as well; the plugin still loads on machines without a GPU.
# Packages installed just now (the test suite's after a demo) are found
# only by a new configuration step.
if [ ! -f build/build.ninja ]; then
  meson setup build --buildtype=debugoptimized
elif [ -n "$missing" ]; then
  meson setup --reconfigure build
fi

if [ "$mode" = demo ]; then
  # The plugin alone: not the tools, tests and benchmarks.
  meson compile -C build gstsharpness
  export GST_PLUGIN_PATH_1_0="$PWD/build/gst"
  export GST_REGISTRY_1_0="$PWD/build/registry.bin"
  exec /usr/bin/python3 docs/examples/print-scores.py "$@"
fi

# Built, then run in lanes (what must run alone first, the real-time tests
# beside the CPU-bound ones); the last line counts every test.
exec tests/run-suite.sh build
