#!/usr/bin/python3
# sharpness-monitor soak, CI-sized: 8 channels (7 playing a 320 s clip at
# real-time pace, CPU decoding, and one whose RTSP server refuses,
# restarted about once a second) for 5 minutes: a 60 s warm-up in which
# the memory allocator's pools fill, then MONITOR_SOAK_SECONDS (default
# 240 s) measured.
# Checks: the resident memory (median of three samples 5 s apart) grows
# by less than 2 % from the end of the warm-up to the end, and the open
# file descriptors do not grow across at least 50 restarts.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import socket  # noqa: E402
import time  # noqa: E402

import monitor_common as mc  # noqa: E402

WARMUP = 60
SOAK = int(os.environ.get('MONITOR_SOAK_SECONDS', '240'))


def fds(pid):
    return len(os.listdir('/proc/%d/fd' % pid))


def main():
    mc.require_tools('ffmpeg')
    if not os.path.isdir('/proc/self/fd'):
        scaffold.skip('no /proc')
    clip = mc.long_ts()
    fx = mc.Failures()
    with mc.Procs() as procs:
        dead = mc.free_port()
        chans = [{'name': 'ch%d' % i, 'uri': 'file://' + clip}
                 for i in range(7)]
        chans.append({'name': 'refused', 'uri': 'rtsp://%s:%d/x' %
                      (mc.HOST, dead)})
        cfg = mc.write_config(procs, chans)
        mon = mc.start_monitor(procs, ['--config', cfg, '-q', '--loop',
                                       '--max-backoff', '1'])
        time.sleep(WARMUP - 10)
        first = []
        for _ in range(3):
            time.sleep(5)
            first.append(mc.rss_kb(mon.pid))
        r0, f0 = sorted(first)[1], fds(mon.pid)
        restarts0 = mc.get_json(mon, '/api/channels/refused')['restarts']
        samples = []
        deadline = time.monotonic() + SOAK
        while time.monotonic() < deadline:
            time.sleep(5)
            samples.append(mc.rss_kb(mon.pid))
            mc.get(mon, '/metrics')
            mc.get(mon, '/api/channels')
        r1, f1 = sorted(samples[-3:])[1], fds(mon.pid)
        restarts = mc.get_json(mon, '/api/channels/refused')['restarts'] - \
            restarts0
        scored = [c['frames_scored'] for c in mc.get_json(mon,
                                                          '/api/channels')]
        mc.log('RSS after warm-up %d kB, end %d kB, samples %s' % (
            r0, r1, samples))
        fx.check(mon.poll() is None, 'the monitor ran %d s' % (WARMUP + SOAK))
        fx.check(r1 <= r0 * 1.02, 'RSS grew %.2f %% after the warm-up '
                 '(%d -> %d kB), under 2 %%' % (100.0 * (r1 - r0) / r0, r0,
                                                 r1))
        fx.check(restarts >= 50, '%d restarts of the '
                 'refused channel during the soak' % restarts)
        fx.check(f1 <= f0 + 2, 'file descriptors %d -> %d across %d '
                 'restarts' % (f0, f1, restarts))
        fx.check(all(s > 10 * (WARMUP + SOAK) * 0.9 for s in scored[:7]),
                 'every playing channel scored its frames (%s)' % scored[:7])
    fx.finish()


if __name__ == '__main__':
    main()
