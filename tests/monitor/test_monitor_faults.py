#!/usr/bin/python3
# sharpness-monitor on five live sources of the faults clip (natural images
# with known blurs, black cut and fade, freeze and audio silence; CPU
# decoding and backend): paced UDP MPEG-TS and RTP (MPEG-TS, payload type
# 33) senders, an SRT listener, an RTSP server and an HLS folder over
# HTTP, all on 127.0.0.1 (multicast is not tested: its group addresses are
# not 127.0.0.1).  Checks:
# - each expected alarm appears exactly once per channel, with its kind,
#   start and end within one frame (by PTS) of the truth; no other event
#   (the 0.3 s blur is below the onset; a freeze inside black is black's);
# - a real Prometheus server scraping the monitor every second: up, the
#   rate of sharpness_frames_scored_total equal to the source's 30 fps
#   within 2 %, the alarm counts equal to the faults; promtool check
#   metrics on /metrics;
# - a webhook receiver gets firing then resolved for each fault, with a
#   thumbnail that decodes; a second receiver that never answers slows
#   nothing;
# - live equals file: sharpness-scan on the clip gives the same blur
#   segments and scores as the UDP channel's events.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'gi', 'PIL')

import base64  # noqa: E402
import http.server  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402

import monitor_common as mc  # noqa: E402

FRAME = 1.0 / mc.FPS
TOL = FRAME + 0.002
CHANNELS = ['udp', 'rtp', 'srt', 'rtsp', 'hls']
END_FRAMES = mc.F(24.8)     # every fault has ended by then


class Hooks:
    """Webhook receivers on 127.0.0.1: one that records, one that hangs
    (reads the request, never answers until the test ends)."""

    def __init__(self, procs):
        self.got = []
        self.release = threading.Event()
        hooks = self

        class Rec(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                n = int(self.headers.get('Content-Length', 0))
                body = self.rfile.read(min(n, 16 << 20))
                if self.path == '/hang':
                    hooks.release.wait(60)
                    return
                hooks.got.append(json.loads(body))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *a):
                pass

        self.srv = http.server.ThreadingHTTPServer((mc.HOST, 0), Rec)
        self.srv.daemon_threads = True
        procs.serve(self.srv)
        self.url = 'http://%s:%d/hook' % (mc.HOST, self.srv.server_address[1])
        self.hang = 'http://%s:%d/hang' % (mc.HOST, self.srv.server_address[1])


def prom_query(prom, q):
    q, _, at = q.partition('&time=')
    status, body = mc.get(prom, '/api/v1/query?query=' +
                          urllib.parse.quote(q) + ('&time=' + at if at
                                                   else ''))
    if status != 200:
        raise AssertionError('prometheus %s: %d %s' % (q, status, body))
    return json.loads(body)['data']['result']


def channel_events(evs, channel):
    return [e for e in evs if e['channel'] == channel]


# RTP and RTSP (MPEG-TS over RTP): the demuxer maps audio through the PCR
# and the packets' arrival, and its audio comes out up to about half a
# second off the video; silence is checked to that.
AUDIO_TOL = {'rtp': 0.6, 'rtsp': 0.6}


