#!/usr/bin/python3
# sharpness-monitor's process and channel lifecycle (CPU decoding and
# backend, all on 127.0.0.1), issue 29's faults each kept fixed:
# - blocked: a file:// channel on a FIFO without a writer (its open()
#   blocks for ever) beside a normal channel: /healthz and /metrics answer
#   (90 % within 100 ms, every one within 1 s), the normal channel's black
#   alarm fires, the blocked channel's no-signal alarm fires, and SIGTERM
#   ends that alarm with an end event and the process exits within 10 s.
# - signals: SIGUSR1 and SIGUSR2 are ignored; after the event log is moved
#   away (logrotate), SIGHUP reopens it at its path; SIGQUIT stops the
#   monitor with end events for the open alarms, written to the new log.
# - vod: an HLS VOD playlist over HTTP (#EXT-X-ENDLIST) ends as a file
#   does: the monitor exits by itself with no restart and no no-signal
#   alarm; with --loop it plays again, with neither.
# - nosignal: UDP channels with --restart-after 3 (under the 10 s start-up
#   grace): one whose sender never comes raises its no-signal alarm at the
#   grace's end plus its onset (12 s), not ~30 s (each restart began the
#   grace again); one whose sender stops later raises it its onset after
#   the last frame, from the last frame; that sender back 31 s after it
#   stopped (when the backoff would have grown to 16 s) is picked up
#   within 5 s.
# - redact: a channel's error quoting a path with a token: the restart
#   lines on stderr and last_error say why, with the token redacted.
# MONITOR_LIFECYCLE_PARTS=blocked,signals,... runs only those parts.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy')

import json  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import monitor_common as mc  # noqa: E402

CLIP_FRAMES = mc.SECONDS * mc.FPS


def wait_for(cond, seconds, step=0.25):
    """@cond's first true value within @seconds, else None (bounded)."""
    return mc.poll_until(cond, seconds, step)


def read_log(path):
    out = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    out.append(json.loads(line))
    return out


def unmatched_starts(evs):
    """(channel, kind) whose starts outnumber their ends."""
    n = {}
    for e in evs:
        k = (e['channel'], e['kind'])
        n[k] = n.get(k, 0) + (1 if e['event'] == 'start' else -1)
    return sorted(k for k, v in n.items() if v > 0)


def alive(mon):
    try:
        return mon.poll() is None and mc.get(mon, '/healthz', 5)[0] == 200
    except OSError:
        return False


def stop_timed(procs, mon, sig):
    t0 = time.monotonic()
    rc = procs.stop(mon, sig, timeout=30)
    return rc, time.monotonic() - t0


def latencies(mon, path, n):
    out = []
    for _ in range(n):
        t0 = time.monotonic()
        try:
            status, _ = mc.get(mon, path, timeout=5)
        except OSError:
            status = None
        out.append((status, time.monotonic() - t0))
        time.sleep(0.1)
    return out


