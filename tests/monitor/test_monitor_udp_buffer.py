#!/usr/bin/python3
# sharpness-monitor's UDP receive buffers (--udp-buffer-size), read from
# udpsrc's own debug log:
# - a udp:// channel's socket asks for the size given (root gets it; other
#   users get net.core.rmem_max, and the monitor says so once at start);
# - 0 leaves the system's default (udpsrc sets nothing);
# - a source fragment's own buffer-size is kept.
# Everything on 127.0.0.1.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import socket
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))

import monitor_common as mc  # noqa: E402

SIZE = 1048576


def start(procs, args, name):
    """A monitor with udpsrc's INFO log in its log file; waits for its
    HTTP server."""
    port = mc.free_port()
    env = dict(os.environ, GST_DEBUG='*:1,udpsrc:4', GST_DEBUG_NO_COLOR='1')
    p = procs.start([mc.TOOL, '--cpu', '--listen', '%s:%d' % (mc.HOST, port)]
                    + [str(a) for a in args], name, env=env)
    p.port = port
    mc.wait_http(p, '/healthz', 30)
    return p


def udpsrc_lines(p):
    """udpsrc's buffer lines once its socket is open ("have udp buffer"),
    within 20 s."""
    def opened():
        with open(p.log_path, errors='replace') as f:
            return 'have udp buffer of' in f.read()
    mc.wait_until('%s: the UDP socket open' % p.name, opened, 20)
    with open(p.log_path, errors='replace') as f:
        return [ln for ln in f if 'udp buffer' in ln]


def rmem_max():
    with open('/proc/sys/net/core/rmem_max') as f:
        return int(f.read())


def main():
    fx = mc.Failures()
    with mc.Procs() as procs:
        port = mc.free_port(socket.SOCK_DGRAM)
        p = start(procs, ['--udp-buffer-size', SIZE,
                          'udp://%s:%d' % (mc.HOST, port)], 'sized')
        lines = udpsrc_lines(p)
        asked = [int(m.group(1)) for ln in lines
                 for m in [re.search(r'setting udp buffer of (\d+)', ln)]
                 if m]
        have = [int(m.group(1)) for ln in lines
                for m in [re.search(r'have udp buffer of (\d+)', ln)] if m]
        fx.check(asked == [SIZE], '--udp-buffer-size %d: udpsrc asks for '
                 'it (%r)' % (SIZE, asked))
        # The kernel doubles what it grants (bookkeeping overhead).
        if os.geteuid() == 0 or rmem_max() >= SIZE:
            fx.check(have and have[0] >= SIZE, 'the socket has it: %r' %
                     have)
        else:
            with open(p.log_path, errors='replace') as f:
                note = [ln for ln in f if 'net.core.rmem_max' in ln and
                        'sharpness-monitor:' in ln]
            fx.check(len(note) == 1, 'not root, rmem_max %d < %d: said '
                     'once (%r)' % (rmem_max(), SIZE, note))

        port = mc.free_port(socket.SOCK_DGRAM)
        p = start(procs, ['--udp-buffer-size', 0,
                          'udp://%s:%d' % (mc.HOST, port)], 'default')
        lines = udpsrc_lines(p)
        fx.check(not any('setting udp buffer' in ln for ln in lines),
                 '--udp-buffer-size 0: the system default (%r)' % lines)

        port = mc.free_port(socket.SOCK_DGRAM)
        cfg = mc.write_config(procs, [{
            'name': 'fragment',
            'source': 'udpsrc address=%s port=%d buffer-size=300000 '
                      'caps=video/mpegts,systemstream=true' % (mc.HOST,
                                                               port)}])
        p = start(procs, ['--config', cfg], 'fragment')
        lines = udpsrc_lines(p)
        fx.check(any('setting udp buffer of 300000' in ln for ln in lines),
                 "a source fragment's buffer-size is kept (%r)" % lines)
    fx.finish()


if __name__ == '__main__':
    main()
