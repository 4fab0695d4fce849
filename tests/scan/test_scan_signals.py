#!/usr/bin/python3
# sharpness-scan on SIGINT and SIGTERM (Ctrl-C, a batch system's time
# limit): with two finished files and a live input that never ends (a UDP
# port of 127.0.0.1 nobody sends to), the signal ends the scan with status
# 130 (SIGINT) or 143 (SIGTERM), and the JSON, CSV and HTML outputs are
# complete: they parse, hold both finished files whole and the live one
# marked interrupted.  While the scan runs, the outputs given are still the
# files that were there before (written beside, renamed when complete).  A
# second signal exits at once and leaves no temporary file.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('jsonschema')

import csv  # noqa: E402
import json  # noqa: E402
import select  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from html.parser import HTMLParser  # noqa: E402

import scan_common as sc  # noqa: E402

OLD = 'the output from before the scan\n'
# Each check printed as made, the failed ones counted.
check = scaffold.Checks()


def read_lines(proc, want, timeout):
    """Lines of @proc's stdout until @want of them came or @timeout s."""
    lines, buf = [], b''
    end = time.monotonic() + timeout
    while len(lines) < want and time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        data = os.read(proc.stdout.fileno(), 4096)
        if not data:
            break
        buf += data
        while b'\n' in buf:
            line, buf = buf.split(b'\n', 1)
            lines.append(line.decode())
    return lines


class Balance(HTMLParser):
    """Counts the sections, tables and SVGs opened and closed."""

    def __init__(self):
        super().__init__()
        self.depth = {'section': 0, 'table': 0, 'svg': 0, 'html': 0}
        self.opened = dict(self.depth)

    def handle_starttag(self, tag, attrs):
        if tag in self.depth:
            self.depth[tag] += 1
            self.opened[tag] += 1

    def handle_endtag(self, tag):
        if tag in self.depth:
            self.depth[tag] -= 1


def start(tmp, inputs, extra=()):
    paths = {k: os.path.join(tmp, 'out.' + k) for k in ('json', 'csv',
                                                         'html')}
    for p in paths.values():
        with open(p, 'w') as f:
            f.write(OLD)
    proc = subprocess.Popen([sc.TOOL, '--json', paths['json'], '--csv',
                             paths['csv'], '--report', paths['html'],
                             '--jobs', '2'] + list(extra) + inputs,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    return proc, paths


def check_outputs(name, paths, done, live, validator):
    doc = sc.load_valid_json(paths['json'], validator)
    check(doc is not None, '%s: the JSON parses and is valid' % name)
    if doc:
        files = {f['input']: f for f in doc['files']}
        check(doc['interrupted'] and doc['signal'] == name,
              '%s: the JSON says interrupted by %s' % (name, name))
        for path in done:
            f = files.get(path)
            check(f is not None and f['error'] is None and
                  not f['interrupted'] and f['stream']['frames'] == 75 and
                  f['summary']['frames'] == 75,
                  '%s: %s complete in the JSON' % (name, os.path.basename(
                      path)))
        f = files.get(live)
        check(f is not None and f['interrupted'] and
              f['stopped_by'] == 'signal',
              '%s: the live input marked interrupted' % name)
    with open(paths['csv'], newline='') as fh:
        text = fh.read()
    rows = list(csv.reader(text.splitlines()))
    check(text.endswith('\n') and rows and
          all(len(r) == len(rows[0]) for r in rows),
          '%s: the CSV is whole (every row complete)' % name)
    for path in done:
        mine = [r for r in rows[1:] if r[0] == path]
        check(len(mine) == 75, '%s: the CSV has the 75 rows of %s' % (
            name, os.path.basename(path)))
    with open(paths['html'], encoding='utf-8') as fh:
        html = fh.read()
    bal = Balance()
    bal.feed(html)
    check(html.rstrip().endswith('</html>') and
          all(v == 0 for v in bal.depth.values()) and bal.opened['svg'] >= 2,
          '%s: the HTML is whole (%r opened, %r left open)' % (
              name, bal.opened, bal.depth))
    check(all(p in html for p in done), '%s: the HTML has both files' % name)


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'udpsrc')
    validator = sc.validator()
    clip = sc.small_clip()
    tmp = tempfile.mkdtemp(prefix='scan-signals-')
    done = [clip, os.path.join(tmp, 'copy.mp4')]
    shutil.copy(clip, done[1])
    live = 'udp://127.0.0.1:%d' % sc.free_port()

    for sig, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
        name = signal.Signals(sig).name
        proc, paths = start(tmp, done + [live])
        try:
            lines = read_lines(proc, 2, 60)
            check(len(lines) == 2, '%s: both files scanned before the signal'
                  ' (%r)' % (name, lines))
            with open(paths['json']) as fh:
                check(fh.read() == OLD, '%s: while the scan runs, the JSON '
                      'given is the one from before' % name)
            proc.send_signal(sig)
            try:
                rc = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                rc = None
            err = proc.stderr.read().decode()
            check(rc == status, '%s: exit %s, want %d (%s)' % (name, rc,
                                                              status, err))
            check_outputs(name, paths, done, live, validator)
        finally:
            sc.stop(proc)

    # A second signal: out at once, no temporary file left, each output
    # either the one from before or a complete new one.
    proc, paths = start(tmp, done + [live], ['--quiet'])
    try:
        time.sleep(1.0)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        try:
            rc = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            rc = None
        check(rc == 130 and time.monotonic() - t0 < 10,
              'two SIGINTs: exit 130 at once (got %s)' % rc)
    finally:
        sc.stop(proc)
    left = [n for n in os.listdir(tmp) if n.endswith('.part')]
    check(not left, 'no temporary file left: %r' % left)
    with open(paths['json']) as fh:
        text = fh.read()
    try:
        whole = text == OLD or json.loads(text)['interrupted']
    except ValueError:
        whole = False
    check(whole, 'the JSON is the old one or a complete new one')

    shutil.rmtree(tmp, ignore_errors=True)
    check.finish('signals')


if __name__ == '__main__':
    main()
