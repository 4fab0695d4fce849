#!/usr/bin/python3
# sharpness-monitor --decode-only (the decoders-alone baseline of
# bench/monitor/bench-monitor.py), CPU decoding, all on 127.0.0.1: a file
# channel playing the faults clip at real-time pace, and a UDP channel fed
# by a paced sender that then stops.
# - The file channel's frames_decoded rate is the source's 30 fps (the
#   file's: the UDP sender paces by the clip's PCRs, which are sparse
#   around its black cut, so its frames come in bursts there).
# - Nothing is analysed: no score in /metrics or /api/channels, no frame
#   scored, no thumbnail, and the process never creates cudasharpness,
#   level, cudacompare or jpegenc (GStreamer's own log of the elements it
#   creates), but does create the H.264 decoder.
# - The clip's 2 s blur at 4 s and its black cut at 8 s raise no alarm (a
#   monitor that analyses raises both within the measured window), while
#   the no-signal alarm still fires when the UDP sender stops.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy')

import math  # noqa: E402
import re  # noqa: E402
import socket  # noqa: E402
import time  # noqa: E402

import monitor_common as mc  # noqa: E402

# Frames counted over this many seconds, from about 1 s of the clip: its
# 2 s blur at 4 s and its black cut at 8 s start alarms of a 1 s onset
# or less within them.
MEASURED_S = 9
ANALYSIS_ELEMENTS = ('cudasharpness', 'cudacompare', 'level', 'jpegenc')


def metric(text, name, channel):
    """The value of @name{channel="@channel",...} in /metrics, or None."""
    m = re.search(r'^%s\{channel="%s"[^}]*\} (\S+)$' % (
        re.escape(name), re.escape(channel)), text, re.M)
    return float(m.group(1)) if m else None


def main():
    mc.require_tools('ffmpeg', 'gst-launch-1.0')
    mc.require_elements('tsparse', 'udpsink')
    ts = mc.faults_ts()
    fx = mc.Failures()

    with mc.Procs() as procs:
        port = mc.free_port(socket.SOCK_DGRAM)
        cfg = mc.write_config(procs, [
            {'name': 'file', 'uri': 'file://' + ts},
            {'name': 'udp', 'uri': 'udp://%s:%d' % (mc.HOST, port)},
        ], defaults={'alarms': dict(mc.CONFIG_ALARMS,
                                    **{'no-signal': {'onset': 1.0}})})
        # GStreamer logs each element it creates ("creating element").
        env = dict(os.environ, GST_DEBUG='*:1,GST_ELEMENT_FACTORY:4',
                   GST_DEBUG_NO_COLOR='1')
        http = mc.free_port()
        mon = procs.start([mc.TOOL, '--cpu', '--decode-only', '--listen',
                           '%s:%d' % (mc.HOST, http), '--config', cfg,
                           '--restart-after', '0'], 'monitor', env=env)
        mon.port = http
        mc.wait_http(mon, '/healthz', 30)
        sender = mc.udp_sender(procs, ts, port)

        def chan(name):
            return mc.get_json(mon, '/api/channels/' + name)

        def decoded_at(name):
            """(frames decoded, when): the middle of the request."""
            a = time.monotonic()
            n = chan(name)['frames_decoded']
            return n, (a + time.monotonic()) / 2

        # Past the first second, once the file's queue is full: from then
        # on frames are decoded as the sink plays them.
        mc.wait_until('the first 2 s of frames', lambda: chan('file')[
            'frames_decoded'] >= 2 * mc.FPS, 20, 0.1)
        d0, t0 = decoded_at('file')
        time.sleep(MEASURED_S)
        d1, t1 = decoded_at('file')
        rate = (d1 - d0) / (t1 - t0)
        fx.check(abs(rate - mc.FPS) <= 0.02 * mc.FPS, 'file: frames decoded '
                 'at %.2f fps (source %d)' % (rate, mc.FPS))

        text = mc.get(mon, '/metrics')[1].decode()
        for name in ('file', 'udp'):
            c = chan(name)
            fx.check(c['up'] and c['frames_decoded'] > 0 and
                     c['frames_scored'] == 0 and c['score'] is None,
                     '%s: up, frames decoded, none scored, no score (%s, '
                     '%d decoded, %d scored, score %s)' % (
                         name, c['state'], c['frames_decoded'],
                         c['frames_scored'], c['score']))
            decoded = metric(text, 'sharpness_frames_decoded_total', name)
            scored = metric(text, 'sharpness_frames_scored_total', name)
            score = metric(text, 'sharpness_score', name)
            count = metric(text, 'sharpness_frame_score_count', name)
            fx.check(decoded and scored == 0 and count == 0 and
                     score is not None and math.isnan(score),
                     '%s: /metrics counts frames decoded (%s), no score '
                     '(scored %s, histogram count %s, sharpness_score %s)'
                     % (name, decoded, scored, count, score))
            status, _ = mc.get(mon, '/api/channels/%s/thumbnail.jpg' % name)
            fx.check(status == 404, '%s: no thumbnail (HTTP %d)' % (name,
                                                                   status))

        # The sender stops, past the channel's start-up grace (10 s): a
        # no-signal alarm.
        procs.stop(sender)
        mc.wait_until('a no-signal alarm', lambda: any(
            e['kind'] == 'no-signal' for e in mc.events(mon, 'udp')), 15)
        kinds = sorted(set((e['channel'], e['kind'])
                           for e in mc.events(mon)))
        fx.check(kinds == [('udp', 'no-signal')], 'alarms: no-signal of the '
                 'stopped sender only (%s)' % kinds)

        with open(mon.log_path, errors='replace') as f:
            made = set(re.findall(r'creating element "([^"]+)"', f.read()))
        fx.check(not made & set(ANALYSIS_ELEMENTS), 'no analysis element '
                 'created (%s)' % sorted(made & set(ANALYSIS_ELEMENTS)))
        decoders = [m for m in made if 'h264' in m and 'dec' in m]
        fx.check(decoders, 'the H.264 decoder created (%s)' % decoders)
    fx.finish()


if __name__ == '__main__':
    main()
