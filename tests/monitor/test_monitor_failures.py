#!/usr/bin/python3
# sharpness-monitor when sources fail (CPU decoding and backend, all on
# 127.0.0.1): an SRT listener killed and started again (one no-signal
# alarm, one reconnect), garbage bytes sent to a UDP channel's port, a
# stream with no video, a host that refuses the connection.  The process
# keeps running, the failing channels retry, and a steady channel keeps
# its frame rate throughout.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'gi')

import signal  # noqa: E402
import socket  # noqa: E402
import time  # noqa: E402

import monitor_common as mc  # noqa: E402


def main():
    mc.require_tools('ffmpeg', 'gst-launch-1.0')
    mc.require_elements('tsparse', 'udpsink', 'srtsink', 'srtsrc')
    ts = mc.faults_ts()
    novideo = mc.novideo_ts()
    fx = mc.Failures()

    with mc.Procs() as procs:
        srt = mc.free_port(socket.SOCK_DGRAM)
        udp = mc.free_port(socket.SOCK_DGRAM)
        novid = mc.free_port(socket.SOCK_DGRAM)
        refused = mc.free_port()
        sender = mc.srt_listener(procs, ts, srt)
        cfg = mc.write_config(procs, [
            {'name': 'steady', 'uri': 'file://' + ts},
            {'name': 'srt', 'uri': 'srt://%s:%d?mode=caller' % (mc.HOST, srt)},
            {'name': 'garbage', 'uri': 'udp://%s:%d' % (mc.HOST, udp)},
            {'name': 'novideo', 'uri': 'udp://%s:%d' % (mc.HOST, novid)},
            {'name': 'refused', 'uri': 'rtsp://%s:%d/x' % (mc.HOST, refused)},
        ], defaults={'alarms': {'no-signal': {'onset': 1.5}}})
        mon = mc.start_monitor(procs, ['--config', cfg, '--max-backoff', '1',
                                       '--restart-after', '0'])
        mc.udp_sender(procs, ts, udp, name='udp-sender')
        mc.udp_sender(procs, novideo, novid, name='novideo-sender')

        def chan(name):
            return mc.get_json(mon, '/api/channels/' + name)

        # Past the channels' start-up grace (10 s), when a gap is a loss.
        mc.wait_until('srt frames', lambda: chan('srt')['frames_scored'] >
                      11 * mc.FPS, 30)
        s0, t0 = chan('steady')['frames_scored'], time.monotonic()

        # The SRT sender goes away for 4 s, then comes back.
        procs.stop(sender, signal.SIGKILL)
        time.sleep(4)
        mc.srt_listener(procs, ts, srt, name='srt-sender-2')
        # Garbage on the UDP channel's port, between its packets.
        g = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        rnd = open('/dev/urandom', 'rb')
        for _ in range(300):
            g.sendto(rnd.read(1316), (mc.HOST, udp))
            time.sleep(0.005)
        g.close()
        rnd.close()
        mc.wait_until('srt back', lambda: chan('srt')['up'] and
                      chan('srt')['frames_scored'] > 0, 30)
        time.sleep(2)
        s1, t1 = chan('steady')['frames_scored'], time.monotonic()
        rate = (s1 - s0) / (t1 - t0)
        fx.check(abs(rate - mc.FPS) <= 0.02 * mc.FPS, 'steady channel kept '
                 '%.2f fps (source %d) while the others failed' % (
                     rate, mc.FPS))
        fx.check(mon.poll() is None, 'the monitor is still running')

        c = chan('srt')
        fx.check(c['reconnects'] == 1, 'srt: reconnect counted once (%d, '
                 'after %d attempts)' % (c['reconnects'], c['restarts']))
        ns = [e for e in mc.events(mon, 'srt') if e['kind'] == 'no-signal']
        fx.check([e['event'] for e in ns] == ['start', 'end'],
                 'srt: one no-signal alarm, started and ended (%s)' % (
                     [e['event'] for e in ns]))
        if len(ns) == 2:
            fx.check(3.0 <= ns[1]['duration'] <= 12.0, 'srt: the no-signal '
                     'alarm lasted %.1f s (sender away 4 s)' %
                     ns[1]['duration'])

        c = chan('garbage')
        fx.check(c['up'] and c['frames_scored'] > 0, 'garbage: the channel '
                 'is up and scoring (%s, %d frames, last error %s)' % (
                     c['state'], c['frames_scored'], c['last_error']))

        c = chan('novideo')
        fx.check(not c['up'] and c['last_error'] and 'no video' in
                 c['last_error'], 'novideo: down, "%s"' % c['last_error'])
        c = chan('refused')
        fx.check(not c['up'] and c['last_error'] and c['restarts'] >= 1,
                 'refused: down, retrying (%d), "%s"' % (c['restarts'],
                                                          c['last_error']))
        status, _ = mc.get(mon, '/metrics')
        fx.check(status == 200, '/metrics still answers')
    fx.finish()


if __name__ == '__main__':
    main()
