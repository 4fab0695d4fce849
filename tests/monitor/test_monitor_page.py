#!/usr/bin/python3
# The multiviewer page in headless Chromium, at 4 and 32 channels (small
# looping clips, CPU decoding): the screenshot shows the thumbnails (the
# test pattern's colours), the alarmed channel's tile in the alarm colour
# (a black clip: its black alarm is on), and the page logs no console
# error.  Other counts (SHARPNESS_PAGE_CHANNELS=1,16,200): a measured run,
# tiny test patterns from a source fragment, Chromium driven over the
# DevTools protocol (cdp.py), checks per tile (thumbnail, colour, label,
# focus, arrow keys), the page's refresh cost and pace, the monitor's CPU,
# and every thumbnail asked for at once ("The page at 1, 16 and 200
# channels" in docs/reference/sharpness-monitor.md).  Everything on
# 127.0.0.1; Chromium gets its own profile folder.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'PIL')

import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

import cdp  # noqa: E402
import monitor_common as mc  # noqa: E402

ALARM = np.array([0xd5, 0x00, 0x00])   # --alarm in monitor-page.html
OK = np.array([0x2e, 0x7d, 0x32])      # --ok


def shoot(procs, port, n, size):
    out = os.path.join(procs.tmp, 'page-%d.png' % n)
    profile = os.path.join(procs.tmp, 'chromium-%d' % n)
    r = subprocess.run([
        scaffold.chromium(), '--headless', '--no-sandbox', '--disable-gpu',
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
    in SHARPNESS_PAGE_CHANNELS (e.g. "1,16,200" for the measured run of
    docs/reference/sharpness-monitor.md: 44 s on 2 cores, kept out of CI;
    its window then grows to the page's height)."""
    counts = os.environ.get('SHARPNESS_PAGE_CHANNELS')
    if not counts:
        return ((4, (1000, 700)), (32, (1600, 1400)))
    # About 8 tiles a row at 1600 pixels, 160 pixels a row of tiles.
    return [(n, (1600, max(700, 200 + 200 * ((n + 7) // 8))))
            for n in map(int, counts.split(','))]


def near(img, colour, tol=12):
    return np.all(np.abs(img.astype(int) - colour) <= tol, axis=2)


# The measured run (SHARPNESS_PAGE_CHANNELS): tiny live test patterns
# from a source fragment (no file, no decoding, no loop rebuilds), so that
# 200 channels cost the monitor a third of one core; Chromium driven over
# the DevTools protocol, with checks per tile and the page's costs.
PATTERN = ('videotestsrc pattern=%s is-live=true horizontal-speed=2 ! '
           'capsfilter caps=video/x-raw,width=64,height=36,framerate=5/1')
MEASURE_S = 10
THUMB_W = 160

TILES_JS = r"""(() => {
  const cols = getComputedStyle(document.getElementById("grid"))
    .gridTemplateColumns.split(" ").length;
  const box = e => { const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  return { cols, summary: document.getElementById("summary").textContent,
    events: [...document.querySelectorAll("#events li")]
      .map(l => l.textContent),
    tiles: [...document.querySelectorAll("#grid .tile")].map(t => {
      const img = t.querySelector("img");
      return { name: t.dataset.name, cls: t.className, hidden: t.hidden,
        tab: t.tabIndex, label: t.getAttribute("aria-label") || "",
        head: box(t.querySelector("h2")), pic: box(img),
        thumb: img.naturalWidth, seq: Number(img.dataset.seq || 0) };
    }) };
})()"""

# Times every update() (the page's refresh of every tile from one
# /api/channels answer) and counts the thumbnails loaded, from here on.
INSTRUMENT_JS = r"""(() => {
  const s = window.__stats = { updates: [], loads: 0, errors: 0 };
  const update = window.update;
  window.update = (...a) => { const t = performance.now(); update(...a);
    s.updates.push(performance.now() - t); };
  for (const i of document.querySelectorAll("#grid img")) {
    i.addEventListener("load", () => s.loads++);
    i.addEventListener("error", () => s.errors++);
  }
  return true;
})()"""

LOADED_JS = ('[...document.querySelectorAll("#grid img")].filter('
             'i => i.naturalWidth > 0).length')


def cpu_s(pid):
    with open('/proc/%d/stat' % pid) as f:
        st = f.read().rsplit(')', 1)[1].split()
    return (int(st[11]) + int(st[12])) / os.sysconf('SC_CLK_TCK')


def region(img, box):
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    return img[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]


def measured(fx, n, size):
    with mc.Procs() as procs:
        chans = [{'name': 'black', 'source': PATTERN % 'black'}] + [
            {'name': 'ch%03d' % i, 'source': PATTERN % 'smpte75'}
            for i in range(1, n)]
        cfg = mc.write_config(procs, chans, defaults={
            'alarms': {'black': {'onset': 1.0}}})
        t = time.monotonic()
        mon = mc.start_monitor(procs, ['--config', cfg, '--thumbnail-width',
                                       str(THUMB_W)])

        def ready():
            cs = mc.get_json(mon, '/api/channels')
            return (all(c['thumbnail_seq'] > 0 for c in cs) and
                    cs[0]['alarms']['black']['active'])
        mc.wait_until('thumbnails and the black alarm', ready, 60)
        mc.log('%d channels: the monitor has every thumbnail and the black '
               'alarm %.1f s after its start' % (n, time.monotonic() - t))
        with cdp.Browser(scaffold.chromium(),
                         os.path.join(procs.tmp, 'chromium'), size,
                         os.path.join(procs.tmp, 'chromium.log')) as b:
            t = time.monotonic()
            b.call('Page.navigate', url='http://%s:%d/' % (mc.HOST, mon.port))
            # Once every tile is there, the window grows to the whole page,
            # so that every tile is painted (and in the screenshot).
            tiles = loaded = 0
            while time.monotonic() - t < 60 and tiles < n:
                time.sleep(0.05)
                tiles = b.eval('document.querySelectorAll("#grid .tile")'
                               '.length') or 0
            height = max(size[1], b.eval('document.documentElement.'
                                         'scrollHeight'))
            b.call('Emulation.setDeviceMetricsOverride', width=size[0],
                   height=height, deviceScaleFactor=1, mobile=False)
            while time.monotonic() - t < 60 and loaded < n:
                loaded = b.eval(LOADED_JS) or 0
                time.sleep(0.05)
            shown = time.monotonic() - t
            fx.check(loaded == n and shown < 10, '%d channels: the page shows '
                     'every thumbnail (%d) %.2f s after it is opened '
                     '(%dx%d)' % (n, loaded, shown, size[0], height))
            b.eval(INSTRUMENT_JS)
            m0, c0, b0 = b.metrics(), cpu_s(mon.pid), b.cpu_seconds()
            time.sleep(MEASURE_S)
            m1, c1, b1 = b.metrics(), cpu_s(mon.pid), b.cpu_seconds()
            st = b.eval('window.__stats')
            path = b.screenshot(os.path.join(procs.tmp, 'page-%d.png' % n))
            page = b.eval(TILES_JS)
            server = {c['name']: c['thumbnail_seq']
                      for c in mc.get_json(mon, '/api/channels')}
            # Keyboard: arrows move the focus along a row and down a column.
            keys_ok = len(page['tiles']) == n
            if n > 1 and keys_ok:
                b.eval('document.querySelector("#grid .tile").focus()')
                b.key('ArrowRight', keycode=39)
                keys_ok = b.eval('document.activeElement.dataset.name') == \
                    page['tiles'][1]['name']
                if n > 1 + page['cols']:
                    b.key('ArrowDown', keycode=40)
                    keys_ok &= b.eval('document.activeElement.dataset.'
                                      'name') == page['tiles'][
                                          1 + page['cols']]['name']
            console = list(b.console)

        per_s = lambda k: (m1[k] - m0[k]) / MEASURE_S  # noqa: E731
        ups = sorted(st['updates']) or [0]
        mc.log('%d channels, %d s measured: page main thread busy %.1f %% '
               '(script %.1f %%, layout %.1f %%, style %.1f %%); %d updates, '
               'update() median %.1f ms, max %.1f ms; %.1f thumbnails/s '
               'loaded; Chromium %.0f %% of a core, the monitor %.0f %%' % (
                   n, MEASURE_S, 100 * per_s('TaskDuration'),
                   100 * per_s('ScriptDuration'),
                   100 * per_s('LayoutDuration'),
                   100 * per_s('RecalcStyleDuration'), len(st['updates']),
                   ups[len(ups) // 2], ups[-1], st['loads'] / MEASURE_S,
                   100 * (b1 - b0) / MEASURE_S,
                   100 * (c1 - c0) / MEASURE_S))
        fx.check(not console, '%d channels: no console message (%s)' % (
            n, console[:3]))
        # About one poll a second, every one in time, and every tile's
        # thumbnail refreshed about once a second, none lagging.
        fx.check(len(st['updates']) >= MEASURE_S - 1 and ups[-1] < 250 and
                 per_s('TaskDuration') < 0.35, '%d channels: the page keeps '
                 'its refresh (%d updates in %d s, the longest %.0f ms, its '
                 'main thread busy %.0f %%)' % (
                     n, len(st['updates']), MEASURE_S, ups[-1],
                     100 * per_s('TaskDuration')))
        fx.check(st['errors'] == 0 and st['loads'] >= 0.7 * n * MEASURE_S,
                 '%d channels: thumbnails refreshed (%d loads in %d s, %d '
                 'errors)' % (n, st['loads'], MEASURE_S, st['errors']))
        tiles = page['tiles']
        lag = max((server.get(t['name'], 0) - t['seq'] for t in tiles),
                  default=0)
        fx.check(len(tiles) == n and lag <= 3, '%d channels: every '
                 'tile shows a recent thumbnail (%d tiles, lag at most %d)'
                 % (n, len(tiles), lag))

        img = np.asarray(Image.open(path).convert('RGB'))
        bad = []
        for t in tiles:
            alarmed = t['name'] == 'black'
            head = region(img, t['head'])
            colour = near(head, ALARM if alarmed else OK).mean() \
                if head.size else 0
            pic = region(img, t['pic'])
            bars = sum(near(pic, np.array(c), 40).mean() for c in
                       ((191, 191, 0), (0, 191, 191), (191, 0, 191))) \
                if pic.size else 0
            want = 'ALARM: black' if alarmed else 'OK'
            if (t['hidden'] or t['tab'] != 0 or t['thumb'] != THUMB_W or
                    colour < 0.5 or (not alarmed and bars < 0.2) or
                    not t['label'].startswith(t['name'] + ': ' + want) or
                    ('alarm' in t['cls'].split()) != alarmed):
                bad.append('%s (%s, header %.2f, bars %.2f, thumbnail %d, '
                           '"%s")' % (t['name'], t['cls'], colour, bars,
                                      t['thumb'], t['label']))
        fx.check(not bad, '%d channels: every tile in its colour with its '
                 'thumbnail, focusable and labelled (%d wrong: %s)' % (
                     n, len(bad), bad[:3]))
        fx.check(keys_ok, '%d channels: the arrow keys move between tiles '
                 '(%d columns)' % (n, page['cols']))
        fx.check(page['summary'] == '%d channels, %d up, 1 in alarm' % (
            n, n) and any(e.endswith('black black start')
                          for e in page['events']),
                 '%d channels: the summary ("%s") and the black alarm\'s '
                 'event' % (n, page['summary']))
        concurrent_thumbnails(fx, mon, [t['name'] for t in tiles])
        shutil.copy(path, os.path.join(mc.BUILD, 'tests', 'monitor',
                                       os.path.basename(path)))


def concurrent_thumbnails(fx, mon, names):
    """Every channel's thumbnail.jpg asked for at once, one connection
    each (a browser keeps to 6 a host; other clients need not)."""
    go = threading.Barrier(len(names) + 1)
    answers = {}

    def one(name):
        go.wait()
        try:
            answers[name] = mc.get(mon, '/api/channels/%s/thumbnail.jpg' %
                                   name, timeout=30)
        except OSError as e:
            answers[name] = (str(e), b'')
    threads = [threading.Thread(target=one, args=(nm,)) for nm in names]
    for th in threads:
        th.start()
    go.wait()
    t = time.monotonic()
    for th in threads:
        th.join()
    took = time.monotonic() - t
    bad = [nm for nm in names if answers[nm][0] != 200 or
           not answers[nm][1].startswith(b'\xff\xd8')]
    t = time.monotonic()
    st, body = mc.get(mon, '/api/thumbnails')
    one_call = time.monotonic() - t
    # Under 0.9 s: a client whose connection the listen backlog dropped
    # waits 1 s for its retransmission.
    fx.check(not bad and took < 0.9 and st == 200 and
             len(json.loads(body)) == len(names),
             '%d channels: %d thumbnail requests at once all answered with '
             'a JPEG in %.2f s (%s); /api/thumbnails: %d kB in %.0f ms' % (
                 len(names), len(names), took, bad[:3], len(body) // 1000,
                 1000 * one_call))


def main():
    mc.require_tools()
    scaffold.chromium()
    fx = mc.Failures()
    if os.environ.get('SHARPNESS_PAGE_CHANNELS'):
        for n, size in steps():
            measured(fx, n, size)
        fx.finish()
        return
    mc.require_tools('ffmpeg')
    tiny = mc.tiny_ts()
    black = mc.black_ts()

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
