#!/usr/bin/python3
# No indicator on a clean stream over 10 minutes of TS (issue 32): FFmpeg
# encodes 10 minutes of 160x90 H.264 at 25 fps and AAC into a
# constant-rate TS (1 Mbit/s) with its PCR every 20 ms, PAT and PMT every
# 100 ms, SDT every 500 ms (TR 101 290's limits: 40 ms, 500 ms);
# ts-scte35-tool declares a SCTE 35 PID in its PMT and writes the SCTE 35
# test stream's cues, without the bad CRC_32, every 10 s; the analyser
# reads the file at file speed (times from its PCRs): every one of TR 101
# 290's 13 indicators 0 (the SCTE 35 PID, silent for 2 s at a time, no
# PID_error), no SCTE 35 section refused, each command counted 60 times
# per cue of the pattern.  The CPU time of the encoding and of the
# analysis is printed.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

SECONDS = 600
PERIOD = 10
INDICATORS = ['TS_sync_loss', 'Sync_byte_error', 'PAT_error_2',
              'Continuity_count_error', 'PMT_error_2', 'PID_error',
              'Transport_error', 'CRC_error', 'PCR_repetition_error',
              'PCR_discontinuity_indicator_error', 'PCR_accuracy_error',
              'PTS_error', 'CAT_error']
# The pattern (scte35-stream.c, the bad section good): per period.
PER_PERIOD = {'time_signal': 2, 'splice_insert': 4, 'splice_null': 1,
              'splice_schedule': 1}


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    tool = os.environ.get('TS_SCTE35_TOOL')
    if not shutil.which('ffmpeg') or not tool:
        print('skip: ffmpeg or TS_SCTE35_TOOL missing')
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix='clean-ts-')
    failures = 0
    try:
        src = os.path.join(tmp, 'clean.ts')
        ts = os.path.join(tmp, 'cues.ts')
        t0, c0 = time.monotonic(), children_cpu()
        subprocess.run([
            'ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i',
            'testsrc2=s=160x90:r=25:d=%d' % SECONDS, '-f', 'lavfi', '-i',
            'sine=f=440:d=%d' % SECONDS, '-c:v', 'libx264', '-preset',
            'veryfast', '-g', '25', '-b:v', '300k', '-pix_fmt', 'yuv420p',
            '-c:a', 'aac', '-b:a', '64k', '-threads', '1', '-f', 'mpegts',
            '-muxrate', '1000000', '-pcr_period', '20', '-pat_period', '0.1',
            '-sdt_period', '0.5', src], check=True, timeout=600)
        t1, c1 = time.monotonic(), children_cpu()
        subprocess.run([tool, 'inject', '--no-bad-crc', src, ts,
                        str(PERIOD)], check=True, timeout=120)
        r = subprocess.run([tool, 'analyse', ts], check=True,
                           capture_output=True, text=True, timeout=120)
        t2, c2 = time.monotonic(), children_cpu()
        got = dict((w[0], float(w[1])) for w in (ln.split() for ln in
                                                 r.stdout.splitlines())
                   if len(w) == 2)
        periods = SECONDS // PERIOD
        checks = [(k, got.get(k), 0) for k in INDICATORS]
        checks += [(k, got.get(k), 0) for k in ('crc_error', 'malformed',
                                                'encrypted', 'reserved')]
        checks += [(k, got.get(k), n * periods)
                   for k, n in PER_PERIOD.items()]
        for name, v, want in checks:
            ok = v == want
            failures += not ok
            print('%s %s %s (want %d)' % ('ok  ' if ok else 'FAIL', name, v,
                                          want))
        print('FFmpeg: %.1f s CPU (%.1f s wall); injection and analysis of '
              '%d MB: %.1f s CPU (%.1f s wall), the analyser alone %.2f s' % (
                  c1 - c0, t1 - t0, os.path.getsize(ts) // 1000000, c2 - c1,
                  t2 - t1, got.get('cpu', -1)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('%d checks failed' % failures if failures else 'all checks passed')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
