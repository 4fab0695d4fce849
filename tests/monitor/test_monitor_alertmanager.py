#!/usr/bin/python3
# sharpness-monitor and a real Alertmanager (Debian's
# prometheus-alertmanager, on 127.0.0.1, clustering off), fed two ways at
# once: straight from the monitor (--alertmanager, its API v2) and
# through a real Prometheus evaluating the shipped rules
# (deploy/sharpness-rules.yml).  One channel plays a clip with two black
# stretches; another has no signal (its RTSP server refuses).  Checks:
# both alerts reach Alertmanager with the rule's labels (alertname,
# channel, kind, severity: critical for no-signal), the direct one with an
# endsAt about three minutes ahead; Alertmanager's webhook notifies firing
# then resolved for each route; a monitor stopped during the second
# stretch resolves its direct alerts at once, the no-signal one included
# (the stop's end events are delivered before it exits), and exits
# promptly.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import calendar  # noqa: E402
import http.server  # noqa: E402
import json  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import monitor_common as mc  # noqa: E402

RULES = os.path.join(mc.SOURCE, 'tools', 'monitor', 'deploy',
                     'sharpness-rules.yml')
# The clip: 10 fps, 30 s, black from 3 s to 8 s and from 16 s to 28 s.
BLACK = [(3, 8), (16, 28)]
# What the monitor sets a firing alert's endsAt ahead of now
# (monitor-webhook.c: three refresh periods of 60 s).
LAPSE_S = 180


def clip():
    return mc.black_boxes_ts('two-blacks.ts', 30, BLACK)


class Receiver:
    """Alertmanager's webhook receiver: every notification's alerts, as
    (arrival time, status, labels)."""

    def __init__(self, procs):
        self.got = []
        lock = self.lock = threading.Lock()
        got = self.got

        class H(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                n = int(self.headers.get('Content-Length', 0))
                body = json.loads(self.rfile.read(min(n, 16 << 20)))
                with lock:
                    for a in body.get('alerts', []):
                        got.append((time.monotonic(), a['status'],
                                    a['labels']))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *a):
                pass
        srv = http.server.ThreadingHTTPServer((mc.HOST, 0), H)
        srv.daemon_threads = True
        procs.serve(srv)
        self.url = 'http://%s:%d/am' % (mc.HOST, srv.server_address[1])

    def seen(self, status, routed, since=0.0, kind='black'):
        """Notifications of @status for the @kind alert of route @routed
        ('direct' or 'prometheus') that arrived after @since."""
        with self.lock:
            return [t for t, s, lab in self.got
                    if s == status and t > since and route(lab) == routed
                    and lab.get('kind') == kind]


def route(labels):
    # Prometheus adds the scrape's labels; the monitor's own alert has none.
    return 'prometheus' if 'job' in labels else 'direct'


def start_alertmanager(procs, receiver):
    port = mc.free_port()
    cfg = os.path.join(procs.tmp, 'alertmanager.yml')
    with open(cfg, 'w') as f:
        f.write('route:\n  receiver: test\n'
                '  group_by: [alertname, channel, kind, job]\n'
                '  group_wait: 0s\n  group_interval: 1s\n'
                '  repeat_interval: 1h\n'
                'receivers:\n  - name: test\n    webhook_configs:\n'
                '      - url: %s\n        send_resolved: true\n'
                % receiver.url)
    p = procs.start(['prometheus-alertmanager', '--config.file=' + cfg,
                     '--storage.path=' + os.path.join(procs.tmp, 'am'),
                     '--web.listen-address=%s:%d' % (mc.HOST, port),
                     # No cluster: it would listen on every address.
                     '--cluster.listen-address=', '--log.level=warn'],
                    'alertmanager')
    p.port = port
    mc.wait_http(p, '/-/ready', 60)
    return p


def am_alerts(am, routed, kind='black'):
    """Alertmanager's active @kind alerts of route @routed."""
    return [a for a in mc.get_json(am, '/api/v2/alerts')
            if route(a['labels']) == routed and
            a['labels'].get('kind') == kind]


def utc_seconds(rfc3339):
    return calendar.timegm(time.strptime(rfc3339[:19], '%Y-%m-%dT%H:%M:%S'))


