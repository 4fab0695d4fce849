#!/usr/bin/python3
# sharpness-monitor's loudness (loudness/, tools/monitor/monitor-loudness.c)
# on a generated stereo 1 kHz tone at -23.0 dBFS per channel (EBU Tech
# 3341's test 1: it reads -23.0 LUFS, within +-0.1 LU), with a picture,
# PCM (no codec between the samples and the meter):
# - /metrics and the API: momentary, short-term and integrated loudness
#   -23.0 +- 0.1 LUFS, loudness range 0 +- 0.1 LU, true peak -23.0 dBTP
#   (+0.2 / -0.4, Tech 3341's tolerance); the integrated loudness and the
#   true peak equal FFmpeg's ebur128 filter (peak=true) on the same file
#   within 0.1 LU and 0.2 dB; promtool-clean;
# - the alarms (off by default, enabled here): a channel with the default
#   limits (-23 +- 1 LUFS, -1 dBTP) raises none; the same file with loudness-high at -24 LUFS and
#   true-peak at -30 dBTP raises both (loudness-high after its 2 s onset,
#   with the short-term values in its event), and not loudness-low; a
#   video-only file with no-audio enabled raises it (after the start-up
#   grace and its onset), the tone's channel does not;
# - the page (headless Chromium): that channel's loudness bar, red, at
#   -23.0 LUFS.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))

import monitor_common as mc  # noqa: E402

LEVEL = -23.0                    # dBFS per channel, the expected LUFS
AMPLITUDE = 10 ** (LEVEL / 20)
SECONDS = 40


def make_tone(path):
    tone = '%.9f*sin(2*PI*1000*t)' % AMPLITUDE
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi',
                    '-i', 'testsrc2=s=160x90:r=10:d=%d' % SECONDS, '-f',
                    'lavfi', '-i', 'aevalsrc=%s|%s:s=48000:d=%d' % (
                        tone, tone, SECONDS), '-c:v', 'libx264', '-preset',
                    'veryfast', '-g', '10', '-pix_fmt', 'yuv420p', '-c:a',
                    'pcm_f32le', '-threads', '1', path], check=True,
                   timeout=120)


def make_mute(path):
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi',
                    '-i', 'testsrc2=s=160x90:r=10:d=%d' % SECONDS, '-an',
                    '-c:v', 'libx264', '-preset', 'veryfast', '-g', '10',
                    '-pix_fmt', 'yuv420p', '-threads', '1', path], check=True,
                   timeout=120)


def ffmpeg_ebur128(path):
    """(integrated LUFS, true peak dBTP) of FFmpeg's ebur128 summary."""
    r = subprocess.run(['ffmpeg', '-nostdin', '-hide_banner', '-i', path,
                        '-vn', '-af', 'ebur128=peak=true', '-f', 'null', '-'],
                       capture_output=True, text=True, timeout=120)
    summary = r.stderr[r.stderr.rfind('Summary:'):]
    i = float(re.search(r'I:\s+(-?[\d.]+) LUFS', summary).group(1))
    p = float(re.search(r'Peak:\s+(-?[\d.]+) dBFS', summary).group(1))
    return i, p


def page_bar(procs, mon, fx):
    """The page in headless Chromium: the loud tile's loudness bar, red,
    at -23 LUFS."""
    dom = mc.page_dom(procs, mon.port)
    if dom is None:
        mc.log('skip: chromium missing (the page\'s loudness bar)')
        return
    i = dom.find('data-name="loud"')
    i = dom.find('class="lu', i) if i >= 0 else -1
    bar = dom[i:dom.find('</div>', i)] if i >= 0 else ''
    fx.check(bar.startswith('class="lu on"') and 'short-term -23.0 LUFS' in
             bar and 'loudness alarm' in bar and 'width: 54%' in bar,
             'the page: the loud tile\'s bar, red, at -23.0 LUFS (%s)' %
             (bar[:400] or dom[-300:]))


def gauge(text, name, channel):
    m = re.search(r'^%s\{channel="%s"\} (\S+)$' % (name, channel), text,
                  re.M)
    return float(m.group(1)) if m else None


