#!/usr/bin/python3
# sharpness-scan reports damaged files: an MPEG-TS copy of a 75-frame clip
# (blurred from 1.2 s to 2.2 s) with bytes corrupted at fixed places (the
# PES headers of frames 40 and 41, and bytes of frames 60 to 70 flipped
# with a fixed seed) loses frames in the middle; the scan must say so: the
# file damaged in the JSON (lost frames, the stretch and its times), the
# CSV (damaged frames), the summary line and the report; the blurry
# segment over the loss flagged unreliable; exit 0, or 3 with
# --fail-on-damaged.  The clean copy is not damaged.
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
import random  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

import scan_common as sc  # noqa: E402

# Each check printed as made, the failed ones counted.
check = scaffold.Checks()
PACKET = 188
VIDEO_PID = 0x100       # ffmpeg's first video stream in MPEG-TS
SMASHED = (40, 41)      # frames whose PES header is destroyed
FLIPPED = range(60, 71)  # frames with flipped payload bytes
SEED = 17


def corrupt(data):
    """@data (an MPEG-TS file) with the damage described above."""
    out = bytearray(data)
    rng = random.Random(SEED)
    frame = -1
    for off in range(0, len(out) - PACKET + 1, PACKET):
        pkt = out[off:off + PACKET]
        if pkt[0] != 0x47 or ((pkt[1] & 0x1f) << 8 | pkt[2]) != VIDEO_PID:
            continue
        start = 4
        if pkt[3] & 0x20:               # adaptation field
            start += 1 + pkt[4]
        if pkt[1] & 0x40:               # a PES starts: a frame
            frame += 1
            if frame in SMASHED and out[off + start:off + start + 3] == \
                    b'\x00\x00\x01':
                out[off + start:off + start + 4] = b'\xff\xff\xff\xff'
            continue
        if frame in FLIPPED and start < PACKET - 1:
            pos = off + rng.randrange(start, PACKET)
            out[pos] ^= 1 << rng.randrange(8)
    return bytes(out)


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'tsdemux', 'avdec_h264')
    validator = sc.validator()
    clean = sc.ffmpeg_clip('blurred-middle.ts', [
        '-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=3', '-vf',
        "boxblur=enable='between(t,1.2,2.2)':luma_radius=6:chroma_radius=3",
        '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
        '-g', '25', '-threads', '1'])
    tmp = tempfile.mkdtemp(prefix='scan-damaged-')
    bad = os.path.join(tmp, 'damaged.ts')
    with open(clean, 'rb') as f:
        data = f.read()
    with open(bad, 'wb') as f:
        f.write(corrupt(data))

    j, c, h = (os.path.join(tmp, n) for n in ('o.json', 'o.csv', 'o.html'))
    rc, out, err = sc.run('--json', j, '--csv', c, '--report', h, clean, bad,
                          timeout=120)
    check(rc == 0, 'damaged file, no --fail-on-damaged: exit 0 (got %d: %s)'
          % (rc, err))
    doc = sc.load_json(j)
    errors = [e.message for e in validator.iter_errors(doc)]
    check(not errors, 'JSON valid against the schema: %s' % errors[:3])
    good, dmg = doc['files'][0], doc['files'][1]
    check(good.get('damaged') is False and
          good.get('damage', {}).get('lost_frames') == 0 and
          good['stream']['frames'] == 75,
          'the clean copy: 75 frames, not damaged')
    damage = dmg.get('damage') or {}
    stretches = damage.get('stretches') or []
    check(dmg.get('damaged') is True and damage.get('lost_frames', 0) >= 2,
          'the corrupted copy: damaged, %s frames lost' %
          damage.get('lost_frames'))
    near = [s for s in stretches if 37 <= s['first_frame'] <= 41]
    check(len(near) == 1 and near[0]['lost_frames'] >= 2 and
          near[0]['start'] is not None and
          near[0]['end'] - near[0]['start'] > 0.07,
          'a stretch at the smashed frames, with its times: %r' % stretches)
    segs = dmg.get('segments') or []
    check(segs and all(s.get('damaged') for s in segs if
                       s['start_frame'] <= 41 <= s['end_frame'] + 2),
          'the blurry segment over the loss is flagged: %r' % [
              (s['start_frame'], s['end_frame'], s.get('damaged'))
              for s in segs])
    line = [ln for ln in out.splitlines() if ln.startswith(bad)]
    check(line and 'DAMAGED' in line[0] and 'lost' in line[0],
          'summary line: %r' % line)
    with open(c, newline='') as fh:
        rows = [r for r in csv.DictReader(fh) if r['file'] == bad]
    check(any(r.get('damaged') == '1' for r in rows),
          'CSV: the frames after the loss are marked damaged')
    with open(h, encoding='utf-8') as fh:
        html = fh.read()
    check('Damaged:' in html and 'unreliable' in html,
          'report: the damage said')

    rc, _, _ = sc.run('--fail-on-damaged', '-q', bad, timeout=120)
    check(rc == 3, '--fail-on-damaged: exit 3 (got %d)' % rc)
    rc, _, _ = sc.run('--fail-on-damaged', '-q', clean, timeout=120)
    check(rc == 0, '--fail-on-damaged, clean file: exit 0 (got %d)' % rc)

    shutil.rmtree(tmp, ignore_errors=True)
    check.finish('damaged files')


if __name__ == '__main__':
    main()
