#!/usr/bin/python3
# sharpness-monitor's captions (tools/monitor/monitor-captions.c) on H.264
# and H.265 streams whose pictures carry CEA-608/708 cc_data in SEI
# (caption_stream.py writes them: 12 s with captions, 10 s without, 28 s
# with), in MPEG-TS and MP4 files played at their pace, and on MPEG-2
# video in MPEG-TS whose pictures carry them in user data (ATSC A/53 Part
# 4 6.2.3), written by FFmpeg's MPEG-2 encoder (-a53cc) from the H.264
# TS's pictures and their captions (I, P and B pictures: GStreamer's
# mpegvideoparse puts them on the coded pictures, the decoder reorders):
# - the counts: pictures with captions equal to those FFmpeg's decoder
#   gives ATSC A53 side data (ffprobe -show_frames) and to what the writer
#   put in; valid packets of each type (CEA-608 field 1 and 2, CEA-708
#   DTVCC) equal to the writer's (FFmpeg's encoder copies each picture's
#   cc_data as it is); FFmpeg's CEA-608 decoder (lavfi movie's subcc
#   output) reads "HELLO" from the same files;
# - the no-captions alarm (onset 3 s here): on the channels that enable
#   it, raised 3 s after the last picture with captions and ended where
#   they come back (10 s later), with one start and one end event, on the
#   files and on the H.264 TS sent over UDP (live: its counts in the
#   writer's proportions, from the picture where the monitor came in);
#   files without any captions (H.264, MPEG-2) raise it after the
#   start-up grace; the same captioned files on channels that do not
#   enable it raise nothing;
# - the API's captions object, /metrics (promtool-clean), and the page's
#   CC badge (headless Chromium).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import calendar
import os
import re
import socket
import subprocess
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import caption_stream as cs  # noqa: E402
import monitor_common as mc  # noqa: E402

RATE = 30
# The last stretch is long: the page is read in it (headless Chromium
# took over 10 s to start in the Debian 13 root).
SECONDS = 50
CUT, BACK = 12, 22               # s: captions stop, and come back
ONSET = 3.0
TOLERANCE = 0.35                 # s: ticks (0.1 s), pacing, a picture


def with_captions(picture):
    return picture < CUT * RATE or picture >= BACK * RATE


def make(tmp, codec, fmt):
    """(path, pictures with captions, packets by cc_type) of @codec in
    @fmt ('mpegts' or 'mp4'), with the cut."""
    raw = os.path.join(tmp, 'raw.' + codec)
    if not os.path.exists(raw):
        cs.encode(codec, raw, SECONDS, RATE)
    es = os.path.join(tmp, 'cc.' + codec)
    n, packets = cs.add_captions(codec, raw, es, with_captions)
    path = os.path.join(tmp, '%s.%s' % (codec, 'ts' if fmt == 'mpegts' else
                                        fmt))
    cs.mux(es, path, RATE, fmt)
    return path, n, packets


def mpeg2(src, dst):
    """@src's video as MPEG-2 in MPEG-TS, each picture's A/53 captions
    (FFmpeg's side data from the H.264 decoder) in its user data; I, P and
    B pictures (a broadcast GOP: 15 pictures, two B between anchors)."""
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', src,
                    '-c:v', 'mpeg2video', '-a53cc', '1', '-g', '15', '-bf',
                    '2', '-q:v', '4', '-threads', '1', '-f', 'mpegts', dst],
                   check=True, timeout=300)


def ffprobe_caption_frames(path):
    r = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v',
                        '-show_frames', '-show_entries',
                        'frame=key_frame:side_data=side_data_type', path],
                       capture_output=True, text=True, timeout=300,
                       check=True)
    return r.stdout.count('ATSC A53 Part 4 Closed Captions')


def ffmpeg_608_text(path):
    """The CEA-608 text FFmpeg's ccaption decoder reads, as SRT cues."""
    r = subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-f', 'lavfi',
                        '-i', 'movie=%s[out+subcc]' % path, '-map', '0:s',
                        '-f', 'srt', '-'], capture_output=True, text=True,
                       timeout=300)
    return [re.sub(r'<[^>]*>|\{[^}]*\}', '', line) for line in
            r.stdout.splitlines() if line and not line[0].isdigit()]


def utc(s):
    """Unix seconds of an RFC 3339 UTC time."""
    base, frac = s.rstrip('Z').split('.') if '.' in s else (s.rstrip('Z'),
                                                             '0')
    return calendar.timegm(time.strptime(base, '%Y-%m-%dT%H:%M:%S')) + \
        float('0.' + frac)


