#!/usr/bin/python3
# The loudness library (through tests/loudness/loudness-tool) against
# FFmpeg's ebur128 filter (peak=true, metadata=1: every 100 ms, three
# decimals) on programme-like material that FFmpeg synthesises here: 90 s
# of stereo at 48 kHz, speech-like pink noise with a syllabic envelope,
# a near-silent pause (the gates), percussive chords, then louder music and
# noise; the two channels differ.  Both read the same 32-bit float file.
# Asserts: momentary (from 0.4 s on) and short-term (from 3 s on) within
# 0.1 LU at every 100 ms step where the signal is above -70 LUFS; the
# integrated loudness and the loudness range within 0.1 LU; the true peak
# within Tech 3341's true-peak tolerance of each other (0.4 dB: the two
# oversample with different filters).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

TOOL = os.environ.get('LOUDNESS_TOOL', '')
RATE = 48000
SECONDS = 90

PINK = 'anoisesrc=color=pink:amplitude=0.5:seed=%d:r=48000:d=%d'
# Chords changing every 2 s, struck every 0.5 s (decaying), per channel.
CHORDS = ("aevalsrc=exprs='0.25*(sin(2*PI*(220+55*floor(mod(t,8)/2))*t)"
          "+0.5*sin(2*PI*(330+55*floor(mod(t,8)/2))*t)+0.3*sin(2*PI*440*t))"
          "*exp(-4*mod(t,0.5))|0.25*(sin(2*PI*(220+55*floor(mod(t,8)/2))*t"
          "+1)+0.5*sin(2*PI*(277+55*floor(mod(t,8)/2))*t)+0.3*sin(2*PI*660"
          "*t))*exp(-3*mod(t+0.25,0.5))':s=48000:d=%d" % SECONDS)
# Speech-like noise (0-20 s), a pause at about -60 dBFS (20-25 s), quiet
# noise under the music (25-60 s), loud noise with the music (60-90 s).
NOISE_LEVEL = ("if(lt(t,20),0.15*pow(abs(sin(2*PI*2.5*t)),1.5)*(0.6+0.4*"
               "sin(2*PI*0.1*t)),if(lt(t,25),0.0005,if(lt(t,60),0.02,0.2*"
               "(0.5+0.5*abs(sin(2*PI*0.7*t))))))")
MUSIC_LEVEL = "if(lt(t,25),0,if(lt(t,60),0.5+0.4*sin(2*PI*0.05*t),1.2))"


def make_programme(path):
    graph = ('[0][1]amerge=inputs=2,volume=eval=frame:volume=\'%s\'[n];'
             '[2]volume=eval=frame:volume=\'%s\'[m];[n][m]amix=inputs=2:'
             'normalize=0,aformat=sample_fmts=flt:channel_layouts=stereo' %
             (NOISE_LEVEL, MUSIC_LEVEL))
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y',
                    '-f', 'lavfi', '-i', PINK % (1, SECONDS),
                    '-f', 'lavfi', '-i', PINK % (2, SECONDS),
                    '-f', 'lavfi', '-i', CHORDS,
                    '-filter_complex', graph, '-f', 'f32le', '-ar',
                    str(RATE), '-ac', '2', path], check=True, timeout=300)


def ffmpeg_readings(path, tmp):
    """{frame: {key: value}} of ebur128's metadata: frame k carries what
    was measured after the samples up to (k + 1) x 100 ms."""
    meta = os.path.join(tmp, 'meta.txt')
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-f', 'f32le',
                    '-ar', str(RATE), '-ac', '2', '-i', path, '-af',
                    'ebur128=peak=true:metadata=1,ametadata=mode=print:'
                    'file=' + meta, '-f', 'null', '-'], check=True,
                   timeout=300)
    frames, cur = {}, None
    with open(meta) as f:
        for ln in f:
            m = re.match(r'frame:(\d+)', ln)
            if m:
                cur = frames.setdefault(int(m.group(1)), {})
            elif '=' in ln:
                k, v = ln.strip().split('=', 1)
                cur[k] = float(v)
    return frames


def tool_readings(path):
    out = subprocess.run([TOOL, path, '2', str(RATE)], check=True,
                         capture_output=True, text=True,
                         timeout=300).stdout.split('\n')
    lines = [ln.split() for ln in out if ln.strip()]
    steps = {int(s): (float(m), float(st)) for s, m, st in lines[:-1]}
    i, lra, tp = (float(v) for v in lines[-1])
    return steps, i, lra, tp


def main():
    if not TOOL or not os.path.exists(TOOL):
        scaffold.skip('loudness-tool not built (libebur128-dev missing)')
    scaffold.require_programs('ffmpeg')
    check = scaffold.Checks()
    with tempfile.TemporaryDirectory(prefix='loudness-ffmpeg-') as tmp:
        path = os.path.join(tmp, 'programme.f32')
        make_programme(path)
        ff = ffmpeg_readings(path, tmp)
        steps, i, lra, tp = tool_readings(path)
        check(len(steps) == SECONDS * 10 and len(ff) == SECONDS * 10,
              '%d steps of 100 ms, FFmpeg %d' % (len(steps), len(ff)))
        worst = {'M': (0, None), 'S': (0, None)}
        n = {'M': 0, 'S': 0}
        for k, d in ff.items():
            if k + 1 not in steps:
                continue
            for key, idx, first in (('M', 0, 3), ('S', 1, 29)):
                ours = steps[k + 1][idx]
                if k < first or ours <= -70:
                    continue
                n[key] += 1
                diff = abs(ours - d['lavfi.r128.' + key])
                if diff > worst[key][0]:
                    worst[key] = (diff, (k + 1) / 10)
        for key, name in (('M', 'momentary'), ('S', 'short-term')):
            check(n[key] > 500 and worst[key][0] <= 0.1, '%s: %d steps, the '
                  'largest difference %.4f LU (at %s s)' % (
                      name, n[key], worst[key][0], worst[key][1]))
        last = ff[max(ff)]
        check(abs(i - last['lavfi.r128.I']) <= 0.1, 'integrated: %.3f, '
              'FFmpeg %.3f LUFS' % (i, last['lavfi.r128.I']))
        check(abs(lra - last['lavfi.r128.LRA']) <= 0.1, 'loudness range: '
              '%.3f, FFmpeg %.3f LU' % (lra, last['lavfi.r128.LRA']))
        ftp = 20 * math.log10(last['lavfi.r128.true_peak'])
        check(abs(tp - ftp) <= 0.4, 'true peak: %.3f, FFmpeg %.3f dBTP' % (
            tp, ftp))
    check.finish()


if __name__ == '__main__':
    main()
