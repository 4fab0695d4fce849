#!/usr/bin/python3
# sharpness-monitor's bad input: configuration errors name the file and
# line; an unknown URI scheme, duplicate channel names, a compare-with
# naming no channel are refused with a clear message (exit status 2); and
# HTTP fuzz on 127.0.0.1 (oversized headers and bodies, bad JSON, wrong or
# missing token, pipeline fragments, '../' paths, markup in a channel
# name) gets 4xx answers while the process keeps running and its channel
# keeps scoring.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import json  # noqa: E402
import socket  # noqa: E402
import time  # noqa: E402

import monitor_common as mc  # noqa: E402


def raw(port, data, timeout=10, half_close=True):
    """Sends @data on a new connection (then closes its sending side, with
    @half_close); the status line, or '' when the server closed without
    one."""
    s = socket.create_connection((mc.HOST, port), timeout=timeout)
    out = b''
    try:
        # A server that refuses early (431, 413) may answer and close
        # before the request is all sent: the send side then fails with
        # EPIPE, ECONNRESET or ENOTCONN, and its answer may still wait in
        # the receive buffer.
        try:
            s.sendall(data)
            if half_close:
                s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            chunk = s.recv(4096)
            if not chunk:
                break
            out += chunk
            if b'\r\n' in out:
                break
    except socket.timeout:
        raise
    except OSError:
        # Reset after (or instead of) an answer.
        pass
    finally:
        s.close()
    return out.split(b'\r\n', 1)[0].decode(errors='replace')


class Decimal(str):
    """A JSON number with a fraction or an exponent, as its text."""


