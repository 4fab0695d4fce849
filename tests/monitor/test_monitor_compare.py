#!/usr/bin/python3
# sharpness-monitor's compared pairs (compare-with: cudacompare between two
# channels, CPU backend): the faults clip against itself (PSNR infinite,
# SSIM 1: no alarm) and against a low-quality encode of it (PSNR far below
# 30 dB outside its black stretches: psnr-drop and ssim-drop alarms over
# most of the clip, each started and ended).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy')

import monitor_common as mc  # noqa: E402


def main():
    mc.require_tools('ffmpeg')
    ts = mc.faults_ts()
    bad = mc.degraded_ts()
    fx = mc.Failures()
    with mc.Procs() as procs:
        cfg = mc.write_config(procs, [
            {'name': 'source', 'uri': 'file://' + ts},
            {'name': 'copy', 'uri': 'file://' + ts, 'compare-with': 'source'},
            {'name': 'encode', 'uri': 'file://' + bad,
             'compare-with': 'source'},
        ], defaults={'alarms': {'psnr-drop': {'onset': 1.0, 'level': 30},
                                'ssim-drop': {'onset': 1.0, 'level': 0.9}}})
        log = os.path.join(procs.tmp, 'events.jsonl')
        mon = mc.start_monitor(procs, ['--config', cfg, '--events', log,
                                       '--as-fast-as-possible'])
        try:
            mon.wait(120)
        except Exception:
            pass
        fx.check(mon.returncode == 0, 'the monitor ended with its files '
                 '(%s)' % mon.returncode)
        import json
        with open(log) as f:
            evs = [json.loads(line) for line in f]

        def kinds(ch):
            return [(e['kind'], e['event']) for e in evs
                    if e['channel'] == ch and e['kind'].endswith('-drop')]
        fx.check(kinds('copy') == [], 'the identical copy raises no drop '
                 'alarm (%s)' % kinds('copy'))
        # The encode's drops pause where the clip is black (black frames
        # encode perfectly): several alarms, each started and ended, over
        # most of the clip.
        for kind in ('psnr-drop', 'ssim-drop'):
            got = [e for e in evs if e['channel'] == 'encode' and
                   e['kind'] == kind]
            starts = [e for e in got if e['event'] == 'start']
            ends = [e for e in got if e['event'] == 'end']
            total = sum(e['duration'] for e in ends)
            fx.check(starts and len(starts) == len(ends) and
                     [e['event'] for e in got] == ['start', 'end'] *
                     len(ends), 'encode: %s alarms started and ended in '
                     'pairs (%d)' % (kind, len(ends)))
            fx.check(total > 0.5 * mc.SECONDS, 'encode: %s over %.1f s of '
                     'the %d s clip' % (kind, total, mc.SECONDS))
            if kind == 'psnr-drop':
                fx.check(all(e['mean'] < 30 for e in ends), 'encode: mean '
                         'PSNR under 30 dB in each (%s)' % [
                             round(e['mean'], 1) for e in ends])
    fx.finish()


if __name__ == '__main__':
    main()
