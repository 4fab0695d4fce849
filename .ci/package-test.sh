#!/usr/bin/env bash
# CI part "packages" (Debian 12 host, root): build the Debian packages
# (dev/package/build-debs.sh), check them, build the container image from
# them (dev/container/build-image.sh: a clean Debian 12 root in which
# `apt-get install ./*.deb` resolves the dependencies), and run the tools in
# that root as the image's non-root user.  Each check counts as one test;
# ends with "N passed, N failed, N skipped" (tests/summarize.py's format).
#   env: PACKAGE_OUT (default build-ci-packages: the .debs stay there),
#        CI_CUDA_ARCHS (default auto: on CI's GPU-less host, PTX of
#        compute_75 only, the kernels the host build of the same run has
#        just compiled into the shared ccache; docs/packaging.md), CUDA_ROOT
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -uo pipefail
cd "$(dirname "$0")/.."
src=$PWD
out=$(mkdir -p "${PACKAGE_OUT:-build-ci-packages}" && cd "${PACKAGE_OUT:-build-ci-packages}" && pwd)
cache=/var/cache/gst-sharpness
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
passed=0 failed=0 skipped=0

# check NAME COMMAND...: one test; its output is shown when it fails.
# A command that prints "skipped: REASON" and exits 77 is skipped.
check() {
  local name=$1 t0=$SECONDS rc
  shift
  "$@" >"$logs/$name.log" 2>&1
  rc=$?
  if [ $rc = 0 ]; then
    passed=$((passed + 1))
    echo "ok      $name ($((SECONDS - t0)) s)"
  elif [ $rc = 77 ]; then
    skipped=$((skipped + 1))
    echo "skipped $name: $(grep -m1 '^skipped:' "$logs/$name.log" | sed 's/^skipped: //')"
  else
    failed=$((failed + 1))
    echo "FAILED $name: exit status $rc after $((SECONDS - t0)) s; the last lines it printed:"
    grep -v '^[[:space:]]*$' "$logs/$name.log" | tail -n 60 | sed 's/^/    /'
  fi
  return $rc
}