def main():
    mc.require_tools('ffmpeg', 'prometheus', 'prometheus-alertmanager')
    ts = clip()
    fx = mc.Failures()
    with mc.Procs() as procs:
        rec = Receiver(procs)
        am = start_alertmanager(procs, rec)
        mon_port = mc.free_port()
        # The job name the shipped rules use.
        mc.start_prometheus(procs, mon_port, 'sharpness-monitor', RULES,
                            am.port)
        cfg = mc.write_config(procs, [
            {'name': 'ch', 'uri': 'file://' + ts},
            {'name': 'dead', 'uri': 'rtsp://%s:%d/x' % (mc.HOST,
                                                         mc.free_port())}],
            {'alarms': {'black': {'onset': 0.5}, 'no-signal': {'onset': 1}}})
        # A trailing slash: the API path is appended to the base all the
        # same.
        mon = mc.start_monitor(procs, [
            '--config', cfg, '-q', '--signal-timeout', '1', '--alertmanager',
            'http://%s:%d/' % (mc.HOST, am.port)], port=mon_port)

        # First stretch: the alert of each route, with the rule's labels.
        alerts = {}
        for r in ('direct', 'prometheus'):
            alerts[r] = mc.wait_until('the %s alert in Alertmanager' % r,
                                      lambda: am_alerts(am, r), 20, 0.2)[0]
            lab = alerts[r]['labels']
            fx.check(lab.get('alertname') == 'SharpnessAlarm' and
                     lab.get('channel') == 'ch' and
                     lab.get('severity') == 'warning',
                     '%s alert labels: %s' % (r, lab))
        fx.check(alerts['direct']['annotations'].get('summary') ==
                 'black on ch', 'direct alert summary: %s' %
                 alerts['direct']['annotations'])
        ahead = utc_seconds(alerts['direct']['endsAt']) - time.time()
        fx.check(LAPSE_S - 20 < ahead <= LAPSE_S + 1,
                 'a firing alert lapses %.0f s ahead (%d s expected)' % (
                     ahead, LAPSE_S))

        # Alertmanager notifies each firing, then each resolved.
        for r in ('direct', 'prometheus'):
            mc.wait_until('%s: firing notified' % r,
                          lambda: rec.seen('firing', r), 20, 0.2)
            mc.wait_until('%s: resolved notified' % r,
                          lambda: rec.seen('resolved', r), 30, 0.2)
        fx.check(not am_alerts(am, 'direct'),
                 'the direct alert is resolved after the first stretch')

        dead = mc.wait_until('the no-signal alert',
                             lambda: am_alerts(am, 'direct', 'no-signal'),
                             20, 0.2)
        fx.check(dead[0]['labels'].get('channel') == 'dead' and
                 dead[0]['labels'].get('severity') == 'critical',
                 'no-signal alert labels: %s' % dead[0]['labels'])

        # Second stretch: the monitor stops during it; the end events of
        # the stop resolve the direct alerts at once, not after their
        # lapse.
        first = rec.seen('resolved', 'direct')[-1]
        mc.wait_until('the second direct alert',
                      lambda: am_alerts(am, 'direct'), 20, 0.2)
        # Alertmanager notifies a group only when its firing or resolved
        # set changed since its last notification: an alert that fired and
        # resolved between two flushes leaves the same resolved set as the
        # first stretch did, and nothing is sent.  Stop once the second
        # firing was notified, as a real stop comes long after.
        mc.wait_until('direct: the second firing notified',
                      lambda: rec.seen('firing', 'direct', first), 20, 0.2)
        t0 = time.monotonic()
        rc = procs.stop(mon)
        took = time.monotonic() - t0
        fx.check(rc == 0 and took < 10, 'the monitor stopped (exit %s) in '
                 '%.1f s' % (rc, took))
        mc.wait_until('the stop\'s resolved notified',
                      lambda: rec.seen('resolved', 'direct', first), 15, 0.2)
        mc.wait_until('the no-signal alert\'s resolved notified',
                      lambda: rec.seen('resolved', 'direct', 0, 'no-signal'),
                      15, 0.2)
        fx.check(not am_alerts(am, 'direct') and
                 not am_alerts(am, 'direct', 'no-signal'),
                 'the direct alerts are resolved once the monitor stopped')
    fx.finish()


if __name__ == '__main__':
    main()
