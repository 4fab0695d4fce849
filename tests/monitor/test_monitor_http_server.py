#!/usr/bin/python3
# sharpness-monitor's HTTP server under attack, on 127.0.0.1, each case
# bounded in count and time (issue 29, "The HTTP server"):
# - Range: 5,000 ranges get the whole body once, never more (libsoup 3.2
#   answered 556 MB: CVE-2025-32907), and the RSS does not grow;
# - 5,000 connections closed by the client in every way (after the answer,
#   mid-request, with a reset, "Connection: close") leave the server's
#   descriptor count where it started; an idle connection is closed;
# - the fd limit reached (prlimit) and released leaves the server
#   answering (libsoup dropped its listening source on the first failed
#   accept());
# - a slowloris of 200 connections keeps /metrics fast;
# - 64 KiB is the body limit for every method, chunked bodies refused;
# - a Host that is not the listen address or --allowed-host gets 421 (DNS
#   rebinding);
# - secrets in channel URIs (user information, passphrase, token, sig...)
#   appear nowhere: not in the API, events, metrics, nor the log;
# - malformed requests (a bounded fuzz) get 4xx or a close, and the server
#   keeps answering with its descriptors and memory where they were.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import json  # noqa: E402
import random  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import struct  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

import monitor_common as mc  # noqa: E402

SECRETS = ('hunter2-pw', 'srt-phrase-0123', 'rtsp-token-77', 'sig-ffee99')


def fds(p):
    return len(os.listdir('/proc/%d/fd' % p.pid))


def close_wait(port):
    """Sockets of @port in CLOSE_WAIT (state 08 in /proc/net/tcp)."""
    n = 0
    with open('/proc/net/tcp') as f:
        for line in f.readlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            if int(local.split(':')[1], 16) == port and state == '08':
                n += 1
    return n


def connect(port, timeout=5):
    return socket.create_connection((mc.HOST, port), timeout=timeout)


def request(port, data, timeout=10, limit=64 << 20):
    """Sends @data, reads the answer until the server closes or @limit
    bytes; (status line, headers dict, body bytes, total bytes read)."""
    s = connect(port, timeout)
    out = b''
    try:
        # A server that refuses early (413, 431) may answer and close
        # before the request is all sent: the send then fails, and its
        # answer may still wait in the receive buffer.
        try:
            s.sendall(data)
        except (ConnectionResetError, BrokenPipeError):
            pass
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and len(out) < limit:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            out += chunk
            head, sep, body = out.partition(b'\r\n\r\n')
            if sep:
                hdrs = _headers(head)
                n = int(hdrs.get('content-length', -1))
                if n >= 0 and len(body) >= n:
                    break
    except (ConnectionResetError, BrokenPipeError, socket.timeout):
        pass
    finally:
        s.close()
    head, _, body = out.partition(b'\r\n\r\n')
    line = head.split(b'\r\n', 1)[0].decode(errors='replace')
    return line, _headers(head), body, len(out)


def _headers(head):
    h = {}
    for line in head.split(b'\r\n')[1:]:
        k, _, v = line.decode(errors='replace').partition(':')
        h[k.strip().lower()] = v.strip()
    return h


def get(port, path, host=None, extra=b''):
    host = '%s:%d' % (mc.HOST, port) if host is None else host
    return request(port, b'GET %s HTTP/1.1\r\nHost: %s\r\nConnection: '
                   b'close\r\n%s\r\n' % (path.encode(), host.encode(), extra))


def status(line):
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def settle(p, port, base, seconds=15):
    """Waits (bounded) for the descriptor count to come back to @base;
    the last count."""
    deadline = time.monotonic() + seconds
    n = fds(p)
    while time.monotonic() < deadline and n > base:
        time.sleep(0.2)
        n = fds(p)
    return n


