#!/usr/bin/env bash
# Build the Debian packages (debian/) from this source tree into OUTDIR,
# then run lintian on them; fails on a lintian error.
#
#   usage: dev/package/build-debs.sh [OUTDIR]   (default: build-deb)
#   env:   DEB_BUILD_OPTIONS (e.g. "nocheck cuda-archs=75"), CUDA_ROOT,
#          CUDA_LAUNCHER (default auto: nvcc through ccache when installed),
#          CCACHE_DIR
#
# The tree (tracked and untracked files, not what git ignores: no build
# directories) is copied to a temporary directory first, since
# dpkg-buildpackage writes its build directory into the tree and the
# packages beside it.  Prints the .deb paths on its last lines.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
out=$(mkdir -p "${1:-build-deb}" && cd "${1:-build-deb}" && pwd)

for tool in dpkg-buildpackage dh lintian; do
  command -v "$tool" >/dev/null || {
    echo "build-debs.sh: $tool missing (apt-get install dpkg-dev debhelper lintian)" >&2
    exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/gst-sharpness-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
tree="$work/gst-sharpness-$version"
mkdir -p "$tree"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$src" ls-files -z --cached --others --exclude-standard |
    grep -zv '^debian/\(\.debhelper\|tmp\|files$\)' |
    (cd "$src" && xargs -0 cp --parents -t "$tree" 2>/dev/null || true)
  # Files deleted in the work tree but still tracked: skipped above by cp.
else
  cp -a "$src/." "$tree"
fi

# Through ccache, paths inside the copy are hashed relative to it, so that
# the next build (another temporary directory) and a build of the same
# tree elsewhere hit the cache.
export CCACHE_BASEDIR="$tree" CCACHE_NOHASHDIR=1

start=$(date +%s)
echo "build-debs.sh: dpkg-buildpackage -b -us -uc in $tree" \
  "(DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-})" >&2
(cd "$tree" && dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1 || {
  tail -n 80 "$work/build.log" >&2
  echo "build-debs.sh: dpkg-buildpackage failed (log above)" >&2
  exit 1
}
grep -E '^(gst-sharpness|  (CUDA|tests))|CUDA (SASS|PTX)' "$work/build.log" >&2 || true
echo "build-debs.sh: built in $(( $(date +%s) - start )) s" >&2

rm -f "$out"/*.deb "$out"/*.buildinfo "$out"/*.changes
mv "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$out"/
cp "$work/build.log" "$out/build.log"

# Errors fail; warnings are shown (LINTIAN=0: not run, for a caller that
# runs it on its own).
if [ "${LINTIAN:-1}" != 0 ] &&
   ! lintian --fail-on error --display-info "$out"/*.changes >&2; then
  echo "build-debs.sh: lintian found errors" >&2
  exit 1
fi
ls -l "$out"/*.deb >&2
ls "$out"/*.deb
