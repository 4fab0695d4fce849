#!/usr/bin/python3
# The details of sharpness-scan's report and JSON, on clips made here:
# - an MP4 tagged rotate=90 with a blurry second: sizes and thumbnails as
#   displayed (taller than wide), its orientation named;
# - the segment table gives the worst frame's index and time;
# - the threshold line of the chart has its value as a label;
# - a stream whose size changes: every size with the frame it starts at;
# - interlaced H.264: said (JSON, note), frames scored as delivered;
# - a second video stream: a warning, once;
# - a new program mid-stream (MPEG-TS whose PIDs change, with audio):
#   both programs' frames scanned, one video stream;
# - the progress line's ETA in whole seconds (stderr on a terminal).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('jsonschema')

import base64  # noqa: E402
import pty  # noqa: E402
import re  # noqa: E402
import select  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import scan_common as sc  # noqa: E402
from jpeg_size import jpeg_size  # noqa: E402

# Each check printed as made, the failed ones counted.
check = scaffold.Checks()
X264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
        '-threads', '1']


def clips():
    blur = ("boxblur=enable='between(t,0.4,1.4)':luma_radius=6:"
            "chroma_radius=3")
    flat = sc.ffmpeg_clip('blur-1s.mp4', [
        '-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=2', '-vf', blur] +
        X264)
    # The rotation tag is written when the stream is copied.
    rotated = sc.ffmpeg_clip('rotate-90.mp4', [
        '-i', flat, '-c', 'copy', '-metadata:s:v:0', 'rotate=90'])
    a = sc.ffmpeg_clip('size-a.ts', [
        '-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=1'] + X264)
    b = sc.ffmpeg_clip('size-b.ts', [
        '-f', 'lavfi', '-i', 'testsrc2=s=256x144:r=25:d=1'] + X264)
    listing = os.path.join(sc.WORK, 'sizes.txt')
    with open(listing, 'w') as f:
        f.write("file '%s'\nfile '%s'\n" % (a, b))
    sizes = sc.ffmpeg_clip('sizes.ts', ['-f', 'concat', '-safe', '0', '-i',
                                        listing, '-c', 'copy'])
    interlaced = sc.ffmpeg_clip('interlaced.mkv', [
        '-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=1'] + X264 + [
        '-x264-params', 'interlaced=1:tff=1', '-field_order', 'tt'])
    two = sc.ffmpeg_clip('two-videos.mkv', [
        '-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=1', '-f', 'lavfi',
        '-i', 'testsrc=s=160x90:r=25:d=1', '-map', '0', '-map', '1'] + X264)
    return rotated, sizes, interlaced, two, new_program()


def new_program():
    """Two 1 s TS with audio, the second under other PIDs and 1 s later,
    one after the other: decodebin replaces its pads at the second PMT."""
    path = os.path.join(sc.WORK, 'new-program.ts')
    av = ['-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=1', '-f', 'lavfi',
          '-i', 'sine=f=440:d=1'] + X264 + ['-c:a', 'aac']
    first = sc.ffmpeg_clip('program-1.ts', av)
    second = sc.ffmpeg_clip('program-2.ts', av + [
        '-output_ts_offset', '1', '-mpegts_pmt_start_pid', '0x1100',
        '-mpegts_start_pid', '0x200'])
    with open(path + '.part', 'wb') as out:
        for name in (first, second):
            with open(name, 'rb') as f:
                out.write(f.read())
    os.rename(path + '.part', path)
    return path


