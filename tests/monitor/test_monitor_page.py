#!/usr/bin/python3
# The multiviewer page in headless Chromium, at 4 and 32 channels (small
# looping clips, CPU decoding; other counts: SHARPNESS_PAGE_CHANNELS): the
# screenshot shows the thumbnails (the test pattern's colours), the alarmed
# channel's tile in the alarm colour (a black clip: its black alarm is on),
# and the page logs no console error.  Everything on 127.0.0.1; Chromium
# gets its own profile folder.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'PIL')

import shutil  # noqa: E402
import subprocess  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

import monitor_common as mc  # noqa: E402

ALARM = np.array([0xd5, 0x00, 0x00])   # --alarm in monitor-page.html
OK = np.array([0x2e, 0x7d, 0x32])      # --ok


def chromium():
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        if shutil.which(name):
            return name
    scaffold.skip('chromium missing (Debian package chromium)')


def shoot(procs, port, n, size):
    out = os.path.join(procs.tmp, 'page-%d.png' % n)
    profile = os.path.join(procs.tmp, 'chromium-%d' % n)
    r = subprocess.run([
        chromium(), '--headless', '--no-sandbox', '--disable-gpu',
        '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run', '--user-data-dir=' + profile,
        '--enable-logging=stderr', '--v=0', '--hide-scrollbars',
        '--window-size=%d,%d' % size, '--virtual-time-budget=6000',
        '--screenshot=' + out, 'http://%s:%d/' % (mc.HOST, port)],
        capture_output=True, text=True, timeout=120,
        stdin=subprocess.DEVNULL)
    console = [line for line in r.stderr.splitlines()
               if 'CONSOLE' in line or 'Uncaught' in line]
    return out, r.returncode, console


def steps():
    """(channels, window size) of each screenshot: 4 and 32, or the counts
    in SHARPNESS_PAGE_CHANNELS (e.g. "200" for the 200-channel check of
    docs/reference/sharpness-monitor.md, too slow for CI on 2 cores)."""
    counts = os.environ.get('SHARPNESS_PAGE_CHANNELS')
    if not counts:
        return ((4, (1000, 700)), (32, (1600, 1400)))
    # About 8 tiles a row at 1600 pixels, 160 pixels a row of tiles.
    return [(n, (1600, max(700, 200 + 200 * ((n + 7) // 8))))
            for n in map(int, counts.split(','))]


def near(img, colour, tol=12):
    return np.all(np.abs(img.astype(int) - colour) <= tol, axis=2)


def main():
    mc.require_tools('ffmpeg')
    chromium()
    tiny = mc.tiny_ts()
    black = mc.black_ts()
    fx = mc.Failures()

    for n, size in steps():
        with mc.Procs() as procs:
            chans = [{'name': 'black', 'uri': 'file://' + black}] + [
                {'name': 'ch%02d' % i, 'uri': 'file://' + tiny}
                for i in range(1, n)]
            cfg = mc.write_config(procs, chans, defaults={
                'alarms': {'black': {'onset': 1.0}}})
            mon = mc.start_monitor(procs, ['--config', cfg, '--loop',
                                           '--thumbnail-width', '160'])

            def ready():
                cs = mc.get_json(mon, '/api/channels')
                return (all(c['thumbnail_seq'] > 0 for c in cs) and
                        cs[0]['alarms']['black']['active'])
            mc.wait_until('thumbnails and the black alarm', ready,
                          60 + n // 2)
            path, rc, console = shoot(procs, mon.port, n, size)
            img = np.asarray(Image.open(path).convert('RGB'))
            fx.check(rc == 0, '%d channels: screenshot taken' % n)
            fx.check(not console, '%d channels: no console message (%s)' %
                     (n, console[:3]))
            alarm = near(img, ALARM).sum()
            ok = near(img, OK).sum()
            fx.check(alarm > 500, '%d channels: the alarmed tile in the '
                     'alarm colour (%d pixels)' % (n, alarm))
            fx.check(ok > 500 * (n - 1) // 4, '%d channels: the others in '
                     'the OK colour (%d pixels)' % (n, ok))
            # testsrc2's saturated bars: yellow, cyan, magenta in the
            # thumbnails (the page itself uses none of them).
            colourful = sum(near(img, np.array(c), 40).sum() for c in
                            ((191, 191, 0), (0, 191, 191), (191, 0, 191)))
            fx.check(colourful > 200 * (n - 1), '%d channels: the '
                     'thumbnails show the test pattern (%d pixels)' % (
                         n, colourful))
            if fx.n:
                shutil.copy(path, os.path.join(mc.BUILD, 'tests', 'monitor',
                                               os.path.basename(path)))
    fx.finish()


if __name__ == '__main__':
    main()
