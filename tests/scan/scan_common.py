#!/usr/bin/python3
# What the scan tests share: the test clip (made once per build tree, under
# a lock, since meson runs the tests in parallel), the tool's path and a
# runner.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import fcntl
import json
import os
import subprocess
import threading

import clips

BUILD = os.environ.get('SHARPNESS_BUILD_ROOT', '.')
# SHARPNESS_SCAN_TOOL runs the tests against another build of the tool (an
# older one, to see a test fail before its fix).
TOOL = os.environ.get('SHARPNESS_SCAN_TOOL',
                      os.path.join(BUILD, 'tools', 'sharpness-scan'))
WORK = os.path.join(BUILD, 'tests', 'scan', 'data')
SOURCE = os.environ.get('SHARPNESS_SOURCE_ROOT',
                        os.path.join(os.path.dirname(__file__), '..', '..'))
SCHEMA = os.path.join(SOURCE, 'docs', 'scan-report.schema.json')

CLIP = clips.test_clip()
# The blurs (frame ranges) of the clip, and the one-frame glitch.
SEGMENTS = CLIP.segments()


def _encode_both(clip, mp4, webm):
    """Both encodings from one pass over the frames (frame synthesis costs
    as much as an encoder)."""
    cmds = {'h264': mp4, 'vp9': webm}
    encoders = []
    for codec, path in cmds.items():
        enc = {
            'h264': ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18',
                     '-movflags', '+faststart'],
            'vp9': ['-c:v', 'libvpx-vp9', '-deadline', 'realtime',
                    '-cpu-used', '8', '-row-mt', '1', '-b:v', '6M'],
        }[codec]
        cmd = ['ffmpeg', '-v', 'error', '-y', '-f', 'rawvideo',
               '-pix_fmt', 'rgb24', '-s', '%dx%d' % (clip.width, clip.height),
               '-r', str(clip.fps), '-i', '-'] + enc + [
                   '-pix_fmt', 'yuv420p', '-threads', '1',
                   '-f', 'mp4' if codec == 'h264' else 'webm', path + '.part']
        encoders.append((subprocess.Popen(cmd, stdin=subprocess.PIPE), path))
    for i in range(clip.frames):
        data = clip.frame(i).tobytes()
        for p, _ in encoders:
            p.stdin.write(data)
    for p, path in encoders:
        p.stdin.close()
        if p.wait() != 0:
            raise RuntimeError('ffmpeg failed for %s' % path)
        os.rename(path + '.part', path)


def test_clips():
    """(mp4 path, webm path) of the test clip, made on first use."""
    os.makedirs(WORK, exist_ok=True)
    mp4 = os.path.join(WORK, 'clip.mp4')
    webm = os.path.join(WORK, 'clip.webm')
    with open(os.path.join(WORK, 'lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (os.path.exists(mp4) and os.path.exists(webm)):
            _encode_both(CLIP, mp4, webm)
    return mp4, webm


def run(*args, check=None):
    """Runs the tool; returns (exit status, stdout, stderr)."""
    res = subprocess.run([TOOL] + [str(a) for a in args],
                         stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=300)
    if check is not None and res.returncode != check:
        raise AssertionError('sharpness-scan %s: exit %d, want %d\n%s%s' % (
            ' '.join(map(str, args)), res.returncode, check, res.stdout,
            res.stderr))
    return res.returncode, res.stdout, res.stderr


def load_json(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)