def check_channel(fx, evs, name, truth):
    """Each truth event exactly once, within one frame; nothing else."""
    ends = [e for e in evs if e['event'] == 'end']
    starts = [e for e in evs if e['event'] == 'start']
    # The stream's PTS of clip time 0: the median over the matches.
    offsets = []
    for kind, s, _ in truth:
        c = [e['start_pts'] - s for e in ends if e['kind'] == kind and
             e['start_pts'] is not None]
        if c:
            offsets.append(min(c, key=lambda o: abs(o - statistics.median(
                [x['start_pts'] - s for x in ends
                 if x['start_pts'] is not None]))))
    off = statistics.median(offsets) if offsets else 0.0
    fx.check(len(ends) == len(truth) and len(starts) == len(truth),
             '%s: %d start and %d end events, %d faults (%s)' % (
                 name, len(starts), len(ends), len(truth),
                 [(e['kind'], e['event'], e['start_pts'] and
                   round(e['start_pts'] - off, 3)) for e in evs]))
    for kind, s, e in truth:
        TOL = AUDIO_TOL.get(name, FRAME + 0.002) if kind == 'silence' else \
            FRAME + 0.002
        m = [x for x in ends if x['kind'] == kind and
             x['start_pts'] is not None and x['end_pts'] is not None and
             abs(x['start_pts'] - off - s) <= TOL and
             abs(x['end_pts'] - off - e) <= TOL]
        fx.check(len(m) == 1, '%s: %s %.3f-%.3f s reported once within a '
                 'frame (%s)' % (name, kind, s, e, [
                     (x['start_pts'] and round(x['start_pts'] - off, 3),
                      x['end_pts'] and round(x['end_pts'] - off, 3))
                     for x in ends if x['kind'] == kind]))
        st = [x for x in starts if x['kind'] == kind and
              abs(x['start_pts'] - off - s) <= TOL]
        fx.check(len(st) == 1, '%s: %s start at %.3f s once' % (name, kind,
                                                                  s))
    return off


def check_thumbnail(b64):
    from PIL import Image
    img = Image.open(io.BytesIO(base64.b64decode(b64)))
    img.load()
    return img.size


