#!/usr/bin/python3
# A still image in the flat state (too few edges for a blur verdict: a
# plain grey picture, a smooth gradient) gets no blur verdict, as flat
# frames of a video get none (issue 29: the JSON said `image.blurry: true`
# beside `states.flat: 1` and `blurry_frames: 0`).  The JSON (blurry
# null), the CSV (blurry empty), the summary line and the report ("no
# verdict (flat: ...)") agree, and --fail-on-blurry does not count it; a
# sharp photograph beside it keeps its verdict, and with the flat state
# off (--flat-threshold 0) the grey picture is judged again.
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
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import scan_common as sc  # noqa: E402

# Each check printed as made, the failed ones counted.
check = scaffold.Checks()


def image(path, source):
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi',
                    '-i', source, '-frames:v', '1', path], check=True,
                   stdin=subprocess.DEVNULL, timeout=60)
    return path


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'pngdec')
    validator = sc.validator()
    with tempfile.TemporaryDirectory(prefix='scan-flat-',
                                     ignore_cleanup_errors=True) as tmp:
        grey = image(os.path.join(tmp, 'grey.png'), 'color=gray:s=320x240')
        ramp = image(os.path.join(tmp, 'ramp.png'),
                     "nullsrc=s=320x240,geq=lum='64+X/5':cb=128:cr=128")
        sharp = image(os.path.join(tmp, 'sharp.png'),
                      'testsrc2=s=320x240')
        j, c, h = (os.path.join(tmp, 'o.' + e) for e in ('json', 'csv',
                                                         'html'))
        rc, out, err = sc.run('--fail-on-blurry', '--json', j, '--csv', c,
                              '--report', h, grey, ramp, sharp)
        check(rc == 0, '--fail-on-blurry: a flat image is not blurry '
              '(exit %d, %s%s)' % (rc, out, err))
        doc = sc.load_json(j)
        validator.validate(doc)
        files = {f['input']: f for f in doc['files']}
        for path in (grey, ramp):
            f = files[path]
            name = os.path.basename(path)
            check(f['summary']['states']['flat'] == 1 and
                  f['summary']['blurry_frames'] == 0 and
                  f['image']['blurry'] is None,
                  '%s: flat, no blurry frame, no verdict in the JSON (%r, '
                  '%r)' % (name, f['image'], f['summary']['states']))
            line = [x for x in out.splitlines() if x.startswith(path + ':')]
            check(len(line) == 1 and
                  line[0].endswith('no verdict (flat: too few edges for '
                                   'a blur verdict)'),
                  '%s: the summary line says no verdict, flat (%r)' % (
                      name, line))
        f = files[sharp]
        check(f['image']['blurry'] is False and
              f['summary']['states']['flat'] == 0,
              'sharp.png keeps its verdict (%r)' % f['image'])
        with open(c, newline='') as fh:
            rows = {r['file']: r for r in csv.DictReader(fh)}
        check(rows[grey]['blurry'] == '' and rows[ramp]['blurry'] == '' and
              rows[grey]['state'] == 'flat' and rows[sharp]['blurry'] == '0',
              'the CSV: blurry empty for the flat images, 0 for the sharp '
              'one')
        with open(h, encoding='utf-8') as fh:
            html = fh.read()
        check(html.count('no verdict (flat: too few edges for a blur '
                         'verdict)') == 2,
              'the report says no verdict, flat, for both flat images')

        # The flat state off: the grey picture is judged (blur-effect 1).
        rc, out, err = sc.run('--fail-on-blurry', '--flat-threshold', '0',
                              '--json', j, grey)
        doc = sc.load_json(j)
        check(rc == 1 and doc['files'][0]['image']['blurry'] is True,
              '--flat-threshold 0: the grey image is judged blurry (exit %d,'
              ' %r)' % (rc, doc['files'][0]['image']))
    check.finish('flat images')


if __name__ == '__main__':
    main()