finish() {
  echo "$passed passed, $failed failed, $skipped skipped"
  [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
  exit $?
}

tools() {
  local missing="" p
  for p in dpkg-dev debhelper lintian mmdebstrap ccache; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "Installing:$missing"
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends $missing
}

# The CUDA kernels through ccache (-Dcuda-launcher=auto), in the cache that
# .ci/run shares with the host build: the same kernels, already compiled.
build() {
  export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
  mkdir -p "$CCACHE_DIR"
  ccache --zero-stats >/dev/null
  LINTIAN=0 DEB_BUILD_OPTIONS="nocheck cuda-archs=${CI_CUDA_ARCHS:-auto} parallel=$(nproc)" \
    dev/package/build-debs.sh "$out" || return 1
  # What the build took from the cache (shown, not checked).
  ccache --show-stats >"$logs/ccache.txt"
  grep -m2 -E '^ *(Hits|Misses)' "$logs/ccache.txt" || true
}

lint() {
  lintian --fail-on error --display-info "$out"/*.changes
}

# What each package ships, that the plugin carries its CUDA kernels, and
# that the versions agree with meson.build.
contents() {
  local plugin tools version meson_version
  plugin=$(ls "$out"/gstreamer1.0-sharpness_*.deb) || return 1
  tools=$(ls "$out"/sharpness-tools_*.deb) || return 1
  python3 - "$plugin" "$tools" <<'EOF'
import re, subprocess, sys
def files(deb):
    out = subprocess.run(['dpkg-deb', '-c', deb], capture_output=True,
                         text=True, check=True).stdout
    return {line.split()[5].lstrip('.') for line in out.splitlines()}
want = {
    sys.argv[1]: [r'/usr/lib/[^/]+/gstreamer-1\.0/libgstsharpness\.so$',
                  r'/usr/share/doc/gst-sharpness/reference/sharpness-scan\.md$',
                  r'/usr/share/doc/gstreamer1\.0-sharpness/copyright$'],
    sys.argv[2]: [r'/usr/bin/sharpness-scan$',
                  r'/usr/share/man/man1/sharpness-scan\.1\.gz$',
                  r'/usr/share/gst-sharpness/scan-report\.schema\.json$',
                  r'/usr/share/gst-sharpness/scan-array\.sh$',
                  r'/usr/bin/sharpness-monitor$',
                  r'/usr/share/man/man1/sharpness-monitor\.1\.gz$',
                  r'/lib/systemd/system/sharpness-monitor\.service$',
                  r'/usr/share/gst-sharpness/monitor/channels\.example\.yaml$'],
}
bad = 0
for deb, patterns in want.items():
    have = files(deb)
    for p in patterns:
        if not any(re.match(p, f) for f in have):
            print('%s: nothing matches %s' % (deb, p)); bad = 1
sys.exit(bad)
EOF
  [ $? = 0 ] || return 1
  dpkg-deb -x "$plugin" "$logs/plugin" &&
    readelf -S -W "$logs"/plugin/usr/lib/*/gstreamer-1.0/libgstsharpness.so |
    grep -q '\.nv_fatbin' || { echo "the plugin has no .nv_fatbin: built without CUDA"; return 1; }
  version=$(dpkg-deb -f "$plugin" Version)
  meson_version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" meson.build | head -n1)
  [ "$version" = "$meson_version" ] ||
    { echo "package version $version, meson.build $meson_version"; return 1; }
  echo "version $version, CUDA kernels in the plugin"
}

image() {
  dev/container/build-image.sh "$out" "$out/image"
}

# In the image's root, as its user (uid 10001): chroot-run.sh binds /proc,
# /sys, /dev and the source tree (the clip) and runs there.
as_user() {
  dev/trixie/chroot-run.sh -e HOME=/home/sharpness \
    -e NVIDIA_VISIBLE_DEVICES=all \
    -e NVIDIA_DRIVER_CAPABILITIES=compute,utility,video \
    "$out/image/rootfs" setpriv --reuid=10001 --regid=10001 --init-groups \
    -- "$@"
}

oci() {
  python3 dev/container/oci-image.py --check "$out/image/oci" >"$logs/config.json" &&
    python3 - "$logs/config.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
env = dict(e.split('=', 1) for e in c['Env'])
assert c['User'] == '10001:10001', c['User']
assert env.get('NVIDIA_VISIBLE_DEVICES') == 'all', env
assert env.get('NVIDIA_DRIVER_CAPABILITIES') == 'compute,utility,video', env
print('user %s, NVIDIA variables set, digests and diff_ids right' % c['User'])
EOF
}

nonroot() {
  as_user sh -c 'id -u; ! touch /usr/bin/x 2>/dev/null' | grep -qx 10001
}

inspect() {
  # Into a file first: head closing the pipe early would kill tee
  # (SIGPIPE, a failure under pipefail) whenever the output is long.
  as_user gst-inspect-1.0 cudasharpness >"$logs/inspect.txt" &&
    head -n 20 "$logs/inspect.txt" &&
    grep -q 'libgstsharpness.so' "$logs/inspect.txt"
}

# No GPU here: the tool finds none and decodes and scores on the CPU, as
# the image does on a node without one.  (The image has no Python: grep.)
scan() {
  as_user sharpness-scan --json - "$src/tests/data/testsrc2-320x240.h264" \
    >"$logs/scan.json" &&
    grep -m1 -E '"frames": *[1-9]' "$logs/scan.json"
}

# --help, and the packaged example configuration checked by the packaged
# tool (the unit's file is read the same way).
monitor() {
  as_user sharpness-monitor --help &&
    as_user sharpness-monitor --check-config \
      --config /usr/share/gst-sharpness/monitor/channels.example.yaml
}

echo "=== packages: build, lintian, image, tools in the image ==="
check tools tools || finish
check build build || finish
ls -l "$out"/*.deb
check lintian lint
check contents contents
if check image image; then
  check oci oci
  check nonroot nonroot
  check gst-inspect inspect
  check scan scan
  check monitor monitor
  du -sh "$out/image/rootfs" "$out/image/gst-sharpness-image.tar" 2>/dev/null
  # The root is big and only for these checks; the image stays.
  rm -rf --one-file-system "$out/image/rootfs"
fi
finish