def check_ranges(fx, mon):
    port = mon.port
    line, _, page, _ = get(port, '/')
    fx.check(status(line) == 200 and len(page) > 1000, 'the page: %s, %d '
             'bytes' % (line, len(page)))
    ranges = ','.join(['0-'] * 5000).encode()
    rss0 = mc.rss_kb(mon.pid)
    for path in ('/', '/api/thumbnails', '/metrics'):
        line, h, body, total = get(port, path, extra=b'Range: bytes=' +
                                   ranges + b'\r\n')
        plain = len(get(port, path)[2])
        fx.check(status(line) == 200 and 'content-range' not in h and
                 len(body) <= max(2 * plain, plain + 65536) and
                 total < 4 << 20,
                 'GET %s with 5,000 ranges: %s, whole body once (%d bytes, '
                 'plain %d)' % (path, line, len(body), plain))
    line, _, body, _ = get(port, '/', extra=b'Range: bytes=0-10\r\n')
    fx.check(status(line) == 200 and body == page,
             'one range: the whole page, 200 (%s)' % line)
    rss1 = mc.rss_kb(mon.pid)
    fx.check(rss1 - rss0 < 50 * 1024, 'RSS after the range requests: %+d kB'
             % (rss1 - rss0))


def close_ways(port, i):
    """One connection closed by the client in way @i % 4."""
    req = (b'GET /healthz HTTP/1.1\r\nHost: %s:%d\r\n' %
           (mc.HOST.encode(), port))
    s = connect(port)
    try:
        way = i % 4
        if way == 0:        # after the answer, keep-alive
            s.sendall(req + b'\r\n')
            s.recv(4096)
        elif way == 1:      # mid-request
            s.sendall(req[:20])
        elif way == 2:      # reset (SO_LINGER 0)
            s.sendall(req + b'\r\n')
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                         struct.pack('ii', 1, 0))
        else:               # Connection: close, read to the end
            s.sendall(req + b'Connection: close\r\n\r\n')
            while s.recv(4096):
                pass
    except OSError:
        pass
    finally:
        s.close()


def check_connections(fx, mon):
    port = mon.port
    get(port, '/healthz')
    time.sleep(0.5)
    base = fds(mon)
    rss0 = mc.rss_kb(mon.pid)
    t0 = time.monotonic()
    for i in range(5000):
        close_ways(port, i)
    spent = time.monotonic() - t0
    n = settle(mon, port, base)
    fx.check(n <= base, '5,000 connections closed by the client (answered, '
             'mid-request, reset, Connection: close; %.1f s): descriptors '
             '%d -> %d' % (spent, base, n))
    cw = close_wait(port)
    fx.check(cw == 0, 'no socket left in CLOSE_WAIT (%d)' % cw)
    # The descriptors are the leak's measure; the RSS is a coarse bound
    # (the allocator keeps what the first connections grew).
    rss1 = mc.rss_kb(mon.pid)
    fx.check(rss1 - rss0 < 40 * 1024, 'RSS after them: %+d kB' %
             (rss1 - rss0))
    # An idle connection is closed by the server (10 s).
    s = connect(port, timeout=25)
    t0 = time.monotonic()
    try:
        got = s.recv(1)
    except OSError:
        got = b''
    waited = time.monotonic() - t0
    s.close()
    fx.check(got == b'' and waited < 20, 'an idle connection is closed '
             'after %.1f s' % waited)


