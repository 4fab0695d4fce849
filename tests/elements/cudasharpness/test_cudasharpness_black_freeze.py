#!/usr/bin/python3
# cudasharpness's black and freeze detection against FFmpeg's blackdetect
# and freezedetect, through the element.
#
# The clips of tests/analysis/test_black_freeze_ffmpeg.py (fades and cuts
# to black, a dark scene and letterbox bars that must not fire, frozen
# stretches with noise below and above -60 dB, 8 and 10 bits, limited and
# full range, NV12, an odd size) go through
#   filesrc ! rawvideoparse ! cudasharpness backend=cpu ! fakesink
# and through black-freeze-tool, which that test checks against FFmpeg
# and a numpy oracle to the bit.  Asserts, per frame: the element's
# black-ratio and freeze-mafd are the tool's (to the bit) and its
# content-state is black / frozen exactly where they say; per event: every
# sharpness-black-end / sharpness-freeze-end has FFmpeg's start, end and
# duration (in ns, as the tool gives them), and the starts come in pairs.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage', 'gi')

import math  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

sys.path.insert(0, os.path.join(HERE, '..', '..', 'analysis'))
import test_black_freeze_ffmpeg as bf  # noqa: E402

import gi  # noqa: E402
gi.require_version('Gst', '1.0')
from gi.repository import Gst  # noqa: E402

# rawvideoparse's format names of the cases' FFmpeg formats.
GST_FORMAT = {'yuv420p': 'i420', 'yuvj420p': 'i420', 'nv12': 'nv12',
              'yuv420p10le': 'i420-10le', 'gray': 'gray8'}
RUN_TIMEOUT = 60 * Gst.SECOND


def cases(tmp):
    yield bf.case_fade_cut(tmp)
    yield bf.case_dark_letterbox(tmp)
    yield bf.case_freeze(tmp)
    yield bf.case_odd_size(tmp)
    yield bf.case_10bit(tmp, True)
    yield bf.case_10bit(tmp, False)
    yield bf.case_formats(tmp, 'nv12')


def packing(case):
    """rawvideoparse's plane strides and offsets of FFmpeg's tight layout
    (GStreamer's default pads odd widths)."""
    w, h = case['w'], case['h']
    cw, ch = (w + 1) // 2, (h + 1) // 2
    fmt = case['fmt']
    if fmt in ('gray',):
        planes = [(w, h)]
    elif fmt == 'nv12':
        planes = [(w, h), (2 * cw, ch)]
    else:
        planes = [(w, h), (cw, ch), (cw, ch)]
    size = 2 if fmt.endswith('10le') else 1
    strides, offsets, at = [], [], 0
    for pw, ph in planes:
        strides.append(pw * size)
        offsets.append(at)
        at += pw * size * ph
    return ('plane-strides="<%s>" plane-offsets="<%s>" frame-size=%d' % (
        ','.join(map(str, strides)), ','.join(map(str, offsets)), at))


