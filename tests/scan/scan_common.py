#!/usr/bin/python3
# What the scan tests share: the test clip and small ffmpeg-made clips (each
# made once per build tree, under a lock, since meson runs the tests in
# parallel), the tool's path, a runner, and checks of what a test needs
# (ffmpeg, GStreamer elements) that skip visibly when it is missing.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import fcntl
import json
import os
import re
import shutil
import socket
import subprocess

import clip_cache
import scaffold

BUILD = os.environ.get('SHARPNESS_BUILD_ROOT', '.')
# SHARPNESS_SCAN_TOOL runs the tests against another build of the tool (an
# older one, to see a test fail before its fix).
TOOL = os.environ.get('SHARPNESS_SCAN_TOOL',
                      os.path.join(BUILD, 'tools', 'sharpness-scan'))
WORK = os.path.join(BUILD, 'tests', 'scan', 'data')
SOURCE = os.environ.get('SHARPNESS_SOURCE_ROOT',
                        os.path.join(os.path.dirname(__file__), '..', '..'))
SCHEMA = os.path.join(SOURCE, 'docs', 'reference',
                      'scan-report.schema.json')



def __getattr__(name):
    """CLIP, the test clip (clips.test_clip ()), and SEGMENTS, its blurs
    (frame ranges) and one-frame glitch: loaded on first use, since clips
    needs numpy and scipy, which only some tests require."""
    if name in ('CLIP', 'SEGMENTS'):
        import clips
        clip = clips.test_clip()
        globals()['CLIP'] = clip
        globals()['SEGMENTS'] = clip.segments()
        return globals()[name]
    raise AttributeError(name)


def _encode_both(clip, mp4, webm):
    """Both encodings from one pass over the frames (frame synthesis costs
    as much as an encoder)."""
    cmds = {'h264': mp4, 'vp9': webm}
    encoders = []
    for codec, path in cmds.items():
        cmd = clip.encoder(codec, path + '.part', threads=1)
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
    """(mp4 path, webm path) of the test clip, made on first use: in the
    build tree, or shared through clip_cache (SHARPNESS_CLIP_CACHE), keyed
    by its definition and the code that renders and encodes it (clips.py,
    natural_images.py, this file).  The tests hold only to what the
    definition fixes (frames, blurs, codecs), not to one FFmpeg's bytes."""
    import clips
    import natural_images
    clip = __getattr__('CLIP')
    definition = (clip.name, clip.width, clip.height, clip.fps, clip.frames,
                  clip.shots, clip.blurs)
    mp4, webm = clip_cache.files(
        'scan-test-clip', ['clip.mp4', 'clip.webm'], definition,
        [clips.__file__, natural_images.__file__, __file__],
        lambda paths: _encode_both(clip, *paths), WORK)
    if clip_cache.made_by(mp4):
        print('the test clip: %s, made by %s' % (
            os.path.dirname(mp4), clip_cache.made_by(mp4)), flush=True)
    return mp4, webm


def scene_clip():
    """The test clip's shots at 640x360 with every kind of segment, for the
    report: its 0-7 s fading to black, 2.2 s of black, its 11-18 s fading
    in (its 3 s blur, blurred more: scaling down hides half of a blur),
    frozen for 3.5 s, then its last 2 s."""
    graph = ';'.join([
        '[0:v]scale=640:360,split=3[s0][s1][s2]',
        '[s0]trim=0:7,setpts=PTS-STARTPTS,fade=t=out:st=6.4:d=0.6[a]',
        'color=black:s=640x360:r=30:d=2.2[b]',
        '[s1]trim=11:18,setpts=PTS-STARTPTS,fade=t=in:st=0:d=0.4,'
        "gblur=sigma=1.5:enable='between(t,3,6)',"
        'tpad=stop_mode=clone:stop_duration=3.5[c]',
        '[s2]trim=18:20,setpts=PTS-STARTPTS[d]',
        '[a][b][c][d]concat=n=4,format=yuv420p[v]'])
    return ffmpeg_clip('scene.mp4', [
        '-i', test_clips()[0], '-filter_complex', graph, '-map', '[v]',
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18',
        '-threads', '1', '-movflags', '+faststart'])


_gst_version = None


def gst_version():
    """GStreamer's (major, minor), from gst-launch-1.0 --version."""
    global _gst_version
    if _gst_version is None:
        out = subprocess.run(['gst-launch-1.0', '--version'],
                             stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=60).stdout
        m = re.search(r'GStreamer (\d+)\.(\d+)', out)
        _gst_version = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    return _gst_version


def known_on_gst_1_26(what):
    """True where @what is a failure seen on GStreamer 1.26 (Debian 13) and
    not fixed yet (docs/reference/gstreamer-versions.md#known-failures-on-126),
    said in the test's output; on 1.22 False, so the check still holds
    there."""
    if gst_version() >= (1, 26):
        print('KNOWN FAILURE on GStreamer 1.26, not fixed yet: %s' % what)
        return True
    return False


def require_ffmpeg():
    for name in ('ffmpeg', 'ffprobe'):
        if not shutil.which(name):
            scaffold.skip('%s missing (Debian package ffmpeg)' % name)


have_element = scaffold.have_element
require_elements = scaffold.require_elements


_encoders = None


def have_encoder(name):
    """Whether ffmpeg has the encoder @name."""
    global _encoders
    if _encoders is None:
        out = subprocess.run(['ffmpeg', '-hide_banner', '-encoders'],
                             stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=60).stdout
        _encoders = set(m.group(1) for m in
                        re.finditer(r'^ [A-Z.]{6} (\S+)', out, re.M))
    return name in _encoders