def check_eta(clip):
    """The progress line (stderr on a terminal) after the first of two
    inputs, the second a live one that never ends: its ETA is a number of
    whole seconds."""
    live = 'udp://127.0.0.1:%d' % sc.free_port()
    master, slave = pty.openpty()
    proc = subprocess.Popen([sc.TOOL, '--jobs', '1', clip, live],
                            stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    text, etas = b'', []
    end = time.monotonic() + 30
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    text += os.read(master, 4096)
                except OSError:
                    break
            etas = re.findall(r'1/2 files, [^\r\n]*ETA (\S+)',
                              text.decode(errors='replace'))
            if any(re.search(r'\d', e) for e in etas):
                break
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
        os.close(master)
    etas = [e for e in etas if re.search(r'\d', e)]
    check(etas and all(re.fullmatch(r'(\d+:)?\d+:\d\d', e) for e in etas),
          'ETA in whole seconds: %r' % etas)


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'qtdemux', 'matroskademux',
                        'tsdemux', 'avdec_h264')
    validator = sc.validator()
    rotated, sizes, interlaced, two, program = clips()
    tmp = tempfile.mkdtemp(prefix='scan-details-')
    j, h = os.path.join(tmp, 'd.json'), os.path.join(tmp, 'd.html')
    rc, out, err = sc.run('--json', j, '--report', h, rotated, sizes,
                          interlaced, two, program, timeout=120)
    check(rc == 0, 'exit 0 (got %d: %s)' % (rc, err))
    doc = sc.load_json(j)
    errors = [e.message for e in validator.iter_errors(doc)]
    check(not errors, 'JSON valid against the schema: %s' % errors[:3])
    with open(h, encoding='utf-8') as fh:
        html = fh.read()
    files = {os.path.basename(f['input']): f for f in doc['files']}
    lines = {os.path.basename(ln.split(':')[0]): ln for ln in
             out.splitlines()}

    # Rotation.
    f = files['rotate-90.mp4']
    s = f['stream']
    unrotated = sc.known_on_gst_1_26('the rotate tag is not applied')
    check((s['width'], s['height']) == (180, 320) and
          s['orientation'] in ('rotate-90', 'rotate-270') or unrotated,
          'rotate=90: 180x320 as displayed, %s' % s['orientation'])
    section = html[html.index('rotate-90.mp4'):]
    section = section[:section.find('</section>')]
    thumbs = [jpeg_size(base64.b64decode(b)) for b in
              re.findall(r'data:image/jpeg;base64,([^"]+)', section)]
    check(len(thumbs) == 2 and (all(t and t[1] > t[0] for t in thumbs) or
                                unrotated),
          'rotate=90: thumbnails taller than wide: %r' % thumbs)

    # Worst frame and threshold label.
    seg = f['segments'][0] if f['segments'] else {}
    worst = seg.get('worst_frame')
    check(seg.get('worst_time') is not None and
          abs(seg['worst_time'] - worst / 25.0) < 1e-3,
          'JSON: worst_time %r for frame %r' % (seg.get('worst_time'),
                                                 worst))
    cell = re.search(r'<td class="nw worst">frame (\d+)<br>([0-9:.]+)</td>',
                     section)
    check(cell and int(cell.group(1)) == worst and
          cell.group(2) == '0:%06.3f' % (worst / 25.0),
          'segment table: the worst frame and its time: %r' % (
              cell and cell.groups(),))
    # The label is the rule's threshold, as the file's settings give it
    # (the tools' default when no option is given).
    thr = f['settings']['threshold']
    check(re.search(r'<text class="thrlbl"[^>]*>threshold %s</text>' %
                    re.escape('%g' % thr), section),
          'chart: the threshold line has its value (%g) as a label' % thr)

    # Sizes.
    got = [(z['frame'], z['width'], z['height'])
           for z in files['sizes.ts']['stream']['sizes']]
    check(got == [(0, 320, 180), (25, 256, 144)],
          'every size and its first frame: %r' % got)
    check('256&times;144 from frame 25' in html, 'report: the sizes')

    # Interlacing.
    f = files['interlaced.mkv']
    check(f['stream']['interlaced'] and
          any('interlaced' in n for n in f['notes']) and
          'interlaced' in lines.get('interlaced.mkv', '') or
          sc.known_on_gst_1_26('interlaced Matroska not reported as such'),
          'interlaced: in the JSON, its notes and the summary line')
    check(not files['sizes.ts']['stream']['interlaced'],
          'progressive: not interlaced')

    # A second video stream.
    f = files['two-videos.mkv']
    notes = [n for n in f['notes'] if 'video streams' in n]
    check(f['stream']['video_streams'] == 2 and len(notes) == 1 and
          '2 video streams' in lines.get('two-videos.mkv', ''),
          'second video stream: one warning (%r)' % notes)
    check(all(not n for n in (files[k]['notes'] for k in ('sizes.ts',))),
          'no warning without one')

    # A new program.
    f = files['new-program.ts']
    check(f['error'] is None and f['stream']['frames'] == 50 and
          f['stream']['video_streams'] == 1,
          'new program: 50 frames, one video stream (%s, %r frames, %r)' % (
              f['error'], f['stream'].get('frames'),
              f['stream'].get('video_streams')))

    if sc.have_element('udpsrc'):
        check_eta(sc.small_clip())
    else:
        print('ETA case left out: GStreamer element udpsrc missing')

    shutil.rmtree(tmp, ignore_errors=True)
    check.finish('details')


if __name__ == '__main__':
    main()
