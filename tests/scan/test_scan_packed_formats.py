#!/usr/bin/python3
# The report's 1:1 centre crop of a segment's frame, in every family of
# raw format the scan scores (issue 29): v210 (10-bit, 6 pixels packed in
# 16 bytes, a pixel stride of 0 in GStreamer) in MOV, AVI and Matroska,
# ProRes 4:2:2 (decoded 4:2:2 10-bit, scored as I422_10LE), packed 4:2:2 (YUY2,
# UYVY), planar 8 and 10 bits (I420, Y41B, Y42B, Y444, I420_10LE), grey
# (GRAY8, GRAY16_LE) and packed RGB (BGR).  The crop was uninitialised
# heap memory for v210 and ProRes 4:2:2.  Each clip is blurred throughout
# (one blurry segment, its worst frame the thumbnail); the crop in the
# --json-full JSON, decoded by ffmpeg, must equal the same region of the
# same frame decoded by ffmpeg, within JPEG's error: luma for YUV and grey
# (the JPEG's Y against the frame's Y), RGB for RGB.  valgrind then scans
# a 5-frame v210 clip and a ProRes one: no uninitialised read (skipped,
# said, without valgrind).
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
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import scan_common as sc  # noqa: E402

W, H = 640, 360
BLURRED = ['-f', 'lavfi', '-i',
           'testsrc2=s=%dx%d:r=25:d=1,gblur=sigma=4' % (W, H)]
