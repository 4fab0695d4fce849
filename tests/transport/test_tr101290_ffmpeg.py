#!/usr/bin/python3
# Continuity_count_error (TR 101 290 1.4) of the analyser against FFmpeg's
# mpegts demuxer, which logs "Continuity check failed for pid P expected E
# got G" at log level debug, on the same files of the test writer
# (ts-fault-tool write): every PID's count equal on a minute of random
# losses (1 packet in 300, every PID), and on each single fault.  And a
# stream of FFmpeg's own muxer (H.264, AAC, -muxrate 4M) raises no
# indicator, at its rate.
#
# FFmpeg is read from a pipe: on a file it also reads the file's end to
# estimate the duration and reads the start again after probing, and logs
# those packets' failures twice.  Where they differ by definition, the
# difference is asserted: TR 101 290 allows a packet to be sent twice ("a
# packet occurs more than twice" is the error), FFmpeg's check counts
# every repeat.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import collections
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

TOOL = os.environ.get('TS_FAULT_TOOL', '')
CC = 'Continuity_count_error'

# Fault -> (the analyser's count, FFmpeg's count) on the whole file.
SINGLE = {
    'none': (0, 0),
    'drop': (1, 1),
    'duplicate': (0, 1),      # one repeat: allowed by TR 101 290
    'triplicate': (1, 2),     # the third occurrence: an error
    'sync-byte': (1, 1),      # the slot is skipped by both
    'tei': (0, 0),
    'pcr-jump-flagged': (0, 0),   # discontinuity_indicator: no check
    'no-pat': (0, 0),
}


def analyser(path):
    out = subprocess.run([TOOL, 'analyse', path], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    counts = {}
    for ln in out.splitlines():
        name, n = ln.split()
        counts[name] = float(n) if name == 'bitrate' else int(n)
    per_pid = {int(k.split('/')[1]): v for k, v in counts.items()
               if k.startswith(CC + '/')}
    return counts, per_pid


def ffmpeg(path):
    with open(path, 'rb') as f:
        log = subprocess.run(['ffmpeg', '-nostdin', '-hide_banner', '-v',
                              'debug', '-f', 'mpegts', '-i', 'pipe:0',
                              '-map', '0', '-c', 'copy', '-f', 'null', '-'],
                             stdin=f, capture_output=True, text=True,
                             timeout=300).stderr
    per_pid = collections.Counter(
        int(m.group(1)) for m in re.finditer(
            r'Continuity check failed for pid (\d+) expected', log))
    return dict(per_pid)


def main():
    if not TOOL or not os.path.exists(TOOL):
        scaffold.skip('ts-fault-tool not built')
    scaffold.require_programs('ffmpeg')
    check = scaffold.Checks()
    with tempfile.TemporaryDirectory(prefix='tr101290-ffmpeg-') as tmp:
        path = os.path.join(tmp, 'random-drops.ts')
        subprocess.run([TOOL, 'write', 'random-drops', '60', '2000000',
                        path], check=True, timeout=120)
        counts, ours = analyser(path)
        theirs = ffmpeg(path)
        check(sum(theirs.values()) >= 100, 'random losses: FFmpeg found %d '
              'continuity failures' % sum(theirs.values()))
        check(ours == theirs, 'random losses: per PID, the analyser %r, '
              'FFmpeg %r' % (sorted(ours.items()), sorted(theirs.items())))
        check(counts[CC] == sum(ours.values()), 'the total is the PIDs\' '
              'sum')
        # A stream of FFmpeg's own muxer (H.264 and AAC, constant 4 Mbit/s):
        # no indicator, and its rate.
        path = os.path.join(tmp, 'ffmpeg-muxed.ts')
        subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f',
                        'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=20', '-f',
                        'lavfi', '-i', 'sine=f=440:d=20', '-c:v', 'libx264',
                        '-preset', 'veryfast', '-b:v', '2M', '-maxrate', '2M',
                        '-bufsize', '1M', '-threads', '1', '-c:a', 'aac',
                        '-muxrate', '4M', '-f', 'mpegts', path], check=True,
                       timeout=300)
        counts, _ = analyser(path)
        raised = {k: v for k, v in counts.items()
                  if k != 'bitrate' and '/' not in k and v}
        check(not raised, "FFmpeg's muxer, 20 s: no indicator (%r)" % raised)
        check(abs(counts['bitrate'] - 4e6) <= 0.01 * 4e6, "FFmpeg's muxer: "
              '%.0f bit/s (-muxrate 4M)' % counts['bitrate'])
        for fault, (want_ours, want_theirs) in SINGLE.items():
            path = os.path.join(tmp, fault + '.ts')
            subprocess.run([TOOL, 'write', fault, '10', '2000000', path],
                           check=True, timeout=120)
            counts, _ = analyser(path)
            theirs = sum(ffmpeg(path).values())
            check((counts[CC], theirs) == (want_ours, want_theirs),
                  '%s: the analyser %d (expected %d), FFmpeg %d (expected '
                  '%d)' % (fault, counts[CC], want_ours, theirs,
                           want_theirs))
    check.finish()


if __name__ == '__main__':
    main()
