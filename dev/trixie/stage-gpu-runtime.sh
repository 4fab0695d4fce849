#!/usr/bin/env bash
# Pack a GStreamer 1.26 runtime for the GPU machine (Ubuntu 24.04, glibc 2.39,
# no GStreamer, no network): a minimal Debian 13 root (trixie's glibc 2.41,
# GStreamer core/base/good/bad with nvcodec, libgstcheck, a shell) plus the
# plugin and test binaries built against 1.26 with CUDA, as one xz tarball.
#
#   usage: dev/trixie/stage-gpu-runtime.sh [OUT.tar.xz]
#          (default: .devgst126.tar.xz in the source tree; needs root and
#          the CUDA toolkit in /usr/local/cuda)
#   env:   TRIXIE_ROOT   the build root (make-root.sh; default its cache)
#          BUILD         build directory in the source tree (build-trixie)
#          MESON_ARGS    `meson setup/configure` arguments
#                        (default: -Dcuda=enabled -Dcuda-archs=90: H100/H200)
#          WITH_LIBAV=1  add gstreamer1.0-libav (its FFmpeg closure is big)
#          WITH_TESTS=0  leave the test executables out (each links the CUDA
#                        kernels: with them the tarball is over the 64 MiB
#                        a GPU call carries; the plugin and tools stay)
#          KEEP_DEBUG=1  keep the debug info of the project's binaries
#
# The tarball holds .devgst126/ (the root) and BUILD/ (executables, the
# plugin, generated data; no objects): carry it to the GPU machine and run
# dev/trixie/run-on-gpu.sh (one command) or dev/trixie/gpu-tests.py (the
# build's compiled tests, by suite) there.  Binaries expect the source tree at the
# same absolute path as here.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
cd "$(dirname "$0")/../.."
SRC=$PWD
OUT=${1:-$SRC/.devgst126.tar.xz}
BUILD=${BUILD:-build-trixie}
MESON_ARGS=${MESON_ARGS:--Dcuda=enabled -Dcuda-archs=90}
ARCH=x86_64-linux-gnu
RUN=dev/trixie/chroot-run.sh
t0=$(date +%s)

root=$(dev/trixie/make-root.sh "${TRIXIE_ROOT:-/var/cache/gst-sharpness/trixie-root}" | tail -n1)

# 1. Build against 1.26, CUDA on (nvcc from the bind-mounted host toolkit).
# shellcheck disable=SC2086
$RUN --cuda "$root" sh -c '
  set -e
  if [ -f "$0/build.ninja" ]; then meson configure "$0" "$@"
  else meson setup "$0" --buildtype=debugoptimized "$@"; fi
  meson compile -C "$0"' "$BUILD" $MESON_ARGS
grep -Eq "^#define HAVE_CUDA( 1)?$" "$BUILD/config.h" ||
  { echo "stage-gpu-runtime.sh: $BUILD has no CUDA backend" >&2; exit 1; }

# 2. What runs there: GStreamer's tools and scanner, the plugins the tests,
# benchmarks and sharpness-monitor use (nvcodec: cudaupload/cudadownload/
# nvh264dec/nvjpegenc...; MPEG-TS over UDP, audio levels), the GStreamer
# libraries, a shell and a few utilities, and our binaries.
PLUGINS="coreelements videotestsrc videoconvertscale app playback
 typefindfunctions videoparsersbad matroska isomp4 videorate debugutilsbad
 videosignal nvcodec videofilter videomixer compositor autodetect pbtypes
 rawparse multifile png jpeg y4menc y4mdec mpegtsdemux udp level
 audioconvert"
[ "${WITH_LIBAV:-0}" = 1 ] && PLUGINS="$PLUGINS libav"
ELFS="/usr/bin/gst-launch-1.0 /usr/bin/gst-inspect-1.0
 /usr/bin/gst-typefind-1.0
 /usr/lib/$ARCH/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner
 /usr/bin/dash /usr/bin/bash /usr/sbin/ldconfig"
