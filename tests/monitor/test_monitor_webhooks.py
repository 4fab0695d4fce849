#!/usr/bin/python3
# sharpness-monitor's outbound deliveries against hostile and broken
# receivers (issue 29), every receiver a small HTTP server of this test on
# 127.0.0.1.  One monitor, one channel whose black stretches raise an
# event about every 1.5 s, and these --webhook receivers at once:
# - one answering an endless body (a chunked 200 of 64 MiB per request,
#   then held open): the monitor reads a capped answer and closes the
#   connection, its RSS stays within 40 MiB of where it started;
# - one dripping its answer a byte a second: the monitor gives the
#   delivery up at its total deadline (10 s), closes the connection and
#   tries again;
# - 12 that never answer, listed first, and one healthy receiver: the
#   healthy one gets every event within 1 s of its emission;
# - one answering 500 to its first three requests, then 200, its URL
#   with user:password@ and ?token=: stderr says it failed once and that
#   it recovered once, with the URL redacted; no secret anywhere in the
#   log or /metrics.
# Then the credentials' options: --webhook-file and --alertmanager-file
# (one URL a line, # comments) reach their receivers whole (query
# included, the API path before the query) without a secret in the log
# or /metrics; a bad URL in a file is refused with the file and line and
# without its secret, as is one on the command line; --help sends
# Alertmanager to --alertmanager, not --webhook.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402,F401

import http.server  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import select  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import monitor_common as mc  # noqa: E402

# The clip: 10 fps, 60 s, black for 1.5 s every 3 s from 2 s on; a black
# onset of 0.5 s makes a start and an end event per stretch.
BLACK = [(2 + 3 * i, 3.5 + 3 * i) for i in range(19)]
# monitor-webhook.c: a delivery's total deadline.
DEADLINE_S = 10
HUNG = 12
ENDLESS_BYTES = 64 << 20        # per request, then held open
RSS_GROWTH_MAX_KB = 40 << 10
RSS_ABORT_KB = 1 << 20          # the test stops a monitor this far over
BASE_SAMPLES = 10               # 2 s of RSS samples, before any event
HEALTHY_DELAY_MAX_S = 1.0
FAILING_500S = 3
# Secrets of the receivers' URLs: none may reach stderr or /metrics.
SECRETS = ['hunter2pw', 's3cr3ttok', 'filepw77', 'filetok77', 'ampw88',
           'amtok88', 'badpw99', 'badtok99']
RUN_S = 32                      # the first monitor's run
STOP = threading.Event()        # ends every handler's wait


def clip():
    return mc.black_boxes_ts('black-every-3s.ts', 60, BLACK)


