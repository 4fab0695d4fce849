#!/usr/bin/python3
# The held-out suite of issue 30 (docs/validation/detection.md, "Held-out
# photographs"): labelled clips made from the photographs of photos.py, one
# half at a time (the tuning half and the held-out half never share a
# photograph), at 640x360, 1280x720 and 1920x1080, in the categories the
# issue lists; and the long sharp stream (pans, zooms and cuts) for the
# false-segment rate per channel-hour.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Frames are rendered one at a time (float RGB, as suite.py does), turned
# into 8-bit BT.601 4:2:0 and piped to x264 (CRF 18 unless the clip's
# category is about compression), or written raw (y4m) for the freezes.
#
# Labels, per frame: every blur has a strength per frame (a focus pull or
# a drift ramps it), expressed as its standard deviation in pixels at 640
# columns (Gaussian: sigma; disk of radius r: r/2; motion of length L:
# L/sqrt(12)).  A frame is `blurry` when that is at least LABEL_SIGMA,
# `soft` (neither blurry nor sharp: nothing is counted there) when it is
# above 0 and below, `sharp` otherwise.  A truth blur segment is a run of
# blurry frames within one shot (a cut ends it) lasting MIN_DURATION;
# shorter runs are soft.  Black and freeze segments are FFmpeg's
# blackdetect and freezedetect on the frames as written (suite.py's rule).
# Each blur segment records its kernel, its peak strength (pixels at 640
# columns; for the disk also its radius as a share of the width) and
# whether it lies inside a shot (sharp frames of the same shot before it).
#
# Usage: heldout.py DIR [--half tuning|heldout|both] [--ci] [--sizes 360,...]
#        [--variants N]       (writes the clips and DIR/truth.json)
#        heldout.py --long DIR --minutes M [--start S]   (the sharp stream)

import fcntl
import hashlib
import json
import os
import subprocess
import sys
import zlib
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from scipy import ndimage

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, '..', 'common'))
import photos  # noqa: E402
import suite  # noqa: E402

FPS = 25
SIZES = {360: (640, 360), 720: (1280, 720), 1080: (1920, 1080)}
LABEL_SIGMA = 1.0
MIN_DURATION = suite.MIN_DURATION
# Part of every clip's cache key (with photos.VERSION).
RENDER_VERSION = 1
# The sharp stream's own version (its parts' results are keyed by it): 2
# since zooms are centred on their photographs.
LONG_VERSION = 2
PHOTO_HEIGHT = 1200        # photographs are kept at most this tall


def sigma_eq(kind, p):
    """Standard deviation (pixels at 640 columns) of a blur kernel."""
    if kind == 'gauss':
        return p
    if kind == 'disk':
        return p / 2.0
    return p / np.sqrt(12.0)


# ---- photographs and scenes ---------------------------------------------

_CACHE = {}


def _photo_array(photo, workdir):
    """The photograph as uint8 RGB, at most PHOTO_HEIGHT rows (a cache
    under @workdir/photos)."""
    if photo.canonical in _CACHE:
        return _CACHE[photo.canonical]
    d = os.path.join(workdir, 'photos')
    os.makedirs(d, exist_ok=True)
    f = os.path.join(d, photo.canonical.replace(':', '_').replace('/', '_')
                     + '-v%d.npy' % photos.VERSION)
    if os.path.exists(f):
        a = np.load(f)
    else:
        from PIL import Image
        img = photo.rgb()
        w, h = img.size
        if h > PHOTO_HEIGHT:
            img = img.resize((round(w * PHOTO_HEIGHT / h), PHOTO_HEIGHT),
                             Image.LANCZOS, reducing_gap=3.0)
        a = np.asarray(img, dtype=np.uint8)
        np.save(f + '.part.npy', a)
        os.rename(f + '.part.npy', f)
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[photo.canonical] = a
    return a


def _resize(a, w, h):
    from PIL import Image
    return np.asarray(Image.fromarray(a).resize((w, h), Image.LANCZOS))


def _canvas(names, height, workdir, minwidth):
    """The photographs side by side, each scaled (down: never magnified)
    to @height rows, repeated until @minwidth columns."""
    byname = {p.canonical: p for p in photos.all_photos()}
    parts = []
    for n in names:
        a = _photo_array(byname[n], workdir)
        z = height / a.shape[0]
        parts.append(_resize(a, max(1, round(a.shape[1] * z)), height))
    c = np.concatenate(parts, axis=1)
    while c.shape[1] < minwidth:
        c = np.concatenate([c, c[:, ::-1]], axis=1)
    return c.astype(np.float32)