def check_alarm(fx, mon, name, enabled):
    """@name's no-captions events: none where the alarm is not @enabled,
    else one start, @ONSET after the last picture with captions, and one
    end, the cut later."""
    ev = [e for e in mc.events(mon, name) if e['kind'] == 'no-captions']
    if not enabled:
        fx.check(not ev, '%s (not enabled): no no-captions event (%s)' % (
            name, ev))
        return
    starts = [e for e in ev if e['event'] == 'start']
    ends = [e for e in ev if e['event'] == 'end']
    fx.check(len(starts) == 1 and len(ends) == 1, '%s: one no-captions '
             'start and one end (%s)' % (name, ev))
    if len(starts) != 1 or len(ends) != 1:
        return
    raised = utc(starts[0]['time']) - utc(starts[0]['start_utc'])
    fx.check(abs(raised - ONSET) <= TOLERANCE, '%s: raised %.2f s after '
             'the last picture with captions (onset %g s)' % (name, raised,
                                                               ONSET))
    d = ends[0]['duration']
    fx.check(abs(d - (BACK - CUT)) <= TOLERANCE, '%s: the alarm lasted '
             '%.2f s, the cut %d s' % (name, d, BACK - CUT))


def counter(text, name, channel, extra=''):
    m = re.search(r'^%s\{channel="%s"%s\} (\S+)$' % (name, channel, extra),
                  text, re.M)
    return float(m.group(1)) if m else None