# The crop the tool makes of a 640x360 frame (scan-thumbs.c): 320 wide,
# as high as the thumbnail (180) in multiples of 8, its origin in
# multiples of 8.
CROP_W, CROP_H = 320, 176
X0, Y0 = ((W - CROP_W) // 2) & ~7, ((H - CROP_H) // 2) & ~7
RAW = ['-c:v', 'rawvideo', '-pix_fmt']
FFV1 = ['-c:v', 'ffv1', '-pix_fmt']

# (file, ffmpeg output arguments, GStreamer elements needed, format
#  scored, how to compare: 'yuv' luma, 'gray', 'rgb')
CASES = [
    ('v210.mov', ['-c:v', 'v210'], ['qtdemux'], 'v210', 'yuv'),
    ('v210.avi', ['-c:v', 'v210'], ['avidemux'], 'v210', 'yuv'),
    ('v210.mkv', ['-c:v', 'v210'], ['matroskademux'], 'v210', 'yuv'),
    ('prores422.mov', ['-c:v', 'prores_ks', '-profile:v', '2'],
     ['qtdemux', 'avdec_prores'], 'I422_10LE', 'yuv'),
    ('yuy2.avi', RAW + ['yuyv422'], ['avidemux'], 'YUY2', 'yuv'),
    ('uyvy.avi', RAW + ['uyvy422'], ['avidemux'], 'UYVY', 'yuv'),
    ('uyvy.mov', RAW + ['uyvy422'], ['qtdemux'], 'UYVY', 'yuv'),
    ('i420.avi', RAW + ['yuv420p'], ['avidemux'], 'I420', 'yuv'),
    ('y41b.mkv', FFV1 + ['yuv411p'], ['matroskademux', 'avdec_ffv1'],
     'Y41B', 'yuv'),
    ('y42b.mkv', FFV1 + ['yuv422p'], ['matroskademux', 'avdec_ffv1'],
     'Y42B', 'yuv'),
    ('y444.mkv', FFV1 + ['yuv444p'], ['matroskademux', 'avdec_ffv1'],
     'Y444', 'yuv'),
    ('i420-10.mkv', FFV1 + ['yuv420p10le'], ['matroskademux', 'avdec_ffv1'],
     'I420_10LE', 'yuv'),
    ('gray.avi', RAW + ['gray'], ['avidemux'], 'GRAY8', 'gray'),
    ('gray16.mkv', FFV1 + ['gray16le'], ['matroskademux', 'avdec_ffv1'],
     'GRAY16_LE', 'gray'),
    ('bgr.avi', RAW + ['bgr24'], ['avidemux'], 'BGR', 'rgb'),
]
# Mean and largest difference allowed (8-bit levels): JPEG's error on
# these blurred frames is a fraction of a level on average; an
# uninitialised or shifted crop is off by tens.
MEAN_MAX, PEAK_MAX = 2.0, 40

# Each check printed as made, the failed ones counted.
check = scaffold.Checks()


def ffmpeg(args, data=None):
    return subprocess.run(['ffmpeg', '-nostdin', '-v', 'error'] + args,
                          input=data, capture_output=True, check=True,
                          timeout=120).stdout


def jpeg_samples(data, how):
    """The JPEG's samples: its Y (without conversion) or its RGB."""
    return ffmpeg(['-f', 'jpeg_pipe', '-i', '-', '-f', 'rawvideo',
                   '-pix_fmt', 'rgb24' if how == 'rgb' else 'gray', '-'],
                  data)


def frame_samples(path, k, how):
    """Frame @k of @path, decoded by ffmpeg: its luma as 8 bits (from 16,
    range and matrix untouched), or its RGB; one list per row of the whole
    frame."""
    fmt = {'yuv': 'yuv444p16le', 'gray': 'gray16le', 'rgb': 'rgb24'}[how]
    raw = ffmpeg(['-i', path, '-vf', r'select=eq(n\,%d)' % k,
                  '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', fmt, '-'])
    if how == 'rgb':
        return [raw[y * W * 3:(y + 1) * W * 3] for y in range(H)]
    plane = raw[:W * H * 2]
    return [bytes(plane[2 * (y * W + x) + 1] for x in range(W))
            for y in range(H)]


def compare(path, doc_file, how):
    """(mean, peak) difference of the crop from the frame's region, or
    None when there is no crop."""
    segs = [s for s in doc_file['segments'] if s.get('crop')]
    if not segs:
        return None
    seg = segs[0]
    crop = jpeg_samples(base64.b64decode(seg['crop']), how)
    frame = frame_samples(path, seg['thumbnail_frame'], how)
    n = 3 if how == 'rgb' else 1
    if len(crop) != CROP_W * CROP_H * n:
        return (float('inf'), float('inf'))
    total, peak = 0, 0
    for y in range(CROP_H):
        row = frame[Y0 + y][X0 * n:(X0 + CROP_W) * n]
        got = crop[y * CROP_W * n:(y + 1) * CROP_W * n]
        for a, b in zip(row, got):
            d = abs(a - b)
            total += d
            peak = max(peak, d)
    return total / (CROP_W * CROP_H * n), peak


def crops(tmp, validator):
    made = []
    for name, args, elements, fmt, how in CASES:
        missing = [e for e in elements if not sc.have_element(e)]
        if missing:
            print('skipped: %s (GStreamer %s missing)' % (name,
                                                         ', '.join(missing)))
            continue
        path = os.path.join(tmp, name)
        ffmpeg(['-y'] + BLURRED + args + [path])
        made.append((path, fmt, how))
    out = os.path.join(tmp, 'crops.json')
    rc, _, err = sc.run('--cpu', '--quiet', '--json-full', '--json', out,
                        *[m[0] for m in made], timeout=300)
    check(rc == 0, 'every clip scans (exit %d, %s)' % (rc, err.strip()))
    doc = sc.load_json(out)
    validator.validate(doc)
    files = {f['input']: f for f in doc['files']}
    for path, fmt, how in made:
        f = files[path]
        name = os.path.basename(path)
        check(f['stream'] is not None and f['stream']['format'] == fmt,
              '%s: scored as %s (%s)' % (name, fmt, f['stream'] and
                                          f['stream']['format']))
        diff = compare(path, f, how)
        check(diff is not None and diff[0] <= MEAN_MAX and
              diff[1] <= PEAK_MAX,
              '%s: the crop is the frame\'s centre (mean difference %s, '
              'largest %s; at most %g and %d)' % (
                  name, diff and '%.2f' % diff[0], diff and diff[1],
                  MEAN_MAX, PEAK_MAX))


def under_valgrind(tmp):
    if not shutil.which('valgrind'):
        print('skipped: the valgrind runs (valgrind missing)')
        return
    tiny = ['-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=0.2,gblur=sigma=4']
    for name, args, elements in (
            ('tiny-v210.mov', ['-c:v', 'v210'], ['qtdemux']),
            ('tiny-prores.mov', ['-c:v', 'prores_ks', '-profile:v', '2'],
             ['qtdemux', 'avdec_prores'])):
        if not all(sc.have_element(e) for e in elements):
            print('skipped: %s under valgrind (GStreamer %s missing)' % (
                name, ', '.join(elements)))
            continue
        path = os.path.join(tmp, name)
        ffmpeg(['-y'] + tiny + args + [path])
        res = subprocess.run(
            ['valgrind', '-q', '--error-exitcode=99', '--num-callers=30',
             os.path.abspath(sc.TOOL), '--cpu', '--quiet',
             '--min-duration', '0', '--json', os.path.join(tmp, 'vg.json'),
             '--report', os.path.join(tmp, 'vg.html'), path],
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300)
        if res.returncode == -signal.SIGILL:
            # valgrind does not know every instruction of every CPU (libav's
            # libjxl loads libhwy, whose start-up uses one): nothing was
            # checked.
            print('skipped: %s under valgrind (valgrind stopped at an '
                  'instruction it does not know: %s)' % (
                      name, ' '.join(l for l in res.stderr.splitlines()
                                     if 'Illegal' in l or ' at 0x' in l)[:300]))
            continue
        doc = sc.load_json(os.path.join(tmp, 'vg.json'))
        segments = len(doc['files'][0]['segments'])
        check(res.returncode == 0 and segments == 1 and
              'uninitialised' not in res.stderr,
              '%s under valgrind: no error, one segment (exit %d)\n%s' % (
                  name, res.returncode, res.stderr[-3000:]))


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'jpegenc')
    validator = sc.validator()
    with tempfile.TemporaryDirectory(prefix='scan-packed-',
                                     ignore_cleanup_errors=True) as tmp:
        crops(tmp, validator)
        under_valgrind(tmp)
    check.finish('packed formats')


if __name__ == '__main__':
    main()
