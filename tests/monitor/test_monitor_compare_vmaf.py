#!/usr/bin/python3
# sharpness-monitor's compared pairs with VMAF (compare-with plus
# compare-vmaf: cudacompare metrics=psnr+ssim+vmaf, CPU backend), on 10 s
# of the faults clip (320x180) at real-time pace:
# - a copy of the source scores VMAF as identical frames do (97.4 to 100
#   with vmaf_v0.6.1) and raises no vmaf-drop;
# - an encode blurred (boxblur radius 3) from 3.0 to 6.0 s scores under 70
#   there and 90 or more elsewhere; its vmaf-drop alarm starts and ends
#   exactly where the hysteresis (onset 1 s, clear 1 s, level 70) puts it
#   on the per-frame VMAF that cudacompare posts for the same pair in a
#   pipeline of its own, with the same min, mean and max; the event log,
#   the API's events and a webhook receiver get the start and the end;
# - while the alarm is on, the API's `vmaf` and the
#   `sharpness_compare_vmaf` gauge are under 70 (promtool check metrics
#   clean), and a compared channel without compare-vmaf has neither;
# - --check-config refuses, with the line, compare-vmaf on a channel
#   compared with none, vmaf-model without compare-vmaf, an unknown model
#   name, a file that is no model, and a vmaf-drop level outside [0, 100];
#   a model file by path is taken.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import http.server
import json
import os
import re
import subprocess
import sys
import threading
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'gi')

import monitor_common as mc  # noqa: E402

SECONDS = 10
BLUR = (90, 180)            # frames [a, b) of the encode blurred
LEVEL, ONSET, CLEAR = 70.0, 1.0, 1.0


def clips():
    """The first 10 s of the faults clip (video only) and its encode with
    frames BLUR blurred, made once per build tree."""
    ts = mc.faults_ts()

    def make_ref(part):
        subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', ts,
                        '-t', str(SECONDS), '-an', '-c', 'copy', '-f',
                        'mpegts', part], check=True, timeout=120)
    ref = mc._locked_make('vmaf-ref.ts', make_ref)

    def make_dist(part):
        subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', ref,
                        '-vf', "boxblur=luma_radius=3:luma_power=1:"
                        "enable='between(n,%d,%d)'" % (BLUR[0], BLUR[1] - 1),
                        '-c:v', 'libx264', '-preset', 'veryfast', '-crf',
                        '16', '-g', str(mc.FPS // 2), '-bf', '0', '-threads',
                        '1', '-f', 'mpegts', part], check=True, timeout=120)
    return ref, mc._locked_make('vmaf-blurred.ts', make_dist)


def element_vmaf(ref, dist):
    """[(pts ns, VMAF)] of every frame, from cudacompare's compare-vmaf
    messages in a pipeline of its own on the same two files (decoded as
    the monitor decodes them on the CPU)."""
    import gi
    gi.require_version('Gst', '1.0')
    from gi.repository import Gst
    Gst.init(None)
    p = Gst.parse_launch(
        'cudacompare name=c backend=cpu metrics=psnr+ssim+vmaf ! fakesink '
        'filesrc location="%s" ! decodebin ! videoconvert ! c.ref_sink '
        'filesrc location="%s" ! decodebin ! videoconvert ! c.dist_sink'
        % (ref, dist))
    bus = p.get_bus()
    out = []
    p.set_state(Gst.State.PLAYING)
    try:
        while True:
            m = bus.timed_pop_filtered(
                60 * Gst.SECOND, Gst.MessageType.ELEMENT |
                Gst.MessageType.EOS | Gst.MessageType.ERROR)
            if m is None:
                raise AssertionError('cudacompare: no EOS within 60 s')
            if m.type == Gst.MessageType.ERROR:
                raise AssertionError('cudacompare: %s' % (m.parse_error(),))
            if m.type == Gst.MessageType.EOS:
                break
            s = m.get_structure()
            if s.get_name() == 'compare-vmaf':
                out.append((s.get_value('timestamp'), s.get_value('vmaf')))
    finally:
        p.set_state(Gst.State.NULL)
    return out


def hysteresis(frames, level, onset, clear):
    """The alarms the monitor's hysteresis (analysis/sharpness-alarm.h, as
    docs/reference/sharpness-monitor.md states it) makes of @frames: a run
    of values under @level starts an alarm once it has lasted @onset s,
    from its first frame; the alarm ends where the values went back, once
    they have stayed back for @clear s; min, mean and max over the frames
    under the level.  [(start ns, end ns or None, min, mean, max)]."""
    out, run, back, vals, active = [], None, None, [], False
    on, cl = onset * 1e9, clear * 1e9
    for t, v in frames:
        if run is not None and back is not None and t - back >= cl:
            if active:
                out.append((run, back, min(vals), sum(vals) / len(vals),
                            max(vals)))
            run, back, vals, active = None, None, [], False
        if v < level:
            if run is None:
                run = t
            back = None
            vals.append(v)
        elif run is not None and back is None:
            back = t
        if run is not None and not active and \
                (t if back is None else back) - run >= on:
            active = True
    if active:
        out.append((run, back, min(vals), sum(vals) / len(vals), max(vals)))
    return out