def part_blocked(fx):
    ts = mc.faults_ts()
    with mc.Procs() as procs:
        fifo = os.path.join(procs.tmp, 'fifo.ts')
        os.mkfifo(fifo)
        log_path = os.path.join(procs.tmp, 'events.jsonl')
        cfg = mc.write_config(procs, [
            {'name': 'blocked', 'uri': 'file://' + fifo},
            {'name': 'normal', 'uri': 'file://' + ts},
        ], defaults={'alarms': mc.CONFIG_ALARMS})
        try:
            mon = mc.start_monitor(procs, ['--config', cfg, '--loop',
                                           '--events', log_path])
        except AssertionError as e:
            fx.check(False, 'blocked: the monitor answers /healthz beside a '
                     'channel blocked in open() (%s)' % e)
            return
        for path in ('/healthz', '/metrics'):
            lat = latencies(mon, path, 20)
            ok = [t for s, t in lat if s == 200]
            secs = sorted(t for _, t in lat)
            fx.check(len(ok) == len(lat) and
                     secs[int(0.9 * len(secs)) - 1] < 0.1 and secs[-1] < 1.0,
                     'blocked: %s answered %d/%d, median %.1f ms, 90th '
                     'percentile %.1f ms, max %.1f ms' % (
                         path, len(ok), len(lat),
                         1000 * statistics.median(secs),
                         1000 * secs[int(0.9 * len(secs)) - 1],
                         1000 * secs[-1]))
        black = wait_for(lambda: [e for e in mc.events(mon, 'normal')
                                  if e['kind'] == 'black'], 30)
        fx.check(bool(black), 'blocked: the normal channel\'s black alarm '
                 'fired')
        ns = wait_for(lambda: [e for e in mc.events(mon, 'blocked')
                               if e['kind'] == 'no-signal'], 30)
        fx.check(bool(ns), 'blocked: the blocked channel\'s no-signal alarm '
                 'fired')
        c = mc.get_json(mon, '/api/channels/blocked')
        fx.check(not c['up'], 'blocked: the blocked channel is not up (%s)'
                 % c['state'])
        rc, took = stop_timed(procs, mon, signal.SIGTERM)
        fx.check(rc == 0 and took < 10, 'blocked: SIGTERM: exit status %s '
                 'in %.1f s' % (rc, took))
        evs = read_log(log_path)
        ends = [e for e in evs if e['channel'] == 'blocked' and
                e['kind'] == 'no-signal' and e['event'] == 'end']
        fx.check(len(ends) == 1, 'blocked: the no-signal alarm ended with '
                 'an end event at the stop (%d)' % len(ends))
        fx.check(not unmatched_starts(evs), 'blocked: every alarm open at '
                 'the stop ended (%s left open)' % unmatched_starts(evs))


def part_signals(fx):
    dark = mc.black_ts()
    with mc.Procs() as procs:
        log_path = os.path.join(procs.tmp, 'events.jsonl')
        cfg = mc.write_config(procs, [
            {'name': 'dark', 'uri': 'file://' + dark,
             'alarms': {'black': {'onset': 1.0}}}])
        mon = mc.start_monitor(procs, ['--config', cfg, '--events',
                                       log_path])
        started = wait_for(lambda: [e for e in mc.events(mon, 'dark')
                                    if e['kind'] == 'black'], 30)
        fx.check(bool(started), 'signals: the black alarm is open')
        for sig in (signal.SIGUSR1, signal.SIGUSR2):
            os.kill(mon.pid, sig)
            time.sleep(1)
            if not fx.check(alive(mon), 'signals: %s ignored, the monitor '
                            'answers' % sig.name):
                return
        os.rename(log_path, log_path + '.1')
        os.kill(mon.pid, signal.SIGHUP)
        fx.check(bool(wait_for(lambda: os.path.exists(log_path), 10)),
                 'signals: SIGHUP opened a new event log at its path')
        fx.check(alive(mon), 'signals: the monitor answers after SIGHUP')
        rc, took = stop_timed(procs, mon, signal.SIGQUIT)
        fx.check(rc == 0 and took < 10, 'signals: SIGQUIT: exit status %s in '
                 '%.1f s' % (rc, took))
        old, new = read_log(log_path + '.1'), read_log(log_path)
        fx.check([(e['kind'], e['event']) for e in old] ==
                 [('black', 'start')], 'signals: the moved log holds the '
                 'start (%s)' % [(e['kind'], e['event']) for e in old])
        fx.check([(e['kind'], e['event']) for e in new] ==
                 [('black', 'end')], 'signals: the new log holds the end '
                 'event written at SIGQUIT (%s)' % [(e['kind'], e['event'])
                                                    for e in new])


