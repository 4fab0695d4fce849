#!/usr/bin/python3
# sharpness-scan on the test clip (x264 MP4 and VP9 WebM, 1280x720, 20 s,
# blurs of 0.3 s, 1 s and 3 s and a one-frame glitch, clips.test_clip):
# exactly the segments longer than --min-duration, to the frame; one CSV
# row per frame; JSON valid against docs/reference/scan-report.schema.json; exit
# codes; bad inputs; --jobs 2 == --jobs 1; --shard partitions.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage', 'jsonschema')

import csv  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import jsonschema  # noqa: E402

import scan_common as sc  # noqa: E402

FPS = sc.CLIP.fps
check = scaffold.Checks()


def expected(min_duration):
    return [s for s in sc.SEGMENTS if (s[1] - s[0] + 1) / FPS >= min_duration]


def check_segments(doc, name, min_duration):
    want = expected(min_duration)
    got = doc['segments']
    check(len(got) == len(want), '%s, min-duration %g: %d segments, want %d'
          ' (%s)' % (name, min_duration, len(got), len(want),
                     [(g['start_frame'], g['end_frame']) for g in got]))
    for g, (a, b) in zip(got, want):
        check(abs(g['start_frame'] - a) <= 1 and abs(g['end_frame'] - b) <= 1,
              '%s: segment frames %d-%d, want %d-%d' % (
                  name, g['start_frame'], g['end_frame'], a, b))
        check(abs(g['start'] - a / FPS) <= 1.0 / FPS + 1e-6 and
              abs(g['end'] - (b + 1) / FPS) <= 1.0 / FPS + 1e-6,
              '%s: segment %.3f-%.3f s, want %.3f-%.3f' % (
                  name, g['start'], g['end'], a / FPS, (b + 1) / FPS))
        check(abs(g['duration'] - (g['end'] - g['start'])) < 1e-6 and
              g['min_score'] <= g['mean_score'] <= g['max_score'],
              '%s: duration, min <= mean <= max' % name)


