#!/usr/bin/python3
# sharpness-scan --merge: 8 small clips (blurs, a fade to black, freezes,
# plain ones) and a missing file, scanned as 4 shards with --json-full and
# merged (parts given out of order), against one --jobs 1 scan of the
# same list: the same JSON (segments of every kind, per-frame scores,
# states and measurements, thumbnails; timing apart), byte for byte the
# same CSV, the same report (frame rates apart), the same exit status.
# The JSON's frames as written: each time the CSV's pts to the nanosecond
# (the CSV's is made from the integer), each number the digits of the
# shortest text that reads back (Python's repr) where that has at most 15,
# else those of %.17g.
# Parts that do not make one scan are refused, naming why: a setting that
# differs (with both values), a shard missing or given twice, a part
# without --json-full; so is an option of the scans given to --merge.
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
import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

import scan_common as sc  # noqa: E402

check = scaffold.Checks()
ENC = ['-c:v', 'libx264', '-preset', 'veryfast', '-qp', '0', '-g', '25',
       '-threads', '1']
# Short stretches count: the clips last about a second.
OPTIONS = ['--cpu', '-q', '--min-duration', '0.2', '--black-min-duration',
           '0.4', '--freeze-min-duration', '0.4']


def clips():
    src = 'testsrc2=s=160x96:r=25:d=%g'
    specs = [
        ('m-blur.mp4', ['-f', 'lavfi', '-i', src % 1.2, '-vf',
                        "gblur=sigma=4:enable='between(t,0.4,0.9)'"]),
        ('m-plain.mp4', ['-f', 'lavfi', '-i', src % 0.8]),
        ('m-black.mp4', ['-f', 'lavfi', '-i', src % 1.6, '-vf',
                         'fade=t=out:st=0.3:d=0.2']),
        ('m-freeze.mp4', ['-f', 'lavfi', '-i', src % 0.6, '-vf',
                          'tpad=stop_mode=clone:stop_duration=0.8']),
        ('m-testsrc.mp4', ['-f', 'lavfi', '-i',
                           'testsrc=s=160x96:r=25:d=1']),
        ('m-bars.mp4', ['-f', 'lavfi', '-i',
                        'smptebars=s=160x96:r=25:d=1']),
        ('m-boxblur.mkv', ['-f', 'lavfi', '-i', src % 1.4, '-vf',
                           "hflip,boxblur=4:enable='gte(t,0.8)'"]),
        ('m-rgb.mp4', ['-f', 'lavfi', '-i', 'rgbtestsrc=s=160x96:r=25:d=0.6',
                       '-pix_fmt', 'yuv420p']),
    ]
    return [sc.ffmpeg_clip(name, args + ENC) for name, args in specs]


def fpsless(html):
    return re.sub(r'; \d+ fps', '', html)


def digits(literal):
    """The significant digits of a number's text."""
    mantissa = re.split('[eE]', literal.lstrip('-'))[0]
    return mantissa.replace('.', '').strip('0')


def check_frame_numbers(json_path, csv_path):
    """The --json-full frames as written, against the CSV and repr."""
    with open(json_path, encoding='utf-8') as f:
        doc = json.load(f, parse_float=str, parse_int=str)
    with open(csv_path, encoding='utf-8', newline='') as f:
        rows = list(csv.DictReader(f))
    times, pts = [], [r['pts'] for r in rows if r['kind'] == 'video']
    bad, numbers = [], 0
    for fl in doc['files']:
        if not fl.get('frames'):
            continue
        fr = fl['frames']
        times += ['' if t is None else t for t in fr['time']]
        columns = list(fr['scores'].values()) + [
            fr['black_ratio'], fr['freeze_mafd'], fr['structure']]
        for lit in (v for col in columns for v in col if v is not None):
            numbers += 1
            shortest = digits(repr(float(lit)))
            if len(shortest) > 15:
                shortest = digits('%.17g' % float(lit))
            if digits(lit) != shortest:
                bad.append((lit, repr(float(lit))))
    check(times == pts and len(times) > 100, 'JSON frame times == the CSV '
          'pts, as text (%d frames)' % len(times))
    check(numbers > 100 and not bad, '%d frame numbers: the shortest text '
          'that reads back (15 digits at most, else %%.17g): %s' % (
              numbers, bad[:3]))


def merge(*args):
    return sc.run('--merge', *args, timeout=120)


