#!/bin/sh
# Run the whole test suite of a build tree and end with tests/summarize.py's
# "N passed, N failed, N skipped" line: the README's test command
# (quickstart.sh test) and CI's GStreamer 1.26 part
# (dev/trixie/build-and-test.sh) both run it.
#   usage: tests/run-suite.sh [BUILD]     (default: build)
#
# Three meson test runs (lanes), by suite:
#   alone     tests that must have the machine to themselves (a live
#             monitor that must keep the source's rate): first, nothing
#             beside them;
#   realtime  tests that mostly wait on a clock (live sources paced at
#             their rate, a five-minute soak, daemons polled): beside the
#             rest, in a lane of their own, since they keep a meson
#             process slot busy for minutes without keeping a core busy;
#   the rest  CPU-bound: meson's default of one process per core.
# With one lane, the soak alone held one of CI's two slots for five
# minutes while its core idled (docs/ci.md: where the time goes).
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

meson test -C "$build" --no-rebuild --print-errorlogs --suite alone \
  --logbase alone || status=1

# The real-time lane's lines are marked, the CPU-bound lane's are not; sed
# -u writes each line whole, so the two never mix within a line.
rc=$(mktemp)
( meson test -C "$build" --no-rebuild --print-errorlogs --suite realtime \
    --no-suite alone --num-processes "${REALTIME_PROCESSES:-3}" \
    --logbase realtime 2>&1
  echo $? >"$rc"
) | sed -u 's/^/realtime: /' &
realtime=$!
# The CPU-bound lane a little nicer than the real-time one: a paced
# source or a soak's channel that needs a core now gets it first.
nice -n 5 meson test -C "$build" --no-rebuild --print-errorlogs \
  --no-suite alone --no-suite realtime --logbase testlog || status=1
wait "$realtime"
[ "$(cat "$rc")" = 0 ] || status=1
rm -f "$rc"

set --
for log in alone realtime testlog; do
  [ -f "$logs/$log.json" ] && set -- "$@" "$logs/$log.json"
done
/usr/bin/python3 tests/summarize.py "$@" || status=1
exit $status
