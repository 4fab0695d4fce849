#!/usr/bin/python3
# sharpness-scan scans what decodebin decodes, whatever its raw format:
# files made here with ffmpeg in formats cudasharpness does not take
# natively (ProRes 422 and 4444, H.264 4:2:2 10-bit, libx264rgb's GBR,
# FFV1 12-bit, yuva420p in FFV1 and VP9) and still images (PNG, JPEG) each
# scan with exit 0, as many frames as ffprobe decodes and a score for every
# frame; the JSON says the decoder's format was converted to one the
# element takes (its sink pad template's list), while an I420 file passes
# through unconverted.  The JSON is valid against the schema.
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
import shutil  # noqa: E402
import tempfile  # noqa: E402

import scan_common as sc  # noqa: E402

SRC = ['-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=1']
STILL = ['-f', 'lavfi', '-i', 'testsrc2=s=320x180:d=1', '-frames:v', '1']
X264 = ['-preset', 'veryfast', '-threads', '1']

# (file, ffmpeg encoder, its arguments, GStreamer decoder needed,
#  natively accepted by the element)
CASES = [
    # avdec_prores and avdec_h264 give 4:2:2 10-bit as I422_10LE, which
    # the element takes as it is (FFmpeg's yuv422p10le: freeze exact).
    ('prores422.mov', 'prores_ks', SRC + ['-c:v', 'prores_ks', '-profile:v',
                                         '2'], 'avdec_prores', True),
    ('prores4444.mov', 'prores_ks', SRC + [
        '-c:v', 'prores_ks', '-profile:v', '4', '-pix_fmt', 'yuva444p10le'],
     'avdec_prores', False),
    ('h264-422-10.mp4', 'libx264', SRC + [
        '-c:v', 'libx264', '-pix_fmt', 'yuv422p10le'] + X264, 'avdec_h264',
     True),
    ('x264rgb.mkv', 'libx264rgb', SRC + ['-c:v', 'libx264rgb'] + X264,
     'avdec_h264', False),
    ('ffv1-12.mkv', 'ffv1', SRC + ['-c:v', 'ffv1', '-pix_fmt', 'yuv420p12le'],
     'avdec_ffv1', False),
    ('ffv1-yuva.mkv', 'ffv1', SRC + ['-c:v', 'ffv1', '-pix_fmt', 'yuva420p'],
     'avdec_ffv1', False),
    ('vp9-yuva.webm', 'libvpx-vp9', SRC + [
        '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8',
        '-pix_fmt', 'yuva420p'], 'vp9alphadecodebin', False),
    ('still.png', 'png', STILL, 'pngdec', True),
    ('still.jpg', 'mjpeg', STILL, 'jpegdec', True),
    ('h264-420.mp4', 'libx264', SRC + [
        '-c:v', 'libx264', '-pix_fmt', 'yuv420p'] + X264, 'avdec_h264', True),
]

# Each check printed as made, the failed ones counted.
check = scaffold.Checks()


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'videoconvert')
    accepted = sc.accepted_formats()
    print('cudasharpness takes: %s' % ', '.join(sorted(accepted)))
    files = []
    for name, encoder, args, decoder, native in CASES:
        if not sc.have_encoder(encoder):
            print('case %s left out: ffmpeg encoder %s missing' % (name,
                                                                  encoder))
        elif not sc.have_element(decoder):
            print('case %s left out: GStreamer element %s missing' % (
                name, decoder))
        else:
            files.append((sc.ffmpeg_clip(name, args), native))
    if not files:
        scaffold.skip('no case has its encoder and decoder')

    tmp = tempfile.mkdtemp(prefix='scan-formats-')
    j, c = os.path.join(tmp, 'f.json'), os.path.join(tmp, 'f.csv')
    rc, out, err = sc.run('--json', j, '--csv', c, *[f for f, _ in files])
    check(rc == 0, 'every format scans: exit 0 (got %d)\n%s' % (rc, err))
    doc = sc.load_json(j)
    errors = [e.message for e in sc.validator().iter_errors(doc)]
    check(not errors, 'JSON valid against the schema: %s' % errors[:3])
    with open(c, newline='') as fh:
        rows = list(csv.DictReader(fh))
    metric = doc['files'][0]['settings']['rule_metric']
    for (path, native), f in zip(files, doc['files']):
        name = os.path.basename(path)
        stream = f['stream'] or {}
        want = sc.frame_count(path)
        check(f['error'] is None, '%s: no error (%s)' % (name, f['error']))
        # VP9 with alpha: one frame fewer than ffprobe's on 1.26.
        lost = name == 'vp9-yuva.webm' and sc.known_on_gst_1_26(
            'vp9-yuva.webm decodes one frame fewer than ffprobe')
        check(stream.get('frames') == want or lost, '%s: %s frames, ffprobe '
              'decodes %d' % (name, stream.get('frames'), want))
        scores = [r[metric] for r in rows if r['file'] == path]
        check((len(scores) == want or lost) and all(scores),
              '%s: a score for each frame (%d rows)' % (name, len(scores)))
        decoded, scored = stream.get('decoded_format'), stream.get('format')
        if native:
            check(decoded in accepted and decoded == scored,
                  '%s: %s taken as decoded' % (name, decoded))
        else:
            check(decoded not in accepted and scored in accepted,
                  '%s: decoded %s (not in the element\'s list), scored as '
                  '%s' % (name, decoded, scored))
    shutil.rmtree(tmp, ignore_errors=True)
    check.finish('formats')


if __name__ == '__main__':
    main()
