#!/usr/bin/env bash
# Run a command inside a trixie root (made by make-root.sh, or unpacked by
# run-on-gpu.sh) with /proc, /sys, /dev and the source tree bind-mounted at
# the same paths, so that a build directory made inside works outside and
# vice versa.  Mounts live in a private mount namespace (unshare) when
# possible, so they vanish with the command even if it is killed.
#
#   usage: chroot-run.sh [options] ROOT COMMAND [ARG...]
#     --src DIR     bind DIR at the same path and run COMMAND there
#                   (default: the current directory)
#     --cuda [DIR]  bind the CUDA toolkit (default /usr/local/cuda) read-only
#                   at /usr/local/cuda: nvcc is a host binary that runs on
#                   trixie's newer glibc
#     --bind DIR    bind DIR (read-write) at the same path: a cache kept
#                   outside the root, e.g. ccache's (repeatable)
#     --nvidia      bind the NVIDIA driver's user-space libraries (libcuda,
#                   libnvcuvid, libnvidia-encode, ...) at
#                   /usr/local/nvidia-host/lib and put them on LD_LIBRARY_PATH
#     -e VAR=VALUE  set VAR in the command's environment (repeatable); the
#                   host environment is not passed, except TERM
#   Needs root.  Exit status: the command's.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail

usage() { sed -n '/^#   usage/,/^#   Needs/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

ARGS=("$@")
SRC=$PWD; CUDA=""; NVIDIA=0; ENVS=(); BINDS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --src) SRC=$2; shift 2 ;;
    --cuda)
      if [ $# -gt 1 ] && [ -d "$2" ] && [ -x "$2/bin/nvcc" ]; then CUDA=$2; shift 2
      else CUDA=/usr/local/cuda; shift; fi ;;
    --bind) BINDS+=("$(cd "$2" && pwd)"); shift 2 ;;
    --nvidia) NVIDIA=1; shift ;;
    -e) ENVS+=("$2"); shift 2 ;;
    -h|--help) usage ;;
    --) shift; break ;;
    -*) echo "chroot-run.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || usage
ROOT=$(cd "$1" && pwd); shift
SRC=$(cd "$SRC" && pwd)
[ -x "$ROOT/bin/sh" ] || { echo "chroot-run.sh: $ROOT is not a root" >&2; exit 2; }

# Re-run in a private mount namespace: no mount outlives the command.
if [ -z "${_TRIXIE_MOUNT_NS:-}" ] &&
   unshare --mount --propagation private true 2>/dev/null; then
  export _TRIXIE_MOUNT_NS=1
  exec unshare --mount --propagation private "$0" "${ARGS[@]}"
fi

MOUNTED=()
cleanup() {
  local i
  for (( i=${#MOUNTED[@]}-1; i>=0; i-- )); do
    umount -R -l "${MOUNTED[$i]}" 2>/dev/null || true
  done
}
[ -n "${_TRIXIE_MOUNT_NS:-}" ] || trap cleanup EXIT
# bind SRC DEST [ro|r]: DEST is a path inside ROOT; "r": recursively (with
# the submounts: /dev/pts, /dev/shm...).  The source tree is bound without
# its submounts: the root may itself sit inside it (run-on-gpu.sh).
bind() {
  local dest="$ROOT$2"
  if [ -d "$1" ]; then mkdir -p "$dest"; else mkdir -p "$(dirname "$dest")"; : >> "$dest"; fi
  if [ "${3:-}" = r ]; then mount --rbind "$1" "$dest"; else mount --bind "$1" "$dest"; fi
  MOUNTED+=("$dest")
  if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$dest" 2>/dev/null || true; fi
}

bind /proc /proc r
bind /sys /sys r
bind /dev /dev r
bind "$SRC" "$SRC"
for b in "${BINDS[@]}"; do bind "$b" "$b"; done
LIBPATH=""
PATHS=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
if [ -n "$CUDA" ]; then
  bind "$(readlink -f "$CUDA")" /usr/local/cuda ro
  PATHS=/usr/local/cuda/bin:$PATHS
fi
if [ $NVIDIA = 1 ]; then
  # The driver's libraries, found the way the host's loader finds them,
  # each bound under its soname (what nvcodec and cudart dlopen).
  n=0
  while read -r lib path; do
    bind "$path" "/usr/local/nvidia-host/lib/$lib" ro
    n=$((n + 1))
  done < <("$(dirname "$0")/nvidia-libs.sh")
  echo "chroot-run.sh: bound $n NVIDIA driver libraries" >&2
  LIBPATH=/usr/local/nvidia-host/lib
fi

exec chroot "$ROOT" /usr/bin/env -i PATH="$PATHS" HOME=/root LANG=C.UTF-8 \
  TERM="${TERM:-dumb}" ${LIBPATH:+LD_LIBRARY_PATH=$LIBPATH} "${ENVS[@]}" \
  /bin/sh -c 'cd "$1" && shift && exec "$@"' sh "$SRC" "$@"
