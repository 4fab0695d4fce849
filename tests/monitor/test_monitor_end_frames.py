#!/usr/bin/python3
# One frame convention for the monitor's end events: `end_frame` is the
# last frame of the stretch, inclusive, for blur, black and freeze alike,
# as sharpness-scan gives it (black and freeze gave the first frame after
# the stretch).  The faults clip played as a file channel as fast as it
# decodes: each black, freeze and blur stretch's start_frame and end_frame
# against the clip's truth (monitor_common.truth), and end_frame -
# start_frame + 1 frames against the event's duration.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy')

import json  # noqa: E402

import monitor_common as mc  # noqa: E402

# The element decides blur from the scores of encoded frames: its runs
# may differ from the blur the clip was made with by a frame at either
# edge (the faults test's tolerance).  Black and frozen frames are exact.
TOLERANCE = {'black': 0, 'freeze': 0, 'blur': 1}


def main():
    mc.require_tools('ffmpeg')
    ts = mc.faults_ts()
    fx = mc.Failures()
    truth = [(k, mc.F(a), mc.F(b) - 1) for k, a, b in mc.truth()
             if k in TOLERANCE]
    with mc.Procs() as procs:
        cfg = mc.write_config(procs, [{'name': 'faults', 'uri': 'file://' +
                                       ts}],
                              defaults={'alarms': mc.CONFIG_ALARMS})
        log = os.path.join(procs.tmp, 'events.jsonl')
        mon = mc.start_monitor(procs, ['--config', cfg, '--events', log,
                                       '--as-fast-as-possible'])
        # The monitor exits once its only file channel has ended.
        try:
            mon.wait(120)
        except mc.subprocess.TimeoutExpired:
            pass
        fx.check(mon.poll() == 0, 'the monitor played the clip and exited '
                 '(%s)' % mon.poll())
        procs.stop(mon)
        with open(log) as f:
            ends = [e for e in map(json.loads, f)
                    if e['event'] == 'end' and e['kind'] in TOLERANCE]

    got = sorted((e['kind'], e.get('start_frame'), e.get('end_frame'),
                  e['duration']) for e in ends)
    mc.log('truth (kind, first, last frame): %s' % sorted(truth))
    mc.log('end events (kind, start_frame, end_frame, duration): %s' % got)
    for kind, first, last in sorted(truth):
        tol = TOLERANCE[kind]
        match = [g for g in got if g[0] == kind and g[1] is not None and
                 abs(g[1] - first) <= tol + 1 and g[2] is not None and
                 abs(g[2] - last) <= tol + 1]
        g = match[0] if match else None
        fx.check(g is not None and abs(g[1] - first) <= tol and
                 abs(g[2] - last) <= tol,
                 '%s %d-%d: the end event gives start_frame %s, end_frame '
                 '%s (its last frame, inclusive; within %d)' % (
                     kind, first, last, g and g[1], g and g[2], tol))
        fx.check(g is not None and abs((g[2] - g[1] + 1) / mc.FPS - g[3]) <
                 0.5 / mc.FPS, '%s %d-%d: end_frame - start_frame + 1 '
                 'frames are its duration (%s s)' % (
                     kind, first, last, g and g[3]))
    fx.check(len(got) == len(truth), 'one end event per stretch (%d, '
             'truth %d)' % (len(got), len(truth)))
    fx.finish()


if __name__ == '__main__':
    main()