def wait_closed(sock, seconds):
    """Waits (bounded) for the peer to close @sock; the monotonic time it
    did, or None."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not STOP.is_set():
        r, _, _ = select.select([sock], [], [], 0.2)
        if r:
            try:
                if not sock.recv(65536):
                    return time.monotonic()
            except OSError:
                return time.monotonic()
    return None


class Receiver:
    """An HTTP server on 127.0.0.1 whose POSTs @behave(handler, record)
    answers; every request's record (a dict: 'at', 'path', 'body', and
    what @behave adds) in .got."""

    def __init__(self, procs, behave, path='/hook', userinfo='', query=''):
        self.got = []
        self.lock = threading.Lock()
        outer = self

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def do_POST(self):
                rec = {'at': time.monotonic(), 'wall': time.time(),
                       'path': self.path}
                n = int(self.headers.get('Content-Length', 0))
                rec['body'] = self.rfile.read(min(n, 16 << 20))
                with outer.lock:
                    outer.got.append(rec)
                try:
                    keep = behave(self, rec)
                except OSError as e:
                    rec['error'] = repr(e)
                    keep = False
                # A short answer keeps the connection (the monitor reuses
                # it); any other ends it.
                self.close_connection = not keep

            def log_message(self, *a):
                pass
        srv = http.server.ThreadingHTTPServer((mc.HOST, 0), H)
        srv.daemon_threads = True
        procs.serve(srv)
        self.port = srv.server_address[1]
        self.url = 'http://%s%s:%d%s%s' % (userinfo, mc.HOST, self.port,
                                           path, query)

    def records(self):
        with self.lock:
            return list(self.got)


def answer(h, status):
    h.send_response(status)
    h.send_header('Content-Length', '2')
    h.end_headers()
    h.wfile.write(b'ok')
    h.wfile.flush()
    return True


def endless(h, rec):
    """A chunked 200 whose chunks do not end (ENDLESS_BYTES, then held
    open): what was sent before the monitor closed, and when it did."""
    h.wfile.write(b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n')
    chunk = b'%x\r\n%s\r\n' % (65536, b'x' * 65536)
    rec['sent'] = 0
    try:
        while rec['sent'] < ENDLESS_BYTES and not STOP.is_set():
            h.wfile.write(chunk)
            rec['sent'] += 65536
    except OSError:
        rec['closed'] = time.monotonic()
        return
    h.wfile.flush()
    rec['closed'] = wait_closed(h.connection, 60)


def drip(h, rec):
    """A byte a second, for ever (a header that never ends): when the
    monitor closed."""
    data = b'HTTP/1.1 200 OK\r\nX-Drip: ' + b'a' * 1000
    for i in range(len(data)):
        try:
            h.wfile.write(data[i:i + 1])
            h.wfile.flush()
        except OSError:
            rec['closed'] = time.monotonic()
            return
        closed = wait_closed(h.connection, 1.0)
        if closed or STOP.is_set():
            rec['closed'] = closed
            return


def hang(h, rec):
    rec['closed'] = wait_closed(h.connection, 120)


def healthy(h, rec):
    return answer(h, 200)


def make_failing(n500):
    def failing(h, rec):
        with FAILS_LOCK:
            FAILS[0] += 1
            k = FAILS[0]
        return answer(h, 500 if k <= n500 else 200)
    return failing


FAILS = [0]
FAILS_LOCK = threading.Lock()


def event_of(body):
    """The monitor's event in a webhook payload (its JSON annotation)."""
    a = json.loads(body)['alerts'][0]
    return json.loads(a['annotations']['event'])


class RssWatch:
    """Samples the monitor's RSS every 0.2 s; stops the monitor (SIGKILL,
    by its PID) past RSS_ABORT_KB over the first sample, so that a
    monitor reading an endless answer whole cannot take the machine."""

    def __init__(self, p):
        self.p = p
        self.samples = []
        self.aborted = False
        self.done = threading.Event()
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        end = time.monotonic() + 300
        while not self.done.is_set() and time.monotonic() < end:
            kb = mc.rss_kb(self.p.pid)
            if kb is None:
                break
            self.samples.append(kb)
            if kb > self.samples[0] + RSS_ABORT_KB:
                self.aborted = True
                os.kill(self.p.pid, signal.SIGKILL)
                break
            time.sleep(0.2)

    def stop(self):
        self.done.set()
        self.t.join(5)


def no_secret(text):
    return [s for s in SECRETS if s in text]


