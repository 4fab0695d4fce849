#!/usr/bin/python3
# sharpness-monitor restarts a channel's pipeline in the same process (a
# file played again with --loop, as after an error, a lost signal or a
# reload): GStreamer 1.26's decodebin3 failed most such restarts of an
# H.265 MPEG-TS with "missing a plug-in" (its decoder race,
# docs/reference/gstreamer-versions.md), the monitor's first pipeline
# rarely.  Each channel here (2 s clips, H.265 and H.264 in MPEG-TS, H.265
# in MP4) is played 40 times with --loop --as-fast-as-possible, bounded at
# 120 s: every channel gets through its 40 plays with no restart and no
# "missing a plug-in" on stderr.  All on 127.0.0.1; the monitor is stopped
# by its PID.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402,F401

import monitor_common as mc  # noqa: E402

PLAYS = 40
SECONDS, FPS = 2, 10
PLAY_FRAMES = SECONDS * FPS
# codec, container: (the channel's clip)
CLIPS = [('libx265', 'mpegts', 'h265.ts'), ('libx264', 'mpegts', 'h264.ts'),
         ('libx265', 'mp4', 'h265.mp4')]


def make_clip(folder, codec, fmt, name):
    """A moving test pattern, 160x96 (x265 wants multiples of 8) at 10 fps,
    a key frame a second, no audio."""
    path = os.path.join(folder, name)
    cmd = ['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i',
           'testsrc2=s=160x96:r=%d:d=%d' % (FPS, SECONDS), '-c:v', codec,
           '-g', str(FPS), '-pix_fmt', 'yuv420p', '-threads', '1']
    if codec == 'libx265':
        cmd += ['-x265-params', 'log-level=none:pools=1']
    subprocess.run(cmd + ['-f', fmt, path], check=True, timeout=120)
    return path


def main():
    mc.require_tools('ffmpeg')
    mc.require_elements('decodebin3', 'avdec_h264', 'avdec_h265',
                        'h265parse', 'tsdemux')
    fx = mc.Failures()
    with mc.Procs() as procs:
        channels = [{'name': name.replace('.', '-'),
                     'uri': 'file://' + make_clip(procs.tmp, codec, fmt,
                                                  name)}
                    for codec, fmt, name in CLIPS]
        cfg = mc.write_config(procs, channels)
        mon = mc.start_monitor(procs, ['--config', cfg, '--loop',
                                       '--as-fast-as-possible'])
        seen = {}

        def played():
            for ch in channels:
                c = mc.get_json(mon, '/api/channels/' + ch['name'])
                seen[ch['name']] = (c['frames_scored'], c['restarts'])
            return all(f >= PLAYS * PLAY_FRAMES for f, _ in seen.values())
        done = mc.poll_until(played, 120)
        procs.stop(mon)
        with open(mon.log_path) as f:
            stderr = f.read()
        for name, (frames, restarts) in sorted(seen.items()):
            fx.check(frames >= PLAYS * PLAY_FRAMES and restarts == 0,
                     '%s: %d plays of %d frames within 120 s (%d frames '
                     'scored), %d restarts' % (name, PLAYS, PLAY_FRAMES,
                                               frames, restarts))
        missing = [line for line in stderr.splitlines()
                   if 'missing a plug-in' in line]
        fx.check(bool(done) and not missing, 'no "missing a plug-in" on '
                 'stderr (%d lines%s)' % (len(missing), ': ' + missing[0]
                                          if missing else ''))
    fx.finish()


if __name__ == '__main__':
    main()