for t in env ls cat cp mv rm mkdir ln head tail tee wc sort uniq cut tr date \
         sleep timeout nproc uname id dirname basename readlink realpath stat \
         du df touch chmod true false test printf echo seq md5sum sha256sum \
         grep sed; do
  ELFS="$ELFS /usr/bin/$t"
done
for n in $PLUGINS; do ELFS="$ELFS /usr/lib/$ARCH/gstreamer-1.0/libgst$n.so"; done
# GStreamer core and base, check, CUDA (the rest comes with the closure)
for l in reamer base check controller net app audio video pbutils tag riff \
         rtp rtsp sdp fft gl allocators cuda codecparsers codecs; do
  ELFS="$ELFS /usr/lib/$ARCH/libgst$l-1.0.so.0"
done
# (what this trixie lacks is left out, said here)
present=""
for f in $ELFS; do
  if [ -e "$root$f" ]; then present="$present $f"; else echo "not in the root: $f" >&2; fi
done
ELFS=$present
ours=$(find "$BUILD" -type f \( -name '*.so' -o -perm -u+x \) \
         -not -path '*.p/*' -not -path '*/meson-*' | sort)

# Library closure, resolved by trixie's own loader inside the root.
# shellcheck disable=SC2086
closure=$($RUN "$root" sh -c 'for f in "$@"; do ldd "$f" 2>/dev/null; done' sh \
            $ELFS $ours |
          awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/.*ld-linux/ {print $1}' |
          sort -u)

stage=$(mktemp -d /tmp/devgst126.XXXXXX)
trap 'rm -rf "$stage"' EXIT
R=$stage/.devgst126
mkdir -p "$R"/usr/{bin,sbin,lib/$ARCH,lib64} "$R"/{etc,dev,proc,sys,root,run} \
  "$R/usr/local/nvidia-host/lib" "$R/usr/local/cuda" "$R/var/tmp"
install -d -m 1777 "$R/tmp"
for d in bin sbin lib lib64; do ln -s usr/$d "$R/$d"; done
for f in $ELFS $closure; do
  case $f in "$SRC"/*) continue ;; esac       # ours: in BUILD, below
  mkdir -p "$(dirname "$R$f")"
  cp -L "$root$f" "$R$f"
done
ln -s dash "$R/usr/bin/sh"
cp -a "$root"/etc/{passwd,group,nsswitch.conf,ld.so.conf,ld.so.conf.d} "$R/etc/"
chroot "$R" /usr/sbin/ldconfig
echo "GStreamer $(chroot "$root" dpkg-query -W -f '${Version}' libgstreamer1.0-0), $(chroot "$root" dpkg-query -W -f 'glibc ${Version}' libc6)" > "$R/.devgst126"

# Our binaries: executables, the plugin and generated data, no objects.
mkdir -p "$stage/$BUILD"
skip_tests=()
[ "${WITH_TESTS:-1}" = 0 ] && skip_tests=(-not -path "$BUILD/tests/*")
find "$BUILD" -type f -not -path '*.p/*' -not -path '*/meson-*' "${skip_tests[@]}" \
  -not -name '*.o' -not -name '*.a' -not -name '*.ninja' -not -name '.ninja_*' \
  -not -name 'compile_commands.json' -not -name 'registry.bin' -print0 |
  xargs -0 cp --parents -t "$stage"
cp --parents "$BUILD/meson-info/intro-tests.json" "$stage"   # gpu-tests.py
if [ "${KEEP_DEBUG:-0}" != 1 ]; then
  find "$stage/$BUILD" -type f \( -name '*.so' -o -perm -u+x \) \
    -exec strip --strip-debug {} + 2>/dev/null || true
fi

tar -C "$stage" -cf - .devgst126 "$BUILD" | xz -T2 -9 > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "stage-gpu-runtime.sh: $OUT: $(du -h "$OUT" | cut -f1) (root $(du -sh "$R" | cut -f1), $BUILD $(du -sh "$stage/$BUILD" | cut -f1) unpacked), $(( $(date +%s) - t0 )) s"