def main():
    mc.require_tools('ffmpeg', 'gst-launch-1.0', 'prometheus', 'promtool')
    mc.require_elements('tsparse', 'udpsink', 'srtsink', 'srtsrc',
                        'rtpmp2tpay', 'rtpsrc', 'hlsdemux', 'level', 'jpegenc')
    if subprocess.run([sys.executable, '-c', 'import gi; gi.require_version('
                       '"GstRtspServer", "1.0")'],
                      capture_output=True).returncode:
        scaffold.skip('gst-rtsp-server introspection missing '
                      '(gir1.2-gst-rtsp-server-1.0)')
    ts = mc.faults_ts()
    hls = mc.hls_folder()
    truth = mc.truth()
    fx = mc.Failures()

    with mc.Procs() as procs:
        hooks = Hooks(procs)
        udp = mc.free_port(socket.SOCK_DGRAM)
        rtp = mc.free_port(socket.SOCK_DGRAM)
        srt = mc.free_port(socket.SOCK_DGRAM)
        rtsp = mc.free_port()
        web = mc.http_folder(procs, hls)
        mc.srt_listener(procs, ts, srt)
        rtsp_p = mc.rtsp_server(procs, ts, rtsp)
        alarms = dict(mc.CONFIG_ALARMS)
        alarms['no-signal'] = {'onset': 3.0}
        cfg = mc.write_config(procs, [
            {'name': 'udp', 'uri': 'udp://%s:%d' % (mc.HOST, udp)},
            {'name': 'rtp', 'uri': 'rtp://%s:%d' % (mc.HOST, rtp)},
            {'name': 'srt', 'uri': 'srt://%s:%d?mode=caller' % (mc.HOST, srt)},
            {'name': 'rtsp', 'uri': 'rtspt://%s:%d/faults' % (mc.HOST, rtsp)},
            {'name': 'hls', 'uri': 'http://%s:%d/index.m3u8' % (mc.HOST, web)},
        ], defaults={'freeze-noise': -40, 'alarms': alarms})
        log_path = os.path.join(procs.tmp, 'events.jsonl')
        mc.wait_until('the RTSP server', lambda: open(
            rtsp_p.log_path).read().startswith('ready'), 30, 0.1)
        # Prometheus first: its start takes a core for a while, which the
        # channels' start would otherwise share.
        mon_port = mc.free_port()
        prom = mc.start_prometheus(procs, mon_port)
        mon = mc.start_monitor(procs, port=mon_port, args=[
            '--config', cfg, '--events', log_path, '--webhook', hooks.url,
            '--webhook', hooks.hang, '--restart-after', '0'])
        mc.udp_sender(procs, ts, udp)
        mc.rtp_sender(procs, ts, rtp)
        t0 = time.monotonic()

        # Mid-clip: every channel at the source's rate, as Prometheus sees
        # it (the hanging webhook receiver holds a request by now).
        mc.wait_until('22 s of the clip', lambda: time.monotonic() - t0 >
                      22, 40)
        # Live channels score frames as they come: a moment's stall of a
        # busy host leaves a backlog at one end of the window, worked off
        # later.  The median of the 15 s rate at five instants a second
        # apart is the channel's rate, not that moment's.
        now = time.time()
        samples = {}
        for k in range(5):
            for r in prom_query(prom, 'rate(sharpness_frames_scored_total'
                                '[15s])&time=%.3f' % (now - k)):
                samples.setdefault(r['metric']['channel'], []).append(
                    float(r['value'][1]))
        rates = {ch: statistics.median(v) for ch, v in samples.items()}
        for ch in CHANNELS:
            fx.check(abs(rates.get(ch, 0) - mc.FPS) <= 0.02 * mc.FPS,
                     '%s: scored %.2f fps, source %d fps (within 2 %%)' % (
                         ch, rates.get(ch, 0), mc.FPS))
        up = prom_query(prom, 'up{job="monitor"}')
        fx.check(up and up[0]['value'][1] == '1', 'Prometheus: up = 1')

        # Each channel's events once it is past the last fault (the
        # sources start a little apart, and each one's end is a real loss
        # of signal, later).
        snap, snap_time, chans = {}, {}, {}
        deadline = time.monotonic() + 40
        while len(chans) < len(CHANNELS) and time.monotonic() < deadline:
            last = {}
            for e in mc.events(mon):
                if e['kind'] == 'black' and e['event'] == 'end':
                    last[e['channel']] = last.get(e['channel'], 0) + 1
            for c in mc.get_json(mon, '/api/channels'):
                if c['name'] not in snap and (c['frames_scored'] >= END_FRAMES
                                              or last.get(c['name']) == 2):
                    snap[c['name']] = None
                    # Past one scrape interval (1 s): Prometheus' sample
                    # at this time is one taken after the last event.
                    snap_time[c['name']] = time.time() + 1.5
            for ch, t in snap_time.items():
                if snap[ch] is None and time.time() >= t:
                    snap[ch] = mc.events(mon, ch)
                    chans[ch] = mc.get_json(mon, '/api/channels/' + ch)
            time.sleep(0.1)
        fx.check(len(chans) == len(CHANNELS), 'every channel past the last '
                 'fault (%s)' % sorted(chans))
        evs = [e for ch in CHANNELS for e in (snap.get(ch) or [])]
        offs = {}
        for ch in CHANNELS:
            offs[ch] = check_channel(fx, channel_events(evs, ch), ch, truth)
        fx.check(not [e for e in mc.events(mon) if e['channel'] not in
                      CHANNELS], 'no event of another channel')
        for ch in chans:
            fx.check(chans[ch]['reconnects'] == 0, '%s: no reconnect' % ch)

        # The webhook: firing then resolved for each fault, thumbnails.
        mc.wait_until('the webhooks', lambda: len(hooks.got) >= 2 * len(
            truth) * len(CHANNELS), 20)
        for ch in CHANNELS:
            mine = [h for h in hooks.got if h['alerts'][0]['labels'][
                'channel'] == ch]
            for kind in set(k for k, _, _ in truth):
                n = sum(1 for k, _, _ in truth if k == kind)
                seq = [h['status'] for h in mine
                       if h['alerts'][0]['labels']['kind'] == kind]
                fx.check(seq == ['firing', 'resolved'] * n,
                         '%s: webhook %s: %s' % (ch, kind, seq))
            sizes = set()
            for h in mine:
                a = h['alerts'][0]
                fx.check(h['version'] == '4' and a['labels']['alertname'] ==
                         'SharpnessAlarm', '%s: Alertmanager v4 payload' % ch)
                if 'thumbnail_jpeg_base64' in a['annotations']:
                    sizes.add(check_thumbnail(a['annotations'][
                        'thumbnail_jpeg_base64']))
                else:
                    fx.check(False, '%s: %s %s has a thumbnail' % (
                        ch, a['labels']['kind'], h['status']))
            fx.check(sizes == {(320, 180)}, '%s: thumbnails decode, 320x180 '
                     '(%s)' % (ch, sizes))

        # The event log holds the same events as the API.
        with open(log_path) as f:
            logged = [json.loads(line) for line in f]
        api = mc.events(mon)
        fx.check([e['id'] for e in logged] == [e['id'] for e in api],
                 'the event log has every event, in order')

        # Prometheus' view of the alarms, when each channel was past the
        # last fault.
        time.sleep(1.5)
        for ch in CHANNELS:
            counts = {}
            for r in prom_query(prom, 'sharpness_alarm_events_total{channel='
                                '"%s"}&time=%.3f' % (ch, snap_time.get(ch, 0))):
                counts[r['metric']['kind']] = int(float(r['value'][1]))
            for kind in ('blur', 'black', 'freeze', 'silence', 'no-signal'):
                want = sum(1 for k, _, _ in truth if k == kind)
                fx.check(counts.get(kind) == want,
                         '%s: sharpness_alarm_events_total{kind=%s} = %s, '
                         'want %d' % (ch, kind, counts.get(kind), want))
        status, metrics = mc.get(mon, '/metrics')
        r = subprocess.run(['promtool', 'check', 'metrics'], input=metrics,
                           capture_output=True, timeout=60)
        fx.check(r.returncode == 0 and not r.stdout.strip() and
                 not r.stderr.strip(), 'promtool check metrics: nothing to '
                 'report (%s%s)' % (r.stdout.decode()[:500],
                                    r.stderr.decode()[:500]))

        # Live equals file: the scan tool on the same stream.
        env = dict(os.environ)
        scan_json = os.path.join(procs.tmp, 'scan.json')
        subprocess.run([mc.SCAN, '--cpu', '--quiet', '--json', scan_json,
                        ts], check=True, timeout=300, env=env,
                       stdout=subprocess.DEVNULL)
        with open(scan_json) as f:
            segs = [s for s in json.load(f)['files'][0]['segments']
                    if s.get('kind', 'blur') == 'blur']
        blur_ends = [e for e in channel_events(evs, 'udp')
                     if e['kind'] == 'blur' and e['event'] == 'end']
        fx.check(len(segs) == len(blur_ends), 'scan: %d segments, monitor: '
                 '%d blur alarms' % (len(segs), len(blur_ends)))
        # The two read the stream's timestamps differently (a file's from
        # its start, the live demuxer's as sent): the segments are
        # compared from the first one on.
        for s, e in zip(segs, blur_ends):
            same = (abs((s['start'] - segs[0]['start']) - (
                e['start_pts'] - blur_ends[0]['start_pts'])) < 1e-6 and
                abs((s['end'] - s['start']) - (e['end_pts'] - e['start_pts']))
                < 1e-6 and s['start_frame'] == e['start_frame'] and
                s['end_frame'] == e['end_frame'] and
                abs(s['min_score'] - e['min']) < 1e-9 and
                abs(s['mean_score'] - e['mean']) < 1e-9 and
                abs(s['max_score'] - e['max']) < 1e-9)
            fx.check(same, 'live equals file: frames %d-%d, %.3f s, scores '
                     'min %.6f mean %.6f max %.6f (monitor %d-%d, %.3f s, '
                     '%.6f %.6f %.6f)' % (
                         s['start_frame'], s['end_frame'], s['end'] -
                         s['start'], s['min_score'], s['mean_score'],
                         s['max_score'], e['start_frame'], e['end_frame'],
                         e['end_pts'] - e['start_pts'], e['min'], e['mean'],
                         e['max']))
        hooks.release.set()
    fx.finish()


if __name__ == '__main__':
    main()
