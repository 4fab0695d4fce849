#!/usr/bin/python3
# sharpness-scan's content states, on a clip made here (scan_common.
# content_clip: a fade to black, 2.4 s of black, a freeze of 2.4 s, a 1 s
# blur) and its MPEG-TS copy:
# - black and frozen segments whose start and end are those of FFmpeg's
#   blackdetect and freezedetect on the same file, to the frame; the
#   blurry segment to the frame;
# - the MPEG-TS copy, whose frames start at the container's start time,
#   gives the same segments at the same times (stream.start_time apart),
#   in the JSON, the CSV, the summary line and the report;
# - black frames (whose blur-effect is far over the threshold) are never
#   blurry nor in a blurry segment;
# - per-frame state and measurements in the CSV; kinds, states and the
#   content settings in the JSON, valid against the schema; every kind in
#   its colour in the report, with a legend, thumbnails for every segment;
# - --detect none / black, bad --detect values and content option ranges;
# - a metric that scores no frame here (lpc-si without a GPU): exit 2.
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
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import scan_common as sc  # noqa: E402

FPS = 25
# Each check printed as made, the failed ones counted.
check = scaffold.Checks()


def ffmpeg_intervals(path):
    """FFmpeg's black and freeze intervals of @path, (start, end) in s."""
    out = subprocess.run(
        ['ffmpeg', '-nostdin', '-hide_banner', '-i', path, '-vf',
         'blackdetect,freezedetect', '-f', 'null', '-'],
        stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=120).stderr
    black = [(float(a), float(b)) for a, b in re.findall(
        r'black_start:([\d.]+) black_end:([\d.]+)', out)]
    starts = re.findall(r'freeze_start: ([\d.]+)', out)
    ends = re.findall(r'freeze_end: ([\d.]+)', out)
    freeze = [(float(a), float(b)) for a, b in zip(starts, ends)]
    return black, freeze


def intervals(doc, kind):
    return [(s['start'], s['end']) for s in doc['segments']
            if s['kind'] == kind]


def same_times(got, want):
    """To the frame: within a quarter of a frame duration."""
    return len(got) == len(want) and all(
        abs(a - c) < 0.25 / FPS and abs(b - d) < 0.25 / FPS
        for (a, b), (c, d) in zip(got, want))


def check_ffmpeg(doc, name, black, freeze):
    check(same_times(intervals(doc, 'black'), black),
          '%s: black segments %s, blackdetect %s' % (
              name, intervals(doc, 'black'), black))
    check(same_times(intervals(doc, 'freeze'), freeze),
          '%s: frozen segments %s, freezedetect %s' % (
              name, intervals(doc, 'freeze'), freeze))
    blur = [(s['start_frame'], s['end_frame']) for s in doc['segments']
            if s['kind'] == 'blur']
    check(blur == [sc.CONTENT_PARTS['blurry']],
          '%s: blurry segment %s, want %s' % (name, blur,
                                              [sc.CONTENT_PARTS['blurry']]))
    for s in doc['segments']:
        check(s['thumbnail_frame'] is not None and
              s['start_frame'] <= s['thumbnail_frame'] <= s['end_frame'],
              '%s: %s segment %d-%d has a thumbnail of one of its frames '
              '(%s)' % (name, s['kind'], s['start_frame'], s['end_frame'],
                        s['thumbnail_frame']))


def check_guard(doc, rows, name):
    """Black frames score far over the threshold, yet none is blurry."""
    black = [r for r in rows if r['state'] == 'black']
    check(len(black) >= 50 and all(r['blurry'] == '0' for r in black) and
          sum(float(r['blur-effect']) > 0.52 for r in black) >= 50,
          '%s: %d black frames, none blurry, though their blur-effect is '
          'over the threshold, 0.52' % (name, len(black)))
    check(all(float(r['black_ratio']) >= 0.98 for r in black),
          '%s: black frames have black_ratio >= 0.98' % name)
    blur = [s for s in doc['segments'] if s['kind'] == 'blur']
    other = [s for s in doc['segments'] if s['kind'] != 'blur']
    check(not any(b['start_frame'] <= o['end_frame'] and
                  o['start_frame'] <= b['end_frame']
                  for b in blur for o in other),
          '%s: no blurry segment over a black or frozen one' % name)