def main():
    mc.require_tools('ffmpeg', 'ffprobe')
    fx = mc.Failures()
    with mc.Procs() as procs:
        files = {
            'h264-ts': make(procs.tmp, 'h264', 'mpegts'),
            'h265-mp4': make(procs.tmp, 'h265', 'mp4'),
            'h265-ts': make(procs.tmp, 'h265', 'mpegts'),
            'h264-mp4': make(procs.tmp, 'h264', 'mp4'),
        }
        live = os.path.join(procs.tmp, 'live.ts')
        cs.mux(os.path.join(procs.tmp, 'cc.h264'), live, RATE, 'mpegts',
               ['-muxrate', '1000000'])
        h264, n, packets = files['h264-ts']
        files['mpeg2-ts'] = (os.path.join(procs.tmp, 'mpeg2.ts'), n,
                             packets)
        mpeg2(h264, files['mpeg2-ts'][0])
        bare = os.path.join(procs.tmp, 'bare.ts')
        cs.mux(os.path.join(procs.tmp, 'raw.h264'), bare, RATE, 'mpegts')
        bare_mpeg2 = os.path.join(procs.tmp, 'bare-mpeg2.ts')
        mpeg2(bare, bare_mpeg2)
        for name, (path, n, packets) in files.items():
            f = ffprobe_caption_frames(path)
            fx.check(f == n, '%s: FFmpeg finds captions on %d pictures, the '
                     'writer put them on %d' % (name, f, n))
            text = ffmpeg_608_text(path)
            fx.check(cs.TEXT in text, '%s: FFmpeg\'s CEA-608 decoder reads '
                     '%r (%s)' % (name, cs.TEXT, text))
        alarm = {'no-captions': {'enabled': True, 'onset': ONSET}}
        port = mc.free_port(socket.SOCK_DGRAM)
        cfg = mc.write_config(procs, [
            {'name': 'h264-ts', 'uri': 'file://' + files['h264-ts'][0],
             'alarms': alarm},
            {'name': 'h265-mp4', 'uri': 'file://' + files['h265-mp4'][0],
             'alarms': alarm},
            {'name': 'h265-ts', 'uri': 'file://' + files['h265-ts'][0]},
            {'name': 'h264-mp4', 'uri': 'file://' + files['h264-mp4'][0]},
            {'name': 'mpeg2-ts', 'uri': 'file://' + files['mpeg2-ts'][0],
             'alarms': alarm},
            {'name': 'bare', 'uri': 'file://' + bare, 'alarms': alarm},
            {'name': 'bare-mpeg2', 'uri': 'file://' + bare_mpeg2,
             'alarms': alarm},
            # Live: the H.264 TS sent once over UDP; a channel that never
            # ends (the monitor stops once every channel has, and the
            # files' end is read after).
            {'name': 'udp', 'uri': 'udp://%s:%d' % (mc.HOST, port),
             'alarms': alarm}])
        mon = mc.start_monitor(procs, ['--config', cfg])
        # A constant 1 Mbit/s (null packets) in datagrams of 7 packets, as
        # a headend sends: the pictures arrive at their pace (the stream
        # alone, some 40 kbit/s, would come in bursts of half a second).
        procs.start(['gst-launch-1.0', '-q', 'filesrc', 'blocksize=1316',
                     'location=%s' % live, '!', 'tsparse',
                     'set-timestamps=true', '!', 'udpsink', 'host=%s' %
                     mc.HOST, 'port=%d' % port, 'sync=true'], 'udp-sender')

        def chan(n):
            return mc.get_json(mon, '/api/channels/' + n)
        c = mc.wait_until('captions on h264-ts', lambda: (lambda c: c[
            'present'] and c)(chan('h264-ts')['captions']), 30)
        fx.check(c['age'] is not None and c['age'] < 0.5 and c['frames'] > 0,
                 'h264-ts: captions present (%s)' % c)
        # The page while the bare channels' alarms are on (after the
        # start-up grace, 10 s, and the onset), and the captions of h264-ts
        # and mpeg2-ts come again.
        for name in ('bare', 'bare-mpeg2'):
            mc.wait_until('the %s channel\'s no-captions alarm' % name,
                          lambda: chan(name)['alarms']['no-captions'][
                              'active'], 30)
        for name in ('h264-ts', 'mpeg2-ts'):
            mc.wait_until('captions back on %s' % name, lambda: chan(name)[
                'captions']['present'], 30)
        dom = mc.page_dom(procs, mon.port)
        if dom is None:
            mc.log('skip: chromium missing (the page\'s CC badge)')
        else:
            present = ('<b title="CEA-608/708 captions present">CC</b>'
                       'captions')
            missing = ('<b class="on" title="CEA-608/708 captions missing '
                       '(alarm)">CC</b>no captions')
            for name, badge in (('h264-ts', present), ('mpeg2-ts', present),
                                ('bare', missing), ('bare-mpeg2', missing)):
                i = dom.find('data-name="%s"' % name)
                i = dom.find('class="cc"', i) if i >= 0 else -1
                tile = dom[i:dom.find('</div>', i)] if i >= 0 else ''
                fx.check(badge in tile, 'the page: %s\'s CC badge (%s)' % (
                    name, tile[:300] or dom[-300:]))
        for name in files:
            mc.wait_until('%s finished' % name, lambda: chan(name)['state']
                          == 'finished', SECONDS + 60)
        status, body = mc.get(mon, '/metrics')
        text = body.decode()
        for name, (path, n, packets) in files.items():
            want = {'cea608-field1': packets[cs.FIELD1],
                    'cea608-field2': packets[cs.FIELD2],
                    'cea708': packets[cs.DTVCC_DATA] +
                    packets[cs.DTVCC_START]}
            got = {t: counter(text, 'sharpness_caption_packets_total', name,
                              ',type="%s"' % t) for t in want}
            fx.check(got == want, '%s: valid packets by type %s, the '
                     'writer\'s %s' % (name, got, want))
            frames = counter(text, 'sharpness_caption_frames_total', name)
            fx.check(frames == n, '%s: %s pictures with captions, FFmpeg '
                     'and the writer %d' % (name, frames, n))
            api = chan(name)['captions']
            fx.check(api['frames'] == n and api['packets'] == got and
                     not api['present'], '%s: the API as /metrics, not '
                     'present after the end (%s)' % (name, api))
            check_alarm(fx, mon, name, 'no-captions' in chan(name).get(
                'alarms', {}))
        # Live: the stream from where the channel came in, its cut
        # included.
        c = chan('udp')['captions']
        fx.check(c['frames'] > 0 and c['packets']['cea608-field1'] == c[
            'frames'] and abs(c['packets']['cea608-field2'] - c['frames'] /
                              2) <= 1 and
            abs(c['packets']['cea708'] - 0.4 * c['frames']) <= 2,
            'udp: a field 1 packet on every picture with captions, field 2 '
            'on every second, DTVCC on every fifth (2 packets) (%s)' % c)
        check_alarm(fx, mon, 'udp', True)
        for name in ('bare', 'bare-mpeg2'):
            b = chan(name)['captions']
            fx.check(b['frames'] == 0 and b['age'] is None and not
                     b['present'] and counter(
                         text, 'sharpness_caption_age_seconds', name) is None,
                     '%s: no captions, no age (%s)' % (name, b))
        mc.check_promtool_metrics(fx, body)
        fx.check(procs.stop(mon) == 0, 'the monitor stopped cleanly')
    fx.finish()


if __name__ == '__main__':
    main()
