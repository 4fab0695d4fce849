#!/usr/bin/python3
# sharpness-scan --report: the HTML page opens in headless Chromium with no
# console error and no network access, and its screenshot shows the
# timeline (score line, the blurry, black and frozen segments each in its
# colour, the legend) and the thumbnails.  The report is of the scene clip
# (scan_common.scene_clip: every kind of segment) and the test clip;
# SHARPNESS_SCAN_SCREENSHOT=PATH keeps the screenshot (docs/reference/scan-report.png
# is one).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage')

import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import numpy as np  # noqa: E402
from skimage import io  # noqa: E402

import scan_common as sc  # noqa: E402

CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu',
                  '--disable-quic', '--no-first-run',
                  '--disable-background-networking',
                  '--disable-component-update', '--disable-sync',
                  '--hide-scrollbars', '--enable-logging=stderr', '--v=0']


def main():
    browser = scaffold.chromium()
    sc.require_ffmpeg()
    mp4, _ = sc.test_clips()
    scene = sc.scene_clip()
    tmp = tempfile.mkdtemp(prefix='scan-report-')
    html = os.path.join(tmp, 'report.html')
    png = os.path.join(tmp, 'shot.png')
    # From one folder: the report names them as given, as in the docs.
    # Linked there: the test clip may sit in the clip cache, not beside
    # the scene clip (clip_cache.py).
    for path in (scene, mp4):
        os.symlink(os.path.abspath(path),
                   os.path.join(tmp, os.path.basename(path)))
    sc.run('--report', html, '-q', os.path.basename(scene),
           os.path.basename(mp4), check=0, cwd=tmp)
    text = open(html, encoding='utf-8').read()
    failures = []
    first = text[:text.index('<section', text.index('<section') + 1)]
    kinds = re.findall(r'<tr class="(blur|black|freeze)">', first)
    if set(kinds) != {'blur', 'black', 'freeze'}:
        failures.append('want segments of every kind in the scene clip\'s '
                        'table, got %s' % kinds)

    # Self-contained: nothing to fetch (the SVG namespace is a name).
    refs = set(re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', text))
    remote = [r for r in refs if not r.startswith('data:')]
    if remote:
        failures.append('references outside the page: %r' % remote)
    if first.count('data:image/jpeg;base64,') != 2 * len(kinds):
        failures.append('want a thumbnail and a crop per segment')
    if text.count('data:image/jpeg;base64,') < 2 * len(kinds) + 4:
        failures.append('want the test clip\'s 2 thumbnails and 2 crops')

    profile = tempfile.mkdtemp(prefix='chromium-', dir=tmp)
    res = subprocess.run([browser] + CHROMIUM_FLAGS + [
        '--user-data-dir=' + profile, '--window-size=1200,1150',
        '--screenshot=' + png, 'file://' + html],
        capture_output=True, text=True, timeout=120)
    console = [ln for ln in res.stderr.splitlines()
               if 'CONSOLE' in ln or 'Failed to load' in ln or
               'net::ERR' in ln]
    if res.returncode != 0 or not os.path.exists(png):
        failures.append('chromium failed (%d): %s' % (res.returncode,
                                                      res.stderr[-2000:]))
    if console:
        failures.append('console messages: %r' % console)

    if os.path.exists(png):
        img = io.imread(png)[:, :, :3].astype(int)
        r, g, b = img[..., 0], img[..., 1], img[..., 2]
        def near(colour, tol=8):
            return ((abs(r - colour[0]) <= tol) & (abs(g - colour[1]) <= tol)
                    & (abs(b - colour[2]) <= tol))
        # Segment shading over white: blurry #e33 at 28 %; black #111 at
        # 55 % (over a frozen segment's shading where both are); frozen
        # #1d8fd0 at 35 %.
        shade = near((245, 199, 199))
        black = near((124, 124, 124)) | near((88, 106, 116))
        frozen = near((176, 216, 238))
        # The score line: #1f5fbf, antialiased.
        line = (b > 150) & (r < 120) & (b - r > 70)
        # Thumbnails: a photograph has many colours; text and flat fills
        # few.  Count the distinct colours of the lower part of the page.
        lower = img[img.shape[0] // 2:].reshape(-1, 3)
        colours = len(np.unique(lower[:, 0] * 65536 + lower[:, 1] * 256 +
                                lower[:, 2]))
        print('blurry, black, frozen shade pixels %d, %d, %d, score-line '
              'pixels %d, colours in the lower half %d' % (
                  shade.sum(), black.sum(), frozen.sum(), line.sum(),
                  colours))
        if shade.sum() < 3000:
            failures.append('no shaded blurry segments in the screenshot')
        if black.sum() < 3000:
            failures.append('no shaded black segment in the screenshot')
        if frozen.sum() < 3000 and not sc.known_on_gst_1_26(
                'no frozen segment in the report'):
            failures.append('no shaded frozen segment in the screenshot')
        if line.sum() < 300:
            failures.append('no score line in the screenshot')
        if colours < 3000:
            failures.append('no thumbnails in the screenshot')
        out = os.environ.get('SHARPNESS_SCAN_SCREENSHOT')
        if out:
            shutil.copy(png, out)

    shutil.rmtree(tmp, ignore_errors=True)
    if scaffold.verdict(failures):
        sys.exit(1)
    print('report: opens in Chromium, timeline and thumbnails shown')


if __name__ == '__main__':
    main()