def main():
    sc.require_ffmpeg()
    mp4, ts = sc.content_clip(), sc.content_clip_ts()
    tmp = tempfile.mkdtemp(prefix='scan-content-')
    out = os.path.join(tmp, 'out')
    black, freeze = ffmpeg_intervals(mp4)
    check(len(black) == 1 and len(freeze) == 2,
          'FFmpeg finds 1 black and 2 frozen stretches (%s, %s)' % (black,
                                                                    freeze))

    # A metric the CPU does not score unasked.
    if os.path.exists('/dev/nvidiactl'):
        print('skipped: lpc-si without --cpu (a CUDA GPU may score it here)')
    else:
        rc, stdout, err = sc.run('--metric', 'lpc-si', '--json',
                                 out + '-lpc.json', mp4)
        check(rc == 2 and '--cpu' in err and 'lpc-si' in err and
              'GPU' in err and not stdout,
              '--metric lpc-si without a GPU: exit 2 with the hint (%d: %s)'
              % (rc, err.strip()))

    rc, stdout, err = sc.run('--cpu', '--json', out + '.json', '--csv',
                             out + '.csv', '--report', out + '.html', mp4,
                             ts)
    check(rc == 0, 'scan: exit 0 (%d) %s' % (rc, err))
    doc = sc.load_json(out + '.json')
    # First what every version of the JSON has: the segments' times.
    times = [[(s['start'], s['end']) for s in f['segments']]
             for f in doc['files']]
    check(times[0] == times[1], 'the ts segments at the mp4 times: %s, %s'
          % tuple(times))
    errors = list(sc.validator().iter_errors(doc))
    check(not errors, 'JSON valid against the schema: %s' % [
        e.message[:200] for e in errors[:3]])
    files = doc['files']
    with open(out + '.csv', newline='') as f:
        rows = list(csv.DictReader(f))
    by_file = {p: [r for r in rows if r['file'] == p] for p in (mp4, ts)}

    # FFmpeg on the MP4; the MPEG-TS copy gives the same at the same times.
    for f, name in zip(files, ('mp4', 'ts')):
        check_ffmpeg(f, name, black, freeze)
        check_guard(f, by_file[f['input']], name)
    strip = [[{k: v for k, v in s.items()} for s in f['segments']]
             for f in files]
    check(strip[0] == strip[1], 'ts: every segment field equal to the mp4')
    check(files[0]['stream']['start_time'] == 0 and
          files[1]['stream']['start_time'] > 0.5,
          'stream.start_time: mp4 0, ts %s' %
          files[1]['stream']['start_time'])
    check([r['pts'] for r in by_file[mp4]] == [r['pts'] for r in by_file[ts]]
          and by_file[ts][0]['pts'] == '0',
          'CSV: the ts frames at the mp4 times, from 0')
    lines = stdout.splitlines()
    times = [ln[ln.index(':'):ln.rindex(';')] for ln in lines]
    check(len(lines) == 2 and times[0] == times[1] and
          '1 black segment, 2.48 s: 2.40-4.88' in lines[0] and
          '2 frozen segments' in lines[0],
          'summary lines: the same times, black and frozen segments named: '
          '%s' % lines)
    states = files[0]['summary']['states']
    check(states['black'] >= 50 and states['frozen'] > 0 and
          states['blurry'] == 25 and files[0]['summary']['black_segments'] ==
          1 and files[0]['summary']['frozen_segments'] == 2,
          'summary: states %s' % states)
    check(set(rows[0]) >= {'state', 'black_ratio', 'freeze_mafd',
                           'structure'} and
          all(r['state'] in ('normal', 'black', 'frozen', 'flat', 'blurry')
              for r in rows),
          'CSV: state and measurements per frame')
    settings = files[0]['settings']
    check(settings['detect'] == 'black,freeze' and settings['flat'] and
          settings['black_min_duration'] == 2 and
          settings['freeze_noise'] == -60,
          'JSON: content settings %s' % settings)

    html = open(out + '.html', encoding='utf-8').read()
    section = html[:html.index('<section', html.index('<section') + 1)]
    check(all(c in section for c in ('class="seg black"',
                                     'class="seg freeze"', 'class="seg"')),
          'report: black, frozen and blurry segments on the timeline')
    check(all(k in section for k in ('sw blur', 'sw black', 'sw freeze',
                                     'class="legend"')),
          'report: a legend of the colours')
    rows_html = re.findall(r'<tr class="(blur|black|freeze)">', section)
    check(sorted(rows_html) == ['black', 'blur', 'freeze', 'freeze'],
          'report: a table row per segment of every kind (%s)' % rows_html)
    check(section.count('data:image/jpeg;base64,') == 8,
          'report: a thumbnail and a crop per segment')
    times = re.findall(r'<td>(0:0\d\.\d{3})</td>', section)
    check(times[:2] == ['0:02.400', '0:04.880'],
          'report: table times from the first frame (%s)' % times[:2])
    ts_section = html[html.index('<section', html.index('<section') + 1):]
    check(re.findall(r'<td>(0:\d\d\.\d{3})</td>', ts_section) ==
          re.findall(r'<td>(0:\d\d\.\d{3})</td>', section),
          'report: the ts table at the mp4 times')

    # --detect picks the kinds; flat stays on.
    rc, _, err = sc.run('--cpu', '-q', '--detect', 'none', '--json',
                        out + '-none.json', mp4)
    doc = sc.load_json(out + '-none.json')['files'][0]
    check(rc == 0 and {s['kind'] for s in doc['segments']} == {'blur'} and
          doc['settings']['detect'] == 'none' and doc['settings']['flat'],
          '--detect none: blurry segments only (%s)' % err)
    rc, _, err = sc.run('--cpu', '-q', '--detect', 'black',
                        '--black-min-duration', '3', '--json',
                        out + '-black.json', mp4)
    doc = sc.load_json(out + '-black.json')['files'][0]
    check(rc == 0 and not intervals(doc, 'black') and
          not intervals(doc, 'freeze') and
          doc['settings']['black_min_duration'] == 3,
          '--detect black --black-min-duration 3: no black segment (2.48 s '
          'of black) and no frozen one')
    for args, words in (
            (['--detect', 'flat'], ['flat', '--flat-threshold']),
            (['--detect', 'black,bogus'], ["'bogus'", 'black, freeze, none']),
            (['--detect', 'none,black'], ['none goes alone']),
            (['--black-ratio', '2'], ['--black-ratio 2', 'from 0 to 1']),
            (['--freeze-min-duration', '-1'], ['--freeze-min-duration -1',
                                               'seconds'])):
        rc, _, err = sc.run(*(args + ['--cpu', mp4]))
        check(rc == 2 and all(w in err for w in words),
              '%s: exit 2 naming %s (%d: %s)' % (' '.join(args), words, rc,
                                                  err.strip()))

    shutil.rmtree(tmp, ignore_errors=True)
    check.finish()
    print('content states: FFmpeg\'s black and frozen segments, the same '
          'times in MP4 and MPEG-TS')


if __name__ == '__main__':
    main()
