#!/usr/bin/python3
# The VMAF golden set of issue 33: reference/distorted pairs made from
# natural photographs (a Debian wallpaper package's and scikit-image's),
# panned and zoomed by FFmpeg, distorted by x264 at several CRFs and by a
# down-up scaling; 8 and 10 bit; 576p, 1080p, 4K and odd sizes; a scene
# cut and a black stretch.  The clips are raw planar YUV 4:2:0 (yuv420p or
# yuv420p10le), made again byte for byte on every run (x264 with
# -threads 1, FFmpeg's filters single-threaded), so that only libvmaf's
# numbers are kept in the tree (golden/, make_vmaf_golden.py).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: vmaf_pairs.py OUTDIR [NAME...]   makes the clips of the named pairs
#        (all when none) as OUTDIR/<pair>.ref.yuv and OUTDIR/<pair>.dist.yuv
#        vmaf_pairs.py --list            prints the pairs

import os
import subprocess
import sys
import tempfile

SKIMAGE = '/usr/lib/python3/dist-packages/skimage/data'
WALLPAPERS = '/usr/share/wallpapers'

# The photographs (rejected renders and drawings are those of
# tests/detection/photos.py; these are camera pictures).
PHOTOS = {
    'water': WALLPAPERS + '/BytheWater/contents/images/2560x1600.jpg',
    'cups': WALLPAPERS + '/ColorfulCups/contents/images/2560x1600.jpg',
    'astronaut': SKIMAGE + '/astronaut.png',
    'coffee': SKIMAGE + '/coffee.png',
    'chelsea': SKIMAGE + '/chelsea.png',
}

# Each pair: a reference made of segments (photograph, motion, frames;
# 'black' is a black stretch) and one distortion: ('crf', N) is x264 at
# CRF N (preset veryfast, one thread), ('scale', D) is a bicubic scaling
# down by D and back up.
PAIRS = [
    # name, width, height, depth, segments, distortion
    ('p576-water-pan-crf23', 720, 576, 8,
     [('water', 'pan', 48)], ('crf', 23)),
    ('p576-water-pan-crf35', 720, 576, 8,
     [('water', 'pan', 48)], ('crf', 35)),
    ('p576-astronaut-zoom-scale2', 720, 576, 8,
     [('astronaut', 'zoom', 40)], ('scale', 2)),
    ('p576-cut-black-crf30', 720, 576, 8,
     [('cups', 'pan', 20), ('black', None, 10), ('coffee', 'zoom', 20)],
     ('crf', 30)),
    ('odd-721x405-coffee-pan-crf28', 721, 405, 8,
     [('coffee', 'pan', 30)], ('crf', 28)),
    ('odd-1279x719-chelsea-zoom-scale3', 1279, 719, 8,
     [('chelsea', 'zoom', 16)], ('scale', 3)),
    ('p1080-cups-pan-crf30', 1920, 1080, 8,
     [('cups', 'pan', 24)], ('crf', 30)),
    ('p2160-water-zoom-crf26', 3840, 2160, 8,
     [('water', 'zoom', 6)], ('crf', 26)),
    ('p576-water-pan-crf30-10bit', 720, 576, 10,
     [('water', 'pan', 30)], ('crf', 30)),
    ('p576-astronaut-zoom-scale2-10bit', 720, 576, 10,
     [('astronaut', 'zoom', 20)], ('scale', 2)),
    ('p1080-cups-pan-crf34-10bit', 1920, 1080, 10,
     [('cups', 'pan', 12)], ('crf', 34)),
    # The long ones (most of the >= 2,000 frames of issue 33).
    ('p360-coffee-pan-crf20', 640, 360, 8,
     [('coffee', 'pan', 300)], ('crf', 20)),
    ('p576-cups-zoom-crf40', 720, 576, 8,
     [('cups', 'zoom', 300)], ('crf', 40)),
    ('p576-water-pan-scale4', 720, 576, 8,
     [('water', 'pan', 250)], ('scale', 4)),
    ('p576-cut-black-long-crf28', 720, 576, 8,
     [('water', 'pan', 100), ('black', None, 50), ('cups', 'zoom', 100)],
     ('crf', 28)),
    ('p480-chelsea-pan-crf32-10bit', 854, 480, 10,
     [('chelsea', 'pan', 250)], ('crf', 32)),
    ('p360-astronaut-zoom-crf26-10bit', 640, 360, 10,
     [('astronaut', 'zoom', 250)], ('crf', 26)),
    ('odd-853x481-coffee-zoom-crf30-10bit', 853, 481, 10,
     [('coffee', 'zoom', 100)], ('crf', 30)),
    ('p1080-water-zoom-crf24', 1920, 1080, 8,
     [('water', 'zoom', 60)], ('crf', 24)),
    ('p2160-cups-pan-crf34-10bit', 3840, 2160, 10,
     [('cups', 'pan', 4)], ('crf', 34)),
]


def pix_fmt(depth):
    return 'yuv420p' if depth == 8 else 'yuv420p10le'


def tools_version():
    """The FFmpeg build that makes the clips (its first -version line; the
    distribution's build fixes its x264 too): other builds make other
    clips."""
    out = subprocess.run(['ffmpeg', '-hide_banner', '-version'],
                         capture_output=True, text=True, check=True).stdout
    return out.splitlines()[0]


def frame_bytes(width, height, depth):
    cw, ch = (width + 1) // 2, (height + 1) // 2
    return (width * height + 2 * cw * ch) * (1 if depth == 8 else 2)


