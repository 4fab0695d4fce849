#!/usr/bin/env bash
# CI job for GStreamer 1.26 (Debian 13 "trixie"): make or reuse the cached
# trixie root, then build the plugin (CUDA too, with the host's toolkit
# bind-mounted: nvcc runs on trixie's glibc) and run the test suite in
# build-trixie inside it.  Ends with tests/summarize.py's line.
#   env: TRIXIE_ROOT (default /var/cache/gst-sharpness/trixie-root),
#        TRIXIE_MESON_ARGS (extra `meson setup` arguments), CUDA_ROOT,
#        TRIXIE_CCACHE_DIR (default /var/cache/gst-sharpness/ccache-trixie),
#        SHARPNESS_CLIP_CACHE (the test clips' cache, shared with the root)
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(dev/trixie/make-root.sh "${TRIXIE_ROOT:-/var/cache/gst-sharpness/trixie-root}" | tail -n1)
cuda_root=${CUDA_ROOT:-/usr/local/cuda}
cuda=()
[ -x "$cuda_root/bin/nvcc" ] && cuda=(--cuda "$cuda_root")
# The build compiles through ccache (the root's; meson and the CUDA
# launcher find it) into a cache kept beside the root: a CI run compiles
# only the CUDA kernels and C files that changed since the last one, as
# the host build does.  Not the host's cache: trixie's compilers are other
# compilers, and its ccache another version.  Paths are hashed relative
# to the tree, so that every checkout shares it.
ccache_dir=${TRIXIE_CCACHE_DIR:-/var/cache/gst-sharpness/ccache-trixie}
mkdir -p "$ccache_dir"
# The test clips the host part made (SHARPNESS_CLIP_CACHE, .ci/run), at
# the same path: made once, by one FFmpeg, for both GStreamer versions.
clips=()
if [ -n "${SHARPNESS_CLIP_CACHE:-}" ]; then
  mkdir -p "$SHARPNESS_CLIP_CACHE"
  clips=(--bind "$SHARPNESS_CLIP_CACHE" -e SHARPNESS_CLIP_CACHE="$SHARPNESS_CLIP_CACHE")
fi
# shellcheck disable=SC2086
exec dev/trixie/chroot-run.sh "${cuda[@]}" "${clips[@]}" --bind "$ccache_dir" \
  -e CCACHE_DIR="$ccache_dir" -e CCACHE_MAXSIZE=4G \
  -e CCACHE_BASEDIR="$PWD" -e CCACHE_NOHASHDIR=1 "$root" \
  dev/trixie/build-and-test.sh build-trixie ${TRIXIE_MESON_ARGS:-}
