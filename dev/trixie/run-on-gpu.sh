#!/usr/bin/env bash
# On the GPU machine (no GStreamer, glibc older than trixie's): unpack the
# GStreamer 1.26 runtime made by stage-gpu-runtime.sh (once per tarball) and
# run COMMAND in it, from the source tree, with the NVIDIA driver libraries,
# the CUDA toolkit (cuFFT) and the test environment meson would give.
#
#   usage: dev/trixie/run-on-gpu.sh [-t TARBALL] [-e VAR=VALUE]... COMMAND [ARG...]
#          (default TARBALL: .devgst126.tar.xz in the source tree)
#   e.g.   dev/trixie/run-on-gpu.sh build-trixie/tests/elements/cudasharpness/test-cudasharpness-cuda
#          dev/trixie/run-on-gpu.sh sh -c 'gst-inspect-1.0 nvcodec | head'
#
# It runs COMMAND in a chroot of the unpacked root (.devgst126) with /dev,
# /proc, /sys, the source tree, /usr/local/cuda and the driver's libraries
# bind-mounted.  Where mounting is not permitted (a container without
# CAP_SYS_ADMIN), it falls back to starting COMMAND, which must then be a
# program of the root or the build (not a script), with trixie's own dynamic
# loader and libraries, without a chroot (TRIXIE_RUN_MODE=loader forces this).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
SRC=$PWD
TARBALL=.devgst126.tar.xz; ENVS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -t) TARBALL=$2; shift 2 ;;
    -e) ENVS+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { sed -n '/^#   usage/,/^#   e.g/p' "$0" >&2; exit 2; }
ROOT=$SRC/.devgst126
ARCH=x86_64-linux-gnu

# Unpack once per tarball (.devgst126/ and the build directory it holds).
if [ ! -f "$ROOT/.unpacked" ] || [ "$TARBALL" -nt "$ROOT/.unpacked" ]; then
  builds=$(xz -dc "$TARBALL" | tar -t | cut -d/ -f1 | sort -u | grep -vx '.devgst126')
  rm -rf "$ROOT" $builds
  xz -dc "$TARBALL" | tar -x
  touch "$ROOT/.unpacked"
  echo "run-on-gpu.sh: unpacked $TARBALL: $(cat "$ROOT/.devgst126"); $builds" >&2
fi
BUILD=$(ls -d build-trixie 2>/dev/null || true)
BUILD=${BUILD:-build-trixie}

# What meson's test environment sets (tests/meson.build), for 1.26.
ENV_TEST=(GST_PLUGIN_PATH_1_0="$SRC/$BUILD/gst"
  GST_PLUGIN_SYSTEM_PATH_1_0=/usr/lib/$ARCH/gstreamer-1.0
  GST_REGISTRY_1_0=/tmp/gst-sharpness-registry-1.26.bin
  GST_DEBUG="${GST_DEBUG:-*:1}" CK_DEFAULT_TIMEOUT="${CK_DEFAULT_TIMEOUT:-120}"
  SHARPNESS_SOURCE_ROOT="$SRC" SHARPNESS_BUILD_ROOT="$SRC/$BUILD"
  PYTHONDONTWRITEBYTECODE=1)
[ -n "${CK_FORK:-}" ] && ENV_TEST+=(CK_FORK="$CK_FORK")

cuda_root=${CUDA_ROOT:-/usr/local/cuda}
can_mount() {
  local d; d=$(mktemp -d)
  if unshare --mount --propagation private mount --bind "$d" "$d" 2>/dev/null ||
     { mount --bind "$d" "$d" 2>/dev/null && umount "$d"; }; then
    rmdir "$d"; return 0
  fi
  rmdir "$d"; return 1
}

if [ "${TRIXIE_RUN_MODE:-chroot}" = chroot ] && can_mount; then
  cuda=()
  [ -x "$cuda_root/bin/nvcc" ] && cuda=(--cuda "$cuda_root")
  envs=()
  for e in "${ENV_TEST[@]}" "${ENVS[@]}"; do envs+=(-e "$e"); done
  exec "$here/chroot-run.sh" --nvidia "${cuda[@]}" "${envs[@]}" "$ROOT" "$@"
fi

# Loader mode: trixie's ld.so, trixie's libraries first, then the driver's
# (linked into the root so that nothing else of the host's lib folder is
# searched); no plugin-scanner process (it would start on the host's loader).
echo "run-on-gpu.sh: no chroot (mounting not permitted, or TRIXIE_RUN_MODE=loader): starting $1 with trixie's loader" >&2
nv=$ROOT/usr/local/nvidia-host/lib
mkdir -p "$nv"
rm -f "$nv"/*
while read -r lib path; do ln -sf "$path" "$nv/$lib"; done < <("$here/nvidia-libs.sh")
prog=$1; shift
case $prog in
  */*) ;;
  *) prog=$ROOT/usr/bin/$prog ;;
esac
sys=$ROOT/usr/lib/$ARCH
cuda_lib=""
[ -d "$cuda_root/lib64" ] && cuda_lib=:$(readlink -f "$cuda_root/lib64")
# The system plugin path comes last: a test's own environment names the
# chroot's path, which does not exist outside it.
exec env -i PATH="$ROOT/usr/bin:/usr/bin:/bin" HOME="${HOME:-/root}" LANG=C.UTF-8 \
  "${ENV_TEST[@]}" \
  GST_REGISTRY_FORK=no GST_REGISTRY_1_0=/tmp/gst-sharpness-registry-1.26-loader.bin \
  "${ENVS[@]}" GST_PLUGIN_SYSTEM_PATH_1_0="$sys/gstreamer-1.0" \
  "$ROOT/usr/lib64/ld-linux-x86-64.so.2" --library-path "$sys:$nv$cuda_lib" "$prog" "$@"