def ffmpeg_clip(name, args):
    """tests/scan/data/@name, made once per build tree by
    `ffmpeg -y @args PATH` (a list); returns its path."""
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, name)
    with open(os.path.join(WORK, 'lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(path):
            part = os.path.join(WORK, 'part-' + name)
            fmt = ['-f', FORMATS[os.path.splitext(name)[1]]]
            subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y'] +
                           args + fmt + [part], check=True,
                           stdin=subprocess.DEVNULL, timeout=120)
            os.rename(part, path)
    return path


# ffmpeg's muxer for each extension (the part file has none it knows).
FORMATS = {'.mp4': 'mp4', '.mov': 'mov', '.mkv': 'matroska', '.ts': 'mpegts',
           '.webm': 'webm', '.png': 'image2', '.jpg': 'image2'}


def small_clip():
    """A 320x180, 3 s, 25 fps H.264 MP4 (75 frames): the tests' finished
    file."""
    return ffmpeg_clip('small.mp4', [
        '-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=25:d=3',
        '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p',
        '-g', '25', '-movflags', '+faststart', '-threads', '1'])


# content_clip (): (first frame, last frame) of each part, 25 fps.
CONTENT_PARTS = {
    'fade-out': (0, 59),      # test pattern, fading to black from 1.9 s
    'black': (60, 119),       # black
    'fade-in': (120, 159),    # test pattern, from black within 0.4 s
    'frozen': (160, 219),     # its last frame, repeated for 2.4 s
    'sharp': (220, 244),
    'blurry': (245, 269),     # Gaussian blur, sigma 4
    'end': (270, 284),
}


def content_clip():
    """A 320x180, 25 fps, 11.4 s H.264 MP4 with every content state:
    a fade to black, 2.4 s of black, a freeze of 2.4 s, a 1 s blur
    (CONTENT_PARTS)."""
    pattern = 'testsrc2=s=320x180:r=25:d=%g'
    graph = ';'.join([
        pattern % 2.4 + ',fade=t=out:st=1.9:d=0.5[a]',
        'color=black:s=320x180:r=25:d=2.4[b]',
        pattern % 1.6 + ',fade=t=in:st=0:d=0.4,'
        'tpad=stop_mode=clone:stop_duration=2.4[c]',
        pattern % 1 + '[d]',
        pattern % 1 + ',gblur=sigma=4[e]',
        pattern % 0.6 + '[f]',
        '[a][b][c][d][e][f]concat=n=6,format=yuv420p[v]'])
    # Lossless: the frozen frames decode identical (a lossy encoder
    # refines repeated frames for a while, a freeze with noise).
    return ffmpeg_clip('content.mp4', [
        '-filter_complex', graph, '-map', '[v]', '-c:v', 'libx264',
        '-preset', 'veryfast', '-qp', '0', '-g', '25', '-threads', '1',
        '-movflags', '+faststart'])


def content_clip_ts():
    """content_clip () copied into MPEG-TS: the same frames, times from
    the container's start time."""
    return ffmpeg_clip('content.ts', ['-i', content_clip(), '-c', 'copy'])


def frame_count(path):
    """Frames in @path's first video stream, as ffprobe decodes them."""
    out = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0',
                          '-count_frames', '-show_entries',
                          'stream=nb_read_frames', '-of', 'csv=p=0', path],
                         stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=120).stdout
    return int(out.strip().split(',')[0])


def accepted_formats():
    """The raw formats cudasharpness takes, from its sink pad template."""
    out = subprocess.run(['gst-inspect-1.0', 'cudasharpness'],
                         stdin=subprocess.DEVNULL, capture_output=True,
                         text=True, timeout=60).stdout
    sink = out[out.index("SINK template"):out.index("SRC template")]
    return set(re.findall(r'\(string\)(\w+)', sink))


def free_port(kind=socket.SOCK_DGRAM):
    """A port of 127.0.0.1 that nobody listens on (UDP: nobody sends to
    it)."""
    s = socket.socket(socket.AF_INET, kind)
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def validator():
    """The JSON Schema validator of the tool's JSON (needs jsonschema)."""
    import jsonschema
    with open(SCHEMA, encoding='utf-8') as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def run(*args, check=None, stdin=subprocess.DEVNULL, timeout=300, cwd=None):
    """Runs the tool (in @cwd); returns (exit status, stdout, stderr)."""
    res = subprocess.run([os.path.abspath(TOOL)] + [str(a) for a in args],
                         stdin=stdin, capture_output=True, cwd=cwd,
                         text=True, timeout=timeout)
    if check is not None and res.returncode != check:
        raise AssertionError('sharpness-scan %s: exit %d, want %d\n%s%s' % (
            ' '.join(map(str, args)), res.returncode, check, res.stdout,
            res.stderr))
    return res.returncode, res.stdout, res.stderr


def load_json(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def load_valid_json(path, validator):
    """The JSON at @path if it parses and @validator accepts it, else None
    with the reason printed: the output of a run cut short by a signal may
    be neither."""
    try:
        doc = load_json(path)
        validator.validate(doc)
    except Exception as e:  # noqa: B902
        print('JSON: %s' % e)
        return None
    return doc


def stop(proc):
    """Kills @proc unless it has ended, and reaps it."""
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=30)


def strip_timing(doc):
    """@doc without its files' elapsed time and speed, which depend on the
    machine's load, so that two scans of the same files compare equal."""
    for f in doc['files']:
        if f['summary']:
            f['summary'].pop('elapsed')
            f['summary'].pop('fps')
    return doc
