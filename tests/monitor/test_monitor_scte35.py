#!/usr/bin/python3
# sharpness-monitor's ANSI/SCTE 35 (transport/sharpness-scte35.c, tools/
# monitor/monitor-transport.c, monitor-scte35.c) on a real multiplex:
# FFmpeg's constant-rate TS (H.264, AAC), into which ts-scte35-tool
# (tests/transport) declares a SCTE 35 PID in the PMT and writes the SCTE
# 35 test stream's cues (scte35-stream.c: a time_signal, a splice_insert
# over two packets with segmentation descriptors, one whose pts_time +
# pts_adjustment wraps past 2^33, one with a bad CRC_32, a splice_null, a
# component splice_insert, a time_signal with segmentation descriptors, a
# splice_schedule; one a second from 1 s) in place of null packets:
# - each splice_insert and time_signal an event (kind scte35) with its
#   command, PID, PTS (pts_adjustment added) and fields as written, in
#   order; the bad section none;
# - /metrics: sharpness_scte35_commands_total by command and
#   sharpness_scte35_errors_total (crc_error 1) equal to the analyser's
#   own on the file (ts-scte35-tool analyse), promtool-clean where
#   promtool is;
# - the no-scte35 alarm (onset 3 s) raised on the same programme without
#   cues, not on the one with them (onset 10 s; cues at most 3 s apart,
#   the last 5 s before the end);
# - the API's channel and the page tile's cue badge (headless Chromium);
# - --check-config refuses a bad no-scte35 setting, naming its line.
# The monitor plays the files at their pace (the cue-less one 60 s, so
# that its alarm is on while the page is read), with an idle UDP channel
# beside them so that it stays up once they end; it is stopped by its PID.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import socket
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))

import monitor_common as mc  # noqa: E402

SECONDS = 12
NONE_SECONDS = 60
RATE = 1000000
WRAP = 1 << 33
# The cues the tool writes (scte35-stream.c), as events: (command, fields).
EXPECTED = [
    ('time_signal', {'pts': 1000000}),
    ('splice_insert', {'splice_event_id': 0x5000, 'pts': 2000000 + 900,
                       'pts_adjustment': 900, 'out_of_network': True,
                       'duration': 30 * 90000 + 17, 'auto_return': True,
                       'unique_program_id': 0x1234, 'avail_num': 2,
                       'avails_expected': 3, 'segmentation_ids': [
                           0x60, 0x61, 0x62]}),
    ('splice_insert', {'splice_event_id': 0x5001,
                       'pts': (WRAP - 1000 + 91000) % WRAP}),
    ('splice_insert', {'splice_event_id': 0x5003, 'program_splice': False,
                       'component_count': 3, 'pts': None}),
    ('time_signal', {'pts': 7 * 90000, 'segmentation_ids': [0x70, 0x71]}),
]


def counts(text, metric, channel, label):
    out = {}
    pre = '%s{channel="%s",%s="' % (metric, channel, label)
    for ln in text.splitlines():
        if ln.startswith(pre):
            name, v = ln[len(pre):].split('"} ')
            out[name] = int(float(v))
    return out


def cue_fields(e):
    got = dict(e)
    got['segmentation_ids'] = [g['segmentation_event_id']
                               for g in e.get('segmentation', [])]
    return got


