#!/usr/bin/python3
# sharpness-scan --reference SRC DIST...: VMAF of encodes against their
# source, end to end.
# - tests/data's H.264 clip against its CRF 40 re-encode: every frame's
#   VMAF and features in the CSV and the JSON equal to libvmaf 3.0.0's log
#   of the same frames (tests/vmaf/golden-logs, 6 printed decimals), and the
#   pooled mean, harmonic mean, min and max too;
# - a natural clip (a photograph panned, x264 CRF 16) and its re-encodes at
#   CRF 28 and CRF 40, with --compare-metrics psnr,ssim: the CSV and the
#   JSON equal to the compare-vmaf and compare messages of cudacompare in
#   a pipeline of our own (every bit), CRF 28 scoring above CRF 40; the
#   report page has the timeline and the worst frames, the lowest-VMAF
#   ones, each with a reference and a distorted thumbnail;
# - errors: a missing or unreadable SRC, a DIST of another size (both sizes
#   named), an unknown model, a SRC or DIST without video, a DIST with fewer frames (the common start compared, both
#   counts named in a note); a 4:2:2 DIST of a 4:2:0 SRC converted to the
#   SRC's format, its VMAF equal to that of FFmpeg's conversion;
# - SIGINT while the second DIST is compared: status 130, the first DIST's
#   outputs complete, none for the second, no temporary file left.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('gi')

import csv  # noqa: E402
import json  # noqa: E402
import select  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import gi  # noqa: E402
gi.require_version('Gst', '1.0')
from gi.repository import Gst  # noqa: E402

import scan_common as sc  # noqa: E402

scaffold.use_suite('vmaf')
import vmaf_pairs  # noqa: E402

check = scaffold.Checks()
DATA = os.path.join(sc.SOURCE, 'tests', 'data')
GOLDEN = os.path.join(sc.SOURCE, 'tests', 'vmaf', 'golden-logs',
                      'testsrc2-320x240-crf40.vmaf_v0.6.1.json')
FEATURES = ['vmaf', 'integer_adm2', 'integer_adm_scale0',
            'integer_adm_scale1', 'integer_adm_scale2', 'integer_adm_scale3',
            'integer_motion2', 'integer_motion', 'integer_vif_scale0',
            'integer_vif_scale1', 'integer_vif_scale2', 'integer_vif_scale3']


def scan(args, outdir):
    return subprocess.run([sc.TOOL, '--reference'] + args +
                          ['--output-dir', outdir],
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=300)


def outputs(outdir, dist):
    base = os.path.join(outdir, os.path.basename(dist) + '.vmaf.')
    with open(base + 'csv') as fh:
        rows = list(csv.DictReader(fh))
    with open(base + 'json') as fh:
        doc = json.load(fh)
    with open(base + 'html') as fh:
        page = fh.read()
    return rows, doc, page


def natural_clips():
    """A photograph panned (320x240, 40 frames, x264 CRF 16) and its
    re-encodes at CRF 28 and CRF 40: tests/scan/data, made once."""
    photo = vmaf_pairs.PHOTOS['astronaut']
    if not os.path.exists(photo):
        scaffold.skip('%s missing (python3-skimage)' % photo)
    src = sc.ffmpeg_clip('ref-astronaut.mp4', [
        '-loop', '1', '-framerate', '25', '-i', photo, '-vf',
        vmaf_pairs.motion_filter('pan', 320, 240, 40) + ',format=yuv420p',
        '-frames:v', '40', '-c:v', 'libx264', '-preset', 'veryfast',
        '-crf', '16', '-threads', '1'])
    dists = [sc.ffmpeg_clip('ref-astronaut-crf%d.mp4' % crf, [
        '-i', src, '-c:v', 'libx264', '-preset', 'veryfast', '-crf',
        str(crf), '-threads', '1']) for crf in (28, 40)]
    return src, dists


