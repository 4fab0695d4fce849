#!/usr/bin/python3
# Freeze detection on archive masters: v210 and ProRes 4:2:2 in .mov,
# through cudasharpness (backend=cpu), against FFmpeg's freezedetect on the
# same files (issue 29, item 10).
#
# FFmpeg decodes both to yuv422p10le before freezedetect; GStreamer hands
# the element v210 as stored (qtdemux) and ProRes as avdec_prores's
# I422_10LE (videoconvert passes it through).  Clips, made by FFmpeg
# itself: a moving test pattern, an exact freeze of 3 s, then the frozen
# picture with temporal noise of three strengths (MAFD about 0.0003 on
# every other frame, 0.003, 0.006).  Sizes: 718x480 and 1918x1080 (their
# last v210 group four pixels of six) and 722x486 (two of six) for v210,
# 718x480 and 1918x1080 for ProRes (-profile:v 2, lossy).  FFmpeg's 4:2:2
# encoders round an odd width down, so no clip has one: the unit tests
# (test-freeze-detector, test-cuda-content) take those.  Each clip runs
# with FFmpeg's defaults (n -60 dB, d 2 s) and with n at the median MAFD of
# the weakest noise and d 0.2 s, so that frames fall on both sides of the
# threshold and freezes start and end every few frames.
#
# Asserts: the element's freeze events are FFmpeg's, to the frame (every
# freeze_start, freeze_end and freeze_duration, as frame numbers and in
# microseconds); its per-frame freeze-mafd equals, to the bit, that of
# tests/analysis's black-freeze-tool on FFmpeg's own decode of the file to
# yuv422p10le (the tool is checked against FFmpeg and a numpy oracle by
# test_black_freeze_ffmpeg.py); and on v210, the tool's in-place v210 sum on
# the raw frames equals its yuv422p10le one (the tool stops otherwise).
#
# Needs ffmpeg (prores_ks, v210), gst-launch-1.0, qtdemux, avdec_prores;
# skips (77) without them.  No Python modules beyond the standard library.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
FPS = 25
TOOL = os.environ.get('BLACK_FREEZE_TOOL')
GST_LAUNCH = shutil.which('gst-launch-1.0')
FFMPEG = shutil.which('ffmpeg')

# (name, size, frames, codec arguments, element source after filesrc)
CLIPS = [
    ('v210-718x480', '718x480', 176, ['-c:v', 'v210'],
     'qtdemux ! queue'),
    ('v210-722x486', '722x486', 176, ['-c:v', 'v210'],
     'qtdemux ! queue'),
    ('v210-1918x1080', '1918x1080', 100, ['-c:v', 'v210'],
     'qtdemux ! queue'),
    ('prores422-718x480', '718x480', 176,
     ['-c:v', 'prores_ks', '-profile:v', '2'],
     'qtdemux ! avdec_prores ! videoconvert'),
    ('prores422-1918x1080', '1918x1080', 100,
     ['-c:v', 'prores_ks', '-profile:v', '2'],
     'qtdemux ! avdec_prores ! videoconvert'),
]


def make_clip(path, size, frames, codec):
    """FFmpeg's own clip: 26 moving frames, then frame 25 held (tpad) to
    the end; temporal noise on the held picture from 4/7 of the way, in
    three strengths."""
    a = frames * 100 // 176
    b = frames * 130 // 176
    c = frames * 150 // 176
    # The weakest noise on every other frame: clean and noisy frames
    # alternate, so that the reference (the last frame not frozen) flips
    # between the two and MAFDs keep landing around n.
    noise = ("noise=alls=1:allf=t:enable='between(n\\,%d\\,%d)*mod(n\\,2)',"
             "noise=alls=2:allf=t:enable='between(n\\,%d\\,%d)',"
             "noise=alls=3:allf=t:enable='between(n\\,%d\\,%d)'" % (
                 a, b - 1, b, c - 1, c, frames))
    src = ('testsrc2=size=%s:rate=%d,format=yuv422p,trim=end_frame=26,'
           'tpad=stop_mode=clone:stop=%d,%s,format=yuv422p10le' % (
               size, FPS, frames - 26, noise))
    subprocess.run([FFMPEG, '-nostdin', '-v', 'error', '-y', '-f', 'lavfi',
                    '-i', src, '-frames:v', str(frames)] + codec + [path],
                   check=True)