class Receiver(http.server.BaseHTTPRequestHandler):
    """A webhook receiver: the alerts' (kind, status) of each POST."""
    got = []
    lock = threading.Lock()

    def do_POST(self):
        n = min(int(self.headers.get('Content-Length', 0)), 1 << 20)
        body = json.loads(self.rfile.read(n))
        with self.lock:
            for a in body.get('alerts', []):
                self.got.append((a['labels'].get('channel'),
                                 a['labels'].get('kind'), a['status']))
        self.send_response(200)
        self.send_header('Content-Length', '0')
        self.end_headers()

    def log_message(self, *a):
        pass


def check_config_errors(fx, procs, ref):
    """--check-config on VMAF's keys: each bad one refused with its line."""
    model = os.path.join(mc.SOURCE, 'data', 'vmaf', 'vmaf_4k_v0.6.1.json')
    not_model = os.path.join(procs.tmp, 'not-a-model.json')
    with open(not_model, 'w') as f:
        f.write('{"model_dict": {"model_type": "BOOTSTRAP"}}\n')
    src = {'name': 'source', 'uri': 'file://' + ref}
    cases = [
        ('compare-vmaf on a channel compared with none',
         [src, {'name': 'b', 'uri': 'file://' + ref, 'compare-vmaf': True}],
         None, r':6: compare-vmaf: .*compared with no channel'),
        ('vmaf-model without compare-vmaf',
         [src, {'name': 'b', 'uri': 'file://' + ref,
                'compare-with': 'source', 'vmaf-model': 'vmaf_v0.6.1'}],
         None, r':7: vmaf-model: VMAF is off'),
        ('an unknown model name',
         [src, {'name': 'b', 'uri': 'file://' + ref,
                'compare-with': 'source', 'compare-vmaf': True,
                'vmaf-model': 'vmaf_v9'}],
         None, r':8: vmaf-model .vmaf_v9. cannot be used: vmaf_v9: not a '
         r'built-in model \(vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1\)'),
        ('a file that is no model',
         [src, {'name': 'b', 'uri': 'file://' + ref,
                'compare-with': 'source', 'compare-vmaf': True,
                'vmaf-model': not_model}],
         None, r':8: vmaf-model .*not-a-model.json'),
        ('a vmaf-drop level over 100 (in the defaults)',
         [src, {'name': 'b', 'uri': 'file://' + ref,
                'compare-with': 'source', 'compare-vmaf': True}],
         {'alarms': {'vmaf-drop': {'level': 101}}},
         r':4: alarms: vmaf-drop: level must be in \[0, 100\]'),
    ]
    for what, channels, defaults, pattern in cases:
        cfg = mc.write_config(procs, channels, defaults=defaults)
        r = subprocess.run([mc.TOOL, '--check-config', '--config', cfg],
                           capture_output=True, text=True, timeout=60)
        fx.check(r.returncode != 0 and re.search(pattern, r.stderr),
                 '--check-config refuses %s (%s)' % (what,
                                                     r.stderr.strip()[-300:]))
    cfg = mc.write_config(procs, [src, {
        'name': 'b', 'uri': 'file://' + ref, 'compare-with': 'source',
        'compare-vmaf': True, 'vmaf-model': model}])
    r = subprocess.run([mc.TOOL, '--check-config', '--config', cfg],
                       capture_output=True, text=True, timeout=60)
    fx.check(r.returncode == 0, '--check-config takes a model file by path '
             '(%s)' % r.stderr.strip()[-300:])


