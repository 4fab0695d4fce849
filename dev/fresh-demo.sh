#!/usr/bin/env bash
# Times the README's demo as a newcomer meets it: a fresh Debian 12 root
# (mmdebstrap, variant "important": what debootstrap installs by default,
# with bookworm-updates and -security, from the host's mirror), the
# committed tree copied in (git archive HEAD, as a clone would give it), then
# `./quickstart.sh demo` run in it as root, apt included.  The root is made
# in DIR and removed at the end (unless --keep); only the demo is timed.
#
#   usage: dev/fresh-demo.sh [--keep] [--rev REV] [--apt-cache DIR] [--quiet LOAD]
#                            [--cpus LIST] [DIR]
#     DIR             where the root is made (default: a new /tmp/fresh-demo.*)
#     --cpus LIST     the CPUs the demo may use (taskset -c; default 0,1: the
#                     2-core machine the README's 5 minutes are for)
#     --quiet LOAD    once the root is made, wait (20 minutes at most) for
#                     the 1-minute load average to fall under LOAD before
#                     the demo starts: a shared machine's other work is not
#                     the demo's time
#     --rev REV       the commit whose tree is copied (default HEAD)
#     --apt-cache DIR take the demo's .debs from DIR (e.g. the container
#                     image's cache, /var/cache/gst-sharpness/apt-bookworm)
#                     rather than downloading them: what the demo's apt
#                     costs without the network
#   Needs root.  Prints the load average before and after the demo (the
#   machine's other work slows it) and "demo: N s" last; exit status: the
#   demo's.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)

KEEP=0 CACHE="" REV=HEAD CPUS=0,1 QUIET=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) KEEP=1; shift ;;
    --rev) REV=$2; shift 2 ;;
    --apt-cache) CACHE=$(cd "$2" && pwd); shift 2 ;;
    --cpus) CPUS=$2; shift 2 ;;
    --quiet) QUIET=$2; shift 2 ;;
    -h|--help) sed -n '/^#   usage/,/^#   Needs/p' "$0" | sed 's/^# \{0,1\}//' >&2
               exit 2 ;;
    -*) echo "fresh-demo.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "fresh-demo.sh: run as root" >&2; exit 1; }
dir=${1:-$(mktemp -d /tmp/fresh-demo.XXXXXX)}
mkdir -p "$dir"
root=$dir/root
tree=$dir/gst-sharpness
[ "$KEEP" = 1 ] || trap 'rm -rf --one-file-system "$dir"' EXIT

if ! command -v mmdebstrap >/dev/null; then
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    mmdebstrap >/dev/null
fi

MIRROR=${DEMO_MIRROR:-$("$here/host-mirror.sh")}
SECURITY=${MIRROR%/debian}/debian-security
start=$(date +%s)
# The mounts mmdebstrap makes in the root end with it (a private mount
# namespace).
"$here/with-private-mounts.sh" mmdebstrap --mode=root --variant=important \
  --format=directory \
  --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
  bookworm "$root" \
  "deb $MIRROR bookworm main" \
  "deb $MIRROR bookworm-updates main" \
  "deb $SECURITY bookworm-security main" >&2
echo "fresh-demo.sh: root made in $(( $(date +%s) - start )) s" >&2

# The tree as a clone of REV has it: committed files only, no build
# directory.
mkdir -p "$tree"
git -C "$src" archive "$REV" | tar -x -C "$tree"
# A fresh machine resolves names: the host's resolver, where mmdebstrap
# left none.
[ -s "$root/etc/resolv.conf" ] || cp -L /etc/resolv.conf "$root/etc/resolv.conf"
if [ -n "$CACHE" ]; then
  cp "$CACHE"/*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true
fi

# chroot-run.sh binds /proc, /sys, /dev and the tree (at the same path) in
# a private mount namespace: nothing stays mounted after it.
if [ -n "$QUIET" ]; then
  for _ in $(seq 240); do
    awk -v max="$QUIET" '{ exit !($1 < max) }' /proc/loadavg && break
    sleep 5
  done
fi
echo "fresh-demo.sh: before the demo: load average $(cut -d' ' -f1-3 /proc/loadavg), CPUs $CPUS" >&2
start=$(date +%s)
rc=0
# Each line of the demo's output after the seconds since its start: where
# the time went (apt, meson setup, the build, the pipeline).
taskset -c "$CPUS" "$here/trixie/chroot-run.sh" --src "$tree" "$root" \
  ./quickstart.sh demo 2>&1 |
  while IFS= read -r line; do
    printf '%4d %s\n' $(( $(date +%s) - start )) "$line"
  done || rc=$?
echo "fresh-demo.sh: after the demo: load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "demo: $(( $(date +%s) - start )) s (exit status $rc)"
exit $rc
