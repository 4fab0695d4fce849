#!/usr/bin/python3
# sharpness-monitor's thumbnails with GPU decoding (skipped where the
# monitor finds no usable GPU): a file channel playing the faults clip's
# video at real-time pace, thumbnails 160 pixels wide.
# - The thumbnail branch takes the frame down (cudadownload), scales it
#   (videoscale) and encodes it (jpegenc) on its own thread, never with
#   the GPU's nvjpegenc (GStreamer's own log of the elements it creates):
#   see docs/reference/sharpness-monitor.md for why.
# - /api/thumbnails gives the channel a JPEG of 160 x 90 (the clip's
#   16:9) that jpegdec decodes, showing the picture: its luma varies as
#   the clip's natural image does, not a flat or garbage frame.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import base64  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402

import monitor_common as mc  # noqa: E402
from jpeg_size import jpeg_size  # noqa: E402

WIDTH = 160


def decoded_luma(path, w, h):
    """The JPEG at @path decoded by jpegdec, as w * h gray bytes."""
    raw = path + '.gray'
    subprocess.run(['gst-launch-1.0', '-q', 'filesrc', 'location=' + path,
                    '!', 'jpegdec', '!', 'videoconvert', '!',
                    'video/x-raw,format=GRAY8', '!', 'filesink',
                    'location=' + raw], check=True, timeout=30)
    with open(raw, 'rb') as f:
        data = f.read()
    if len(data) != w * h:
        raise AssertionError('jpegdec gave %d bytes for %d x %d' % (
            len(data), w, h))
    return data


def check(jpeg, made, tmp, fx):
    """The thumbnail @jpeg and the elements that made it (@made)."""
    path = os.path.join(tmp, 'thumbnail.jpg')
    with open(path, 'wb') as f:
        f.write(jpeg)
    size = jpeg_size(jpeg)
    want = (WIDTH, round(WIDTH * mc.H / mc.W))
    fx.check(jpeg[:2] == b'\xff\xd8' and jpeg[-2:] == b'\xff\xd9' and
             size is not None and abs(size[0] - want[0]) <= 1 and
             abs(size[1] - want[1]) <= 1,
             'thumbnail: a JPEG of %s (want %d x %d, %d bytes)' % (
                 size, want[0], want[1], len(jpeg)))
    if size:
        luma = decoded_luma(path, *size)
        mean = sum(luma) / len(luma)
        sd = math.sqrt(sum((v - mean) ** 2 for v in luma) / len(luma))
        fx.check(20 < mean < 235 and sd > 8, 'thumbnail: decodes to the '
                 'picture (luma mean %.1f, sd %.1f)' % (mean, sd))

    fx.check({'cudadownload', 'videoscale', 'jpegenc'} <= made and
             not any(m.startswith('nvjpeg') for m in made),
             'the frame comes down, is scaled and encoded on the CPU (%s)'
             % sorted(m for m in made if m in ('cudadownload', 'videoscale',
                                               'jpegenc') or
                      m.startswith('nvjpeg')))


def main():
    mc.require_tools('gst-launch-1.0')
    # The clip is made with ffmpeg, unless it is there already (the GPU
    # machine has no ffmpeg: it gets the clip made here).
    if not os.path.exists(os.path.join(mc.WORK, 'faults-video.ts')):
        mc.require_tools('ffmpeg')
        scaffold.require('numpy', 'scipy')
    ts = mc.faults_video_ts()
    fx = mc.Failures()

    with mc.Procs() as procs:
        cfg = mc.write_config(procs, [{'name': 'file',
                                       'uri': 'file://' + ts}])
        env = dict(os.environ, GST_DEBUG='*:1,GST_ELEMENT_FACTORY:4',
                   GST_DEBUG_NO_COLOR='1')
        http = mc.free_port()
        mon = procs.start([mc.TOOL, '--listen', '%s:%d' % (mc.HOST, http),
                           '--config', cfg, '--thumbnail-width', WIDTH,
                           '--restart-after', '0'], 'monitor', env=env)
        mon.port = http
        mc.wait_http(mon, '/healthz', 30)
        info = re.search(r'^sharpness_build_info\{[^}]*device="([^"]+)"',
                         mc.get(mon, '/metrics')[1].decode(), re.M)
        device = info.group(1) if info else 'an unknown device'
        if device.startswith('cuda'):
            def thumbnail():
                for t in mc.get_json(mon, '/api/thumbnails'):
                    if t['name'] == 'file':
                        return base64.b64decode(t['thumbnail_jpeg_base64'])
                return None
            jpeg = mc.wait_until('a thumbnail', thumbnail, 30)
            # jpegdec runs once the monitor has stopped: on the GPU
            # machine's 1.26 runtime each GStreamer program's start
            # relinks the driver's libraries (dev/trixie/run-on-gpu.sh).
            procs.stop(mon)
            with open(mon.log_path, errors='replace') as f:
                made = set(re.findall(r'creating element "([^"]+)"',
                                      f.read()))
            check(jpeg, made, procs.tmp, fx)
    if not device.startswith('cuda'):
        scaffold.skip('no usable GPU (the monitor runs on %s)' % device)
    fx.finish()


if __name__ == '__main__':
    main()