def main():
    mp4, webm = sc.test_clips()
    tmp = tempfile.mkdtemp(prefix='scan-test-')
    with open(sc.SCHEMA, encoding='utf-8') as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    # Help, version, bad command lines.
    rc, out, _ = sc.run('--help')
    check(rc == 0 and 'EXIT STATUS' in out and '--min-duration' in out,
          '--help is a manual page')
    check(sc.run('--metric', 'nosuch', mp4)[0] == 2, 'unknown metric: 2')
    check(sc.run('--shard', '2/2', mp4)[0] == 2, 'bad --shard: 2')
    check(sc.run()[0] == 2, 'no input: 2')

    # Both codecs, default rule, every output.
    j, c, h = (os.path.join(tmp, n) for n in ('a.json', 'a.csv', 'a.html'))
    rc, out, err = sc.run('--json', j, '--csv', c, '--report', h, mp4, webm)
    check(rc == 0, 'scan of the clip: exit 0 (got %d: %s)' % (rc, err))
    first_rc = rc
    lines = out.splitlines()
    check(len(lines) == 2 and all('blurry segment' in ln and 'fps' in ln
                                  for ln in lines),
          'one summary line per file: %r' % lines)
    check(err == '', 'nothing on stderr when not a terminal: %r' % err)
    doc = sc.load_json(j)
    try:
        validator.validate(doc)
        check(True, 'JSON valid against the schema')
    except jsonschema.ValidationError as e:
        check(False, 'JSON valid against the schema: %s' % e.message)
    for f, name in zip(doc['files'], ('mp4', 'webm')):
        check(f['error'] is None and f['stream']['frames'] == sc.CLIP.frames,
              '%s: %d frames, no error' % (name, f['stream']['frames']))
        check_segments(f, name, 0.5)
    metric = doc['files'][0]['settings']['rule_metric']
    st = doc['files'][0]['settings']
    check(metric == 'blur-effect' and st['threshold'] == 0.52 and
          st['relative_threshold'] == 0.8,
          'default rule: blur-effect > 0.52 or relative 0.8 (got %s, %s, %s)'
          % (metric, st['threshold'], st['relative_threshold']))
    with open(c, newline='') as f:
        rows = list(csv.reader(f))
    check(rows[0] == ['file', 'index', 'pts', metric, 'blurry', 'kind',
                      'damaged', 'state', 'black_ratio', 'freeze_mafd',
                      'structure'],
          'CSV header %r' % rows[0])
    for path in (mp4, webm):
        mine = [r for r in rows[1:] if r[0] == path]
        check(len(mine) == sc.CLIP.frames and
              [int(r[1]) for r in mine] == list(range(sc.CLIP.frames)),
              'CSV: one row per frame of %s' % os.path.basename(path))
        check(all(abs(float(r[2]) - int(r[1]) / FPS) < 1e-3 for r in mine),
              'CSV: pts of %s' % os.path.basename(path))
    glitch = [s for s in sc.SEGMENTS if s[0] == s[1]][0][0]
    row = [r for r in rows[1:] if r[0] == mp4][glitch]
    check(row[4] == '1', 'the one-frame glitch (frame %d) is a blurry frame'
          % glitch)

    # The relative rule (laplacian): through the cut to the smooth shot,
    # and to the end of the 3 s blur while the shot pans.
    jl = os.path.join(tmp, 'l.json')
    sc.run('--json', jl, '--metric', 'laplacian', '-q', mp4, webm, check=0)
    for f, name in zip(sc.load_json(jl)['files'], ('mp4', 'webm')):
        check(f['settings']['relative_threshold'] == 0.6 and
              f['settings']['threshold'] == 0, 'laplacian: relative 0.6')
        check_segments(f, 'laplacian, ' + name, 0.5)

    # Shorter segments: the 0.3 s blur too, never the one-frame glitch;
    # with --fail-on-blurry, so that the same scan checks its exit status
    # (each scan of the clip costs seconds of CPU).
    j2 = os.path.join(tmp, 'b.json')
    check(sc.run('--fail-on-blurry', '--json', j2, '--min-duration', '0.2',
                 '-q', mp4)[0] == 1,
          '--fail-on-blurry with blurry segments: 1')
    check_segments(sc.load_json(j2)['files'][0], 'mp4', 0.2)
    # Several metrics: one column each; the first one decides.
    c3 = os.path.join(tmp, 'c.csv')
    sc.run('--csv', c3, '--metric', 'laplacian,tenengrad', '--quiet', mp4,
           check=0)
    with open(c3, newline='') as f:
        hdr = next(csv.reader(f))
    check(hdr == ['file', 'index', 'pts', 'laplacian', 'tenengrad',
                  'blurry', 'kind', 'damaged', 'state', 'black_ratio',
                  'freeze_mafd', 'structure'],
          'two metrics, two columns: %r' % hdr)

    # Exit codes (--fail-on-blurry with blurry segments: above).
    check(sc.run('--fail-on-blurry', '--min-duration', '60', '-q', mp4)[0]
          == 0, '--fail-on-blurry without blurry segment: 0')
    check(first_rc == 0 and doc['files'][0]['segments'],
          'blurry segments, no --fail-on-blurry: 0 (the first scan)')

    # Bad inputs: each gets a clear error line, the good file completes.
    bad = {}
    bad['missing'] = os.path.join(tmp, 'missing.mp4')
    bad['not-video'] = os.path.join(tmp, 'text.mp4')
    with open(bad['not-video'], 'w') as f:
        f.write('this is not a video\n' * 100)
    bad['audio-only'] = os.path.join(tmp, 'audio.m4a')
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi',
                    '-i', 'sine=frequency=440:duration=2', '-c:a', 'aac',
                    bad['audio-only']], check=True, stdin=subprocess.DEVNULL,
                   timeout=60)
    with open(mp4, 'rb') as f:
        data = f.read()
    bad['truncated'] = os.path.join(tmp, 'truncated.mp4')
    with open(bad['truncated'], 'wb') as f:
        f.write(data[:len(data) // 2])
    bad['undecodable'] = os.path.join(tmp, 'garbage.mp4')
    with open(bad['undecodable'], 'wb') as f:
        # The header (moov, faststart) of the clip, then noise.
        f.write(data[:60000] + bytes((i * 7919) % 251 for i in
                                     range(len(data) - 60000)))
    jb = os.path.join(tmp, 'bad.json')
    rc, out, err = sc.run('--json', jb, *bad.values(), mp4)
    check(rc == 2, 'bad inputs: exit 2 (got %d)' % rc)
    errs = err.splitlines()
    for kind, path in bad.items():
        mine = [ln for ln in errs if path in ln and 'error' in ln]
        check(len(mine) == 1, '%s: one error line: %r' % (kind, mine))
    docb = sc.load_json(jb)
    validator.validate(docb)
    check([f['error'] is not None for f in docb['files']] ==
          [True] * len(bad) + [False], 'JSON: errors on the bad inputs only')
    check_segments(docb['files'][-1], 'mp4 after bad inputs', 0.5)
    check(any('audio only' in ln for ln in errs if 'audio.m4a' in ln),
          'audio-only said as such')
    check(any('truncated' in ln for ln in errs if 'truncated.mp4' in ln),
          'truncated said as such')

    # --jobs 2 gives what --jobs 1 gives, in input order.
    inputs = [mp4, webm, bad['missing'], mp4]
    outs = {}
    for jobs in (1, 2):
        jj = os.path.join(tmp, 'jobs%d.json' % jobs)
        cc = os.path.join(tmp, 'jobs%d.csv' % jobs)
        sc.run('--jobs', jobs, '--json', jj, '--csv', cc, '-q', *inputs)
        with open(cc) as f:
            outs[jobs] = (sc.strip_timing(sc.load_json(jj)), f.read())
    check(outs[1] == outs[2], '--jobs 2 == --jobs 1 (JSON and CSV)')

    # --shard I/N partitions the inputs.
    names = []
    for i in range(3):
        js = os.path.join(tmp, 'shard%d.json' % i)
        sc.run('--shard', '%d/3' % i, '--json', js, '-q', *inputs)
        names.append([f['input'] for f in sc.load_json(js)['files']])
    check(names == [[inputs[0], inputs[3]], [inputs[1]], [inputs[2]]],
          '--shard I/3 takes inputs I, I+3...: %r' % names)

    shutil.rmtree(tmp, ignore_errors=True)
    check.finish('sharpness-scan')


if __name__ == '__main__':
    main()