def element_messages(src, dist):
    """cudacompare's compare-vmaf and compare messages for the pair, read
    from a pipeline of our own: {frame: {field: value}}."""
    Gst.init(None)
    p = Gst.parse_launch(
        'cudacompare name=c metrics=vmaf+psnr+ssim backend=cpu ! fakesink '
        'filesrc location="%s" ! decodebin ! videoconvert ! queue ! '
        'c.ref_sink filesrc location="%s" ! decodebin ! videoconvert ! '
        'queue ! c.dist_sink' % (src, dist))
    bus = p.get_bus()
    frames = {}
    p.set_state(Gst.State.PLAYING)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        msg = bus.timed_pop(Gst.SECOND)
        if msg is None:
            continue
        if msg.type in (Gst.MessageType.EOS, Gst.MessageType.ERROR):
            break
        s = msg.get_structure()
        if msg.type == Gst.MessageType.ELEMENT and s.get_name() in (
                'compare', 'compare-vmaf'):
            f = frames.setdefault(s.get_value('frame'), {})
            for i in range(s.n_fields()):
                name = s.nth_field_name(i)
                if isinstance(s.get_value(name), float):
                    f[name] = s.get_value(name)
    p.set_state(Gst.State.NULL)
    return frames


def check_golden(tmp):
    ref = os.path.join(DATA, 'testsrc2-320x240.h264')
    dist = os.path.join(DATA, 'testsrc2-320x240-crf40.h264')
    r = scan([ref, dist], tmp)
    check(r.returncode == 0, 'golden pair: status 0 (%d: %s)' %
          (r.returncode, r.stderr.strip()))
    rows, doc, _ = outputs(tmp, dist)
    with open(GOLDEN) as fh:
        golden = json.load(fh)
    check(len(rows) == len(golden['frames']) == len(doc['frames']) == 30,
          'golden pair: 30 frames in the CSV and the JSON')
    diff = []
    for g, row, jf in zip(golden['frames'], rows, doc['frames']):
        for k, v in g['metrics'].items():
            if '%.6f' % float(row[k]) != '%.6f' % v or \
                    '%.6f' % jf[k] != '%.6f' % v:
                diff.append((g['frameNum'], k, row[k], jf[k], v))
    check(not diff, 'golden pair: every frame\'s VMAF and features equal to '
          'libvmaf\'s printed digits (%d values; first differences %r)' %
          (30 * 12, diff[:3]))
    pooled = doc['pooled']['vmaf']
    for k in ('min', 'max', 'mean', 'harmonic_mean'):
        check('%.6f' % pooled[k] == '%.6f' %
              golden['pooled_metrics']['vmaf'][k],
              'golden pair: pooled %s %.6f = libvmaf\'s %.6f' %
              (k, pooled[k], golden['pooled_metrics']['vmaf'][k]))


def check_natural(tmp):
    src, dists = natural_clips()
    r = scan([src, '--compare-metrics', 'psnr,ssim', '--worst', '4'] +
             dists, tmp)
    check(r.returncode == 0, 'natural clip, two CRFs: status 0 (%d: %s)' %
          (r.returncode, r.stderr.strip()))
    means = []
    for dist in dists:
        rows, doc, page = outputs(tmp, dist)
        name = os.path.basename(dist)
        msgs = element_messages(src, dist)
        check(len(rows) == len(doc['frames']) == len(msgs) == 40,
              '%s: 40 frames in the CSV, the JSON and the messages (%d, %d, '
              '%d)' % (name, len(rows), len(doc['frames']), len(msgs)))
        fields = FEATURES + ['psnr-y', 'psnr-u', 'psnr-v', 'psnr-avg',
                             'ssim-y', 'ssim-u', 'ssim-v', 'ssim-all']
        diff = [(i, k) for i, (row, jf) in enumerate(zip(rows, doc['frames']))
                for k in fields
                if not (float(row[k]) == jf[k] == msgs[i][k])]
        check(not diff, '%s: every frame\'s %d values in the CSV and the '
              'JSON equal to the element\'s messages, every bit (first '
              'differences %r)' % (name, len(fields), diff[:3]))
        check(rows[1]['pts'] == '0.04' and doc['frames'][1]['pts'] == 0.04,
              '%s: frame 1 at 0.04 s' % name)
        vm = [jf['vmaf'] for jf in doc['frames']]
        means.append(doc['pooled']['vmaf']['mean'])
        check(abs(doc['pooled']['vmaf']['mean'] - sum(vm) / len(vm)) < 1e-9
              and doc['pooled']['vmaf']['min'] == min(vm),
              '%s: the pooled mean and min are the frames\'' % name)
        worst = sorted(range(40), key=lambda i: (vm[i], i))[:4]
        check([w['frame'] for w in doc['worst_frames']] == worst,
              '%s: the worst frames are the 4 lowest-VMAF ones, lowest '
              'first %r' % (name, worst))
        check('<svg class="timeline"' in page and
              page.count('<polyline class="vmaf"') == 1,
              '%s: the report has the VMAF timeline' % name)
        check(page.count('<tr class="worst">') == 4 and
              page.count('alt="reference" src="data:image/jpeg;base64,') ==
              4 and page.count('alt="distorted" src="data:image/jpeg;'
                               'base64,') == 4,
              '%s: the report shows the 4 worst frames, reference and '
              'distorted side by side' % name)
        check(page.rstrip().endswith('</html>'), '%s: the page is whole' %
              name)
    check(means[0] > means[1] + 5, 'CRF 28 scores above CRF 40 (%.3f, '
          '%.3f)' % tuple(means))


