#!/usr/bin/env bash
# Build (or reuse) a Debian 13 "trixie" root with GStreamer 1.26 and what the
# build and the CPU test suite need, for testing the plugin against 1.26 on a
# Debian 12 host (CI) and for staging the GPU machine's 1.26 runtime.
#
#   usage: dev/trixie/make-root.sh [DIR]
#          (default DIR: /var/cache/gst-sharpness/trixie-root; needs root)
#
# The root is cached: it is rebuilt only when its package list (or this
# script's recipe, or the mirror) changes, or when it is older than
# TRIXIE_ROOT_MAX_AGE_DAYS (default 30) so that it picks up point releases.
# TRIXIE_MIRROR overrides the mirror (default: the host's Debian mirror from
# /etc/apt/sources.list*).  Prints the root's path on its last line.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail

DIR=${1:-/var/cache/gst-sharpness/trixie-root}
SUITE=trixie
MAX_AGE_DAYS=${TRIXIE_ROOT_MAX_AGE_DAYS:-30}

# quickstart.sh's list (GStreamer 1.26 development files, plugins, the Python
# side of the validation, the scan tests' jsonschema and chromium),
# sharpness-monitor's (libsoup 3, libyaml; Prometheus, Alertmanager,
# gst-rtsp-server's introspection and PIL for its tests), the held-out
# detection suite's photograph packages (tests/detection/photos.py; OpenCV's
# samples are under /usr/share/doc, kept below), plus g++ (nvcc's host compiler for cuda/, when
# /usr/local/cuda is bind-mounted), gstreamer1.0-libav, and ccache (CI's
# trixie build compiles through a cache kept outside the root, so that a
# kernel is compiled once, not again in every run: .ci/trixie-test.sh).
PACKAGES="gcc g++ ccache meson ninja-build pkg-config
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  libgstreamer-plugins-bad1.0-dev libgl-dev libavutil-dev libjson-glib-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-libav
  python3 python3-gi python3-gst-1.0 gir1.2-gstreamer-1.0
  gir1.2-gst-plugins-base-1.0 python3-numpy python3-scipy python3-skimage
  ffmpeg python3-jsonschema chromium
  libmicrohttpd-dev libsoup-3.0-dev libyaml-dev libebur128-dev iproute2
  prometheus prometheus-alertmanager gir1.2-gst-rtsp-server-1.0 python3-pil
  gnome-backgrounds mate-backgrounds ukui-wallpapers plasma-workspace-wallpapers
  lomiri-wallpapers lomiri-wallpapers-16.04 lomiri-wallpapers-20.04
  gcompris-qt-data opencv-doc palapeli-data python-matplotlib-data"
# Bump when the recipe below changes in a way that needs a fresh root.
RECIPE=3

[ "$(id -u)" = 0 ] || { echo "make-root.sh: run as root" >&2; exit 1; }

# The host's Debian mirror (dev/host-mirror.sh).
MIRROR=${TRIXIE_MIRROR:-$("$(dirname "$0")/../host-mirror.sh")}

pkgs=$(echo $PACKAGES | tr ' ' '\n' | sort | tr '\n' ' ')
hash=$(printf '%s\n' "$RECIPE" "$SUITE" "$MIRROR" "$pkgs" | sha256sum | cut -c1-16)
stamp="$DIR/.gst-sharpness-root"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ] &&
   [ -z "$(find "$stamp" -mtime +"$MAX_AGE_DAYS")" ]; then
  echo "trixie root: cached ($DIR, $hash)" >&2
  echo "$DIR"
  exit 0
fi

if ! command -v mmdebstrap >/dev/null; then
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    mmdebstrap >/dev/null
fi

# Build next to DIR and swap it in only when complete, so an interrupted run
# never leaves a half-made root behind the stamp.
mkdir -p "$(dirname "$DIR")"
tmp="$DIR.new.$$"
rm -rf --one-file-system "$tmp"
trap 'rm -rf --one-file-system "$tmp"' EXIT
start=$(date +%s)
echo "trixie root: building $DIR from $MIRROR ($hash)" >&2
# No recommends; no docs (but OpenCV's sample images, photographs the
# held-out suite reads), man pages or translations (nothing here reads
# them); apt lists are kept so that apt-get can add packages later.  The
# mounts mmdebstrap makes in the root end with it.
"$(dirname "$0")/../with-private-mounts.sh" mmdebstrap --mode=root --variant=apt --format=directory \
  --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-include=/usr/share/doc/opencv-doc/examples/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/gtk-doc/*' \
  --include="$(echo $pkgs | tr ' ' ',')" \
  --skip=cleanup/apt/lists \
  "$SUITE" "$tmp" "deb $MIRROR $SUITE main" >&2
echo "$hash" > "$tmp/.gst-sharpness-root"
rm -rf --one-file-system "$DIR"
mv "$tmp" "$DIR"
trap - EXIT
echo "trixie root: built in $(( $(date +%s) - start )) s, $(du -sh "$DIR" | cut -f1)" >&2
echo "$DIR"
