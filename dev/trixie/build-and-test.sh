#!/bin/sh
# Inside a trixie root (see chroot-run.sh), from the source tree: configure
# (once), build and run the meson test suite in BUILD (default build-trixie)
# with tests/run-suite.sh, which ends with tests/summarize.py's "N passed,
# N failed, N skipped" line.
#   usage: dev/trixie/build-and-test.sh [BUILD] [MESON SETUP ARGS...]
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
build=${1:-build-trixie}
[ $# -gt 0 ] && shift
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --buildtype=debugoptimized "$@"
fi
# The suite as the README's test command runs it (tests/run-suite.sh).
exec tests/run-suite.sh "$build"