def check_errors(tmp):
    ref = os.path.join(DATA, 'testsrc2-320x240.h264')
    missing = os.path.join(tmp, 'no-such-source.mp4')
    r = scan([missing, ref], tmp)
    check(r.returncode == 2 and '--reference %s: no such file' % missing
          in r.stderr, 'a missing SRC: status 2, named (%r)' % r.stderr)
    garbage = os.path.join(tmp, 'garbage.mp4')
    with open(garbage, 'wb') as fh:
        fh.write(b'not a video\n' * 100)
    r = scan([garbage, ref], tmp)
    check(r.returncode == 2 and r.stderr.startswith(
        'sharpness-scan: --reference %s: ' % garbage) and
        not os.path.exists(os.path.join(tmp, os.path.basename(ref) +
                                        '.vmaf.csv')),
          'an unreadable SRC: status 2, named, no output (%r)' % r.stderr)
    r = scan([ref, '--vmaf-model', 'vmaf_v9', ref], tmp)
    check(r.returncode == 2 and r.stderr.count('sharpness-scan:') == 1 and
          '--vmaf-model vmaf_v9: ' in r.stderr and 'not a built-in model'
          in r.stderr, 'an unknown --vmaf-model: status 2, one error with '
          'the element\'s reason (%r)' % r.stderr)
    # No video: an error naming the file, not a wait for its frames.
    audio = sc.ffmpeg_clip('ref-audio-only.mp4', [
        '-f', 'lavfi', '-i', 'sine=d=1', '-c:a', 'aac'])
    r = scan([audio, ref], tmp)
    check(r.returncode == 2 and '--reference %s has no video stream' %
          audio in r.stderr, 'an audio-only SRC: status 2, named (%r)' %
          r.stderr)
    r = scan([ref, audio], tmp)
    check(r.returncode == 2 and '%s: no video stream' % audio in r.stderr,
          'an audio-only DIST: status 2, named (%r)' % r.stderr)
    small = sc.ffmpeg_clip('ref-small-160x120.mp4', [
        '-i', ref, '-vf', 'scale=160:120', '-c:v', 'libx264', '-preset',
        'veryfast', '-threads', '1'])
    r = scan([ref, small], tmp)
    check(r.returncode == 2 and '160x120' in r.stderr and '320x240' in
          r.stderr and 'scale' in r.stderr,
          'a DIST of another size: status 2, both sizes named (%r)' %
          r.stderr)
    short = sc.ffmpeg_clip('ref-short-20.mp4', [
        '-i', ref, '-frames:v', '20', '-c:v', 'libx264', '-preset',
        'veryfast', '-crf', '30', '-threads', '1'])
    # Another pixel format: converted to the reference's (FFmpeg's libvmaf
    # filter does so too), said in a note.  VMAF is of the luma alone,
    # which 4:2:2 -> 4:2:0 leaves as it is: the scores equal those of the
    # same frames converted by FFmpeg beforehand (lossless FFV1).
    d422 = sc.ffmpeg_clip('ref-422.mp4', [
        '-i', ref, '-pix_fmt', 'yuv422p', '-c:v', 'libx264', '-preset',
        'veryfast', '-crf', '30', '-threads', '1'])
    d420 = sc.ffmpeg_clip('ref-422-as-420.mkv', [
        '-i', d422, '-pix_fmt', 'yuv420p', '-c:v', 'ffv1', '-threads', '1'])
    r = scan([ref, d422, d420], tmp)
    _, doc422, _ = outputs(tmp, d422)
    _, doc420, _ = outputs(tmp, d420)
    check(r.returncode == 0 and len(doc422['frames']) == 30 and
          [f['vmaf'] for f in doc422['frames']] ==
          [f['vmaf'] for f in doc420['frames']] and
          any('(Y42B)' in n and '(I420)' in n for n in doc422['notes']) and
          not doc420['notes'],
          'a 4:2:2 DIST of a 4:2:0 SRC: converted, noted, every VMAF equal '
          'to FFmpeg\'s conversion\'s (%r)' % doc422['notes'])
    r = scan([ref, short], tmp)
    rows, doc, page = outputs(tmp, short)
    check(r.returncode == 0 and len(rows) == 20 and
          doc['compared_frames'] == 20 and doc['reference_frames'] == 30 and
          doc['distorted_frames'] == 20 and len(doc['notes']) == 1 and
          'has 30' in doc['notes'][0] and 'has 20' in doc['notes'][0] and
          'has 30' in r.stderr,
          'a DIST with fewer frames: its 20 compared, both counts in a note '
          '(%r)' % doc['notes'])