def main():
    sc.require_ffmpeg()
    inputs = clips()
    tmp = tempfile.mkdtemp(prefix='scan-merge-')
    inputs.insert(5, os.path.join(tmp, 'missing.mp4'))
    one = [os.path.join(tmp, 'one.' + e) for e in ('json', 'csv', 'html')]
    rc_one, _, _ = sc.run(*(OPTIONS + ['--jobs', '1', '--json-full',
                                       '--json', one[0], '--csv', one[1],
                                       '--report', one[2]] + inputs))
    check_frame_numbers(one[0], one[1])
    parts = []
    for i in range(4):
        parts.append(os.path.join(tmp, 'part-%d.json' % i))
        rc, _, err = sc.run(*(OPTIONS + ['--shard', '%d/4' % i, '--json-full',
                                         '--json', parts[-1]] + inputs))
        check(rc == (2 if i == 1 else 0),
              'shard %d/4: exit %d (the missing file is in shard 1)' % (i,
                                                                         rc))

    merged = [os.path.join(tmp, 'merged.' + e) for e in ('json', 'csv',
                                                         'html')]
    rc, out, err = merge('--json-full', '--json', merged[0], '--csv',
                         merged[1], '--report', merged[2], parts[2],
                         parts[0], parts[3], parts[1])
    check(rc == rc_one == 2 and 'missing.mp4' in err,
          'merge: exit %d, the scan %d, the missing file said (%s)' % (
              rc, rc_one, err.strip()))
    a, b = sc.load_json(one[0]), sc.load_json(merged[0])
    errors = list(sc.validator().iter_errors(b))
    check(not errors, 'merged JSON valid against the schema: %s' % [
        e.message[:200] for e in errors[:3]])
    check([f['input'] for f in b['files']] == inputs,
          'merged: the files in input-list order')
    kinds = {s['kind'] for f in b['files'] for s in f['segments']}
    check(kinds == {'blur', 'black', 'freeze'},
          'the clips have segments of every kind (%s)' % kinds)
    check(all(s['thumbnail'] for f in b['files'] for s in f['segments']),
          'merged: every segment has its thumbnail')
    a, b = sc.strip_timing(a), sc.strip_timing(b)
    check(a == b, 'merged JSON == the --jobs 1 JSON (timing apart)')
    if a != b:
        for fa, fb in zip(a['files'], b['files']):
            for k in fa:
                if fa[k] != fb.get(k):
                    print('  %s: %s: %.300s / %.300s' % (fa['input'], k,
                                                         fa[k], fb.get(k)))
    check(open(one[1], 'rb').read() == open(merged[1], 'rb').read(),
          'merged CSV == the --jobs 1 CSV, byte for byte')
    check(fpsless(open(one[2], encoding='utf-8').read()) ==
          fpsless(open(merged[2], encoding='utf-8').read()),
          'merged report == the --jobs 1 report (frame rates apart)')

    # Parts that are not one scan.
    odd = os.path.join(tmp, 'part-1-odd.json')
    sc.run(*(OPTIONS + ['--threshold', '0.6', '--shard', '1/4',
                        '--json-full', '--json', odd] + inputs))
    rc, _, err = merge('--json', os.path.join(tmp, 'x.json'), parts[0], odd,
                       parts[2], parts[3])
    check(rc == 2 and "'threshold'" in err and '0.52 in' in err and
          '0.6 in' in err and not os.path.exists(os.path.join(tmp,
                                                              'x.json')),
          'a setting that differs: exit 2, named with both values, nothing '
          'written (%s)' % err.strip())
    rc, _, err = merge('--json', os.path.join(tmp, 'x.json'), *parts[:3])
    check(rc == 2 and 'shard 3/4 missing' in err,
          'a shard missing: exit 2, named (%s)' % err.strip())
    rc, _, err = merge('--json', os.path.join(tmp, 'x.json'),
                       *(parts + [parts[3]]))
    check(rc == 2 and 'both shard 3/4' in err,
          'a shard twice: exit 2, named (%s)' % err.strip())
    rc, _, err = merge('--threshold', '0.5', '--json',
                       os.path.join(tmp, 'x.json'), *parts)
    check(rc == 2 and '--threshold is an option of the scans' in err,
          'a scan option given to --merge: exit 2, named (%s)' % err.strip())
    lean = os.path.join(tmp, 'part-3-lean.json')
    sc.run(*(OPTIONS + ['--shard', '3/4', '--json', lean] + inputs))
    rc, _, err = merge('--csv', os.path.join(tmp, 'x.csv'), parts[0],
                       parts[1], parts[2], lean)
    check(rc == 2 and '--json-full' in err,
          'a part without --json-full: exit 2, said (%s)' % err.strip())

    shutil.rmtree(tmp, ignore_errors=True)
    check.finish()
    print('merge: 4 shards merged == one --jobs 1 scan')


if __name__ == '__main__':
    main()