def main():
    mc.require_tools('ffmpeg')
    scaffold.require_elements('cudacompare', 'avdec_h264')
    ref, dist = clips()
    fx = mc.Failures()
    expect = element_vmaf(ref, dist)
    copy = element_vmaf(ref, ref)
    fps = mc.FPS
    t0 = expect[0][0] if expect else 0
    inside = [v for t, v in expect
              if BLUR[0] <= round((t - t0) * fps / 1e9) < BLUR[1]]
    outside = [v for t, v in expect
               if not BLUR[0] <= round((t - t0) * fps / 1e9) < BLUR[1]]
    # Plausibility of the reference values themselves: the element is
    # exact to libvmaf (tests/vmaf), this is the clip doing what it should.
    fx.check(len(expect) == SECONDS * fps and len(copy) == SECONDS * fps,
             'cudacompare scores every frame (%d, %d)' % (len(expect),
                                                           len(copy)))
    fx.check(copy and min(v for _, v in copy) >= 97,
             'identical frames score 97 or more (min %.3f)' %
             min([v for _, v in copy] or [0]))
    fx.check(inside and 5 < max(inside) < LEVEL,
             'the blurred frames score under %g, and above 5 (%.2f..%.2f)'
             % (LEVEL, min(inside or [0]), max(inside or [0])))
    fx.check(outside and min(outside) >= 90, 'the others 90 or more '
             '(min %.2f)' % min(outside or [0]))
    want = hysteresis(expect, LEVEL, ONSET, CLEAR)
    fx.check(len(want) == 1 and want[0][1] is not None, 'the hysteresis '
             'on the element\'s values makes one alarm that ends (%s)' % want)

    with mc.Procs() as procs:
        check_config_errors(fx, procs, ref)
        Receiver.got = []
        srv = procs.serve(http.server.ThreadingHTTPServer((mc.HOST, 0),
                                                          Receiver))
        cfg = mc.write_config(procs, [
            {'name': 'source', 'uri': 'file://' + ref},
            {'name': 'copy', 'uri': 'file://' + ref,
             'compare-with': 'source', 'compare-vmaf': True},
            {'name': 'encode', 'uri': 'file://' + dist,
             'compare-with': 'source', 'compare-vmaf': True},
            {'name': 'plain', 'uri': 'file://' + dist,
             'compare-with': 'source'},
        ], defaults={'alarms': {
            'psnr-drop': {'enabled': False},
            'ssim-drop': {'enabled': False},
            'vmaf-drop': {'onset': ONSET, 'clear': CLEAR, 'level': LEVEL}}})
        log = os.path.join(procs.tmp, 'events.jsonl')
        mon = mc.start_monitor(procs, [
            '--config', cfg, '--events', log, '--webhook',
            'http://%s:%d/hook' % (mc.HOST, srv.server_address[1])])

        def alarm_on():
            a = mc.get_json(mon, '/api/channels/encode')
            return a if a['alarms']['vmaf-drop']['active'] else None
        api = mc.poll_until(alarm_on, 30, 0.2)
        fx.check(api is not None, 'encode: vmaf-drop active in the API')
        if api:
            metrics = mc.get(mon, '/metrics')[1]
            text = metrics.decode()
            fx.check(api.get('vmaf') is not None and api['vmaf'] < LEVEL,
                     'encode: the API\'s vmaf under %g while the alarm is '
                     'on (%s)' % (LEVEL, api.get('vmaf')))
            g = re.search(r'^sharpness_compare_vmaf\{channel="encode",'
                          r'reference="source"\} (\S+)$', text, re.M)
            fx.check(g and float(g.group(1)) < LEVEL, 'encode: '
                     'sharpness_compare_vmaf under %g (%s)' % (
                         LEVEL, g and g.group(1)))
            g = re.search(r'^sharpness_compare_vmaf\{channel="copy",'
                          r'reference="source"\} (\S+)$', text, re.M)
            fx.check(g and float(g.group(1)) >= 97, 'copy: '
                     'sharpness_compare_vmaf 97 or more (%s)' % (
                         g and g.group(1)))
            fx.check('sharpness_compare_vmaf{channel="plain"' not in text
                     and 'vmaf' not in mc.get_json(
                         mon, '/api/channels/plain'),
                     'plain (no compare-vmaf): no VMAF gauge or field')
            fx.check(re.search(r'^sharpness_alarm_active\{channel="encode",'
                               r'kind="vmaf-drop"\} 1$', text, re.M),
                     'encode: sharpness_alarm_active{kind="vmaf-drop"} 1')
            mc.check_promtool_metrics(fx, metrics)
        try:
            mon.wait(60)
        except subprocess.TimeoutExpired:
            pass
        fx.check(mon.returncode == 0, 'the monitor ended with its files '
                 '(%s)' % mon.returncode)
        with open(log) as f:
            evs = [json.loads(line) for line in f]
        got = [e for e in evs if e['kind'] == 'vmaf-drop']
        fx.check([(e['channel'], e['event']) for e in got] ==
                 [('encode', 'start'), ('encode', 'end')],
                 'one vmaf-drop alarm, on encode, started and ended (%s)'
                 % [(e['channel'], e['event']) for e in got])
        ends = [e for e in got if e['event'] == 'end']
        if ends and len(want) == 1 and want[0][1] is not None:
            e, (s, t, lo, mean, hi) = ends[0], want[0]
            fx.check(abs(e['start_pts'] - s / 1e9) < 1e-3 and
                     abs(e['end_pts'] - t / 1e9) < 1e-3,
                     'encode: from %.3f to %.3f s, where the element\'s '
                     'values put it (%.3f to %.3f s)' % (
                         e['start_pts'], e['end_pts'], s / 1e9, t / 1e9))
            fx.check(all(abs(a - b) < 1e-6 for a, b in (
                (e['min'], lo), (e['mean'], mean), (e['max'], hi))),
                'encode: min, mean, max %.6f %.6f %.6f equal to the '
                'element\'s %.6f %.6f %.6f' % (e['min'], e['mean'],
                                                 e['max'], lo, mean, hi))
        def hooks():
            with Receiver.lock:
                got = [g for g in Receiver.got if g[1] == 'vmaf-drop']
            return got if len(got) >= 2 else None
        got = mc.poll_until(hooks, 5, 0.2) or hooks()
        fx.check(got == [('encode', 'vmaf-drop', 'firing'),
                         ('encode', 'vmaf-drop', 'resolved')],
                 'the webhook gets vmaf-drop firing, then resolved (%s)'
                 % got)
    fx.finish()


if __name__ == '__main__':
    main()
