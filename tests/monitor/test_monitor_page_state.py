#!/usr/bin/python3
# The multiviewer page's event list and tiles against a scripted API, in
# headless Chromium (cdp.py): the page is the one the monitor serves (a
# monitor with one test-pattern channel gives it, and a real thumbnail),
# the API answers come from this test, so that each case is exact.
#  - The event list is in the order of the events' own times, newest
#    first, whatever the order they were raised in (a start is raised an
#    onset after its time) and across polls: the times shown never go
#    backwards.
#  - A channel that is not up (restarting, retrying, ended) shows no score,
#    content state, frame rate, heat map or sparkline of the pipeline that
#    is gone (the API still has them), its picture greyed; once it is up
#    again its new score is shown.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import http.server  # noqa: E402
import json  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402

import cdp  # noqa: E402
import monitor_common as mc  # noqa: E402

PATTERN = ('videotestsrc is-live=true ! capsfilter caps=video/x-raw,'
           'width=64,height=36,framerate=5/1')

PAGE_JS = r"""(() => {
  const t = document.querySelector('#grid .tile[data-name="a"]');
  return {
    events: [...document.querySelectorAll("#events li")]
      .map(l => l.textContent),
    cls: t ? t.className : null,
    meta: t ? t.querySelector(".meta").textContent : null,
    state: t ? t.querySelector(".state").textContent : null,
    label: t ? t.getAttribute("aria-label") : null,
    heat: t ? t.querySelector("canvas").width : null,
    spark: t ? getComputedStyle(t.querySelector("svg")).visibility : null,
    img: t ? getComputedStyle(t.querySelector("img")).opacity : null,
    thumb: t ? t.querySelector("img").naturalWidth : 0,
  };
})()"""


def channel(up, score, state):
    return {'name': 'a', 'uri': 'udp://127.0.0.1:5000', 'state': state,
            'up': up, 'metric': 'blur-effect', 'threshold': 0.5,
            'direction': -1, 'score': score, 'content_state': 'detailed',
            'frames_decoded': 100, 'frames_scored': 100, 'frames_dropped': 0,
            'blurry_frames': 0, 'reconnects': 0, 'restarts': 1,
            'width': 640, 'height': 360, 'fps': 25, 'codec': 'H.264',
            'last_error': None,
            'alarms': {'blur': {'active': False, 'acked': False, 'events': 0,
                                'last_change': 0}},
            'tiles': {'cols': 2, 'rows': 1, 'scores': [0.9, 0.1]},
            'sparkline': [0.3, 0.31, score], 'thumbnail':
            '/api/channels/a/thumbnail.jpg', 'thumbnail_seq': 1}


def event(i, kind, what, at):
    e = {'id': i, 'channel': 'a', 'kind': kind, 'event': what,
         'time': '2026-12-07T10:00:%02d.000000Z' % (at + 9)}
    stamp = '2026-12-07T10:00:%02d.250000Z' % at
    e['start_utc'] = stamp
    if what == 'end':
        e['end_utc'] = stamp
        e['duration'] = 1.0
    return e


class Api:
    """What the scripted API answers; the page from the monitor."""

    def __init__(self, page, thumbs):
        self.page, self.thumbs = page, thumbs
        self.lock = threading.Lock()
        self.channels, self.events = [], []

    def set(self, channels=None, events=()):
        with self.lock:
            if channels is not None:
                self.channels = channels
            self.events += list(events)

    def handler(self):
        api = self

        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                u = urllib.parse.urlsplit(self.path)
                q = urllib.parse.parse_qs(u.query)
                with api.lock:
                    if u.path == '/':
                        body, kind = api.page, 'text/html; charset=utf-8'
                    elif u.path == '/api/channels':
                        body = json.dumps(api.channels).encode()
                        kind = 'application/json'
                    elif u.path == '/api/events':
                        since = int(q.get('since', ['0'])[0])
                        ev = [e for e in api.events if e['id'] > since]
                        body = json.dumps({'last_id': max(
                            [e['id'] for e in api.events] + [0]),
                            'events': ev}).encode()
                        kind = 'application/json'
                    elif u.path == '/api/thumbnails':
                        body = json.dumps(api.thumbs).encode()
                        kind = 'application/json'
                    else:
                        self.send_error(404)
                        return
                self.send_response(200)
                self.send_header('Content-Type', kind)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        return H