def check_config(procs, fx):
    cfg = mc.write_config(procs, [{
        'name': 'ts', 'uri': 'udp://%s:5000' % mc.HOST,
        'alarms': {'no-scte35': {'enabled': True, 'onset': -1}}}])
    r = subprocess.run([mc.TOOL, '--cpu', '--check-config', '--config', cfg],
                       capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    fx.check(r.returncode == 2 and 'no-scte35' in r.stderr and ':' in
             r.stderr, '--check-config refuses no-scte35 onset -1 (%s)' %
             r.stderr.strip())


def page_badge(procs, mon, fx):
    dom = mc.page_dom(procs, mon.port)
    if dom is None:
        mc.log('skip: chromium missing (the page\'s badge)')
        return
    def badge(name):
        i = dom.find('data-name="%s"' % name)
        i = dom.find('class="scte"', i) if i >= 0 else -1
        return dom[i:dom.find('</div>', i)] if i >= 0 else ''
    b = badge('cues.ts')
    fx.check('title="ANSI/SCTE 35: 5 cues, last time_signal"' in b and
             '>CUE 5</b>' in b and '<b class="on"' not in b,
             'the page: the cues tile\'s badge, 5 cues, green (%s)' % b)
    b = badge('none.ts')
    fx.check('<b class="on"' in b and '>CUE 0</b>' in b, 'the page: the '
             'cue-less tile\'s badge red (no-scte35 on) (%s)' % b)


def main():
    mc.require_tools('ffmpeg')
    tool = os.environ.get('TS_SCTE35_TOOL')
    if not tool:
        mc.log('skip: TS_SCTE35_TOOL unset')
        sys.exit(77)
    fx = mc.Failures()
    with mc.Procs() as procs:
        check_config(procs, fx)
        clean = mc.constant_rate_ts(SECONDS, RATE)
        # Without cues, long enough for its alarm to be on at the page.
        none = mc.constant_rate_ts(NONE_SECONDS, RATE)
        cues = os.path.join(procs.tmp, 'cues.ts')
        subprocess.run([tool, 'inject', clean, cues], check=True, timeout=60)
        r = subprocess.run([tool, 'analyse', cues], check=True,
                           capture_output=True, text=True, timeout=60)
        ref = dict((w[0], int(w[1])) for w in (ln.split() for ln in
                                               r.stdout.splitlines())
                   if len(w) == 2 and w[0] != 'cpu')
        idle = 'udp://%s:%d' % (mc.HOST, mc.free_port(socket.SOCK_DGRAM))
        cfg = mc.write_config(procs, [
            # Cues at most 3 s apart, the last one 5 s before the end;
            # the demuxer reads a file up to about 2 s ahead of its pace,
            # and the alarm times the cues as they are read.
            {'name': 'cues.ts', 'uri': 'file://' + cues,
             'alarms': {'no-scte35': {'enabled': True, 'onset': 10}}},
            {'name': 'none.ts', 'uri': 'file://' + none,
             'alarms': {'no-scte35': {'enabled': True, 'onset': 3}}},
            {'name': 'idle', 'uri': idle}])
        mon = mc.start_monitor(procs, ['--config', cfg])
        mc.wait_until('the cues read', lambda: len(
            [e for e in mc.events(mon, 'cues.ts') if e['kind'] == 'scte35'])
            >= len(EXPECTED), SECONDS + 30)
        ev = [e for e in mc.events(mon, 'cues.ts') if e['kind'] == 'scte35']
        fx.check([e['event'] for e in ev] == [c for c, _ in EXPECTED],
                 'the cues\' events, in order (%s)' % [e['event']
                                                      for e in ev])
        for i, (cmd, want) in enumerate(EXPECTED):
            got = cue_fields(ev[i]) if i < len(ev) else {}
            bad = {k: (got.get(k), v) for k, v in want.items()
                   if got.get(k) != v}
            fx.check(not bad and got.get('pid') == 0x1F0, 'cue %d (%s): '
                     'its fields as written, PID 0x1F0 (%s)' % (i, cmd, bad
                                                               or got))
        fx.check(ev and ev[0].get('pts_seconds') == 1000000 / 90000.0,
                 'the time_signal\'s PTS in seconds (%s)' % (
                     ev and ev[0].get('pts_seconds')))
        mc.wait_until('the none channel\'s no-scte35 alarm', lambda: [
            e for e in mc.events(mon, 'none.ts') if e['kind'] == 'no-scte35'
            and e['event'] == 'start'], SECONDS + 30)
        page_badge(procs, mon, fx)
        # The last section (8 s) read.
        mc.wait_until('the splice_schedule read', lambda: mc.get_json(
            mon, '/api/channels/cues.ts')['transport']['scte35']['commands']
            ['splice_schedule'], SECONDS + 30)
        text = mc.get(mon, '/metrics')[1].decode()
        got = counts(text, 'sharpness_scte35_commands_total', 'cues.ts',
                     'command')
        got.update(counts(text, 'sharpness_scte35_errors_total', 'cues.ts',
                          'error'))
        want = {k: v for k, v in ref.items() if k in got or
                k in ('crc_error', 'malformed', 'splice_insert')}
        fx.check(got == {k: ref[k] for k in got} and got.get(
            'splice_insert') == 3 and got.get('time_signal') == 2 and
            got.get('crc_error') == 1 and len(got) == 10, '/metrics: the '
            'commands and errors equal ts-scte35-tool analyse (%s / %s)' % (
                got, want))
        fx.check(not counts(text, 'sharpness_scte35_commands_total',
                            'none.ts', 'command'),
                 '/metrics: no SCTE 35 series where no PID is declared')
        bad = [(e['event'], e['start_utc'], e.get('end_utc'))
               for e in mc.events(mon, 'cues.ts') if e['kind'] == 'no-scte35']
        fx.check(not bad, 'no no-scte35 alarm on the channel with cues (%s; '
                 'cues at %s)' % (bad, [e['time'] for e in ev]))
        ch = mc.get_json(mon, '/api/channels/cues.ts')
        sc = ch.get('transport', {}).get('scte35', {})
        fx.check(sc.get('commands', {}).get('splice_insert') == 3 and
                 sc.get('errors', {}).get('crc_error') == 1 and
                 sc.get('pids') == 1 and sc.get('last', {}).get('event') ==
                 'time_signal' and sc['last'].get('pts') == 7 * 90000, 'the API: the channel\'s SCTE 35 counts and '
                 'last cue (%s)' % sc)
        if shutil.which('promtool'):
            r = subprocess.run(['promtool', 'check', 'metrics'],
                               input=text.encode(), capture_output=True,
                               timeout=60)
            fx.check(r.returncode == 0 and not r.stdout.strip() and
                     not r.stderr.strip(), 'promtool check metrics: nothing '
                     'to report (%s%s)' % (r.stdout.decode()[:500],
                                           r.stderr.decode()[:500]))
        else:
            mc.log('skip: promtool missing (Debian package prometheus)')
        fx.check(procs.stop(mon) == 0, 'the monitor stopped cleanly')
    fx.finish()


if __name__ == '__main__':
    main()