def check_slowloris(fx, mon):
    port = mon.port
    base = fds(mon)
    conns = []
    for _ in range(200):
        s = connect(port)
        s.sendall(b'GET /metrics HTTP/1.1\r\nHost: %s:%d\r\n' %
                  (mc.HOST.encode(), port))
        conns.append(s)
    times = []
    try:
        deadline = time.monotonic() + 12
        while time.monotonic() < deadline and len(times) < 40:
            for s in conns:        # a header byte now and then
                try:
                    s.send(b'X')
                except OSError:
                    pass
            t0 = time.monotonic()
            line = get(port, '/metrics')[0]
            times.append((time.monotonic() - t0) * 1000)
            if status(line) != 200:
                times[-1] = 1e9
            time.sleep(0.2)
    finally:
        for s in conns:
            s.close()
    settle(mon, port, base)
    times.sort()
    med = times[len(times) // 2]
    p90 = times[int(len(times) * 0.9)]
    fx.check(len(times) >= 20 and med < 50 and p90 < 50,
             'slowloris of 200 connections: /metrics in %.1f ms median, '
             '%.1f ms p90, %.1f ms max (%d requests)' %
             (med, p90, times[-1], len(times)))


def check_bodies(fx, mon, token):
    port = mon.port
    host = b'Host: %s:%d\r\n' % (mc.HOST.encode(), port)
    auth = b'Authorization: Bearer ' + token.encode() + b'\r\n'
    for method in (b'GET', b'POST', b'DELETE', b'PUT', b'HEAD'):
        line = request(port, method + b' /api/channels HTTP/1.1\r\n' + host +
                       auth + b'Content-Length: 65537\r\n\r\n' + b'x' * 100,
                       timeout=5)[0]
        fx.check(status(line) == 413, '%s with a 64 KiB + 1 body: 413 before '
                 'it is read (%s)' % (method.decode(), line))
    line = request(port, b'GET /healthz HTTP/1.1\r\n' + host +
                   b'Transfer-Encoding: chunked\r\n\r\n' +
                   b'10000\r\n' + b'x' * 65536, timeout=5)[0]
    fx.check(status(line) == 413, 'GET with a chunked body: 413 (%s)' % line)
    body = b'{"uri": "udp://127.0.0.1:9", "name": "' + b'a' * 65000 + b'"}'
    body = body[:65536]
    line = request(port, b'POST /api/channels HTTP/1.1\r\n' + host + auth +
                   b'Content-Length: %d\r\n\r\n' % len(body) + body)[0]
    fx.check(status(line) == 400, 'a body of exactly 64 KiB is read (400: '
             'not JSON) (%s)' % line)


def check_hosts(fx, mon):
    port = mon.port
    for host, want in (('%s:%d' % (mc.HOST, port), 200),
                       (mc.HOST, 200), ('localhost:%d' % port, 200),
                       ('LOCALHOST', 200), ('127.0.0.2', 200),
                       ('monitor.example.org:%d' % port, 200),
                       ('attacker.example:%d' % port, 421),
                       ('127.0.0.1.attacker.example', 421),
                       ('10.1.2.3', 421), ('[::1]:%d' % port, 200),
                       ('a:b:c', 421), ('', 421)):
        line, _, body, _ = get(port, '/api/channels', host=host)
        fx.check(status(line) == want, 'Host %r: %d (%s)' % (host, want, line))
    line = request(port, b'GET /healthz HTTP/1.0\r\n\r\n')[0]
    fx.check(status(line) == 200, 'HTTP/1.0 without a Host: 200 (%s)' % line)


def check_secrets(fx, procs, mon):
    texts = {}
    for path in ('/api/channels', '/metrics', '/api/events?since=0',
                 '/api/channels/secret-srt', '/api/channels/secret-rtsp'):
        texts[path] = get(mon.port, path)[2].decode(errors='replace')
    chans = json.loads(texts['/api/channels'])
    uris = {c['name']: c['uri'] for c in chans}
    fx.check('REDACTED' in uris.get('secret-srt', '') and
             'REDACTED' in uris.get('secret-rtsp', ''),
             'the API shows redacted URIs: %s' % uris)
    errs = [c.get('last_error') for c in chans if c['name'].startswith(
        'secret-')]
    fx.check(any(errs), 'the secret channels failed, with an error: %s' %
             errs)
    with open(mon.log_path, errors='replace') as f:
        texts['log'] = f.read()
    # --check-config's list and its errors quote URIs too.
    for args in (['--config', procs.config],
                 ['gopher://admin:%s@127.0.0.1/x?token=%s' % SECRETS[:2]]):
        r = subprocess.run([mc.TOOL, '--check-config'] + args,
                           capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
        texts['--check-config %s' % args[0]] = r.stdout + r.stderr
    for where, text in texts.items():
        leaked = [s for s in SECRETS if s in text]
        fx.check(not leaked, 'no secret in %s (%s)' % (where, leaked))


def fuzz_cases(port, n, rng):
    host = b'Host: %s:%d\r\n' % (mc.HOST.encode(), port)
    fixed = [
        b'\r\n\r\n', b'GET\r\n\r\n', b'GET / HTTP/9.9\r\n\r\n',
        b'GET / HTTP/1.1\r\n\r\n', b'G\x00T / HTTP/1.1\r\n' + host + b'\r\n',
        b'GET /' + b'a' * 40000 + b' HTTP/1.1\r\n' + host + b'\r\n',
        b'GET / HTTP/1.1\r\n' + host + b'X: y\r\n' * 5000 + b'\r\n',
        b'GET / HTTP/1.1\n' + host + b'\n',
        b'GET /%zz%00 HTTP/1.1\r\n' + host + b'\r\n',
        b'POST /api/channels HTTP/1.1\r\n' + host +
        b'Content-Length: -1\r\n\r\n',
        b'POST /api/channels HTTP/1.1\r\n' + host +
        b'Content-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef',
        b'POST /api/channels HTTP/1.1\r\n' + host +
        b'Transfer-Encoding: chunked\r\n\r\nzz\r\n',
        b'GET / HTTP/1.1\r\n' + host + b' folded: header\r\n\r\n',
        b'GET http://evil/ HTTP/1.1\r\n' + host + b'\r\n',
        b'CONNECT 127.0.0.1:22 HTTP/1.1\r\n' + host + b'\r\n',
        b'GET /api/events?since=99999999999999999999999 HTTP/1.1\r\n' +
        host + b'\r\n',
        b'GET /api/channels/%ff%fe/thumbnail.jpg HTTP/1.1\r\n' + host +
        b'\r\n',
    ]
    for c in fixed:
        yield c
    methods = [b'GET', b'POST', b'HEAD', b'DELETE', b'PUT', b'OPTIONS',
               b'TRACE', b'PATCH', b'GeT', b'\xff\xfe']
    paths = [b'/', b'/metrics', b'/api/channels', b'/api/events',
             b'/api/thumbnails', b'/api/alarms/x/blur/ack', b'/healthz',
             b'/api/channels/tiny.ts/thumbnail.jpg', b'/../etc/passwd']
    for _ in range(n - len(fixed)):
        req = (rng.choice(methods) + b' ' + rng.choice(paths) +
               bytes(rng.choice(b'?&=%/.\x00\x7f azAZ09')
                     for _ in range(rng.randrange(0, 40))) +
               b' HTTP/1.' + bytes([rng.choice(b'019x')]) + b'\r\n' + host)
        for _ in range(rng.randrange(0, 8)):
            req += (bytes(rng.choice(b'abcXYZ-:\x00\x80 ')
                          for _ in range(rng.randrange(1, 30))) + b'\r\n')
        req += b'\r\n' + bytes(rng.randrange(256)
                               for _ in range(rng.randrange(0, 200)))
        yield req


def check_fuzz(fx, mon):
    port = mon.port
    base, rss0 = fds(mon), mc.rss_kb(mon.pid)
    rng = random.Random(29)
    bad = []
    n = 0
    for req in fuzz_cases(port, 600, rng):
        line = request(port, req, timeout=12)[0]
        n += 1
        st = status(line)
        # 501 (an unknown method) and 505 (an unknown version) are
        # refusals too; 500 would be the monitor's own fault.
        if line and not (200 <= st < 500 or st in (501, 505)):
            bad.append((req[:60], line))
    fx.check(not bad, '%d malformed requests: each answered 2xx-4xx, 501 or '
             '505, or closed (%s)' % (n, bad[:3]))
    line = get(port, '/healthz')[0]
    fx.check(status(line) == 200 and mon.poll() is None,
             'the server answers after the fuzz (%s)' % line)
    m = settle(mon, port, base)
    fx.check(m <= base and mc.rss_kb(mon.pid) - rss0 < 20 * 1024,
             'after the fuzz: descriptors %d -> %d, RSS %+d kB' %
             (base, m, mc.rss_kb(mon.pid) - rss0))


def check_fd_limit(fx, procs, tiny):
    if not shutil.which('prlimit'):
        fx.check(True, 'skipped the fd-limit case: prlimit missing')
        return
    port = mc.free_port()
    p = procs.start(['prlimit', '--nofile=64:64', '--', mc.TOOL, '--cpu',
                     '--listen', '%s:%d' % (mc.HOST, port), '--loop', tiny],
                    'monitor-fd-limit')
    p.port = port
    mc.wait_http(p, '/healthz', 30)
    scored = lambda: mc.get_json(p, '/api/channels')[0]['frames_scored']  # noqa
    f0 = mc.wait_until('the fd-limited monitor scores', scored, 30)
    held = []
    try:
        for _ in range(120):
            try:
                held.append(connect(port, timeout=2))
            except OSError:
                break
        time.sleep(1.5)    # the server tries to accept them
        reached = get(port, '/healthz')[0]
    finally:
        for s in held:
            s.close()
    time.sleep(1)
    answers = [status(get(port, '/healthz')[0]) for _ in range(50)]
    fx.check(all(a == 200 for a in answers) and p.poll() is None,
             'the fd limit (64) reached with %d connections (/healthz then: '
             '%r) and released: the server answers 50 requests (%s)' %
             (len(held), reached, sorted(set(answers))))
    # Its pipeline may have needed a descriptor meanwhile and restarted.
    try:
        f1 = mc.wait_until('the fd-limited channel to score again', lambda:
                           max(scored() - f0, 0) and scored(), 30)
    except AssertionError:
        f1 = scored()
    fx.check(f1 > f0, 'its channel scores after (%d -> %d)' % (f0, f1))
    procs.stop(p)


def main():
    mc.require_tools('ffmpeg', 'gst-launch-1.0')
    tiny = mc.tiny_ts()
    fx = mc.Failures()
    token = 'server-test-token-0123456789'
    with mc.Procs() as procs:
        tok = os.path.join(procs.tmp, 'token')
        with open(tok, 'w') as f:
            f.write(token)
        cfg = mc.write_config(procs, [
            {'name': 'tiny.ts', 'uri': 'file://' + tiny},
            {'name': 'secret-srt', 'uri': 'srt://127.0.0.1:%d?mode=caller&'
             'passphrase=%s&latency=20' % (mc.free_port(), SECRETS[1])},
            {'name': 'secret-rtsp', 'uri': 'rtsp://admin:%s@127.0.0.1:%d/x?'
             'token=%s&sig=%s' % (SECRETS[0], mc.free_port(), SECRETS[2],
                                  SECRETS[3])},
        ])
        procs.config = cfg
        mon = mc.start_monitor(procs, ['--config', cfg, '--loop',
                                       '--api-token-file', tok,
                                       '--restart-after', '2',
                                       '--allowed-host',
                                       'monitor.example.org'])
        mc.wait_until('a thumbnail', lambda: get(
            mon.port, '/api/channels/tiny.ts/thumbnail.jpg')[0].split()[1:2]
            == ['200'], 30)
        check_ranges(fx, mon)
        check_hosts(fx, mon)
        check_bodies(fx, mon, token)
        check_connections(fx, mon)
        check_slowloris(fx, mon)
        check_fuzz(fx, mon)
        mc.wait_until('the secret channels to fail', lambda: all(
            c.get('last_error') for c in mc.get_json(mon, '/api/channels')
            if c['name'].startswith('secret-')), 30)
        check_secrets(fx, procs, mon)
        check_fd_limit(fx, procs, tiny)
        mc.check_still_scoring(fx, mon, 'after all of it the monitor runs '
                               'and its channel scores')
    fx.finish()


if __name__ == '__main__':
    main()
