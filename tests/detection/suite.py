#!/usr/bin/python3
# The labelled detection suite (docs/validation/detection.md): clips made from the
# natural test images (tests/common/natural_images.py) and a few synthetic
# low-texture scenes, with known blurry, black and frozen stretches, and
# their truth in JSON.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# A clip is a list of shots (a scene each: a panning mosaic of images, a
# zoom, an upscaled SD mosaic, a sky, a wall, a gradient, a colour wheel)
# and a list of effects over frame ranges (Gaussian, disk or motion blur,
# a fade, black, a freeze).  Frames are rendered in float RGB, then encoded
# with x264 (CRF 18; 10-bit, or interlaced, where the category asks) or
# written as raw y4m (the freezes: a codec would change the frozen frames'
# differences the category is about).
#
# The truth: a blur of at least the minimum duration is a `blur` segment
# (shorter ones are `glitch`: they must NOT become segments); black
# stretches are `black` segments as FFmpeg's blackdetect reports them (the
# runs of frames whose luma is at least 98 % at most 37, lasting 2 s);
# freezes are `freeze` segments from the first frame of the still picture
# to its last repetition (freezedetect's start and end).  Everything else,
# fades, smooth scenes and upscaled content included, is not blurry.
#
# Usage: suite.py DIR [--ci] [--scale K]   (writes the clips and
#        DIR/truth.json)

import fcntl
import hashlib
import json
import os
import subprocess
import sys
import zlib
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from scipy import ndimage, signal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'common'))
from natural_images import load  # noqa: E402

FPS = 25
# Frame size at scale 1 (the suite's; full_suite (scale) makes it larger,
# every size in pixels scaled alike).
W, H = 640, 360
# The tracker's settings the truth is stated for (sharpness-scan's
# defaults): a blur shorter than MIN_DURATION is a glitch, not a segment.
MIN_DURATION = 0.5
MAX_GAP = 2
# FFmpeg's blackdetect and freezedetect defaults.
BLACK_MIN_DURATION = 2.0
BLACK_PIXEL = 37            # 16 + 0.10 * 219, 8-bit limited range
BLACK_PICTURE = 0.98
FREEZE_MIN_DURATION = 2.0
FREEZE_NOISE = 0.001


# ---- scenes: float32 RGB (H, W, 3) frames, 0..255 ----------------------

def _rgb(img):
    img = img.astype(np.float32)
    return np.stack([img] * 3, axis=2) if img.ndim == 2 else img


def _canvas(names, height):
    """The images side by side, each scaled (cubic spline) to @height."""
    parts = []
    for name in names:
        img = _rgb(load(name))
        z = height / img.shape[0]
        img = ndimage.zoom(img, (z, z, 1), order=3, prefilter=True)
        parts.append(np.clip(img, 0, 255))
    return np.concatenate(parts, axis=1)


def _bounce(x, span):
    """Back and forth across @span pixels."""
    if span <= 0:
        return 0
    x %= 2 * span
    return x if x <= span else 2 * span - x


class Mosaic:
    """A pan (@pan pixels per frame, integer steps) across the images.  With
    @sd (rows), the mosaic is made at SD resolution and upscaled to the
    frame with a bicubic scaler (PIL's, Keys a = -0.5), as a player shows
    SD content on an HD screen."""

    def __init__(self, names, pan, sd=None):
        self.names, self.pan, self.sd = names, pan, sd
        self._canvas = None

    def __repr__(self):
        return 'Mosaic(%r, %r, sd=%r)' % (self.names, self.pan, self.sd)

    def render(self, t, w, h):
        rows = self.sd * h // H if self.sd else h
        cols = int(round(w * rows / h))
        if self._canvas is None:
            self._canvas = _canvas(self.names, rows)
        c = self._canvas
        x = int(round(_bounce(t * self.pan * rows / H, c.shape[1] - cols)))
        img = c[:, x:x + cols]
        if self.sd:
            from PIL import Image
            u8 = np.clip(np.rint(img), 0, 255).astype(np.uint8)
            img = np.asarray(Image.fromarray(u8).resize(
                (w, h), Image.BICUBIC)).astype(np.float32)
        return img


