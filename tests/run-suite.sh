#!/bin/sh
# Run the whole test suite of a build tree and end with tests/summarize.py's
# "N passed, N failed, N skipped" line: the README's test command
# (quickstart.sh test) and CI's GStreamer 1.26 part
# (dev/trixie/build-and-test.sh) both run it.
#   usage: tests/run-suite.sh [BUILD]     (default: build)
#
# Three meson test runs (lanes), by suite:
#   alone     tests that must not share the machine with other tests (a
#             live monitor that must keep the source's rate): first, with
#             nothing beside them;
#   realtime  tests that mostly wait on a clock (live sources paced at
#             their rate, a five-minute soak, daemons polled): after
#             them, three at a time;
#   the rest  CPU-bound: after the alone lane, beside the real-time one,
#             meson's default of one process per core, at nice 19.
# At nice 19 the CPU-bound lane gets a core only when the timed tests
# leave it one (1.5 % of a core against one that wants it), so that a
# paced source or a soak's channel gets a core at once.  The faults test
# runs before it even so: with the CPU-bound lane and CI's packages part
# beside it at nice 19, it fell under its source's rate in the Debian 13
# root (29.12 of 30 fps, 2026-12-07).  With one meson run, the soak held
# one of CI's two process slots for five minutes while its core idled
# (docs/ci.md: where the time goes).
# Each lane writes its own log (BUILD/meson-logs/{alone,realtime,testlog}
# .json); the summary counts them all.  A plain `meson test -C BUILD`
# still runs every test.
#   env: REALTIME_PROCESSES (default 3): real-time tests at once.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
logs=$build/meson-logs
status=0

# Built once here: two meson test runs would otherwise both run ninja in
# the same tree at the same time.
meson compile -C "$build" || exit 1
rm -f "$logs/alone.json" "$logs/realtime.json" "$logs/testlog.json"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# lane NAME PREFIX NICE [ARGS...]: one meson test run at niceness NICE,
# its lines marked with PREFIX (sed -u writes each line whole, so that
# two lanes never mix within a line), its exit status in $tmp/NAME.
lane() {
  name=$1 prefix=$2 niceness=$3
  shift 3
  { nice -n "$niceness" meson test -C "$build" --no-rebuild \
      --print-errorlogs "$@" 2>&1
    echo $? >"$tmp/$name"
  } | sed -u "s/^/$prefix/"
}

lane alone "alone: " 0 --suite alone --logbase alone
lane testlog "" 19 --no-suite alone --no-suite realtime \
  --logbase testlog &
cpu=$!
lane realtime "realtime: " 0 --suite realtime --no-suite alone \
  --num-processes "${REALTIME_PROCESSES:-3}" --logbase realtime
wait "$cpu"
for name in testlog alone realtime; do
  [ "$(cat "$tmp/$name" 2>/dev/null)" = 0 ] || status=1
done

set --
for log in alone realtime testlog; do
  [ -f "$logs/$log.json" ] && set -- "$@" "$logs/$log.json"
done
/usr/bin/python3 tests/summarize.py "$@" || status=1
exit $status
