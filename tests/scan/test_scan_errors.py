#!/usr/bin/python3
# sharpness-scan's errors say what went wrong, at once:
# - an MP4 cut before its `moov` (a demuxer that fails while decodebin is
#   still plugging it in), scanned beside another file: "no playable
#   streams" within seconds, every time (it used to hang until the
#   watchdog said "stalled", in some of the runs);
# - a refused HTTP connection (a closed port of 127.0.0.1): "connection
#   refused", not "Internal data stream error";
# - an HTTP 404 from a server of the test's on 127.0.0.1: the server's
#   answer;
# - text files: "not a video file".
# The JSON of the failed inputs is valid against the schema.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('jsonschema')

import http.server  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import scan_common as sc  # noqa: E402

RUNS = 10
# "Promptly": far more than a healthy run takes, far less than the
# watchdog's stall time.
PROMPT_S = 15
# Each check printed as made, the failed ones counted.
check = scaffold.Checks()


def error_line(err, path):
    lines = [ln for ln in err.splitlines() if path in ln and 'error' in ln]
    return lines[0] if len(lines) == 1 else repr(lines)


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'qtdemux')
    clip = sc.small_clip()
    tmp = tempfile.mkdtemp(prefix='scan-errors-')

    # Without faststart the index (moov) is at the end: cut it off.
    whole = sc.ffmpeg_clip('moov-at-end.mp4', [
        '-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=3', '-c:v', 'libx264',
        '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-threads', '1'])
    nomoov = os.path.join(tmp, 'nomoov.mp4')
    with open(whole, 'rb') as f:
        data = f.read()
    with open(nomoov, 'wb') as f:
        f.write(data[:len(data) * 3 // 5])
    for i in range(RUNS):
        t0 = time.monotonic()
        try:
            rc, _, err = sc.run('-q', '--jobs', '2', clip, nomoov, clip,
                                timeout=PROMPT_S)
        except subprocess.TimeoutExpired:
            rc, err = None, 'no answer in %d s' % PROMPT_S
        line = error_line(err, nomoov)
        check(rc == 2 and 'no playable streams' in line and
              time.monotonic() - t0 < PROMPT_S,
              'MP4 without moov, run %d: exit %s in %.1f s: %s' % (
                  i + 1, rc, time.monotonic() - t0, line))
        if check.failures:
            break

    text = os.path.join(tmp, 'notes.mp4')
    with open(text, 'w') as f:
        f.write('this is not a video\n' * 100)
    short = os.path.join(tmp, 'short.txt')
    with open(short, 'w') as f:
        f.write('hello\n')
    j = os.path.join(tmp, 'o.json')
    rc, _, err = sc.run('--json', j, text, short, nomoov, timeout=60)
    for path in (text, short):
        line = error_line(err, path)
        check('not a video file' in line, 'text file %s: %s' % (
            os.path.basename(path), line))
    doc = sc.load_json(j)
    errors = [e.message for e in sc.validator().iter_errors(doc)]
    check(not errors and all(f['error'] for f in doc['files']),
          'JSON valid, an error per input: %s' % errors[:3])

    if not sc.have_element('souphttpsrc'):
        print('HTTP cases left out: GStreamer element souphttpsrc missing')
    else:
        port = sc.free_port(socket.SOCK_STREAM)
        uri = 'http://127.0.0.1:%d/clip.mp4' % port
        rc, _, err = sc.run(uri, timeout=60)
        line = error_line(err, uri)
        check(rc == 2 and 'connection refused' in line,
              'refused HTTP connection: %s' % line)

        handler = lambda *a: Quiet(*a, directory=tmp)  # noqa: E731
        server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            uri = 'http://127.0.0.1:%d/missing.mp4' % server.server_port
            rc, _, err = sc.run(uri, timeout=60)
            line = error_line(err, uri)
            check(rc == 2 and 'not found' in line.lower() and '404' in line,
                  'HTTP 404: %s' % line)
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=10)

    shutil.rmtree(tmp, ignore_errors=True)
    check.finish('errors')


if __name__ == '__main__':
    main()