def ffmpeg_freezes(path, noise_db, d):
    """FFmpeg's freezedetect on @path: per frame number, the keys it set
    (metadata=print after it says which frame carries them)."""
    vf = 'freezedetect=n=%sdB:d=%s,metadata=mode=print' % (noise_db, d)
    res = subprocess.run([FFMPEG, '-nostdin', '-v', 'info', '-i', path,
                          '-vf', vf, '-f', 'null', '-'],
                         capture_output=True, text=True, check=True)
    events, frame = {}, None
    for line in res.stderr.splitlines():
        m = re.search(r'frame:(\d+)\s+pts:', line)
        if m:
            frame = int(m.group(1))
            continue
        m = re.search(r'lavfi\.freezedetect\.(freeze_\w+)=(\S+)', line)
        if m and frame is not None:
            events.setdefault(frame, {})[m.group(1)] = m.group(2)
    return events


def tool_mafds(raw, fmt, size, noise_db, d):
    """black-freeze-tool on FFmpeg's decode of the clip: per-frame MAFD
    (None for the first frame)."""
    w, h = size.split('x')
    res = subprocess.run([TOOL, '--format', fmt, '--width', w, '--height', h,
                          '--fps', '%d/1' % FPS,
                          '--freeze-n', '%sdB' % noise_db,
                          '--freeze-d', str(d), raw],
                         capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    return [r['mafd'] for r in rows if r['type'] == 'frame'], rows


def element_run(path, source, noise_db, d):
    """The element's per-frame freeze-mafd and its freeze events, from
    gst-launch-1.0 -m's printed messages."""
    desc = ('filesrc location="%s" ! %s ! cudasharpness name=s backend=cpu '
            'detect=freeze freeze-noise=%s freeze-min-duration=%d ! '
            'fakesink sync=false' % (path, source, noise_db,
                                     int(round(float(d) * 1e9))))
    res = subprocess.run([GST_LAUNCH, '-m'] + desc.split(' '),
                         capture_output=True, text=True, timeout=600)
    if res.returncode != 0:
        raise RuntimeError('%s: %s' % (desc, res.stderr[-2000:]))
    mafds, events = [], []
    for line in res.stdout.splitlines():
        m = re.search(r'\(element\): (sharpness[\w-]*), (.*)$', line)
        if not m:
            continue
        name, fields = m.group(1), m.group(2)
        if name == 'sharpness':
            v = re.search(r'freeze-mafd=\(double\)([-+0-9.eE]+|inf|nan)',
                          fields)
            mafds.append(float(v.group(1)) if v else None)
        elif name.startswith('sharpness-freeze-'):
            ev = {}
            for k in ('timestamp', 'start', 'end', 'duration', 'start-frame',
                      'end-frame'):
                v = re.search(r'(?:^|[ ,])%s=\(g?u?int64\)(\d+)' % k, fields)
                if v:
                    ev[k] = int(v.group(1))
            events.append((name, ev))
    return mafds, events


def frame_of_seconds(text):
    return int(round(float(text) * FPS))


def frame_of_ns(ns):
    return int(round(ns * FPS / 1e9))


class Checker:
    def __init__(self, name):
        self.name, self.checked, self.failures = name, 0, 0

    def eq(self, what, got, want):
        self.checked += 1
        if got != want:
            self.failures += 1
            if self.failures <= 12:
                print('FAIL %s: %s: got %r, want %r' % (self.name, what,
                                                       got, want))


def compare(ck, ff, mafds, events, want_mafds):
    """Events to the frame, MAFDs to the bit."""
    # FFmpeg's, in order: (kind, frame it is set on, value in frames).
    want = []
    for frame in sorted(ff):
        keys = ff[frame]
        if 'freeze_start' in keys:
            want.append(('start', frame_of_seconds(keys['freeze_start'])))
        if 'freeze_end' in keys:
            want.append(('end', frame_of_seconds(keys['freeze_end']),
                         round(float(keys['freeze_duration']) * 1e6)))
    got = []
    for name, ev in events:
        if name == 'sharpness-freeze-start':
            # Posted with the reference's pts as its timestamp.
            got.append(('start', frame_of_ns(ev['timestamp'])))
        elif name == 'sharpness-freeze-end':
            got.append(('end', frame_of_ns(ev['end']),
                        round(ev['duration'] / 1e3)))
    # The element also closes a freeze still open at the end of the
    # stream, which FFmpeg never reports.
    if len(got) == len(want) + 1 and got[-1][0] == 'end':
        got = got[:-1]
    ck.eq('freeze events (start frame / end frame, duration in us)', got,
          want)
    ck.eq('frames', len(mafds), len(want_mafds))
    for i, (g, w) in enumerate(zip(mafds, want_mafds)):
        ck.eq('frame %d freeze-mafd' % i, g if i else None,
              w if w is None else float(w))
    return len(want)


def main():
    for what, path in (('ffmpeg', FFMPEG),
                       ('ffprobe', shutil.which('ffprobe')),
                       ('gst-launch-1.0', GST_LAUNCH)):
        if not path:
            print('skipped: %s missing' % what)
            return SKIP
    if not TOOL or not os.path.exists(TOOL):
        print('skipped: black-freeze-tool not built (BLACK_FREEZE_TOOL)')
        return SKIP
    for el in ('qtdemux', 'avdec_prores', 'videoconvert', 'cudasharpness'):
        if subprocess.run(['gst-inspect-1.0', el], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode:
            print('skipped: GStreamer element %s missing' % el)
            return SKIP
    encoders = subprocess.run([FFMPEG, '-v', 'error', '-encoders'],
                              capture_output=True, text=True).stdout
    if ' prores_ks ' not in encoders or ' v210 ' not in encoders:
        print('skipped: ffmpeg without the prores_ks or v210 encoder')
        return SKIP

    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, size, frames, codec, source in CLIPS:
            path = os.path.join(tmp, name + '.mov')
            raw = os.path.join(tmp, name + '.yuv')
            make_clip(path, size, frames, codec)
            probe = subprocess.run(['ffprobe', '-v', 'error',
                                    '-select_streams', 'v:0',
                                    '-show_entries',
                                    'stream=width,height,pix_fmt',
                                    '-of', 'csv=p=0', path],
                                   capture_output=True, text=True,
                                   check=True).stdout.strip()
            if probe != '%s,yuv422p10le' % size.replace('x', ','):
                print('FAIL %s: FFmpeg made %s' % (name, probe))
                failures += 1
                continue
            # FFmpeg's decode, as freezedetect sees it.
            subprocess.run([FFMPEG, '-nostdin', '-v', 'error', '-y', '-i',
                            path, '-f', 'rawvideo', '-pix_fmt',
                            'yuv422p10le', raw], check=True)
            # The defaults' run; the boundary run's n: the weakest noise's
            # median MAFD.
            defaults = tool_mafds(raw, 'yuv422p10le', size, '-60', '2')
            first = defaults[0]
            a, b = frames * 100 // 176, frames * 130 // 176
            weak = sorted(m for m in first[a:b] if m)
            noise_db = '%.6f' % (20 * math.log10(weak[len(weak) // 2]))
            v210 = None
            if codec[1] == 'v210':
                # The raw v210 frames (the .mov's payload, FFmpeg's
                # stride): the tool's in-place sum must agree with its
                # unpacked one, and so its MAFDs with these.  Extracted
                # once for both runs (1918x1080: 550 MB).
                v210 = os.path.join(tmp, name + '.v210')
                subprocess.run([FFMPEG, '-nostdin', '-v', 'error', '-y',
                                '-i', path, '-c:v', 'copy', '-f',
                                'rawvideo', v210], check=True)
            for n_db, d in (('-60', '2'), (noise_db, '0.2')):
                ck = Checker('%s n=%sdB d=%s' % (name, n_db, d))
                want_mafds, rows = defaults if (n_db, d) == ('-60', '2') \
                    else tool_mafds(raw, 'yuv422p10le', size, n_db, d)
                if v210:
                    in_place, _ = tool_mafds(v210, 'v210', size, n_db, d)
                    ck.eq('v210 MAFDs in place', in_place, want_mafds)
                ff = ffmpeg_freezes(path, n_db, d)
                mafds, events = element_run(path, source, n_db, d)
                n_events = compare(ck, ff, mafds, events, want_mafds)
                frozen = sum(1 for r in rows if r['type'] == 'frame' and
                             r['frozen'])
                near = sum(1 for m in want_mafds if m and
                           abs(m / 10 ** (float(n_db) / 20) - 1) < 0.01)
                failures += ck.failures
                print('%s %-36s %4d checks, %2d FFmpeg events, %3d frozen '
                      'frames, %3d within 1%% of n' % (
                          'ok  ' if not ck.failures else 'FAIL', ck.name,
                          ck.checked, n_events, frozen, near))
            os.unlink(path)
            os.unlink(raw)
            if v210:
                os.unlink(v210)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