def check_signal(tmp):
    long_ref = sc.ffmpeg_clip('ref-long.mp4', [
        '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=25:d=40', '-c:v',
        'libx264', '-preset', 'veryfast', '-crf', '16', '-threads', '1'])
    first = sc.ffmpeg_clip('ref-long-first.mp4', [
        '-i', long_ref, '-frames:v', '10', '-c:v', 'libx264', '-preset',
        'veryfast', '-crf', '35', '-threads', '1'])
    second = sc.ffmpeg_clip('ref-long-crf35.mp4', [
        '-i', long_ref, '-c:v', 'libx264', '-preset', 'veryfast', '-crf',
        '35', '-threads', '1'])
    proc = subprocess.Popen([sc.TOOL, '--reference', long_ref,
                             '--output-dir', tmp, first, second],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        # The first DIST's summary line: it is written; the second runs.
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        line = proc.stdout.readline().decode() if ready else ''
        check(os.path.basename(first) in line, 'the first DIST finished '
              'before the signal (%r)' % line)
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read().decode()
    check(rc == 130, 'SIGINT: status 130 (%s; %r)' % (rc, err))
    rows, doc, page = outputs(tmp, first)
    check(len(rows) == len(doc['frames']) == 10 and
          page.rstrip().endswith('</html>'),
          'SIGINT: the finished DIST\'s CSV, JSON and page are complete')
    check(not any(n.startswith(os.path.basename(second)) for n in
                  os.listdir(tmp)),
          'SIGINT: no output for the DIST it stopped')
    check(not [n for n in os.listdir(tmp) if n.endswith('.part') or
               n.startswith('.')], 'SIGINT: no temporary file left')


def main():
    sc.require_ffmpeg()
    if not sc.have_encoder('libx264'):
        scaffold.skip('ffmpeg has no libx264')
    sc.require_elements('cudacompare', 'avdec_h264')
    with tempfile.TemporaryDirectory(prefix='scan-reference-',
                                     ignore_cleanup_errors=True) as tmp:
        for part in (check_golden, check_natural, check_errors,
                     check_signal):
            sub = os.path.join(tmp, part.__name__)
            os.mkdir(sub)
            part(sub)
    check.finish('scan-reference')


if __name__ == '__main__':
    main()