class Pan:
    """A pan across photographs at @speed columns a frame at 640 (scaled
    with the frame), bouncing; @zoom: photograph rows per frame row
    (>= 1)."""

    def __init__(self, names, speed, zoom=1.0, vertical=False):
        self.names, self.speed, self.zoom = list(names), speed, zoom
        self.vertical = vertical
        self._c = None

    def __repr__(self):
        return 'Pan(%r, %r, %r, %r)' % (self.names, self.speed, self.zoom,
                                        self.vertical)

    def render(self, t, w, h, workdir):
        if self._c is None:
            self._c = _canvas(self.names, int(round(h * self.zoom)), workdir,
                              w + 4)
            if self._c.shape[0] > h:
                self._c = np.asarray(self._c)
        c = self._c
        span = c.shape[1] - w
        x = int(round(suite._bounce(t * self.speed * w / 640, span)))
        top = (c.shape[0] - h) // 2
        if self.vertical and c.shape[0] > h:
            top = int(round(suite._bounce(t * self.speed * w / 640,
                                          c.shape[0] - h)))
        return c[top:top + h, x:x + w]


class Zoom:
    """A zoom from @s0 to @s1 photograph pixels per frame pixel over
    @frames (never below 1), centred on the photographs, mirrored on both
    sides where they are narrower than the widest view.  (Mirrored on one
    side, as a pan's canvas is, the centre fell on the seam: the view
    held the photograph's edge and its reflection, for a photograph of
    shallow depth of field out-of-focus background alone, labelled
    sharp.)"""

    def __init__(self, names, s0, s1, frames):
        self.names, self.s0, self.s1, self.frames = list(names), s0, s1, \
            frames
        self._img = None

    def __repr__(self):
        # 'centred' keys the clips and stream parts made since the
        # framing changed (their files and results are not the earlier
        # framing's).
        return 'Zoom(%r, %r, %r, %r, centred)' % (
            self.names, self.s0, self.s1, self.frames)

    def render(self, t, w, h, workdir):
        from PIL import Image
        if self._img is None:
            hh = int(round(h * max(self.s0, self.s1)))
            c = _canvas(self.names, hh, workdir, 0)
            pad = (int(w * max(self.s0, self.s1)) + 2 - c.shape[1] + 1) // 2
            if pad > 0:
                c = np.pad(c, ((0, 0), (pad, pad), (0, 0)),
                           mode='symmetric')
            self._img = Image.fromarray(np.clip(c, 0, 255).astype(np.uint8))
        cw, ch = self._img.size
        s = self.s0 + (self.s1 - self.s0) * min(1.0, t / max(1, self.frames
                                                              - 1))
        box = (cw / 2 - w * s / 2, ch / 2 - h * s / 2,
               cw / 2 + w * s / 2, ch / 2 + h * s / 2)
        return np.asarray(self._img.resize((w, h), Image.BICUBIC, box=box)
                          ).astype(np.float32)


class Dof:
    """Shallow depth of field: the photograph panning slowly, its
    background disk-blurred (radius @r at 640), a sharp subject in an
    ellipse (feathered edge) at the centre."""

    def __init__(self, names, r):
        self.pan = Pan(names, 1.0)
        self.r = r
        self._mask = None

    def __repr__(self):
        return 'Dof(%r, %r)' % (self.pan, self.r)

    def render(self, t, w, h, workdir):
        img = self.pan.render(t, w, h, workdir)
        if self._mask is None:
            y, x = np.mgrid[0:h, 0:w].astype(np.float32)
            d = np.hypot((x - w / 2) / (0.22 * w), (y - h / 2) / (0.36 * h))
            self._mask = np.clip((1.15 - d) / 0.3, 0, 1)[:, :, None]
        bg = suite.blur(img, 'disk', self.r * w / 640)
        return img * self._mask + bg * (1 - self._mask)