def play_vod(fx, procs, uri, loop):
    name = 'vod-loop' if loop else 'vod'
    log_path = os.path.join(procs.tmp, name + '.jsonl')
    cfg = mc.write_config(procs, [{'name': 'vod', 'uri': uri}],
                          defaults={'alarms': {'no-signal': {'onset': 1.0}}})
    mon = mc.start_monitor(procs, ['--config', cfg, '--events', log_path,
                                   '--as-fast-as-possible'] +
                           (['--loop'] if loop else []), name=name)
    seen = {'restarts': 0, 'scored': 0}

    def watch():
        try:
            c = mc.get_json(mon, '/api/channels/vod')
        except (OSError, AssertionError, ValueError):
            return mon.poll() is not None
        seen['restarts'] = max(seen['restarts'], c['restarts'])
        seen['scored'] = max(seen['scored'], c['frames_scored'])
        if loop:
            return c['frames_scored'] > 2 * CLIP_FRAMES + mc.FPS
        return mon.poll() is not None
    done = wait_for(watch, 90)
    if loop:
        fx.check(bool(done), 'vod --loop: played the playlist more than '
                 'twice (%d frames, %d a play)' % (seen['scored'],
                                                   CLIP_FRAMES))
        procs.stop(mon)
    else:
        procs.stop(mon)
    with open(mon.log_path) as f:
        stderr = f.read()
    if not loop:
        fx.check(bool(done) and mon.returncode == 0 and
                 'every channel ended' in stderr, 'vod: the monitor exited by '
                 'itself at the end of the playlist (status %s)' %
                 mon.returncode)
    ns = [e for e in read_log(log_path) if e['kind'] == 'no-signal']
    fx.check(seen['restarts'] == 0 and 'restarting' not in stderr,
             '%s: no restart (%d)' % (name, seen['restarts']))
    fx.check(not ns, '%s: no no-signal alarm (%d events)' % (name, len(ns)))


def part_vod(fx):
    folder = mc.hls_folder()
    with mc.Procs() as procs:
        port = mc.http_folder(procs, folder)
        uri = 'http://%s:%d/index.m3u8' % (mc.HOST, port)
        play_vod(fx, procs, uri, False)
        play_vod(fx, procs, uri, True)


def udp_sender(procs, ts, port, name):
    """The clip looped to UDP at its real-time pace by FFmpeg (-re): the
    shared gst-launch sender (tsparse set-timestamps) sent this clip at a
    tenth of its rate on GStreamer 1.22."""
    return procs.start(['ffmpeg', '-nostdin', '-v', 'error', '-re',
                        '-stream_loop', '-1', '-i', ts, '-c', 'copy', '-f',
                        'mpegts', 'udp://%s:%d?pkt_size=1316' % (mc.HOST,
                                                                 port)], name)


def scored(mon):
    return mc.get_json(mon, '/api/channels/live')['frames_scored']