def number_forms(node, key=None):
    """The numbers of an API answer not in the documented form: wall-clock
    times to the millisecond, other measurements to 10 significant
    digits."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from number_forms(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from number_forms(v, key)
    elif isinstance(node, Decimal):
        mantissa = node.lstrip('-').split('e')[0]
        if key in ('last_change', 'time'):
            ok = 'e' not in node and len(mantissa.partition('.')[2]) <= 3
        else:
            ok = len(mantissa.replace('.', '').strip('0')) <= 10
        if not ok:
            yield (key, str(node))


def main():
    mc.require_tools('ffmpeg')
    tiny = mc.tiny_ts()
    fx = mc.Failures()

    with mc.Procs() as procs:
        def cfg(text):
            path = os.path.join(procs.tmp, 'bad.yaml')
            with open(path, 'w') as f:
                f.write(text)
            return path

        # Configuration errors: file, line, what is wrong.
        cases = [
            ('channels:\n  - name: a\n    uri: file:///x.ts\n   bad: [\n',
             ':4:', 'YAML'),
            ('channels:\n  - name: a\n    uri: file:///x.ts\n    thresold: 1\n',
             ':4:', "unknown key 'thresold'"),
            ('channels:\n  - name: a\n    uri: file:///x.ts\n    window: -3\n',
             ':4:', 'window'),
            ('channels:\n  - name: a\n    uri: foo://x\n', ':3:',
             'unknown URI scheme'),
            ('channels:\n  - name: a\n    uri: file:///x.ts\n    alarms:\n'
             '      blurr: {onset: 1}\n', ':5:', "unknown kind 'blurr'"),
            # (No file: a file:// channel's file must exist.)
            ('channels:\n  - name: a\n    uri: udp://127.0.0.1:5000\n'
             '  - name: a\n    uri: udp://127.0.0.1:5001\n', 'line 4',
             "two channels are named 'a'"),
            ('channels:\n  - name: a\n    uri: udp://127.0.0.1:5000\n'
             '    compare-with: b\n', '', "compare-with 'b'"),
        ]
        for text, where, what in cases:
            rc, out = mc.run_tool(['--config', cfg(text)])
            fx.check(rc == 2 and where in out and what in out,
                     'config error names %r and %r: %s' % (
                         where, what, out.strip()))
        rc, out = mc.run_tool(['gopher://example/x'])
        fx.check(rc == 2 and 'unknown URI scheme' in out,
                 'command line: unknown scheme: %s' % out.strip())
        rc, out = mc.run_tool(['udp://127.0.0.1:5000', 'udp://127.0.0.1:5000'])
        fx.check(rc == 2 and 'two channels' in out,
                 'command line: duplicate names: %s' % out.strip())
        shard = cfg('channels:\n' + ''.join(
            '  - name: c%d\n    uri: udp://127.0.0.1:%d\n' % (i, 5000 + i)
            for i in range(5)))
        rc, out = mc.run_tool(['--config', shard, '--shard', '1/2'])
        fx.check(rc == 0 and [l.split('\t')[0] for l in out.split('\n')
                              if l.startswith('c')] == ['c1', 'c3'],
                 '--shard 1/2 takes every other channel from the second: %s'
                 % out.split())
        rc, out = mc.run_tool(['--config', shard, '--shard', '2/2'])
        fx.check(rc == 2 and '--shard' in out, '--shard 2/2 refused: %s' %
                 out.strip())
        rc, out = mc.run_tool(['--webhook', 'ftp://x/', tiny])
        fx.check(rc == 2 and '--webhook' in out, 'a webhook that is not '
                 'HTTP: refused: %s' % out.strip())
        rc, out = mc.run_tool(['--alertmanager', 'alertmanager:9093', tiny])
        fx.check(rc == 2 and '--alertmanager' in out and 'http://' in out,
                 'an Alertmanager address without a scheme: refused: %s' %
                 out.strip())
        rc, out = mc.run_tool(['--listen', 'nowhere', tiny])
        fx.check(rc == 0, '--check-config does not open the server')

        token = 'sekrit-token-0123456789'
        tok = os.path.join(procs.tmp, 'token')
        with open(tok, 'w') as f:
            f.write(token + '\n')
        mon = mc.start_monitor(procs, ['--api-token-file', tok, '--loop',
                                       tiny])
        port = mon.port
        auth = {'Authorization': 'Bearer ' + token,
                'Content-Type': 'application/json'}

        # Oversized headers, bodies; bad JSON; tokens.
        line = raw(port, b'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ' +
                   b'a' * 40000 + b'\r\n\r\n')
        fx.check(line == '' or ' 4' in line, 'a 40 KB header: refused (%r)'
                 % line)
        line = raw(port, b'POST /api/channels HTTP/1.1\r\nHost: 127.0.0.1\r\n'
                   b'Authorization: Bearer ' + token.encode() +
                   b'\r\nContent-Length: 10000000\r\n\r\n' + b'{' * 1000,
                   half_close=False)
        fx.check(' 413' in line, 'a 10 MB body: 413 before it is read (%r)'
                 % line)
        st, _ = mc.get(mon, '/api/channels', method='POST', data=b'{"uri":',
                       headers=auth)
        fx.check(st == 400, 'bad JSON: 400 (%d)' % st)
        st, _ = mc.get(mon, '/api/channels', method='POST', data=b'[1,2]',
                       headers=auth)
        fx.check(st == 400, 'JSON not an object: 400 (%d)' % st)
        body = json.dumps({'uri': 'file://' + tiny, 'name': 'x'}).encode()
        st, _ = mc.get(mon, '/api/channels', method='POST', data=body,
                       headers={'Authorization': 'Bearer wrong-token-00000',
                                'Content-Type': 'application/json'})
        fx.check(st == 401, 'wrong token: 401 (%d)' % st)
        st, _ = mc.get(mon, '/api/channels', method='POST', data=body)
        fx.check(st == 401, 'no token: 401 (%d)' % st)
        st, _ = mc.get(mon, '/api/channels/tiny.ts', method='DELETE')
        fx.check(st == 401, 'DELETE without token: 401 (%d)' % st)
        frag = json.dumps({'uri': 'file://' + tiny, 'name': 'y',
                           'source': 'videotestsrc'}).encode()
        st, b = mc.get(mon, '/api/channels', method='POST', data=frag,
                       headers=auth)
        fx.check(st == 400 and b'source' in b, 'a pipeline fragment over '
                 'HTTP: 400 (%d %s)' % (st, b[:100]))
        for uri in ('gopher://x/', 'videotestsrc ! fakesink', '/etc/passwd'):
            st, _ = mc.get(mon, '/api/channels', method='POST', headers=auth,
                           data=json.dumps({'uri': uri}).encode())
            fx.check(st == 400, 'URI %r refused: 400 (%d)' % (uri, st))

        # Paths never reach the file system.
        for path in ('/../../../etc/passwd', '/api/../../etc/passwd',
                     '/api/channels/..%2F..%2Fetc%2Fpasswd',
                     '/api/channels/%2e%2e/thumbnail.jpg',
                     '/api/events/../../etc/passwd', '/monitor-page.html',
                     '/api/events/1/../../../etc/shadow'):
            st, b = mc.get(mon, path)
            fx.check(st in (400, 404) and b'root:' not in b,
                     'GET %s: %d' % (path, st))
        line = raw(port, b'GET ../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
        fx.check(line == '' or ' 4' in line, 'a request-target without a '
                 'slash: refused (%r)' % line)

        # Markup in a channel name is escaped everywhere.
        evil = '<img src=x onerror=alert(1)>"\\'
        st, b = mc.get(mon, '/api/channels', method='POST', headers=auth,
                       data=json.dumps({'uri': 'file://' + tiny,
                                        'name': evil}).encode())
        fx.check(st == 201, 'a channel with markup in its name: 201 (%d %s)'
                 % (st, b[:200]))
        st, b = mc.get(mon, '/api/channels')
        fx.check(b'<img' not in b and json.loads(b)[-1]['name'] == evil,
                 'the API escapes it (\\u003c) and JSON gives it back')
        bad = list(number_forms(json.loads(b, parse_float=Decimal)))
        fx.check(b.endswith(b'\n') and b.count(b'\n') == 1 and not bad,
                 'the API answers one line, measurements to 10 digits, '
                 'wall-clock times to the millisecond (%s)' % bad[:3])
        st, m = mc.get(mon, '/metrics')
        fx.check(b'channel="<img src=x onerror=alert(1)>\\"\\\\"' in m,
                 '/metrics escapes its label value')
        st, _ = mc.get(mon, '/api/channels', method='POST', headers=auth,
                       data=json.dumps({'uri': 'file://' + tiny,
                                        'name': evil}).encode())
        fx.check(st == 409, 'the same name again: 409 (%d)' % st)
        st, _ = mc.get(mon, '/api/alarms/tiny.ts/blur/ack', method='POST',
                       headers=auth)
        fx.check(st == 409, 'ack of an alarm that is not on: 409 (%d)' % st)
        st, _ = mc.get(mon, '/api/alarms/tiny.ts/nosuch/ack', method='POST',
                       headers=auth)
        fx.check(st == 404, 'ack of an unknown kind: 404 (%d)' % st)
        st, _ = mc.get(mon, '/api/channels/' + mc.urllib.request.quote(
            evil, safe=''), method='DELETE', headers=auth)
        fx.check(st == 204, 'DELETE with the token: 204 (%d)' % st)
        st, b = mc.get(mon, '/api/events?since=abc')
        fx.check(st == 400 and 'an event id' in json.loads(b)['error'],
                 'since=abc: 400, {"error": ...} (%d %s)' % (st, b[:100]))

        mc.check_still_scoring(fx, mon, 'the monitor runs, its channel '
                               'scores')
    fx.finish()


if __name__ == '__main__':
    main()