class Synthetic:
    """suite.Synthetic's sky, wall, gradient; `graphics` (flat-coloured
    shapes with sharp edges) and `text` (dark text on a plain page),
    drifting 2 pixels a frame (at 640)."""

    def __init__(self, kind, seed=0):
        self.kind, self.seed = kind, seed
        self._base = None
        self._s = suite.Synthetic(kind) if kind in ('sky', 'wall',
                                                    'gradient') else None

    def __repr__(self):
        return 'Synthetic(%r, %r)' % (self.kind, self.seed)

    def _make(self, w, h):
        from PIL import Image, ImageDraw
        ww = w + w // 2
        rng = np.random.default_rng(self.seed)
        if self.kind == 'graphics':
            im = Image.new('RGB', (ww, h), tuple(int(v) for v in
                                                 rng.integers(30, 220, 3)))
            d = ImageDraw.Draw(im)
            for _ in range(10):
                x0, y0 = rng.integers(0, ww), rng.integers(0, h)
                s = int(rng.integers(h // 10, h // 3))
                col = tuple(int(v) for v in rng.integers(0, 255, 3))
                if rng.random() < 0.5:
                    d.rectangle([x0, y0, x0 + s, y0 + s // 2], fill=col)
                else:
                    d.ellipse([x0, y0, x0 + s, y0 + s], fill=col)
        else:
            im = Image.new('RGB', (ww, h), (236, 232, 222))
            d = ImageDraw.Draw(im)
            words = ('the quick brown fox jumps over the lazy dog '
                     'sharpness focus blur held out photograph').split()
            from PIL import ImageFont
            try:
                font = ImageFont.truetype(
                    '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
                    max(10, h // 24))
            except OSError:
                font = ImageFont.load_default()
            y = h // 12
            while y < h - h // 12:
                line = ' '.join(rng.choice(words, 8))
                d.text((w // 20, y), line, fill=(30, 30, 35), font=font)
                y += max(14, h // 14)
        return np.asarray(im).astype(np.float32)

    def render(self, t, w, h, workdir):
        if self._s is not None:
            return self._s.render(t, w, h)
        if self._base is None:
            self._base = self._make(w, h)
        x = int(round(suite._bounce(t * 2.0 * w / 640,
                                    self._base.shape[1] - w)))
        return self._base[:, x:x + w]


# ---- clips --------------------------------------------------------------

class HClip:
    """@shots: [(first frame, scene)]; @blurs: [(kind, first, count, peak,
    ramp in, ramp out)] (peak in pixels at 640; the ramps in frames, the
    strength linear over them); @tone: None, ('contrast', k), ('light', k)
    or ('haze', k); @noise: sensor noise sigma; @grain: film grain
    amplitude; @fx: [(kind, first, count)] with kind fade-out, fade-in,
    black, freeze; @sd: rows of the SD picture upscaled to the frame;
    @crf; @codec h264, h264-interlaced or y4m."""

    def __init__(self, name, category, half, size, frames, shots, blurs=(),
                 tone=None, noise=0, grain=0, fx=(), sd=None, crf=18,
                 codec='h264'):
        self.name, self.category, self.half = name, category, half
        self.size = size
        self.w, self.h = SIZES[size]
        self.frames, self.shots, self.blurs = frames, shots, list(blurs)
        self.tone, self.noise, self.grain = tone, noise, grain
        self.fx, self.sd, self.crf, self.codec = list(fx), sd, crf, codec

    def key(self):
        return hashlib.sha1(repr((
            self.name, self.size, self.frames, self.shots, self.blurs,
            self.tone, self.noise, self.grain, self.fx, self.sd, self.crf,
            self.codec, FPS, RENDER_VERSION, photos.VERSION,
            LABEL_SIGMA)).encode()).hexdigest()[:16]

    def path(self, workdir):
        return os.path.join(workdir, self.name +
                            ('.y4m' if self.codec == 'y4m' else '.mp4'))

    def photos_used(self):
        out = set()
        for _, s in self.shots:
            for n in getattr(s, 'names', getattr(getattr(s, 'pan', None),
                                                 'names', [])):
                out.add(n)
        return out

    def _fx(self, i, kinds):
        for e in self.fx:
            if e[0] in kinds and e[1] <= i < e[1] + e[2]:
                return e
        return None

    def source_frame(self, i):
        e = self._fx(i, ('freeze',))
        return e[1] if e else i

    def shot_of(self, i):
        return max(k for k, s in enumerate(self.shots) if s[0] <= i)

    def blur_at(self, i):
        """(kind, strength in pixels at 640) at frame @i, or None."""
        for kind, a, n, peak, rin, rout in self.blurs:
            if a <= i < a + n:
                k = i - a
                f = 1.0
                if rin and k < rin:
                    f = (k + 1) / (rin + 1)
                elif rout and k >= n - rout:
                    f = (n - k) / (rout + 1)
                return kind, peak * f
        return None

    def render(self, i, workdir, field=0):
        j = self.source_frame(i)
        first, scene = self.shots[self.shot_of(j)]
        t = j - first + 0.5 * field
        rows = self.sd * self.h // 1080 if self.sd else self.h
        cols = int(round(self.w * rows / self.h))
        img = scene.render(t, cols, rows, workdir).astype(np.float32)
        b = self.blur_at(j)
        if b and b[1] > 0:
            img = suite.blur(img, b[0], b[1] * cols / 640)
        if self.sd:
            from PIL import Image
            u8 = np.clip(np.rint(img), 0, 255).astype(np.uint8)
            img = np.asarray(Image.fromarray(u8).resize(
                (self.w, self.h), Image.BICUBIC)).astype(np.float32)
        if self.tone:
            kind, k = self.tone
            m = img.mean()
            if kind == 'contrast':
                img = m + (img - m) * k
            elif kind == 'light':
                img = img * k
            else:
                img = img * (1 - k) + np.float32([205, 208, 212]) * k
        seed = (zlib.crc32(self.name.encode()), j, field)
        if self.noise or self.grain:
            rng = np.random.default_rng(seed)
            n = np.zeros(img.shape[:2], np.float32)
            if self.noise:
                n += self.noise * rng.standard_normal(n.shape,
                                                      dtype=np.float32)
            if self.grain:
                g = ndimage.gaussian_filter(
                    rng.standard_normal(n.shape, dtype=np.float32),
                    0.8 * self.w / 640)
                g /= g.std() + 1e-6
                # Film grain: strongest in the mid-tones.
                lum = img.mean(axis=2) / 255.0
                n += self.grain * g * (0.4 + 2.4 * lum * (1 - lum))
            img = img + n[:, :, None]
        e = self._fx(i, ('fade-out', 'fade-in', 'black'))
        if e:
            k = (i - e[1] + 1) / (e[2] + 1)
            img = img * {'fade-out': 1 - k, 'fade-in': k, 'black': 0.0}[e[0]]
        return np.clip(img, 0, 255)

    def frame(self, i, workdir):
        if self.codec != 'h264-interlaced':
            return self.render(i, workdir)
        img = self.render(i, workdir, 0)
        img[1::2] = self.render(i, workdir, 1)[1::2]
        return img

    # -- labels --

    def labels(self):
        """Per frame: 'blurry', 'soft' or 'sharp' (before the segment
        length rule)."""
        out = []
        for i in range(self.frames):
            j = self.source_frame(i)
            b = self.blur_at(j)
            s = sigma_eq(*b) if b else 0.0
            out.append('blurry' if s >= LABEL_SIGMA else
                       'soft' if s > 0 else 'sharp')
        return out

    def truth(self, black, frozen):
        lab = self.labels()
        segs = []
        shots = [s[0] for s in self.shots] + [self.frames]
        for k in range(len(shots) - 1):
            a0, b0 = shots[k], shots[k + 1]
            flags = [lab[i] == 'blurry' for i in range(a0, b0)]
            for a, b in suite._runs(flags):
                a, b = a + a0, b + a0
                if (b - a + 1) / FPS < MIN_DURATION:
                    for i in range(a, b + 1):
                        lab[i] = 'soft'
                    continue
                kinds = [self.blur_at(self.source_frame(i)) for i in
                         range(a, b + 1)]
                kind = kinds[0][0]
                peak = max(x[1] for x in kinds)
                segs.append({
                    'kind': 'blur', 'first': a, 'last': b,
                    'kernel': kind, 'peak': round(peak, 3),
                    'peak_sigma': round(sigma_eq(kind, peak), 3),
                    'disk_share': round(peak / 640, 5) if kind == 'disk'
                    else None,
                    'in_shot': a > a0 and lab[a0] == 'sharp',
                    'detail': '%s %g' % (kind, peak)})
        for a, b in suite._runs(black):
            end = b + 1 if b + 1 < self.frames else b
            if (end - a) / FPS >= suite.BLACK_MIN_DURATION:
                segs.append({'kind': 'black', 'first': a, 'last': b})
        for a, b in suite._runs(frozen >= 0):
            ref = frozen[a]
            if (b - ref) / FPS >= suite.FREEZE_MIN_DURATION:
                segs.append({'kind': 'freeze', 'first': int(ref),
                             'last': b})
        return sorted(segs, key=lambda s: (s['first'], s['kind'])), lab

    # -- files --

    def write(self, path, workdir):
        black = np.zeros(self.frames, dtype=bool)
        frozen = np.full(self.frames, -1)
        ref = None
        proc = None
        if self.codec == 'y4m':
            out = open(path + '.part', 'wb')
            out.write(b'YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg '
                      b'XYSCSS=420JPEG\n' % (self.w, self.h, FPS))
        else:
            cmd = encoder(self.w, self.h, self.crf,
                          self.codec == 'h264-interlaced', path + '.part')
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE)
            out = proc.stdin
        for i in range(self.frames):
            planes = suite.yuv420(self.frame(i, workdir))
            black[i] = (planes[0] <= suite.BLACK_PIXEL).mean() >= \
                suite.BLACK_PICTURE
            if ref is not None and suite._mafd(planes, ref[1]) <= \
                    suite.FREEZE_NOISE:
                frozen[i] = ref[0]
            else:
                ref = (i, planes)
            if self.codec == 'y4m':
                out.write(b'FRAME\n')
            out.write(b''.join(p.tobytes() for p in planes))
        out.close()
        if proc and proc.wait() != 0:
            raise RuntimeError('ffmpeg failed on %s' % path)
        os.rename(path + '.part', path)
        return self.truth(black, frozen)


def encoder(w, h, crf, interlaced, path, fmt='mp4'):
    """ffmpeg reading 8-bit 4:2:0 planes on stdin, x264 (suite.py's
    settings) into @path."""
    cmd = ['ffmpeg', '-v', 'error', '-y', '-f', 'rawvideo',
           '-pix_fmt', 'yuv420p', '-s', '%dx%d' % (w, h), '-r', str(FPS),
           '-i', '-', '-c:v', 'libx264', '-preset', 'veryfast',
           '-crf', str(crf), '-threads', '1']
    if interlaced:
        cmd += ['-flags', '+ildct+ilme', '-x264opts', 'tff=1',
                '-field_order', 'tt']
    return cmd + ['-pix_fmt', 'yuv420p', '-f', fmt, path]


# ---- the suite ----------------------------------------------------------

# Category order of the tables.
CATEGORIES = ('gaussian', 'defocus', 'motion', 'focus-pull', 'focus-drift',
              'first-frame', 'cut', 'shallow-dof', 'low-contrast',
              'low-light', 'haze', 'smooth', 'noise', 'grain', 'compression',
              'upscaled', 'interlaced', 'fade-black', 'freeze', 'cuts', 'pan',
              'zoom')
# Variants of each category in the full suite, per half.  Low light and
# noise have 30 as Gaussian and defocus do: only their odd variants carry
# blurs and only 2 in 10 of those are 640 x 360, so with 8 and 10 a
# half's recall there rested on 2 clips at that size.
VARIANTS = {'gaussian': 30, 'defocus': 30, 'motion': 16, 'focus-pull': 16,
            'focus-drift': 8, 'first-frame': 12, 'cut': 12,
            'shallow-dof': 10, 'low-contrast': 8, 'low-light': 30,
            'haze': 8, 'smooth': 10, 'noise': 30, 'grain': 8,
            'compression': 10, 'upscaled': 8, 'interlaced': 8,
            'fade-black': 6, 'freeze': 4, 'cuts': 8, 'pan': 8, 'zoom': 8}
# Disk radii as a share of the width (up to 1 %); Gaussian sigmas and
# motion lengths in pixels at 640 columns.
DISK_SHARES = (0.0035, 0.005, 0.0075, 0.01)
GAUSS = (1.5, 2.5, 4.0, 6.0)
MOTION = (8, 14, 22)


def size_of(v):
    """The frame size of variant @v: 6 in 10 at 360 lines, 3 at 720, 1 at
    1080."""
    return (360, 360, 720, 360, 360, 720, 360, 1080, 360, 720)[v % 10]


def _rng(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _pick(rng, pool, k):
    idx = rng.choice(len(pool), size=min(k, len(pool)), replace=False)
    return [pool[i] for i in idx]


def _pool(half, size):
    """Canonical names of @half's photographs tall enough for @size."""
    h = SIZES[size][1]
    return [p.canonical for p in photos.half(half) if p.size[1] >= h]


def _three(kind, values, rng, n=200, lead=30):
    """Three blurs of @kind in @n frames, after @lead sharp frames, 24-40
    frames each with at least 26 sharp frames between."""
    out, a = [], lead
    for k in range(3):
        cnt = int(rng.integers(24, 41))
        out.append((kind, a, cnt, values[k], 0, 0))
        a += cnt + int(rng.integers(26, 34))
    return out


def make_clip(half, category, v, size=None, frames_scale=1.0):
    """Variant @v of @category in @half (deterministic)."""
    size = size or size_of(v)
    rng = _rng(half, category, v)
    pool = _pool(half, size)
    name = '%s-%s-%02d-%d' % (half, category, v, size)
    P = lambda k=2: _pick(rng, pool, k)  # noqa: E731
    sp = float(rng.choice([1.0, 2.0, 3.0, 4.0]))
    C = lambda *a, **k: HClip(name, category, half, size, *a, **k)  # noqa
    if category == 'gaussian':
        vals = [GAUSS[(v + k) % 4] for k in range(3)]
        return C(200, [(0, Pan(P(), sp))], _three('gauss', vals, rng))
    if category == 'defocus':
        vals = [DISK_SHARES[(v + k) % 4] * 640 for k in range(3)]
        return C(200, [(0, Pan(P(), sp))], _three('disk', vals, rng))
    if category == 'motion':
        kind = ('motion-h', 'motion-v')[v % 2]
        vals = [MOTION[(v + k) % 3] for k in range(3)]
        return C(200, [(0, Pan(P(), sp))], _three(kind, vals, rng))
    if category == 'focus-pull':
        kind = ('disk', 'gauss')[v % 2]
        out, a = [], 30
        for k in range(2):
            rin, rout = (int(rng.integers(25, 76)) for _ in range(2))
            hold = int(rng.integers(5, 26))
            peak = float(rng.choice([2.5, 3.5, 5.0]))
            peak = peak * 2 if kind == 'disk' else peak
            peak = min(peak, 6.4) if kind == 'disk' else peak
            out.append((kind, a, rin + hold + rout, peak, rin, rout))
            a += rin + hold + rout + 30
        return C(a, [(0, Pan(P(), sp))], out)
    if category == 'focus-drift':
        kind = ('disk', 'gauss')[v % 2]
        ramp = int(FPS * (5, 8, 12, 20)[v % 4] * frames_scale)
        peak = 6.4 if kind == 'disk' else 4.0
        n = 40 + ramp + 25
        return C(n + 40, [(0, Pan(P(), sp)), (n, Pan(P(), sp))],
                 [(kind, 40, ramp + 25, peak, ramp, 0)])
    if category == 'first-frame':
        kind = ('disk', 'gauss')[v % 2]
        peak = (4.8, 3.0)[v % 2]
        return C(170, [(0, Pan(P(), sp))],
                 [(kind, 0, int(rng.integers(30, 61)), peak, 0, 0),
                  (('gauss', 'disk')[v % 2], 110, 35,
                   (2.0, 3.2)[v % 2], 0, 0)])
    if category == 'cut':
        # A cut into a blurred shot; a blur that runs to a cut into a
        # sharp shot.
        kind = ('disk', 'gauss')[v % 2]
        peak = (4.8, 3.0)[v % 2]
        return C(190, [(0, Pan(P(1), sp)), (50, Pan(P(1), sp)),
                       (140, Pan(P(1), sp))],
                 [(kind, 50, 40, peak, 0, 0), (kind, 110, 30, peak, 0, 0)])
    if category == 'shallow-dof':
        blurs = [] if v % 2 == 0 else [('gauss', 90, 40, 3.0, 0, 0)]
        return C(160, [(0, Dof(P(1), float(rng.choice([3.2, 4.8,
                                                         6.4]))))], blurs)
    if category in ('low-contrast', 'low-light', 'haze'):
        tone = {'low-contrast': ('contrast', float(rng.choice([0.3, 0.4]))),
                'low-light': ('light', float(rng.choice([0.15, 0.25]))),
                'haze': ('haze', float(rng.choice([0.5, 0.65])))}[category]
        blurs = [] if v % 2 == 0 else [
            ('gauss', 50, 35, 2.5, 0, 0), ('disk', 120, 35, 4.8, 0, 0)]
        return C(180, [(0, Pan(P(), sp))], blurs, tone=tone,
                 noise=2 if category == 'low-light' else 0)
    if category == 'smooth':
        kind = ('sky', 'wall', 'gradient', 'graphics', 'text')[v % 5]
        return C(150, [(0, Synthetic(kind, v))], noise=1)
    if category in ('noise', 'grain'):
        blurs = [] if v % 2 == 0 else [
            ('gauss', 45, 35, 2.5, 0, 0), ('disk', 120, 35, 4.8, 0, 0)]
        amp = (4, 8, 12)[v % 3] if category == 'noise' else (6, 10)[v % 2]
        return C(180, [(0, Pan(P(), sp))], blurs,
                 noise=amp if category == 'noise' else 0,
                 grain=amp if category == 'grain' else 0)
    if category == 'compression':
        crf = (18, 23, 28, 33, 38)[v % 5]
        blurs = [] if v % 2 == 1 else [
            ('gauss', 45, 35, 2.5, 0, 0), ('disk', 120, 35, 4.8, 0, 0)]
        return C(180, [(0, Pan(P(), sp))], blurs, crf=crf)
    if category == 'upscaled':
        blurs = [] if v % 2 == 0 else [('gauss', 80, 40, 2.5, 0, 0)]
        return C(160, [(0, Pan(P(), sp))], blurs, sd=576)
    if category == 'interlaced':
        return C(180, [(0, Pan(P(), 4.0))], [
            ('gauss', 45, 35, 2.5, 0, 0), ('disk', 120, 35, 4.8, 0, 0)],
            codec='h264-interlaced')
    if category == 'fade-black':
        return C(220, [(0, Pan(P(), sp)), (150, Pan(P(), sp))],
                 [('gauss', 20, 30, 3.0, 0, 0)],
                 fx=[('fade-out', 60, 25, 0), ('black', 85, 60, 0),
                     ('fade-in', 145, 5, 0)])
    if category == 'freeze':
        return C(200, [(0, Pan(P(), 3.0))], [('disk', 150, 35, 4.8, 0, 0)],
                 fx=[('freeze', 50, 80, 0)], codec='y4m')
    if category == 'cuts':
        shots, a = [], 0
        while a < 240:
            shots.append((a, Pan(P(1), float(rng.choice([0.0, 2.0, 6.0])))))
            a += int(rng.integers(25, 76))
        # A blur that runs up to a cut into a sharp shot.
        cut = shots[len(shots) // 2][0]
        return C(240, shots, [('gauss', cut - 30, 30, 3.0, 0, 0)])
    if category == 'pan':
        fast = float(rng.choice([10.0, 16.0, 24.0]))
        return C(180, [(0, Pan(P(3), fast))], [
            ('gauss', 45, 35, 2.5, 0, 0), ('disk', 120, 35, 4.8, 0, 0)])
    if category == 'zoom':
        s0, s1 = ((1.6, 1.0), (1.0, 1.6))[v % 2]
        return C(180, [(0, Zoom(P(1), s0, s1, 180))], [
            ('gauss', 45, 35, 2.5, 0, 0), ('disk', 120, 35, 4.8, 0, 0)])
    raise ValueError(category)


def full_suite(half, sizes=(360, 720, 1080), variants=None):
    """Every clip of @half (variants: at most that many per category)."""
    out = []
    for cat in CATEGORIES:
        n = VARIANTS[cat] if variants is None else min(variants,
                                                        VARIANTS[cat])
        for v in range(n):
            if size_of(v) in sizes:
                out.append(make_clip(half, cat, v))
    return out


# The CI subset: short clips of each half, all three sizes (mostly
# 640x360): (category, variant, size, blurs kept or None for all, frames
# when there is no blur).
CI_SPEC = (('gaussian', 0, 360, 2, None), ('defocus', 1, 360, 2, None),
           ('cut', 0, 360, None, None), ('smooth', 0, 360, None, 75),
           ('focus-pull', 0, 360, 1, None), ('compression', 4, 360, 1, None),
           ('defocus', 2, 720, 1, None), ('gaussian', 7, 1080, 1, None))


def ci_suite(halves=photos.HALVES):
    out = []
    for half in halves:
        for cat, v, size, keep, frames in CI_SPEC:
            c = make_clip(half, cat, v, size)
            c.name = 'ci-' + c.name
            if keep is not None:
                c.blurs = c.blurs[:keep]
                b = c.blurs[-1]
                c.frames = b[1] + b[2] + 25
            if frames is not None:
                c.frames = frames
            out.append(c)
    return out


def _make_one(clip, workdir):
    path = clip.path(workdir)
    segs, lab = clip.write(path, workdir)
    return {'file': os.path.basename(path), 'key': clip.key(),
            'category': clip.category, 'half': clip.half, 'size': clip.size,
            'fps': FPS, 'frames': clip.frames, 'width': clip.w,
            'height': clip.h, 'codec': clip.codec, 'crf': clip.crf,
            'cuts': [s[0] for s in clip.shots[1:]],
            'photos': sorted(clip.photos_used()),
            'labels': ''.join({'blurry': 'B', 'soft': 's', 'sharp': '.'}[x]
                              for x in lab),
            'segments': segs}


def make(clips, workdir, jobs=2):
    """The clips missing or out of date in @workdir, and
    @workdir/truth.json; returns {name: truth entry}."""
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
        photos.all_photos()
        # Photographs decoded once, before the workers.
        for c in todo:
            for n in c.photos_used():
                byname = {p.canonical: p for p in photos.all_photos()}
                _photo_array(byname[n], workdir)
        if todo:
            done = 0
            with ProcessPoolExecutor(max_workers=jobs) as ex:
                for c, entry in zip(todo, ex.map(_make_one, todo,
                                                 [workdir] * len(todo))):
                    truth[c.name] = entry
                    done += 1
                    if done % 10 == 0 or done == len(todo):
                        with open(tpath + '.part', 'w') as f:
                            json.dump(truth, f, sort_keys=True)
                        os.rename(tpath + '.part', tpath)
    return {c.name: truth[c.name] for c in clips}


# ---- the long sharp stream ---------------------------------------------

def long_shots(seconds, start=0.0, half='heldout', size=720):
    """The sharp stream's shots from @start seconds: (first frame, frames,
    scene), each 2-12 s, a pan (0-8 columns a frame at 640), a slow pan
    at a closer framing, or a zoom, over @half's photographs, cut to
    cut; deterministic."""
    pool = _pool(half, size)
    rng = np.random.default_rng(30)
    a, out = 0, []
    end = int(round((start + seconds) * FPS))
    first = int(round(start * FPS))
    while a < end:
        n = int(rng.integers(2 * FPS, 12 * FPS + 1))
        kind = rng.random()
        names = _pick(rng, pool, 2)
        if kind < 0.6:
            scene = Pan(names, float(rng.choice([0.5, 1, 2, 4, 8])))
        elif kind < 0.8:
            scene = Pan(names, float(rng.choice([0.5, 1, 2])),
                        zoom=float(rng.choice([1.2, 1.5])))
        else:
            s0, s1 = (1.0, 1.5) if rng.random() < 0.5 else (1.5, 1.0)
            scene = Zoom(names[:1], s0, s1, n)
        if a + n > first:
            out.append((a, n, scene))
        a += n
    return out, first, end


def write_long(path, workdir, minutes, start=0.0, half='heldout',
               size=720):
    """Renders @minutes of the sharp stream from @start (seconds), one
    frame at a time, into an MPEG-TS file; returns (frames, cut frames,
    first frame)."""
    w, h = SIZES[size]
    shots, first, end = long_shots(minutes * 60, start, half, size)
    proc = subprocess.Popen(encoder(w, h, 23, False, path + '.part',
                                    'mpegts'), stdin=subprocess.PIPE)
    cuts = []
    i = first
    for a, n, scene in shots:
        if a > first:
            cuts.append(a - first)
        for k in range(max(a, first), min(a + n, end)):
            img = scene.render(k - a, w, h, workdir)
            proc.stdin.write(b''.join(p.tobytes()
                                      for p in suite.yuv420(img)))
            i += 1
        scene._c = scene._img = None  # noqa: SLF001 (free the canvas)
    proc.stdin.close()
    if proc.wait() != 0:
        raise RuntimeError('ffmpeg failed on %s' % path)
    os.rename(path + '.part', path)
    return end - first, cuts, first


if __name__ == '__main__':
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument('workdir')
    ap.add_argument('--half', default='both')
    ap.add_argument('--ci', action='store_true')
    ap.add_argument('--sizes', default='360,720,1080')
    ap.add_argument('--variants', type=int)
    ap.add_argument('--jobs', type=int, default=2)
    args = ap.parse_args()
    halves = photos.HALVES if args.half == 'both' else (args.half,)
    if args.ci:
        sel = ci_suite(halves)
    else:
        sizes = tuple(int(s) for s in args.sizes.split(','))
        sel = [c for hf in halves for c in full_suite(hf, sizes,
                                                      args.variants)]
    t = make(sel, args.workdir, args.jobs)
    n = {}
    for e in t.values():
        k = (e['half'], e['category'])
        n[k] = n.get(k, 0) + sum(s['kind'] == 'blur' for s in e['segments'])
    for k in sorted(n):
        print('%s %s: %d blur segments' % (k[0], k[1], n[k]))