def ffmpeg(args):
    cmd = ['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error',
           '-threads', '1', '-filter_threads', '1'] + args
    # Without meson test's MALLOC_PERTURB_: x264 (Debian 12's) reads memory
    # it has not written, and its output then depends on the fill byte
    # (p576-cups-zoom-crf40's stream changes under MALLOC_PERTURB_=245).
    env = {k: v for k, v in os.environ.items() if k != 'MALLOC_PERTURB_'}
    subprocess.run(cmd, check=True, env=env)


def motion_filter(motion, width, height, frames):
    """The filter that moves over the photograph: 'pan' scales it to 1.3
    times the frame's height and slides a frame-sized crop across it,
    'zoom' zooms into its centre by 0.6 % a frame.  In RGB, so that odd
    sizes stay odd (FFmpeg crops 4:2:0 to even sizes)."""
    if motion == 'pan':
        # Scale so that the picture is at least 1.3x the frame both ways.
        return ("scale=w='max(%d,iw*%d*1.3/ih)':h=-2:flags=bicubic,format=rgb24,"
                "crop=%d:%d:x='(iw-%d)*n/%d':y='(ih-%d)*n/(2*%d)'"
                % (width, height, width, height, width, frames, height,
                   frames))
    return ("scale=%d:%d:flags=bicubic,format=rgb24,zoompan=z='1+0.006*on':d=%d:"
            "x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':s=%dx%d:fps=25"
            % (2 * width, 2 * height, frames, width, height))


def make_segment(path, photo, motion, frames, width, height, depth):
    if photo == 'black':
        ffmpeg(['-f', 'lavfi', '-i',
                'color=c=black:s=%dx%d:r=25' % (width, height),
                '-frames:v', str(frames), '-pix_fmt', pix_fmt(depth),
                '-f', 'rawvideo', '-y', path])
        return
    ffmpeg(['-loop', '1', '-framerate', '25', '-i', PHOTOS[photo],
            '-vf', motion_filter(motion, width, height, frames),
            '-frames:v', str(frames), '-pix_fmt', pix_fmt(depth),
            '-f', 'rawvideo', '-y', path])


def distort(ref, dist, width, height, depth, distortion, tmp):
    raw = ['-f', 'rawvideo', '-pix_fmt', pix_fmt(depth),
           '-s', '%dx%d' % (width, height), '-r', '25']
    kind, value = distortion
    if kind == 'crf':
        # x264's 4:2:0 wants even sizes: an odd frame is padded on the
        # right and bottom, and the decode cropped back.
        mkv = os.path.join(tmp, 'x264.mkv')
        ffmpeg(raw + ['-i', ref, '-vf', 'pad=%d:%d' % (width + width % 2,
                                                       height + height % 2),
                      '-c:v', 'libx264', '-preset', 'veryfast',
                      '-crf', str(value), '-x264-params', 'threads=1',
                      '-pix_fmt', pix_fmt(depth), '-y', mkv])
        ffmpeg(['-i', mkv, '-vf', 'crop=%d:%d:0:0:exact=1' % (width, height),
                '-pix_fmt', pix_fmt(depth), '-f', 'rawvideo', '-y', dist])
    else:
        sw, sh = 2 * round(width / value / 2), 2 * round(height / value / 2)
        ffmpeg(raw + ['-i', ref, '-vf',
                      'scale=%d:%d:flags=bicubic,scale=%d:%d:flags=bicubic'
                      % (sw, sh, width, height),
                      '-pix_fmt', pix_fmt(depth), '-f', 'rawvideo',
                      '-y', dist])


def make_pair(outdir, pair):
    name, width, height, depth, segments, distortion = pair
    ref = os.path.join(outdir, name + '.ref.yuv')
    dist = os.path.join(outdir, name + '.dist.yuv')
    with tempfile.TemporaryDirectory() as tmp:
        with open(ref, 'wb') as out:
            for k, (photo, motion, frames) in enumerate(segments):
                seg = os.path.join(tmp, 'seg%d.yuv' % k)
                make_segment(seg, photo, motion, frames, width, height,
                             depth)
                with open(seg, 'rb') as f:
                    data = f.read()
                if len(data) != frames * frame_bytes(width, height, depth):
                    raise RuntimeError('%s: segment %d has %d bytes'
                                       % (name, k, len(data)))
                out.write(data)
        distort(ref, dist, width, height, depth, distortion, tmp)
    n = sum(s[2] for s in segments)
    for path in (ref, dist):
        if os.path.getsize(path) != n * frame_bytes(width, height, depth):
            raise RuntimeError('%s: %s is not %d frames' % (name, path, n))
    return ref, dist


def pair_by_name(name):
    for pair in PAIRS:
        if pair[0] == name:
            return pair
    raise KeyError('no pair named %s (--list lists them)' % name)


def main(argv):
    if len(argv) == 2 and argv[1] == '--list':
        for name, w, h, d, segs, dist in PAIRS:
            print('%s %dx%d %d-bit %d frames %s' % (
                name, w, h, d, sum(s[2] for s in segs), dist))
        return 0
    if len(argv) < 2:
        print(__doc__ or 'usage: vmaf_pairs.py OUTDIR [NAME...]',
              file=sys.stderr)
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    pairs = [pair_by_name(n) for n in argv[2:]] if argv[2:] else PAIRS
    for pair in pairs:
        make_pair(outdir, pair)
        print(pair[0])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