def main():
    mc.require_tools('ffmpeg')
    fx = mc.Failures()
    with mc.Procs() as procs:
        tone = os.path.join(procs.tmp, 'tone.mkv')
        make_tone(tone)
        mute = os.path.join(procs.tmp, 'mute.mkv')
        make_mute(mute)
        on = {'enabled': True}
        cfg = mc.write_config(procs, [
            {'name': 'tone', 'uri': 'file://' + tone,
             'alarms': {'loudness-high': on, 'loudness-low': on,
                        'true-peak': on, 'no-audio': on}},
            {'name': 'mute', 'uri': 'file://' + mute,
             'alarms': {'no-audio': on}},
            {'name': 'loud', 'uri': 'file://' + tone,
             'alarms': {'loudness-high': {'enabled': True, 'level': -24.0,
                                          'onset': 2.0},
                        'loudness-low': on,
                        'true-peak': {'enabled': True, 'level': -30.0}}}])
        mon = mc.start_monitor(procs, ['--config', cfg])

        def chan(n):
            return mc.get_json(mon, '/api/channels/' + n)
        # Short-term needs 3 s, the onset 2 s more: 8 s of the file.
        mc.wait_until('the loud channel\'s loudness-high alarm', lambda: chan(
            'loud')['alarms']['loudness-high']['active'], 30)
        status, body = mc.get(mon, '/metrics')
        text = body.decode()
        for name, want, lo, hi in (
                ('sharpness_loudness_momentary_lufs', LEVEL, 0.1, 0.1),
                ('sharpness_loudness_short_term_lufs', LEVEL, 0.1, 0.1),
                ('sharpness_loudness_integrated_lufs', LEVEL, 0.1, 0.1),
                ('sharpness_loudness_range_lu', 0.0, 0.1, 0.1),
                ('sharpness_true_peak_dbtp', LEVEL, 0.4, 0.2)):
            v = gauge(text, name, 'tone')
            fx.check(v is not None and want - lo <= v <= want + hi,
                     '%s %s: %s (Tech 3341: %g +%g/-%g)' % (
                         name, 'tone', v, want, hi, lo))
        ld = chan('tone')['loudness']
        fx.check(abs(ld['short_term'] - gauge(
            text, 'sharpness_loudness_short_term_lufs', 'tone')) < 0.5,
            'the API\'s loudness as /metrics (%s)' % ld)
        fi, fp = ffmpeg_ebur128(tone)
        mi = gauge(text, 'sharpness_loudness_integrated_lufs', 'tone')
        mp = gauge(text, 'sharpness_true_peak_dbtp', 'tone')
        fx.check(mi is not None and abs(mi - fi) <= 0.1 and mp is not None
                 and abs(mp - fp) <= 0.2, 'FFmpeg ebur128=peak=true on the '
                 'same file: I %.1f LUFS (monitor %s), true peak %.1f dBTP '
                 '(monitor %s)' % (fi, mi, fp, mp))
        # Pictures without audio: no-audio once the 10 s start-up grace
        # and its 2 s onset have passed; the tone's channel has audio.
        mc.wait_until('the mute channel\'s no-audio alarm', lambda: chan(
            'mute')['alarms']['no-audio']['active'], 30)
        fx.check('loudness' not in chan('mute'), 'mute: no loudness '
                 'reading')
        for name in ('loudness-high', 'loudness-low', 'true-peak',
                     'no-audio'):
            fx.check(not chan('tone')['alarms'][name]['active'],
                     'tone (defaults): no %s alarm' % name)
        loud = chan('loud')['alarms']
        fx.check(loud['true-peak']['active'] and not loud['loudness-low'][
            'active'], 'loud: true-peak on (-30 dBTP), loudness-low off '
            '(%s)' % loud)
        ev = [e for e in mc.events(mon, 'loud') if e['kind'] ==
              'loudness-high']
        fx.check(len(ev) == 1 and ev[0]['event'] == 'start' and
                 -24.0 < ev[0]['min'] and abs(ev[0]['max'] - LEVEL) <= 0.1,
                 'loud: one loudness-high start, its short-term values over '
                 '-24 LUFS, up to %g (%s)' % (LEVEL, ev))
        page_bar(procs, mon, fx)
        mc.check_promtool_metrics(fx, body)
        fx.check(procs.stop(mon) == 0, 'the monitor stopped cleanly')
    fx.finish()


if __name__ == '__main__':
    main()