def part_nosignal(fx):
    ts = mc.faults_ts()
    onset = 2.0
    with mc.Procs() as procs:
        udp = mc.free_port(socket.SOCK_DGRAM)
        cfg = mc.write_config(procs, [
            {'name': 'live', 'uri': 'udp://%s:%d' % (mc.HOST, udp)},
            {'name': 'absent', 'uri': 'udp://%s:%d' % (
                mc.HOST, mc.free_port(socket.SOCK_DGRAM))}],
            defaults={'alarms': {'no-signal': {'onset': onset}}})
        t_start = time.monotonic()
        mon = mc.start_monitor(procs, ['--config', cfg, '--restart-after',
                                       '3'])
        sender = udp_sender(procs, ts, udp, 'udp-sender')
        absent = wait_for(lambda: [e for e in mc.events(mon, 'absent')
                                   if e['kind'] == 'no-signal'], 45)
        if absent:
            t = time.monotonic() - t_start
            fx.check(t <= 10 + onset + 3, 'nosignal: a sender that never '
                     'came: the alarm fired %.1f s after the start (grace '
                     '10 s + onset %.0f s)' % (t, onset))
        else:
            fx.check(False, 'nosignal: a sender that never came: no alarm '
                     'within 45 s')
        # Past the start-up grace (10 s), when a gap is a loss of signal.
        up = wait_for(lambda: time.monotonic() - t_start > 12 and
                      scored(mon) > 5 * mc.FPS, 40)
        fx.check(bool(up), 'nosignal: the UDP channel scores frames')
        procs.stop(sender, signal.SIGKILL)
        t_stop, wall_stop = time.monotonic(), time.time()

        def no_signal():
            return [e for e in mc.events(mon, 'live')
                    if e['kind'] == 'no-signal' and e['event'] == 'start']
        ev = wait_for(no_signal, 45)
        if ev:
            fired = mc.utc(ev[0]['time']) - wall_stop
            began = mc.utc(ev[0]['start_utc']) - wall_stop
            fx.check(fired <= onset + 3.0, 'nosignal: with --restart-after 3 '
                     'the alarm fired %.1f s after the sender stopped (onset '
                     '%.0f s)' % (fired, onset))
            fx.check(-1.5 <= began <= 0.5, 'nosignal: the alarm starts at the '
                     'last frame (%+.1f s from the stop)' % began)
        else:
            fx.check(False, 'nosignal: no no-signal alarm within 45 s')
        # Back when a doubling backoff (1, 2, 4, 8, 16 s after 3 s
        # listening each) would be 16 s from its next try.
        time.sleep(max(0.0, t_stop + 31 - time.monotonic()))
        before = scored(mon)
        t_back = time.monotonic()
        udp_sender(procs, ts, udp, 'udp-sender-2')
        back = wait_for(lambda: scored(mon) > before, 30, step=0.1)
        took = time.monotonic() - t_back
        fx.check(bool(back) and took < 5.0, 'nosignal: the sender back 31 s '
                 'after it stopped is picked up in %.1f s' % took)
        ends = wait_for(lambda: [e for e in mc.events(mon, 'live')
                                 if e['kind'] == 'no-signal' and
                                 e['event'] == 'end'], 10)
        fx.check(bool(ends), 'nosignal: the alarm ended when frames came '
                 'back')
        fx.check(mon.poll() is None, 'nosignal: the monitor is running')


def part_redact(fx):
    secret = 's3cretT0KEN'
    with mc.Procs() as procs:
        # A directory where the fragment's file should be: filesrc's error
        # quotes the path.
        path = os.path.join(procs.tmp, 'clip.ts?token=' + secret)
        os.mkdir(path)
        cfg = mc.write_config(procs, [
            {'name': 'secretive', 'source': 'filesrc location="%s"' % path}])
        mon = mc.start_monitor(procs, ['--config', cfg])
        c = wait_for(lambda: (lambda c: c if c['restarts'] >= 1 and
                              c['last_error'] else None)(
            mc.get_json(mon, '/api/channels/secretive')), 20)
        err = c['last_error'] if c else ''
        fx.check(bool(err) and secret not in err and 'REDACTED' in err and
                 'directory' in err, 'redact: last_error says why, the token '
                 'redacted (%r)' % err)
        procs.stop(mon)
        with open(mon.log_path) as f:
            lines = [ln for ln in f if 'restarting' in ln]
        fx.check(lines and all(secret not in ln and 'REDACTED' in ln
                               for ln in lines),
                 'redact: %d restart line(s), the token redacted in each (%r)'
                 % (len(lines), lines[0].strip() if lines else None))


PARTS = [('blocked', part_blocked), ('signals', part_signals),
         ('vod', part_vod), ('nosignal', part_nosignal),
         ('redact', part_redact)]


def main():
    mc.require_tools('ffmpeg', 'gst-launch-1.0')
    mc.require_elements('tsparse', 'udpsink')
    only = os.environ.get('MONITOR_LIFECYCLE_PARTS')
    fx = mc.Failures()
    for name, part in PARTS:
        if only and name not in only.split(','):
            continue
        mc.log('--- %s' % name)
        t0 = time.monotonic()
        part(fx)
        mc.log('--- %s: %.0f s' % (name, time.monotonic() - t0))
    fx.finish()


if __name__ == '__main__':
    main()
