#!/usr/bin/python3
# Speed of sharpness-scan on the CPU: a 1080p30 H.264 clip made from the
# natural images (clips.py), against the decoder alone and FFmpeg's
# blurdetect on the same file in the same run, and --jobs aggregate
# throughput on several files.  Not a CI test; docs/reference/sharpness-scan.md has the
# figures.
#
# Usage: bench/scan/bench_scan.py BUILD_DIR [WORKDIR]
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import subprocess
import sys
import time

# The test suite's scaffolding and the scan tests' natural clips.
TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                     'tests')
sys.path.insert(0, os.path.join(TESTS, 'common'))
sys.path.insert(0, os.path.join(TESTS, 'scan'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage')

import clips  # noqa: E402
import machine_info  # noqa: E402


def timed(cmd, env=None):
    t = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                   env=env)
    return time.monotonic() - t


def main():
    build = os.path.abspath(sys.argv[1])
    work = sys.argv[2] if len(sys.argv) > 2 else '/tmp/scan-bench'
    os.makedirs(work, exist_ok=True)
    fps, secs = 30, 20
    clip = clips.Clip('bench', 1920, 1080, fps, fps * secs,
                      shots=[(0, clips.DETAILED, 4),
                             (fps * 10, clips.DETAILED2, 4)],
                      blurs=[(fps * 4, fps, 3), (fps * 14, fps * 2, 3)])
    path = os.path.join(work, 'bench-1080p30.mp4')
    if not os.path.exists(path):
        clip.encode(path, 'h264')
    env = dict(os.environ,
               GST_PLUGIN_PATH_1_0=os.path.join(build, 'gst'),
               GST_REGISTRY_1_0=os.path.join(work, 'registry.bin'))
    tool = os.path.join(build, 'tools', 'sharpness-scan')
    frames = clip.frames
    rows = []

    def row(name, cmd, n=frames):
        timed(cmd, env)                 # warm the page cache and registry
        t = min(timed(cmd, env) for _ in range(2))
        rows.append((name, t, n / t))
        print('| %s | %.2f | %.0f | %.1fx |' % (name, t, n / t,
                                                 n / t / fps), flush=True)

    print('Clip: %s, 1920x1080, %d frames at %d fps (%d s), x264 veryfast '
          'CRF 18' % (path, frames, fps, secs))
    print('Machine: %s, %d cores; %s' % (machine_info.cpu_model(),
                                           os.cpu_count(),
                                           machine_info.ffmpeg_version(
                                               'ffmpeg')))
    print()
    print('| run | wall (s) | frames/s | x real time |')
    print('|---|---|---|---|')
    row('decoder alone: uridecodebin3 ! fakesink sync=false',
        ['gst-launch-1.0', '-q', 'uridecodebin3', 'uri=file://' + path, '!',
         'fakesink', 'sync=false'])
    for metric in ('laplacian', 'tenengrad', 'blur-effect'):
        row('sharpness-scan --cpu --metric %s' % metric,
            [tool, '--cpu', '-q', '--metric', metric, path])
    row('sharpness-scan --cpu --metric laplacian --report --json --csv',
        [tool, '--cpu', '-q', '--metric', 'laplacian', '--report',
         os.path.join(work, 'r.html'), '--json', os.path.join(work, 'r.json'),
         '--csv', os.path.join(work, 'r.csv'), path])
    row('ffmpeg -vf blurdetect -f null -',
        ['ffmpeg', '-nostdin', '-v', 'error', '-i', path, '-vf',
         'blurdetect', '-f', 'null', '-'])
    row('ffmpeg -threads 1 -vf blurdetect -f null -',
        ['ffmpeg', '-nostdin', '-v', 'error', '-threads', '1', '-i', path,
         '-vf', 'blurdetect', '-f', 'null', '-'])
    copies = []
    for k in range(4):
        c = os.path.join(work, 'copy%d.mp4' % k)
        if not os.path.exists(c):
            shutil.copy(path, c)
        copies.append(c)
    for jobs in (1, 2, 4):
        row('sharpness-scan --cpu --metric laplacian --jobs %d, 4 files'
            % jobs, [tool, '--cpu', '-q', '--metric', 'laplacian', '--jobs',
                     str(jobs)] + copies, 4 * frames)


if __name__ == '__main__':
    main()
