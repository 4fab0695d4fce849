#!/usr/bin/env bash
# Build the container image of the tools (sharpness-scan, sharpness-monitor)
# from the Debian packages, without a container engine: mmdebstrap makes a
# Debian 12 root, installs the packages into it with `apt-get install
# ./*.deb` (their dependencies from the Debian mirror), adds the non-root
# user the image runs as, and oci-image.py writes the root as an OCI image
# (layout directory and archive) that podman, skopeo, containerd and
# Docker 25+ load.  docs/container.md says how to use it.
#
#   usage: dev/container/build-image.sh [options] DEBDIR OUTDIR
#     DEBDIR        the .debs (dev/package/build-debs.sh)
#     OUTDIR        gets rootfs/ (the image's root, kept for testing),
#                   oci/ (OCI image layout) and gst-sharpness-image.tar
#                   (the same as an archive)
#     --tag NAME    image name and tag (default gst-sharpness:VERSION)
#     --cufft DIR   copy cuFFT (libcufft.so.*) from the CUDA toolkit's DIR
#                   (e.g. /usr/local/cuda/lib64) into the image, for the
#                   LPC-SI and CWTVNRS metrics on the GPU (about 280 MB)
#     --no-archive  no .tar, only the layout
#   env: IMAGE_MIRROR (default: the host's Debian mirror),
#        IMAGE_APT_CACHE (downloaded packages kept between builds; default
#        /var/cache/gst-sharpness/apt-bookworm)
#   Needs root (mmdebstrap --mode=root).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

usage() { sed -n '/^#   usage/,/^#   Needs/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

TAG="" CUFFT="" ARCHIVE=1
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) TAG=$2; shift 2 ;;
    --cufft) CUFFT=$2; shift 2 ;;
    --no-archive) ARCHIVE=0; shift ;;
    -h|--help) usage ;;
    -*) echo "build-image.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[ $# = 2 ] || usage
DEBDIR=$(cd "$1" && pwd)
OUT=$(mkdir -p "$2" && cd "$2" && pwd)
[ "$(id -u)" = 0 ] || { echo "build-image.sh: run as root" >&2; exit 1; }

# The image's user: a fixed number, so that Kubernetes' runAsNonRoot and
# file ownership on shared volumes can name it.
USER_NAME=sharpness
USER_ID=10001

debs=()
for p in gstreamer1.0-sharpness sharpness-tools; do
  f=$(ls "$DEBDIR"/${p}_*.deb 2>/dev/null | head -n1 || true)
  [ -n "$f" ] || { echo "build-image.sh: no ${p}_*.deb in $DEBDIR" >&2; exit 1; }
  debs+=("$f")
done
version=$(dpkg-deb -f "${debs[1]}" Version)
TAG=${TAG:-gst-sharpness:$version}

# The host's Debian mirror (dev/host-mirror.sh).
MIRROR=${IMAGE_MIRROR:-$("$here/../host-mirror.sh")}
SECURITY=${MIRROR%/debian}/debian-security
CACHE=${IMAGE_APT_CACHE:-/var/cache/gst-sharpness/apt-bookworm}
mkdir -p "$CACHE"

if ! command -v mmdebstrap >/dev/null; then
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    mmdebstrap >/dev/null
fi

root="$OUT/rootfs"
# A root left mounted on (a build killed mid-way) is unmounted first, and
# the removal never crosses into a mount: /proc, /sys and /dev inside a
# root are the host's own.
findmnt -rn -o TARGET | { grep -F "$root/" || true; } | sort -r |
  while read -r m; do umount -l "$m"; done
rm -rf --one-file-system "$root" "$OUT/oci" "$OUT/gst-sharpness-image.tar"
start=$(date +%s)
echo "build-image.sh: building $TAG from $MIRROR" >&2
# The packages and what the image adds to their dependencies: software
# decoders (libav), NVIDIA's (nvcodec, in plugins-bad) for the GPU, and
# gst-inspect-1.0 / gst-launch-1.0 to look into a running container.
# No recommends, no man pages, docs (but the copyrights) or translations.
# Downloaded packages are kept in CACHE between builds (sync-in/-out;
# replaced each time by what this build used, so superseded versions do
# not pile up); the image itself ends with no apt lists or caches.  The
# mounts mmdebstrap makes in the root for its hooks end with it.
"$here/../with-private-mounts.sh" mmdebstrap --mode=root --variant=apt --format=directory \
  --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --skip=essential/unlink \
  --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
  --setup-hook="sync-in $CACHE /var/cache/apt/archives/" \
  --customize-hook='mkdir -p "$1"/tmp/debs' \
  --customize-hook="copy-in ${debs[*]} /tmp/debs" \
  --customize-hook='chroot "$1" sh -c "cd /tmp/debs && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./*.deb gstreamer1.0-libav gstreamer1.0-plugins-bad gstreamer1.0-tools"' \
  --customize-hook="find $CACHE -name '*.deb' -delete" \
  --customize-hook="sync-out /var/cache/apt/archives $CACHE" \
  --customize-hook='rm -rf "$1"/tmp/debs' \
  --customize-hook="chroot \"\$1\" useradd --uid $USER_ID --user-group --create-home --shell /usr/sbin/nologin $USER_NAME" \
  bookworm "$root" \
  "deb $MIRROR bookworm main" \
  "deb $MIRROR bookworm-updates main" \
  "deb $SECURITY bookworm-security main" >&2

if [ -n "$CUFFT" ]; then
  # Where the plugin looks for cuFFT after the loader's paths: the
  # toolkit's own directory, as built (cuda/sharpness-cufft.h).
  mkdir -p "$root/usr/local/cuda/lib64"
  cp -a "$CUFFT"/libcufft.so.* "$root/usr/local/cuda/lib64/"
fi

args=(--tag "$TAG" --user "$USER_ID:$USER_ID" --workdir "/home/$USER_NAME"
  --env NVIDIA_VISIBLE_DEVICES=all
  --env NVIDIA_DRIVER_CAPABILITIES=compute,utility,video
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  --label org.opencontainers.image.title=gst-sharpness
  --label org.opencontainers.image.version="$version"
  --label org.opencontainers.image.licenses=LGPL-2.1-or-later
  --label org.opencontainers.image.source=https://github.com/gst-sharpness/gst-sharpness
  --cmd=sharpness-scan --cmd=--help)
[ "$ARCHIVE" = 0 ] || args+=(--archive "$OUT/gst-sharpness-image.tar")
python3 "$here/oci-image.py" "${args[@]}" "$root" "$OUT/oci" >&2
echo "build-image.sh: $TAG in $(( $(date +%s) - start )) s:" \
  "root $(du -sh "$root" | cut -f1)" >&2
echo "$OUT"