def times(events):
    return [e.split(' ', 1)[0] for e in events]


def main():
    mc.require_tools()
    scaffold.chromium()
    fx = mc.Failures()
    with mc.Procs() as procs:
        cfg = mc.write_config(procs, [{'name': 'a', 'source': PATTERN}])
        mon = mc.start_monitor(procs, ['--config', cfg, '--thumbnail-width',
                                       '64'])
        mc.wait_until('a thumbnail', lambda: mc.get_json(
            mon, '/api/thumbnails'), 30)
        st, page = mc.get(mon, '/')
        thumbs = mc.get_json(mon, '/api/thumbnails')
        procs.stop(mon)
        fx.check(st == 200 and b'addEvents' in page, 'the monitor serves '
                 'the page (%d, %d bytes)' % (st, len(page)))

        api = Api(page, thumbs)
        srv = http.server.ThreadingHTTPServer((mc.HOST, 0), api.handler())
        srv.daemon_threads = True
        procs.serve(srv)
        # Raised in this order (ids), their own times not: the freeze's
        # start is raised after the black's end, an onset after its time.
        api.set([channel(True, 0.123, 'up')], [
            event(1, 'black', 'start', 1), event(2, 'blur', 'start', 4),
            event(3, 'black', 'end', 5), event(4, 'freeze', 'start', 2)])
        with cdp.Browser(scaffold.chromium(),
                         os.path.join(procs.tmp, 'chromium'), (1000, 700),
                         os.path.join(procs.tmp, 'chromium.log')) as b:
            b.call('Page.navigate', url='http://%s:%d/' % (
                mc.HOST, srv.server_address[1]))

            def shown(cond):
                def poll():
                    s = b.eval(PAGE_JS)
                    return s if cond(s) else None
                try:
                    return mc.wait_until('the page', poll, 10, 0.2)
                except AssertionError:
                    return b.eval(PAGE_JS)

            s = shown(lambda s: len(s['events']) == 4 and s['thumb'] > 0)
            want = ['10:00:05', '10:00:04', '10:00:02', '10:00:01']
            fx.check(times(s['events']) == want, 'the events newest first '
                     'by their own times (%s)' % s['events'])
            fx.check('0.123' in s['meta'] and 'fps' in s['meta'] and
                     s['heat'] == 2 and s['spark'] == 'visible',
                     'a channel up: its score, frame rate, heat map and '
                     'sparkline shown (%r, heat %s, %s)' % (
                         s['meta'], s['heat'], s['spark']))

            # A later poll brings events older than some shown already.
            api.set(events=[event(5, 'blur', 'end', 3),
                            event(6, 'freeze', 'end', 6)])
            s = shown(lambda s: len(s['events']) == 6)
            want = ['10:00:06', '10:00:05', '10:00:04', '10:00:03',
                    '10:00:02', '10:00:01']
            fx.check(times(s['events']) == want, 'events of a later poll '
                     'take their place in time (%s)' % s['events'])

            # The channel restarts: the API keeps the old pipeline's
            # measures; the tile shows none of them.
            for state in ('retrying', 'starting'):
                api.set([channel(False, 0.123, state)])
                s = shown(lambda s: state in s['state'])
                fx.check(state in s['state'] and '0.123' not in s['meta']
                         and '0.123' not in s['label'] and
                         'fps' not in s['meta'] and
                         'detailed' not in s['meta'] and s['heat'] == 0 and
                         s['spark'] == 'hidden' and
                         float(s['img']) < 0.5 and 'stale' in s['cls'],
                         'a channel %s: no stale score, state, frame rate, '
                         'heat map or sparkline, its picture greyed (%r, '
                         '%r, heat %s, sparkline %s, picture opacity %s)' % (
                             state, s['meta'], s['label'], s['heat'],
                             s['spark'], s['img']))
            api.set([channel(True, 0.456, 'up')])
            s = shown(lambda s: '0.456' in s['meta'])
            fx.check('0.456' in s['meta'] and 'stale' not in s['cls'] and
                     float(s['img']) == 1 and s['heat'] == 2,
                     'up again: its new score shown (%r, %s)' % (s['meta'],
                                                                 s['cls']))
            console = list(b.console)
        fx.check(not console, 'no console message (%s)' % console[:3])
    fx.finish()


if __name__ == '__main__':
    main()
