#!/usr/bin/python3
# sharpness-scan reading a FIFO ends on SIGINT and SIGTERM (issue 29: a
# FIFO input ignored SIGTERM: open () waited for a writer in the main
# loop, and a read () without data held the pipeline's stop).  A finished
# file, then a FIFO with no writer (SIGTERM, then SIGINT), or with a slow
# writer (an MPEG-TS 2 kB every 0.2 s, or 8 kB every 10 s; SIGTERM): the
# scan exits within STOP_S seconds with 143 or 130, and its JSON, CSV and report are
# complete, the finished file whole and the FIFO input interrupted.  A
# FIFO with a writer that writes the whole clip scans it to the end.
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
import select  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import scan_common as sc  # noqa: E402

# How long the scan may take to end after the signal ("a second or two",
# with room for a loaded machine).
STOP_S = 3.0
# Each check printed as made, the failed ones counted.
check = scaffold.Checks()


class Writer(threading.Thread):
    """Writes @data into @fifo, @chunk bytes every @pause s, until done or
    stopped."""

    def __init__(self, fifo, data, chunk, pause):
        super().__init__(daemon=True)
        self.fifo, self.data, self.chunk, self.pause = fifo, data, chunk, pause
        self.stopping = threading.Event()

    def run(self):
        try:
            with open(self.fifo, 'wb', buffering=0) as f:
                for i in range(0, len(self.data), self.chunk):
                    if self.stopping.is_set():
                        return
                    f.write(self.data[i:i + self.chunk])
                    self.stopping.wait(self.pause)
        except OSError:
            pass        # the reader went away

    def stop(self):
        self.stopping.set()
        if self.is_alive():
            # Still waiting for a reader: be one, so that open () returns.
            fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
            self.join(timeout=10)
            os.close(fd)
        self.join(timeout=10)


def wait_line(proc, timeout):
    """The first line of @proc's stdout, or None after @timeout s."""
    end, buf = time.monotonic() + timeout, b''
    while time.monotonic() < end and b'\n' not in buf:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            data = os.read(proc.stdout.fileno(), 4096)
            if not data:
                break
            buf += data
    return buf.decode(errors='replace') if b'\n' in buf else None


def check_outputs(what, out, clip, fifo, validator):
    doc = sc.load_valid_json(out['json'], validator)
    check(doc is not None, '%s: the JSON is complete and valid' % what)
    if doc:
        files = {f['input']: f for f in doc['files']}
        check(files[clip]['summary']['frames'] == 75 and
              not files[clip]['interrupted'],
              '%s: the finished file is whole in the JSON' % what)
        check(files[fifo]['interrupted'] and
              files[fifo]['stopped_by'] == 'signal',
              '%s: the FIFO input is marked interrupted' % what)
    with open(out['csv'], newline='') as fh:
        rows = list(csv.reader(fh))
    check(sum(1 for r in rows[1:] if r[0] == clip) == 75,
          '%s: the CSV has the finished file\'s 75 rows' % what)
    with open(out['html'], encoding='utf-8') as fh:
        check(fh.read().rstrip().endswith('</html>'),
              '%s: the report is complete' % what)


def interrupt(tmp, clip, ts, sig, writer_chunk, validator, pause=10.0):
    name = signal.Signals(sig).name
    what = '%s, %s' % (name, 'a writer of %d bytes every %g s' % (
        writer_chunk, pause) if writer_chunk else 'no writer')
    fifo = os.path.join(tmp, 'in-%s-%d-%g.fifo' % (name, writer_chunk,
                                                  pause))
    os.mkfifo(fifo)
    out = {k: os.path.join(tmp, 'out.' + k) for k in ('json', 'csv', 'html')}
    writer = None
    if writer_chunk:
        with open(ts, 'rb') as f:
            writer = Writer(fifo, f.read(), writer_chunk, pause)
        writer.start()
    proc = subprocess.Popen([sc.TOOL, '--json', out['json'], '--csv',
                             out['csv'], '--report', out['html'], '--jobs',
                             '2', clip, fifo], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        line = wait_line(proc, 30)
        check(line is not None and line.startswith(clip + ': 75 frames'),
              '%s: the finished file scanned first (%r)' % (what, line))
        # The FIFO's pipeline is under way (waiting, or reading slowly).
        time.sleep(1.5)
        t0 = time.monotonic()
        proc.send_signal(sig)
        try:
            rc = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            rc = None
        took = time.monotonic() - t0
        check(rc == 128 + sig and took < STOP_S,
              '%s: exit %s in %.1f s (want %d within %g s)' % (
                  what, rc, took, 128 + sig, STOP_S))
        if rc is not None:
            check_outputs(what, out, clip, fifo, validator)
    finally:
        sc.stop(proc)
        proc.stdout.close()
        proc.stderr.close()
        if writer:
            writer.stop()


def whole(tmp, ts):
    fifo = os.path.join(tmp, 'whole.fifo')
    os.mkfifo(fifo)
    with open(ts, 'rb') as f:
        writer = Writer(fifo, f.read(), 1 << 20, 0)
    writer.start()
    try:
        rc, out, err = sc.run('--quiet', '--json', os.path.join(
            tmp, 'whole.json'), fifo, timeout=120)
    finally:
        writer.stop()
    doc = sc.load_json(os.path.join(tmp, 'whole.json'))
    check(rc == 0 and doc['files'][0]['summary']['frames'] == 75,
          'a FIFO with a writer: all 75 frames (exit %d, %s)' % (rc, err))


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'fdsrc', 'tsdemux')
    validator = sc.validator()
    clip = sc.small_clip()
    ts = sc.ffmpeg_clip('small.ts', ['-i', clip, '-c', 'copy'])
    with tempfile.TemporaryDirectory(prefix='scan-fifo-',
                                     ignore_cleanup_errors=True) as tmp:
        interrupt(tmp, clip, ts, signal.SIGTERM, 0, validator)
        interrupt(tmp, clip, ts, signal.SIGINT, 0, validator)
        interrupt(tmp, clip, ts, signal.SIGTERM, 2000, validator, 0.2)
        interrupt(tmp, clip, ts, signal.SIGTERM, 8000, validator, 10.0)
        whole(tmp, ts)
    check.finish('FIFO inputs')


if __name__ == '__main__':
    main()