class Zoom:
    """A zoom on the images at their own resolution: @s0 to @s1 source
    pixels per frame pixel over @frames (never below 1: no magnification
    beyond the source's own detail), PIL's bicubic scaler."""

    def __init__(self, names, s0, s1, frames):
        self.names, self.s0, self.s1, self.frames = names, s0, s1, frames
        self._canvas = None

    def __repr__(self):
        return 'Zoom(%r, %r, %r, %r)' % (self.names, self.s0, self.s1,
                                         self.frames)

    def render(self, t, w, h):
        from PIL import Image
        if self._canvas is None:
            c = np.clip(np.rint(_canvas(self.names, 512 * h // H)), 0, 255)
            self._canvas = Image.fromarray(c.astype(np.uint8))
        cw, ch = self._canvas.size
        s = self.s0 + (self.s1 - self.s0) * min(1.0, t / (self.frames - 1))
        box = (cw / 2 - w * s / 2, ch / 2 - h * s / 2,
               cw / 2 + w * s / 2, ch / 2 + h * s / 2)
        return np.asarray(self._canvas.resize((w, h), Image.BICUBIC,
                                              box=box)).astype(np.float32)


def _smooth_noise(shape, sigma, seed):
    """Zero-mean, unit-deviation noise low-passed at @sigma pixels."""
    n = ndimage.gaussian_filter(
        np.random.default_rng(seed).standard_normal(shape), sigma,
        mode='wrap')
    return (n / n.std()).astype(np.float32)


class Synthetic:
    """Sharp low-texture scenes, drifting (2 pixels a frame: a still one would be a
    freeze): `sky` (a blue gradient, soft clouds and a sharp roofline along
    the bottom), `wall` (painted plaster: a fine low-contrast texture),
    `gradient` (a horizontal ramp, black to white), `wheel` (a turning
    colour wheel, sharp rim, on gray)."""

    def __init__(self, kind):
        self.kind = kind
        self._base = None

    def __repr__(self):
        return 'Synthetic(%r)' % self.kind

    def _make(self, w, h):
        k = h / H
        y, x = np.mgrid[0:h, 0:w + int(400 * k)].astype(np.float32)
        if self.kind == 'sky':
            top = np.array([40, 90, 170], np.float32)
            low = np.array([150, 190, 235], np.float32)
            a = (y / h)[:, :, None]
            img = top * (1 - a) + low * a
            clouds = np.clip(_smooth_noise(y.shape, 25 * k, 1), 0, None)
            img += 45 * clouds[:, :, None]
            u = x[0] / k
            roof = h - k * (30 + 12 * (np.sin(u / 37.0) > 0) +
                            20 * ((u // 90) % 3 == 0))
            img[y >= roof[None, :]] = (35, 30, 28)
        elif self.kind == 'wall':
            tex = _smooth_noise(y.shape, 1.0 * k, 2) * 2.0 + \
                _smooth_noise(y.shape, 40 * k, 3) * 4.0
            img = np.array([200, 185, 160], np.float32) + tex[:, :, None]
        elif self.kind == 'gradient':
            v = x / x.shape[1] * 255
            img = np.stack([v, v, v], axis=2)
        else:
            return None
        return np.clip(img, 0, 255)

    def render(self, t, w, h):
        if self.kind == 'wheel':
            return self._wheel(t, w, h)
        if self._base is None:
            self._base = self._make(w, h)
        k = h / H
        x = int(round(_bounce(t * 2.0 * k, 400 * k)))
        return self._base[:, x:x + w]

    def _wheel(self, t, w, h):
        y, x = np.mgrid[0:h, 0:w].astype(np.float32)
        dx, dy = x - w / 2 + 0.5, y - h / 2 + 0.5
        r = np.hypot(dx, dy) * H / h
        hue = (np.arctan2(dy, dx) / (2 * np.pi) + t / 200.0) % 1.0
        sat = np.clip(r / 150.0, 0, 1)
        k = (np.array([5, 3, 1], np.float32)[None, None, :] +
             hue[:, :, None] * 6) % 6
        rgb = 1 - sat[:, :, None] * np.clip(np.minimum(k, 4 - k), 0, 1)
        img = 255 * rgb
        img[r > 150] = 128
        return img


# ---- effects ------------------------------------------------------------

def _disk(radius):
    n = int(np.ceil(radius))
    y, x = np.mgrid[-n:n + 1, -n:n + 1]
    k = (np.hypot(x, y) <= radius).astype(np.float32)
    return k / k.sum()


def blur(img, kind, p):
    """@img blurred: `gauss` (sigma @p), `disk` (defocus, radius @p),
    `motion-h` / `motion-v` (a box of @p pixels along the axis)."""
    if kind == 'gauss':
        return ndimage.gaussian_filter(img, (p, p, 0), mode='reflect',
                                       truncate=4.0)
    if kind == 'disk':
        k = _disk(p)
        n = k.shape[0] // 2
        pad = np.pad(img, ((n, n), (n, n), (0, 0)), mode='reflect')
        return signal.fftconvolve(pad, k[:, :, None], mode='valid')
    if kind in ('motion-h', 'motion-v'):
        return ndimage.uniform_filter1d(img, int(p),
                                        axis=1 if kind == 'motion-h' else 0,
                                        mode='reflect')
    raise ValueError(kind)


BLURS = ('gauss', 'disk', 'motion-h', 'motion-v')


class _Clip:
    """@shots: [(first frame, scene)]; @effects: [(kind, first, count,
    parameter)] with kind one of BLURS, `fade-out` / `fade-in` (to / from
    black over the range), `black`, `freeze` (the range repeats its first
    frame; parameter: the share of luma samples given a +-1 change in each
    repetition, 0 for an exact repetition); @noise: sensor noise (sigma,
    gray levels) over the whole clip; @codec: `h264`, `h264-10` (10-bit),
    `h264-interlaced` (top field first, the fields 1/50 s apart) or
    `y4m`.  @scale multiplies the frame size and every size in pixels
    (pans, blurs)."""

    def __init__(self, name, category, frames, shots, effects=(), noise=0,
                 codec='h264', scale=1):
        self.name, self.category, self.frames = name, category, frames
        self.shots, self.effects = shots, list(effects)
        self.noise, self.codec, self.scale = noise, codec, scale
        self.w, self.h = W * scale, H * scale

    def key(self):
        """What the clip's file and truth depend on (the cache key)."""
        return hashlib.sha1(repr((self.name, self.frames, self.shots,
                                  self.effects, self.noise, self.codec,
                                  self.w, self.h, FPS, RENDER_VERSION)
                                 ).encode()).hexdigest()[:16]

    def path(self, workdir):
        ext = {'y4m': '.y4m'}.get(self.codec, '.mp4')
        return os.path.join(workdir, self.name + ext)

    def _effect_at(self, i, kinds):
        for e in self.effects:
            if e[0] in kinds and e[1] <= i < e[1] + e[2]:
                return e
        return None

    def source_frame(self, i):
        """The frame whose picture frame @i shows (a freeze repeats the
        first frame of its range)."""
        e = self._effect_at(i, ('freeze',))
        return e[1] if e else i

    def blur_at(self, i):
        """(kind, parameter at scale 1) of the blur frame @i shows, or
        None."""
        e = self._effect_at(self.source_frame(i), BLURS)
        return (e[0], e[3]) if e else None

    def render(self, i, field=0):
        """Frame @i as float RGB; @field 1 is the later field's picture of
        an interlaced clip (half a frame later)."""
        j = self.source_frame(i)
        shot = max(k for k, s in enumerate(self.shots) if s[0] <= j)
        first, scene = self.shots[shot]
        t = j - first + 0.5 * field
        img = scene.render(t, self.w, self.h).astype(np.float32)
        e = self._effect_at(j, BLURS)
        if e:
            img = blur(img, e[0], e[3] * self.scale)
        if self.noise:
            rng = np.random.default_rng((zlib.crc32(self.name.encode()), j,
                                         field))
            img = img + self.noise * rng.standard_normal(
                img.shape[:2]).astype(np.float32)[:, :, None]
        e = self._effect_at(i, ('fade-out', 'fade-in', 'black'))
        if e:
            k = (i - e[1] + 1) / (e[2] + 1)
            f = {'fade-out': 1 - k, 'fade-in': k, 'black': 0.0}[e[0]]
            img = img * f
        return np.clip(img, 0, 255)

    def frame(self, i):
        """Frame @i as shown: float RGB, the two fields woven for an
        interlaced clip (top field: even rows, the earlier picture)."""
        if self.codec != 'h264-interlaced':
            return self.render(i)
        img = self.render(i, 0)
        img[1::2] = self.render(i, 1)[1::2]
        return img

    def yuv(self, i, img=None):
        """Frame @i as written: 8-bit Y, U, V planes (the freeze's sensor
        noise included); @img: self.frame (@i) when the caller has it."""
        y, u, v = yuv420(self.frame(i) if img is None else img)
        e = self._effect_at(i, ('freeze',))
        if e and i > e[1] and e[3] > 0:
            y = _flicker(y, e[3], (zlib.crc32(self.name.encode()), i))
        return y, u, v

    # -- truth --

    def truth(self, black, frozen):
        """[{kind, first, last, detail}] in frame order.  @black: per-frame
        black flags, @frozen: per-frame (reference index or -1) of the
        frames as written."""
        segs = []
        for e in sorted(self.effects, key=lambda e: e[1]):
            if e[0] not in BLURS:
                continue
            a, b = e[1], e[1] + e[2] - 1
            long = e[2] / FPS >= MIN_DURATION
            segs.append({'kind': 'blur' if long else 'glitch', 'first': a,
                         'last': b, 'detail': '%s %g' % (e[0], e[3])})
        for a, b in _runs(black):
            # FFmpeg: end (the next frame's pts, or the last frame's at the
            # end of the stream) - start >= d.
            end = b + 1 if b + 1 < self.frames else b
            if (end - a) / FPS >= BLACK_MIN_DURATION:
                segs.append({'kind': 'black', 'first': a, 'last': b,
                             'detail': 'luma <= %d on >= %g of the frame'
                             % (BLACK_PIXEL, BLACK_PICTURE)})
        for a, b in _runs(frozen >= 0):
            # From the reference (the frame before the run), reported once
            # a frozen frame is d after it.
            ref = frozen[a]
            if (b - ref) / FPS >= FREEZE_MIN_DURATION:
                segs.append({'kind': 'freeze', 'first': int(ref),
                             'last': b, 'detail': 'MAFD <= %g'
                             % FREEZE_NOISE})
        return sorted(segs, key=lambda s: (s['first'], s['kind']))

    # -- files --

    def write(self, path):
        """Renders and writes the clip; returns its truth."""
        black = np.zeros(self.frames, dtype=bool)
        frozen = np.full(self.frames, -1)
        ref = None
        ten = self.codec == 'h264-10'
        if self.codec == 'y4m':
            out = open(path + '.part', 'wb')
            out.write(b'YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg '
                      b'XYSCSS=420JPEG\n' % (self.w, self.h, FPS))
            proc = None
        else:
            cmd = ['ffmpeg', '-v', 'error', '-y', '-f', 'rawvideo',
                   '-pix_fmt', 'rgb48le' if ten else 'rgb24',
                   '-s', '%dx%d' % (self.w, self.h), '-r', str(FPS),
                   '-i', '-', '-c:v', 'libx264', '-preset', 'veryfast',
                   '-crf', '18', '-threads', '1']
            if self.codec == 'h264-interlaced':
                cmd += ['-flags', '+ildct+ilme', '-x264opts', 'tff=1',
                        '-field_order', 'tt']
            cmd += ['-pix_fmt', 'yuv420p10le' if ten else 'yuv420p',
                    '-f', 'mp4', path + '.part']
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE)
            out = proc.stdin
        for i in range(self.frames):
            # Rendered once: the planes label the frame, the RGB is encoded.
            img = self.frame(i)
            planes = self.yuv(i, img)
            black[i] = (planes[0] <= BLACK_PIXEL).mean() >= BLACK_PICTURE
            if ref is not None and _mafd(planes, ref[1]) <= FREEZE_NOISE:
                frozen[i] = ref[0]
            else:
                ref = (i, planes)
            if self.codec == 'y4m':
                out.write(b'FRAME\n' + b''.join(p.tobytes() for p in planes))
                continue
            if ten:
                data = np.rint(img * 257).astype('<u2')
            else:
                data = np.rint(img).astype(np.uint8)
            out.write(data.tobytes())
        out.close()
        if proc and proc.wait() != 0:
            raise RuntimeError('ffmpeg failed: %s' % ' '.join(cmd))
        os.rename(path + '.part', path)
        return self.truth(black, frozen)


def _runs(flags):
    """[(first, last)] of the runs of True in @flags."""
    out, start = [], None
    for i, f in enumerate(list(flags) + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            out.append((start, i - 1))
            start = None
    return out


def _mafd(a, b):
    """freezedetect's mean absolute frame difference of two 8-bit 4:2:0
    frames: every sample of every plane, / 2^8."""
    sad = sum(int(np.abs(x.astype(np.int16) - y).sum()) for x, y in zip(a, b))
    return sad / sum(x.size for x in a) / 256


def yuv420(img):
    """BT.601 limited-range 8-bit Y, U, V (4:2:0, 2x2 means) of float RGB,
    as swscale converts rgb24 to yuv420p (to within a level)."""
    h, w = img.shape[:2]
    r, g, b = img[:, :, 0], img[:, :, 1], img[:, :, 2]
    y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
    u = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
    v = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255

    def sub(c):
        return c.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))

    q = lambda c: np.clip(np.rint(c), 0, 255).astype(np.uint8)  # noqa: E731
    return q(y), q(sub(u)), q(sub(v))


def _flicker(y, share, seed):
    """@y with +-1 on a random @share of its samples (sensor noise too weak
    for freezedetect's default threshold)."""
    rng = np.random.default_rng(seed)
    hit = rng.random(y.shape) < share
    step = np.where(rng.random(y.shape) < 0.5, -1, 1)
    out = y.astype(np.int16) + hit * step
    return np.clip(out, 0, 255).astype(np.uint8)


# Part of every clip's cache key: change it with anything that changes
# how frames are rendered, written or labelled (the clip definitions are in
# the key themselves).
RENDER_VERSION = 1


# ---- the suite ----------------------------------------------------------

DETAILED = ['astronaut', 'brick', 'camera', 'grass']
DETAILED2 = ['gravel', 'chelsea', 'camera']
DETAILED3 = ['rocket', 'immunohistochemistry', 'coins']
SMOOTH = ['moon', 'coffee']
SETS = [DETAILED, DETAILED2, DETAILED3]

N = 160                     # frames of most clips: 6.4 s


def _two_blurs(kind, p):
    """A 1.2 s blur after a 1.6 s lead-in and a 2 s one after 1.2 s of
    sharp frames."""
    return [(kind, 40, 30, p), (kind, 100, 50, p)]


def full_suite(scale=1):
    """Every clip of docs/validation/detection.md, in category order; @scale: frame
    size (and every size in pixels) over 640 x 360."""
    c = []

    def Clip(*args, **kw):
        return _Clip(*args, scale=scale, **kw)

    # Gaussian and defocus blurs of three strengths, two shots each.
    for k, s in enumerate((1.5, 2.5, 4)):
        for v in range(2):
            c.append(Clip('gauss-%g-%d' % (s, v), 'gaussian', N,
                          [(0, Mosaic(SETS[(k + v) % 3], 2 + 3 * v))],
                          _two_blurs('gauss', s)))
    for k, r in enumerate((2, 3.5, 6)):
        for v in range(2):
            c.append(Clip('disk-%g-%d' % (r, v), 'defocus', N,
                          [(0, Mosaic(SETS[(k + v + 1) % 3], 1 + 3 * v))],
                          _two_blurs('disk', r)))
    for kind in ('motion-h', 'motion-v'):
        for v in range(2):
            c.append(Clip('%s-%d' % (kind, v), 'motion', N,
                          [(0, Mosaic(SETS[v + 1], 2))],
                          _two_blurs(kind, 15)))
    # sigma-3 blurs under sigma-12 sensor noise.
    for v in range(2):
        c.append(Clip('noise-%d' % v, 'noise', N,
                      [(0, Mosaic(SETS[v], 2))], _two_blurs('gauss', 3),
                      noise=12))
    # A blur within the first window of frames of a file, too mild for an
    # absolute threshold.
    c.append(Clip('early-disk', 'early', N, [(0, Mosaic(DETAILED2, 2))],
                  [('disk', 8, 30, 2), ('disk', 110, 30, 2)]))
    c.append(Clip('early-gauss', 'early', N, [(0, Mosaic(DETAILED3, 2))],
                  [('gauss', 12, 30, 1.5), ('gauss', 110, 30, 1.5)]))
    # Out of focus from the first frame of the file; a milder blur later
    # must still be judged against the sharp frames, not the opening.
    c.append(Clip('first-gauss', 'first-frame', N,
                  [(0, Mosaic(DETAILED, 2))],
                  [('gauss', 0, 40, 2.5), ('disk', 110, 30, 2)]))
    c.append(Clip('first-disk', 'first-frame', N,
                  [(0, Mosaic(DETAILED3, 3))],
                  [('disk', 0, 60, 3.5), ('gauss', 115, 30, 1.5)]))
    # Out of focus from the first frame after a cut (to a detailed and to
    # a smooth shot), a milder blur later in the same shot.
    c.append(Clip('cut-gauss', 'cut', N,
                  [(0, Mosaic(DETAILED, 2)), (60, Mosaic(DETAILED2, 3))],
                  [('gauss', 60, 40, 2.5), ('disk', 125, 30, 2)]))
    c.append(Clip('cut-disk-smooth', 'cut', N,
                  [(0, Mosaic(DETAILED3, 2)), (60, Mosaic(SMOOTH, 2))],
                  [('disk', 60, 40, 3.5), ('gauss', 125, 30, 1.5)]))
    # Glitches shorter than the minimum duration: never segments.
    c.append(Clip('glitch-0', 'glitch', N, [(0, Mosaic(DETAILED, 2))],
                  [('gauss', 40, 1, 3), ('gauss', 60, 2, 3),
                   ('gauss', 80, 4, 3), ('gauss', 110, 8, 3)]))
    c.append(Clip('glitch-1', 'glitch', N, [(0, Mosaic(DETAILED2, 4))],
                  [('disk', 45, 3, 4), ('disk', 75, 6, 4),
                   ('motion-h', 105, 10, 15)]))
    # Fades and cuts to black.
    c.append(Clip('fade-black', 'black', 200, [(0, Mosaic(DETAILED, 2))],
                  [('fade-out', 40, 25, 0), ('black', 65, 60, 0),
                   ('fade-in', 125, 25, 0)]))
    c.append(Clip('cut-black', 'black', 200,
                  [(0, Mosaic(DETAILED2, 2)), (110, Mosaic(DETAILED3, 2))],
                  [('black', 50, 60, 0), ('black', 150, 20, 0)]))
    # Freezes, exact and with sensor noise under freezedetect's threshold.
    c.append(Clip('freeze-exact', 'freeze', 200, [(0, Mosaic(DETAILED, 3))],
                  [('freeze', 50, 80, 0)], codec='y4m'))
    c.append(Clip('freeze-noisy', 'freeze', 200,
                  [(0, Mosaic(DETAILED3, 3))],
                  [('freeze', 60, 80, 0.25)], codec='y4m'))
    # Sharp low-texture scenes: never blurry.
    for kind in ('sky', 'wall', 'gradient', 'wheel'):
        c.append(Clip('smooth-%s' % kind, 'smooth', N,
                      [(0, Synthetic(kind))], noise=1))
    c.append(Clip('smooth-moon-coffee', 'smooth', N,
                  [(0, Mosaic(SMOOTH, 2))]))
    # SD content upscaled to the frame (576 -> 1080 lines, scaled).
    c.append(Clip('upscaled-0', 'upscaled', N,
                  [(0, Mosaic(DETAILED, 2, sd=192))]))
    c.append(Clip('upscaled-1', 'upscaled', N,
                  [(0, Mosaic(DETAILED2, 3, sd=192))],
                  [('gauss', 80, 40, 2.5)]))
    # Fast pans, zooms in and out.
    c.append(Clip('pan-12', 'pan', N, [(0, Mosaic(DETAILED, 12))],
                  [('gauss', 70, 40, 2.5)]))
    c.append(Clip('pan-20', 'pan', N, [(0, Mosaic(DETAILED3, 20))],
                  [('disk', 60, 50, 3.5)]))
    c.append(Clip('zoom-in', 'zoom', N,
                  [(0, Zoom(DETAILED[:2], 1.4, 1.0, N))],
                  [('gauss', 70, 40, 2.5)]))
    c.append(Clip('zoom-out', 'zoom', N,
                  [(0, Zoom(['camera', 'gravel'], 1.0, 1.4, N))],
                  [('disk', 80, 40, 3.5)]))
    # Interlaced (fields 1/50 s apart, panning).
    c.append(Clip('interlaced-0', 'interlaced', N,
                  [(0, Mosaic(DETAILED, 4))], [('gauss', 60, 40, 2.5)],
                  codec='h264-interlaced'))
    c.append(Clip('interlaced-1', 'interlaced', N,
                  [(0, Mosaic(DETAILED3, 8))], [('disk', 80, 40, 3.5)],
                  codec='h264-interlaced'))
    # The same content in 8 and 10 bits.
    for codec in ('h264', 'h264-10'):
        c.append(Clip('depth-%s' % codec, 'bit-depth', N,
                      [(0, Mosaic(DETAILED2, 2))], _two_blurs('gauss', 2.5),
                      codec=codec))
    return c


# The CI test's subset: a clip of each category, the harder where a
# category has several (the 10-bit one, the upscaled one with a blur...).
CI_CLIPS = ('gauss-1.5-0', 'disk-2-0', 'motion-v-0', 'noise-0', 'early-disk',
            'first-disk', 'cut-disk-smooth', 'glitch-1', 'fade-black',
            'freeze-noisy', 'smooth-sky', 'smooth-wheel', 'upscaled-1',
            'pan-20', 'zoom-out', 'interlaced-1', 'depth-h264-10')


def ci_suite(scale=1):
    """The clips of CI_CLIPS, in suite order."""
    return [c for c in full_suite(scale) if c.name in CI_CLIPS]


CATEGORIES = []
for _c in full_suite():
    if _c.category not in CATEGORIES:
        CATEGORIES.append(_c.category)


def _make_one(clip, workdir):
    path = clip.path(workdir)
    segments = clip.write(path)
    return {'file': os.path.basename(path), 'key': clip.key(),
            'category': clip.category, 'fps': FPS, 'frames': clip.frames,
            'width': clip.w, 'height': clip.h, 'codec': clip.codec,
            'segments': segments}


def make(clips, workdir, jobs=2):
    """Writes the clips missing or out of date in @workdir and
    @workdir/truth.json; returns the truth {name: entry}.  Safe to call
    from concurrent processes (a lock file)."""
    os.makedirs(workdir, exist_ok=True)
    tpath = os.path.join(workdir, 'truth.json')
    with open(os.path.join(workdir, 'lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        truth = {}
        if os.path.exists(tpath):
            with open(tpath) as f:
                truth = json.load(f)
        todo = [c for c in clips
                if c.name not in truth or truth[c.name]['key'] != c.key() or
                not os.path.exists(c.path(workdir))]
        if todo:
            with ProcessPoolExecutor(max_workers=jobs) as ex:
                for c, entry in zip(todo, ex.map(_make_one, todo,
                                                 [workdir] * len(todo))):
                    truth[c.name] = entry
            with open(tpath + '.part', 'w') as f:
                json.dump(truth, f, indent=1, sort_keys=True)
            os.rename(tpath + '.part', tpath)
    return {c.name: truth[c.name] for c in clips}


if __name__ == '__main__':
    wd = sys.argv[1]
    sc = int(sys.argv[sys.argv.index('--scale') + 1]) \
        if '--scale' in sys.argv else 1
    sel = ci_suite(sc) if '--ci' in sys.argv else full_suite(sc)
    t = make(sel, wd)
    for name, e in t.items():
        print(name, e['category'], [(s['kind'], s['first'], s['last'])
                                    for s in e['segments']])
