#!/usr/bin/python3
# sharpness-scan on a folder of photographs (culling blurry shots): a
# directory argument scans its image and video files sorted by name (not
# its other files, not its subdirectories); each still image gets a score
# and a verdict by the absolute threshold (none with the relative rule
# alone), a summary line of its own (no "0 fps", no empty chart), kind
# "image" in the CSV and the JSON (schema version 2), its decoder named,
# and a row with a thumbnail in the report's images table.
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
import tempfile  # noqa: E402

import scan_common as sc  # noqa: E402

# Each check printed as made, the failed ones counted.
check = scaffold.Checks()
SRC = ['-f', 'lavfi', '-i', 'testsrc2=s=640x360:d=1', '-frames:v', '1']


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'pngdec', 'jpegdec')
    validator = sc.validator()
    sharp_png = sc.ffmpeg_clip('photo-sharp.png', SRC)
    sharp_jpg = sc.ffmpeg_clip('photo-sharp.jpg', SRC + ['-q:v', '2'])
    blurry_jpg = sc.ffmpeg_clip('photo-blurry.jpg', SRC + [
        '-vf', 'boxblur=10', '-q:v', '2'])
    clip = sc.small_clip()

    tmp = tempfile.mkdtemp(prefix='scan-images-')
    shoot = os.path.join(tmp, 'shoot')
    os.makedirs(os.path.join(shoot, 'rejects'))
    names = {'IMG_0002.PNG': sharp_png, 'IMG_0001.jpg': sharp_jpg,
             'IMG_0003.jpeg': blurry_jpg, 'clip.mp4': clip}
    for name, src in names.items():
        shutil.copy(src, os.path.join(shoot, name))
    shutil.copy(blurry_jpg, os.path.join(shoot, 'rejects', 'old.jpg'))
    with open(os.path.join(shoot, 'notes.txt'), 'w') as f:
        f.write('not a picture\n')
    inputs = [os.path.join(shoot, n) for n in sorted(names)]

    j, c, h = (os.path.join(tmp, n) for n in ('o.json', 'o.csv', 'o.html'))
    rc, out, err = sc.run('--json', j, '--csv', c, '--report', h, shoot,
                          timeout=120)
    check(rc == 0, 'folder scan: exit 0 (got %d: %s)' % (rc, err))
    doc = sc.load_json(j)
    try:
        validator.validate(doc)
        check(doc['schema_version'] == 3, 'JSON valid, schema_version 3')
    except Exception as e:  # noqa: B902
        check(False, 'JSON valid against the schema: %s' % e)
    got = [f['input'] for f in doc['files']]
    check(got == inputs, 'the folder\'s image and video files, sorted: %r'
          % [os.path.basename(g) for g in got])
    by_name = {os.path.basename(f['input']): f for f in doc['files']}
    want = {'IMG_0001.jpg': (False, 'jpegdec'),
            'IMG_0002.PNG': (False, 'pngdec'),
            'IMG_0003.jpeg': (True, 'jpegdec')}
    for name, (blurry, decoder) in want.items():
        f = by_name.get(name, {})
        image = f.get('image') or {}
        check(f.get('kind') == 'image' and image.get('blurry') is blurry and
              image.get('score') is not None,
              '%s: kind image, blurry %s: %r' % (name, blurry, image))
        check((f.get('stream') or {}).get('decoder') == decoder,
              '%s: decoded by %s' % (name, decoder))
    check(by_name.get('clip.mp4', {}).get('kind') == 'video',
          'clip.mp4: kind video')

    lines = out.splitlines()
    images = [ln for ln in lines if ': image (' in ln]
    check(len(images) == 3 and all(' fps' not in ln for ln in images) and
          all(ln.endswith(': sharp') or ln.endswith(': blurry')
              for ln in images),
          'one line per image, score and verdict, no fps: %r' % images)

    with open(c, newline='') as fh:
        rows = list(csv.DictReader(fh))
    kinds = {os.path.basename(r['file']): r['kind'] for r in rows}
    check(kinds.get('IMG_0003.jpeg') == 'image' and
          kinds.get('clip.mp4') == 'video' and
          [r['blurry'] for r in rows if r['kind'] == 'image'] ==
          ['0', '0', '1'],
          'CSV: kind and verdict per input: %r' % kinds)

    with open(h, encoding='utf-8') as fh:
        html = fh.read()
    table = re.search(r'<table class="images">(.*?)</table>', html, re.S)
    rows_html = re.findall(r'<tr class="image">(.*?)</tr>', table.group(1),
                           re.S) if table else []
    check(len(rows_html) == 3 and
          all('data:image/jpeg;base64,' in r for r in rows_html) and
          sum('blurry' in r for r in rows_html) == 1,
          'report: an images table, 3 rows with thumbnail, score, verdict')
    check(html.count('<svg') == 1, 'report: a chart for the video only '
          '(%d)' % html.count('<svg'))

    # The relative rule alone judges no image; --fail-on-blurry counts a
    # blurry image.
    rc, out, _ = sc.run('--metric', 'laplacian', '--json', j,
                        os.path.join(shoot, 'IMG_0003.jpeg'), timeout=60)
    image = sc.load_json(j)['files'][0]['image']
    check(rc == 0 and image['blurry'] is None and 'no verdict' in out,
          'relative rule alone: no verdict (%r, %s)' % (image, out.strip()))
    rc, _, _ = sc.run('--fail-on-blurry', '-q',
                      os.path.join(shoot, 'IMG_0003.jpeg'), timeout=60)
    check(rc == 1, '--fail-on-blurry and a blurry image: exit 1 (got %d)'
          % rc)

    shutil.rmtree(tmp, ignore_errors=True)
    check.finish('images')


if __name__ == '__main__':
    main()