def receivers_run(procs, fx, ts):
    """Items 1-4 of issue 29's deliveries, one monitor."""
    hung = [Receiver(procs, hang) for _ in range(HUNG)]
    good = Receiver(procs, healthy)
    end = Receiver(procs, endless)
    dr = Receiver(procs, drip)
    fail = Receiver(procs, make_failing(FAILING_500S),
                    userinfo='alice:hunter2pw@', query='?token=s3cr3ttok')
    cfg = mc.write_config(procs, [{'name': 'ch', 'uri': 'file://' + ts}],
                          {'alarms': {'black': {'onset': 0.5}}})
    # The hung receivers first: a shared connection pool is theirs before
    # the healthy receiver asks.
    args = ['--config', cfg, '-q']
    for r in hung + [good, end, dr, fail]:
        args += ['--webhook', r.url]
    mon = mc.start_monitor(procs, args)
    rss = RssWatch(mon)
    t0 = time.monotonic()
    try:
        mc.wait_until('%d s of the run' % RUN_S, lambda: rss.aborted or
                      time.monotonic() - t0 > RUN_S, RUN_S + 5, 0.5)
    finally:
        rss.stop()
    alive = mon.poll() is None
    evs = mc.events(mon) if alive else []
    metrics = mc.get(mon, '/metrics')[1].decode() if alive else ''
    t_stop, wall_stop = time.monotonic(), time.time()
    rc = procs.stop(mon)
    took = time.monotonic() - t_stop
    with open(mon.log_path) as f:
        stderr = f.read()
    log = mc.log
    fx.check(alive, 'the monitor ran %d s beside the receivers (RSS watch '
             'aborted: %s)' % (RUN_S, rss.aborted))
    fx.check(rc == 0 and took < 10, 'it stopped (exit %s) in %.1f s with 12 '
             'hung receivers' % (rc, took))

    # 1. The endless answer: RSS bounded, the connection closed.  The
    # base: the largest RSS of the first 2 s (the channel started, no
    # event yet: the first comes 2.5 s into the clip).
    base = max(rss.samples[:BASE_SAMPLES]) if rss.samples else 0
    growth = max(rss.samples) - base if rss.samples else -1
    log('RSS: base %d kB, max %d kB over %d samples' % (
        base, max(rss.samples) if rss.samples else -1, len(rss.samples)))
    fx.check(0 <= growth < RSS_GROWTH_MAX_KB, 'RSS grew %d kB (< %d) while '
             'an endless answer was served' % (growth, RSS_GROWTH_MAX_KB))
    # Every request that came 4 s or more before the stop: closed by the
    # monitor within 3 s (a whole-answer reader waits for more).
    recs = end.records()
    slow = [r for r in recs if r['at'] < t_stop - 4 and
            not (r.get('closed') and r['closed'] - r['at'] < 3)]
    fx.check(recs and not slow, 'the endless receiver: %d request(s), each '
             'closed by the monitor within 3 s (MiB sent before each: %s)'
             % (len(recs), [round(r.get('sent', 0) / 2 ** 20, 1)
                            for r in recs]))

    # 2. The dripping answer: given up at the deadline, then retried.
    recs = dr.records()
    first = recs[0] if recs else {}
    gone = first.get('closed') and first['closed'] - first['at']
    fx.check(gone and DEADLINE_S - 1 <= gone <= DEADLINE_S + 3,
             'the dripping receiver\'s first delivery ended after %s s '
             '(deadline %d s)' % (gone and round(gone, 1), DEADLINE_S))
    fx.check(len(recs) >= 2 and gone and recs[1]['at'] > first['closed'],
             'the dripping receiver was tried again after the deadline '
             '(%d requests)' % len(recs))

    # 3. 12 hung receivers, one healthy: each event within 1 s.
    got = {}
    for r in good.records():
        e = event_of(r['body'])
        got[(e['id'], e['event'])] = r['wall'] - mc.utc(e['time'])
    delays = sorted(got.values())
    log('healthy receiver: %d deliveries, delay max %.3f s, median %.3f s'
        % (len(delays), delays[-1] if delays else -1,
           delays[len(delays) // 2] if delays else -1))
    log('hung receivers: %s requests' % [len(h.records()) for h in hung])
    # Every event the monitor raised up to 2 s before the end.
    due = [(e['id'], e['event']) for e in evs
           if mc.utc(e['time']) < wall_stop - 2]
    missing = [k for k in due if k not in got]
    fx.check(len(due) >= 10 and not missing, 'the healthy receiver got all '
             '%d events raised (missing: %s)' % (len(due), missing))
    late = [k for k, d in got.items() if d > HEALTHY_DELAY_MAX_S]
    fx.check(delays and not late, 'each within %.1f s of its emission while '
             '%d receivers hang (late: %d, max %.2f s)' % (
                 HEALTHY_DELAY_MAX_S, HUNG, len(late),
                 delays[-1] if delays else -1))

    # 4. The failing receiver: logged once failing, once recovered.
    recs = fail.records()
    statuses = ['500' if i < FAILING_500S else '200'
                for i in range(len(recs))]
    mine = [line for line in stderr.splitlines()
            if '127.0.0.1:%d' % fail.port in line]
    log('failing receiver: %s; its log lines:\n  %s' % (
        statuses, '\n  '.join(mine)))
    fx.check(len(recs) > FAILING_500S, 'the failing receiver got %d '
             'requests (%d answered 500)' % (len(recs), FAILING_500S))
    fx.check(len([m for m in mine if 'failing' in m]) == 1 and
             len([m for m in mine if 'recovered' in m]) == 1 and
             len(mine) == 2, 'its failure and its recovery are logged once '
             'each (%d lines)' % len(mine))
    fx.check(mine and all('REDACTED' in m for m in mine),
             'with its URL redacted')
    # 5. No secret on stderr or in /metrics.
    fx.check(not no_secret(stderr) and not no_secret(metrics),
             'no secret in the log or /metrics (found: %s)' % (
                 no_secret(stderr) + no_secret(metrics)))


def files_run(procs, fx, ts):
    """Item 5: the URL files; item 4's --help example."""
    hook = Receiver(procs, healthy, userinfo='bob:filepw77@',
                    query='?token=filetok77')
    am = Receiver(procs, healthy, path='/am/', userinfo='carol:ampw88@',
                  query='?token=amtok88')
    hooks_file = os.path.join(procs.tmp, 'webhooks.txt')
    with open(hooks_file, 'w') as f:
        f.write('# the receivers of this test\n\n  %s  \n' % hook.url)
    am_file = os.path.join(procs.tmp, 'alertmanagers.txt')
    with open(am_file, 'w') as f:
        f.write('%s\n# done\n' % am.url)
    cfg = mc.write_config(procs, [{'name': 'ch', 'uri': 'file://' + ts}],
                          {'alarms': {'black': {'onset': 0.5}}})
    metrics = stderr = ''
    try:
        mon = mc.start_monitor(procs, ['--config', cfg, '--webhook-file',
                                       hooks_file, '--alertmanager-file',
                                       am_file], name='monitor-files')
        mc.wait_until('deliveries to the files\' receivers', lambda:
                      hook.records() and am.records(), 20, 0.2)
        metrics = mc.get(mon, '/metrics')[1].decode()
        procs.stop(mon)
        with open(mon.log_path) as f:
            stderr = f.read()
    except AssertionError as e:
        fx.check(False, str(e))
    paths = [r['path'] for r in hook.records()[:1] + am.records()[:1]]
    fx.check(paths == ['/hook?token=filetok77', '/am/api/v2/alerts?token='
                       'amtok88'], '--webhook-file and --alertmanager-file '
             'reach their receivers whole: %s' % paths)
    fx.check(not no_secret(stderr) and not no_secret(metrics),
             'no secret in their log or /metrics (found: %s)' % (
                 no_secret(stderr) + no_secret(metrics)))

    bad = os.path.join(procs.tmp, 'bad-webhooks.txt')
    with open(bad, 'w') as f:
        f.write('# one bad URL\nhttp://u:badpw99@127.0.0.1:notaport/'
                '?token=badtok99\n')
    rc, out = mc.run_tool(['--webhook-file', bad, 'file://' + ts])
    fx.check(rc == 2 and bad + ':2' in out and not no_secret(out),
             'a bad URL in --webhook-file: exit %d, file and line named, '
             'no secret: %s' % (rc, out.strip()))
    rc, out = mc.run_tool(['--alertmanager-file', bad, 'file://' + ts])
    fx.check(rc == 2 and bad + ':2' in out and not no_secret(out),
             'the same in --alertmanager-file: exit %d' % rc)
    empty = os.path.join(procs.tmp, 'empty.txt')
    with open(empty, 'w') as f:
        f.write('# nothing\n')
    rc, out = mc.run_tool(['--webhook-file', empty, 'file://' + ts])
    fx.check(rc == 2 and empty in out, 'a file without a URL: exit %d: %s'
             % (rc, out.strip()))
    rc, out = mc.run_tool(['--webhook', 'http://u:badpw99@127.0.0.1:notaport/'
                        '?token=badtok99', 'file://' + ts])
    fx.check(rc == 2 and '--webhook' in out and not no_secret(out),
             'a bad --webhook: exit %d, no secret: %s' % (rc, out.strip()))

    r = subprocess.run([mc.TOOL, '--help'], capture_output=True, text=True,
                       timeout=30, stdin=subprocess.DEVNULL)
    fx.check(not re.search(r'--webhook\s+\S*/api/v2/alerts', r.stdout) and
             '--alertmanager http://alertmanager:9093' in r.stdout and
             '--webhook-file' in r.stdout and
             '--alertmanager-file' in r.stdout,
             '--help: Alertmanager by --alertmanager, the URL files listed')


def main():
    mc.require_tools('ffmpeg')
    ts = clip()
    fx = mc.Failures()
    with mc.Procs() as procs:
        try:
            receivers_run(procs, fx, ts)
            files_run(procs, fx, ts)
        finally:
            STOP.set()
    fx.finish()


if __name__ == '__main__':
    main()