def element_run(case):
    """The element's per-frame fields and event messages on the case."""
    fmt = GST_FORMAT[case['fmt']]
    full = case['range'] == 'pc' or case['fmt'].startswith('yuvj')
    fps = case['fps']
    b, f = case['black_opts'], case['freeze_opts']
    # Colorimetry: the range is what FFmpeg's decision rests on.
    colorimetry = '1:4:0:0' if full else '2:4:0:0'
    desc = ('filesrc location="%s" ! rawvideoparse format=%s width=%d '
            'height=%d framerate=%d/%d colorimetry=%s %s ! cudasharpness '
            'backend=cpu black-pixel-threshold=%s black-ratio=%s '
            'black-min-duration=%d freeze-noise=%r freeze-min-duration=%d '
            'detect=black+freeze ! fakesink' % (
                case['path'], fmt, case['w'], case['h'], fps.numerator,
                fps.denominator, colorimetry, packing(case), b['pix_th'],
                b['pic_th'],
                int(float(b['d']) * Gst.SECOND),
                20 * math.log10(float(f['n'])),
                int(float(f['d']) * Gst.SECOND)))
    pipe = Gst.parse_launch(desc)
    bus = pipe.get_bus()
    frames, events = [], []
    pipe.set_state(Gst.State.PLAYING)
    try:
        while True:
            msg = bus.timed_pop_filtered(RUN_TIMEOUT, Gst.MessageType.ELEMENT
                                         | Gst.MessageType.EOS
                                         | Gst.MessageType.ERROR)
            if msg is None:
                raise RuntimeError('%s: no message for %d s' % (
                    case['name'], RUN_TIMEOUT // Gst.SECOND))
            if msg.type == Gst.MessageType.ERROR:
                err, dbg = msg.parse_error()
                raise RuntimeError('%s: %s (%s)' % (case['name'],
                                                    err.message, dbg))
            if msg.type == Gst.MessageType.EOS:
                break
            s = msg.get_structure()
            name = s.get_name()
            if name == 'sharpness':
                frames.append(dict(state=s.get_value('content-state'),
                                   ratio=s.get_value('black-ratio'),
                                   mafd=s.get_value('freeze-mafd')))
            elif name.startswith(('sharpness-black-', 'sharpness-freeze-')):
                events.append((name, {k: s.get_value(k) for k in
                                      ('start', 'end', 'duration',
                                       'start-frame', 'end-frame')
                                      if s.has_field(k)}))
    finally:
        pipe.set_state(Gst.State.NULL)
    return frames, events


def compare(case, tool, frames, events, ck):
    rows = [r for r in tool if r['type'] == 'frame']
    pixels = case['w'] * case['h']
    ck.eq('%s frames' % case['name'], len(frames), len(rows))
    frozen = set()
    for r in tool:
        if r['type'] == 'freeze_start':
            frozen.add(r['frame'])
    in_freeze = False
    for i, (e, r) in enumerate(zip(frames, rows)):
        ck.eq('frame %d black-ratio' % i, e['ratio'], r['black'] / pixels)
        ck.eq('frame %d freeze-mafd' % i, e['mafd'],
              r['mafd'] if r['mafd'] is not None else 0.0)
        if i in frozen:
            in_freeze = True
        if not r['frozen']:
            in_freeze = False
        want = 'black' if r['is_black'] else \
            'frozen' if in_freeze else None
        if want:
            ck.eq('frame %d content-state' % i, e['state'], want)
        else:
            ck.eq('frame %d content-state %s' % (i, e['state']),
                  e['state'] not in ('black', 'frozen'), True)

    # Ends carry FFmpeg's values; every end has its start before it.
    want_black = [(r['start'], r['end'], r['duration']) for r in tool
                  if r['type'] == 'black_interval']
    want_freeze = [(r['start'], r['end'], r['duration']) for r in tool
                   if r['type'] == 'freeze_end']
    got_black = [(v['start'], v['end'], v['duration']) for n, v in events
                 if n == 'sharpness-black-end']
    got_freeze = [(v['start'], v['end'], v['duration']) for n, v in events
                  if n == 'sharpness-freeze-end']
    ck.eq('%s black intervals' % case['name'], got_black, want_black)
    # A freeze open at the end of the stream: FFmpeg reports nothing, the
    # element closes its alarm at the last frame.
    ck.eq('%s freezes' % case['name'], got_freeze[:len(want_freeze)],
          want_freeze)
    opened = {}
    for n, v in events:
        kind = n.rsplit('-', 1)[0]
        if n.endswith('-start'):
            ck.eq('%s: %s starts once' % (case['name'], kind),
                  not opened.get(kind), True)
            opened[kind] = True
        else:
            ck.eq('%s: %s ends after a start' % (case['name'], kind),
                  bool(opened.get(kind)), True)
            opened[kind] = False


def main():
    for tool in ('ffmpeg',):
        if not shutil.which(tool):
            print('skipped: %s missing' % tool)
            return scaffold.SKIP
    if not os.path.exists(bf.TOOL):
        print('skipped: black-freeze-tool not built (%s)' % bf.TOOL)
        return scaffold.SKIP
    Gst.init(None)
    if not Gst.ElementFactory.find('rawvideoparse'):
        print('skipped: rawvideoparse missing')
        return scaffold.SKIP
    # The element decides the range as FFmpeg 7.1 does (full when the caps
    # say so, docs/reference/black-freeze.md); the tool is checked against both.
    version = (7, 1)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases(tmp):
            case = bf.fill(case, tmp)
            ck = bf.Checker(case['name'])
            tool = bf.run_tool(case, tmp, version, use_tb=False)
            frames, events = element_run(case)
            compare(case, tool, frames, events, ck)
            os.unlink(case['path'])
            failures += ck.failures
            print('%s %-26s %5d checks, %d events' % (
                'ok  ' if not ck.failures else 'FAIL', case['name'],
                ck.checked, len(events)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
