#!/usr/bin/python3
# FFmpeg itself, and an independent numpy oracle, against the FFmpeg-exact
# black and freeze detectors (analysis/sharpness-black.h, sharpness-freeze.h)
# through tests/analysis/black-freeze-tool.
#
# Each case builds a clip (scikit-image's natural images, or FFmpeg's lavfi
# sources), writes its raw frames once, and runs on that file:
#   * ffmpeg -vf ...,blackdetect,freezedetect,metadata=print (log level
#     debug: blackdetect's per-frame picture_black_ratio and, in 5.1, its
#     pixel_black_th_i; its black_start/black_end/black_duration lines; the
#     lavfi.black_* and lavfi.freezedetect.* metadata of every frame);
#   * the tool (per-frame black count, SAD and MAFD, every event);
#   * the oracle (tests/analysis/ffmpeg_black_freeze_oracle.py).
# Asserts: the tool's counts, SADs and MAFDs equal the oracle's to the bit;
# FFmpeg's per-frame ratio is the oracle's count / pixels as FFmpeg prints
# it; every event (frame, start, end, duration, as FFmpeg prints them) of
# FFmpeg, the oracle and the tool is the same; and MAFD probes: freezedetect
# run on frames 0 and k with n = the oracle's MAFD of k and with the next
# double below, which only agrees with the oracle if FFmpeg's MAFD is the
# same double.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

scaffold.require('numpy', 'scipy', 'skimage')

import json  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from fractions import Fraction  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ffmpeg_black_freeze_oracle as orc  # noqa: E402
import machine_info  # noqa: E402
import natural_images  # noqa: E402

BUILD = os.environ.get('SHARPNESS_BUILD_ROOT', 'build')
TOOL = os.environ.get('BLACK_FREEZE_TOOL', os.path.join(
    BUILD, 'tests', 'analysis', 'black-freeze-tool'))

W, H = 320, 240


# ---- Building clips ---------------------------------------------------------

def yuv_of_rgb(rgb, full=False):
    """BT.601 Y, Cb, Cr (8-bit scale, floats) of an RGB image."""
    r, g, b = (rgb[..., i].astype(np.float64) for i in range(3))
    y = 0.299 * r + 0.587 * g + 0.114 * b
    cb, cr = (b - y) / 1.772, (r - y) / 1.402
    if full:
        return [y, cb + 128, cr + 128]
    return [16 + y * 219 / 255, 128 + cb * 224 / 255, 128 + cr * 224 / 255]


def scene(name, w, h, full=False):
    """A callable t -> (Y, Cb, Cr) full-resolution float planes: a window of
    the natural image @name panning slowly (one pixel a frame)."""
    img = natural_images.load(name)
    if img.ndim == 2:
        img = np.stack([img] * 3, axis=2)
    reps = (max(1, -(-(h + 64) // img.shape[0])),
            max(1, -(-(w + 200) // img.shape[1])), 1)
    big = np.tile(img, reps)
    planes = yuv_of_rgb(big, full)

    def at(t):
        x0 = (3 * t) % (big.shape[1] - w)
        y0 = t % (big.shape[0] - h)
        return [p[y0:y0 + h, x0:x0 + w].copy() for p in planes]
    return at


def fade(frame, a, black=16.0):
    y, u, v = frame
    return [black + (y - black) * a, 128 + (u - 128) * a, 128 + (v - 128) * a]


def flat(w, h, y, u=128.0, v=128.0):
    return [np.full((h, w), float(y)), np.full((h, w), float(u)),
            np.full((h, w), float(v))]


def subsample(p, cw, ch):
    """Mean of 2^cw x 2^ch blocks, edge-padded to whole blocks."""
    h, w = p.shape
    bh, bw = 1 << ch, 1 << cw
    hp, wp = -(-h // bh) * bh, -(-w // bw) * bw
    q = np.pad(p, ((0, hp - h), (0, wp - w)), mode='edge')
    return q.reshape(hp // bh, bh, wp // bw, bw).mean(axis=(1, 3))


def quant(p, depth):
    return np.clip(np.rint(p), 0, (1 << depth) - 1)


def pack(fmt, frame):
    """Raw bytes of one frame in FFmpeg's rawvideo layout.  @frame: [Y, Cb,
    Cr] full-resolution planes in the format's sample scale."""
    y, u, v = frame
    if fmt == 'v210':
        return pack_v210(frame)
    depth = orc.depth_of(fmt)
    dt = np.uint8 if depth <= 8 else np.dtype('<u2')
    if fmt == 'gray':
        return quant(y, 8).astype(dt).tobytes()
    if fmt in ('uyvy422', 'yuyv422'):
        h, w = y.shape
        cu = quant(subsample(u, 1, 0), 8)
        cv = quant(subsample(v, 1, 0), 8)
        yy = np.pad(quant(y, 8), ((0, 0), (0, w % 2)), mode='edge')
        out = np.empty((h, cu.shape[1], 4), np.uint8)
        order = (cu, yy[:, 0::2], cv, yy[:, 1::2]) if fmt == 'uyvy422' else \
            (yy[:, 0::2], cu, yy[:, 1::2], cv)
        for i, c in enumerate(order):
            out[:, :, i] = c
        return out.tobytes()
    cw, ch, _ = orc.PIX_FMTS[fmt]
    parts = [quant(y, depth).astype(dt).tobytes()]
    cu, cv = quant(subsample(u, cw, ch), depth), quant(subsample(v, cw, ch),
                                                      depth)
    if fmt == 'nv12':
        inter = np.empty((cu.shape[0], cu.shape[1] * 2), np.uint8)
        inter[:, 0::2], inter[:, 1::2] = cu, cv
        return parts[0] + inter.tobytes()
    return parts[0] + cu.astype(dt).tobytes() + cv.astype(dt).tobytes()


def pack_v210(frame):
    y, u, v = frame
    h, w = y.shape
    blocks = (w + 47) // 48 * 8
    yy = np.zeros((h, blocks * 6), np.uint32)
    uu = np.zeros((h, blocks * 3), np.uint32)
    vv = np.zeros((h, blocks * 3), np.uint32)
    yy[:, :w] = quant(y, 10)
    cu, cv = quant(subsample(u, 1, 0), 10), quant(subsample(v, 1, 0), 10)
    uu[:, :cu.shape[1]], vv[:, :cv.shape[1]] = cu, cv
    Y = yy.reshape(h, blocks, 6)
    U = uu.reshape(h, blocks, 3)
    V = vv.reshape(h, blocks, 3)
    words = np.empty((h, blocks, 4), np.uint32)
    words[..., 0] = U[..., 0] | (Y[..., 0] << 10) | (V[..., 0] << 20)
    words[..., 1] = Y[..., 1] | (U[..., 1] << 10) | (Y[..., 2] << 20)
    words[..., 2] = V[..., 1] | (Y[..., 3] << 10) | (U[..., 2] << 20)
    words[..., 3] = Y[..., 4] | (V[..., 2] << 10) | (Y[..., 5] << 20)
    return words.astype('<u4').tobytes()


def write(path, fmt, n, make):
    with open(path, 'wb') as f:
        for t in range(n):
            f.write(pack(fmt, make(t)))


def scale(frame, k):
    return [p * k for p in frame]


def noisy(frame, rng, fraction, amp, top=255):
    """@frame with +-@amp added to a random @fraction of its luma samples
    (flipped where it would leave [0, @top], so that quantisation keeps
    the difference exactly)."""
    out = [p.copy() for p in frame]
    p = np.rint(out[0])
    mask = rng.random(p.shape) < fraction
    sign = np.where(rng.random(p.shape) < 0.5, -amp, amp)
    q = p + mask * sign
    out[0] = np.where((q < 0) | (q > top), p - mask * sign, q)
    return out


# ---- Cases ---------------------------------------------------------------------
# A case: dict(name, fmt, w, h, fps (default 25), n and make (t -> frame
# planes) or path (a raw file made by FFmpeg), vf_pre (filters before the
# detectors), range (the frames' range flag as the detectors see it: None,
# 'tv' or 'pc'), black_opts / freeze_opts, pts (ticks, None: the frame
# index), expect (properties of the clip by construction)).

def case_fade_cut(tmp):
    """Fade to black and back, a black hold longer than d (static: also a
    freeze), a short noisy black stretch (< d), hard cuts, and 50 black
    frames at the end: they cover 2 s, but FFmpeg ends a run open at EOF at
    the pts of its last frame (49 frames, 1.96 s): no interval."""
    at = scene('astronaut', W, H)
    rng = np.random.default_rng(1)
    n = 200

    def make(t):
        if t < 20:
            f = at(t)
        elif t < 40:                          # fade out over 20 frames
            f = fade(at(t), 1 - (t - 19) / 20)
        elif t < 90:                          # black, static
            f = flat(W, H, 16)
        elif t < 100:                         # fade in
            f = fade(at(t), (t - 89) / 10)
        elif t < 115:
            f = at(t)
        elif t < 140:                         # 1 s of noisy black: < d
            f = flat(W, H, 16)
            f[0] = f[0] + rng.integers(0, 4, f[0].shape)
        elif t < 150:                         # hard cut back
            f = at(t)
        else:                                 # black to the end, moving
            f = flat(W, H, 16)
            f[0][:, t % W] = 200
        return f

    return dict(name='fade-cut', fmt='yuv420p', n=n, make=make,
                expect=dict(black_intervals=1, black_runs=3,
                            freeze_ends=1))


def case_dark_letterbox(tmp):
    """A dark scene just above the threshold (must not fire), letterbox
    bars (must not fire at 0.98), and the exact boundaries: frames with
    75263 and 75264 of 76800 pixels at 37 (<= 37 counts, 0.98 exactly is
    black), the others at 38.  Ends with 2.4 s of black open at EOF."""
    at = scene('camera', W, H)
    npix = W * H
    n = 190

    def make(t):
        if t < 30:                            # dark: luma in [38, 70]
            y = at(t)[0]
            f = flat(W, H, 0)
            f[0] = 38 + (y - y.min()) * 32 / max(1.0, np.ptp(y))
        elif t < 60:                          # 2.39:1 letterbox, 16 bars
            f = at(t)
            bar = (H - int(W / 2.39)) // 2
            for p, b in zip(f, (16, 128, 128)):
                p[:bar], p[H - bar:] = b, b
        elif t >= 130:                        # black to the end
            f = flat(W, H, 16)
            f[0][t % H, :] = 60
        else:                                 # 75264 (black) or 75263
            k = 75264 if t < 120 else 75263
            y = np.full(npix, 38.0)
            y[:k] = 37
            y = np.roll(y, 7 * t).reshape(H, W)   # rolls: few samples change
            f = [y, np.full((H, W), 128.0), np.full((H, W), 128.0)]
        return f

    return dict(name='dark-letterbox-boundary', fmt='yuv420p', n=n, make=make,
                expect=dict(black_intervals=2, black_runs=2,
                            black_frames=120))


def case_freeze(tmp):
    """Frozen stretches: noise below -60 dB (frozen), above (not), exactly
    d (reported), d minus one frame (not), and one open at the end."""
    at = scene('chelsea', W, H)
    rng = np.random.default_rng(2)
    n = 360

    def make(t):
        if 20 <= t < 80:      # frame 20 + 10 % of luma +-1: MAFD ~ 0.00026
            f = noisy(at(20), rng, 0.10, 1) if t > 20 else at(20)
        elif 100 <= t < 160:  # frame 100 + 30 % of luma +-2: ~ 0.0016
            f = noisy(at(100), rng, 0.30, 2) if t > 100 else at(100)
        elif 170 <= t < 220:  # reference 170, 49 copies: 2 s at frame 220
            f = at(170)
        elif 231 <= t < 280:  # reference 231, 48 copies: 1.96 s
            f = at(231)
        elif t >= 300:        # frozen to the end: start, no end
            f = at(300)
        else:
            f = at(t)
        return f

    return dict(name='freeze-noise', fmt='yuv420p', n=n, make=make,
                expect=dict(freeze_starts=3, freeze_ends=2))


def case_odd_size(tmp):
    """321 x 241: the last chroma row (row 120 of 121) is not compared by
    FFmpeg: frames differing only there are frozen.  Black stretch too."""
    w, h = 321, 241
    at = scene('coffee', w, h)
    n = 140

    def make(t):
        if 10 <= t < 70:
            f = at(10)
            if t > 10:
                # chroma row 120 is made of luma row 240 alone: 0 or 255
                # there (whole 2-pixel pairs, so that subsampling keeps
                # it), about 128 from the reference: an MAFD near 0.0014
                # if that row were compared
                pairs = ((np.arange(w) // 2) + t) % 2
                for p in (f[1], f[2]):
                    p[240, :] = np.where(pairs, 0, 255)
        elif 80 <= t < 135:
            f = flat(w, h, 16)
            f[0][::2, ::3] = 20
            f[0][:, t % w] = 200              # moving line: no freeze
        else:
            f = at(t)
        return f

    return dict(name='odd-size-321x241', fmt='yuv420p', w=w, h=h, n=n,
                make=make, expect=dict(freeze_ends=1, black_intervals=1))


def case_10bit(tmp, range_full):
    """10-bit: fade and freeze with noise, and a stretch of luma in
    [103, 151]: black for the limited threshold (151), not for the full one
    (102).  With the full-range flag FFmpeg 5.1 still uses 151, 7.1 102."""
    at = scene('rocket', W, H)
    rng = np.random.default_rng(4)
    n = 200

    def make(t):
        if t < 20:
            f = scale(at(t), 4)
        elif t < 40:
            f = scale(fade(at(t), 1 - (t - 19) / 20), 4)
        elif t < 100:                           # near-black, moving
            f = flat(W, H, 103 * 1.0, 512, 512)
            f[0] = f[0] + ((np.arange(W)[None, :] + 5 * t) % 49)
        elif 120 <= t < 180:                    # freeze + 10-bit noise
            f = scale(at(120), 4)
            if t > 120:
                f = noisy(f, rng, 0.2, 3, 1023)  # MAFD ~ 0.0004
        else:
            f = scale(at(t), 4)
        return f

    name = '10bit-' + ('full-flag' if range_full else 'limited')
    c = dict(name=name, fmt='yuv420p10le', n=n, make=make,
             expect=dict(freeze_ends=1))
    if range_full:
        c['range'], c['vf_pre'] = 'pc', 'setrange=full'
    return c


def case_yuvj(tmp, fmt):
    """8-bit full range: luma in [26, 37] is black for the limited
    threshold (37) only; luma <= 25 is black for full (25).  As yuvj420p
    both versions use full; as yuv420p flagged full (setrange) 5.1 uses
    limited, 7.1 full."""
    at = scene('astronaut', W, H, full=True)
    n = 170

    def make(t):
        if 20 <= t < 80:
            f = flat(W, H, 26, 128, 128)
            f[0] = f[0] + ((np.arange(W)[None, :] + 3 * t) % 12)
        elif 100 <= t < 160:
            f = flat(W, H, 0, 128, 128)
            f[0] = f[0] + ((np.arange(W)[None, :] + 3 * t) % 26)
        else:
            f = at(t)
        return f

    c = dict(name='full-range-' + fmt, fmt=fmt, n=n, make=make)
    if fmt == 'yuv420p':
        c['range'], c['vf_pre'] = 'pc', 'setrange=full'
    return c


def case_formats(tmp, fmt, range_flag=None):
    """FFmpeg's lavfi sources: testsrc2, a hard cut to black (2.4 s), dark
    gray (not black), testsrc2 again, converted to @fmt by FFmpeg.  Gray
    frames without a range flag are full range for FFmpeg 7.1, limited for
    5.1; @range_flag 'tv' flags them limited (setrange)."""
    path = os.path.join(tmp, 'lavfi-%s.raw' % fmt)
    src = ('testsrc2=s=%dx%d:r=25:d=1.6[a];color=c=black:s=%dx%d:r=25:d=2.4'
           '[b];color=c=0x282828:s=%dx%d:r=25:d=1[c];testsrc2=s=%dx%d:r=25:'
           'd=1[d];[a][b][c][d]concat=n=4:v=1,format=%s'
           % ((W, H) * 4 + (fmt,)))
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y',
                    '-filter_complex', src, '-f', 'rawvideo', path],
                   check=True)
    c = dict(name='lavfi-' + fmt, fmt=fmt, path=path,
             expect=dict(black_intervals=1))
    if range_flag:
        c['name'] += '-' + range_flag
        c['range'] = range_flag
        c['vf_pre'] = 'setrange=' + {'tv': 'limited', 'pc': 'full'}[range_flag]
    return c


def case_v210(tmp):
    """v210 (10-bit 4:2:2 packed), read by FFmpeg's v210 demuxer and
    decoder; the tool counts luma in place."""
    at = scene('coffee', W, H)
    n = 120

    def make(t):
        if 20 <= t < 80:
            f = flat(W, H, 64 * 1.0, 512, 512)
            f[0] = f[0] + ((np.arange(W)[None, :] + t) % 88)  # <= 151
        elif 90 <= t < 150:
            f = scale(at(90), 4)
        else:
            f = scale(at(t), 4)
        return f

    return dict(name='v210', fmt='v210', n=n, make=make,
                expect=dict(black_intervals=1))


def case_ntsc(tmp):
    """29.97 fps (time base 1001/30000): d = 2 s is 59.94 ticks, truncated
    to 59 by FFmpeg, so a black run of 59 frames (1.969 s) is reported; a
    freeze of 60 frames is 2.002 s."""
    at = scene('astronaut', W, H)
    n = 200

    def make(t):
        if 20 <= t < 79:                      # 59 black frames
            f = flat(W, H, 16)
            f[0][:, (t % W)] = 200            # moving line: no freeze
        elif 100 <= t < 160:                  # reference 100 + 59 copies
            f = at(100)
        else:
            f = at(t)
        return f

    return dict(name='ntsc-29.97', fmt='yuv420p', n=n, make=make,
                fps=Fraction(30000, 1001),
                expect=dict(black_intervals=1, freeze_ends=1))


def case_gaps(tmp):
    """Timestamps with gaps (setpts in FFmpeg, the same ticks to the
    tool): 45 black frames span 52 ticks (>= 50) thanks to a 7-tick gap."""
    at = scene('chelsea', W, H)
    n = 160

    def make(t):
        if 40 <= t < 85:
            f = flat(W, H, 16)
            f[0][(t % H), :] = 200
        elif 100 <= t < 146:                  # 45 copies + gap: >= 2 s
            f = at(100)
        else:
            f = at(t)
        return f

    expr = 'N+7*gte(N\\,60)+7*gte(N\\,120)'
    pts = [k + 7 * (k >= 60) + 7 * (k >= 120) for k in range(n)]
    return dict(name='pts-gaps', fmt='yuv420p', n=n, make=make,
                vf_pre="setpts='%s'" % expr, pts=pts,
                expect=dict(black_intervals=1, freeze_ends=1))


def case_options(tmp):
    """Non-default options: pix_th 0.5079908675799086 (10-bit limited: the
    double sum is 508.99999999999994, threshold 508), pic_th 0.5, d 1 s;
    freezedetect n=-40dB, d=0.5."""
    at = scene('coffee', W, H)
    n = 120

    def make(t):
        if 20 <= t < 60:
            f = flat(W, H, 508 * 1.0, 512, 512)
            f[0][:, : (W // 2) + (t % 3)] = 509   # just under half black
            f[0][::4, ::4] = 505 + t % 4
        elif 70 <= t < 100:
            f = scale(at(70), 4)
            if t > 70:
                f = noisy(f, np.random.default_rng(t), 0.2, 20, 1023)
        else:
            f = scale(at(t), 4)
        return f

    return dict(name='options-10bit', fmt='yuv420p10le', n=n, make=make,
                black_opts=dict(pix_th='0.5079908675799086', pic_th='0.5',
                                d='1'),
                freeze_opts=dict(n='-40dB', d='0.5'))


# ---- Running -------------------------------------------------------------------

def fill(case, tmp):
    case.setdefault('w', W)
    case.setdefault('h', H)
    case.setdefault('fps', Fraction(25))
    case.setdefault('range', None)
    case.setdefault('vf_pre', None)
    case.setdefault('pts', None)
    case.setdefault('black_opts', dict(pix_th='0.1', pic_th='0.98', d='2'))
    case.setdefault('freeze_opts', dict(n='0.001', d='2'))
    case.setdefault('expect', {})
    if 'path' not in case:
        case['path'] = os.path.join(tmp, case['name'] + '.raw')
        write(case['path'], case['fmt'], case.pop('n'), case.pop('make'))
    case['tb'] = 1 / case['fps']
    return case


def input_args(case):
    fps = case['fps']
    rate = '%d/%d' % (fps.numerator, fps.denominator)
    size = '%dx%d' % (case['w'], case['h'])
    if case['fmt'] == 'v210':
        return ['-f', 'v210', '-s', size, '-framerate', rate,
                '-i', case['path']]
    return ['-f', 'rawvideo', '-pix_fmt', case['fmt'], '-s', size,
            '-framerate', rate, '-i', case['path']]


def run_ffmpeg(case, tmp):
    b, f = case['black_opts'], case['freeze_opts']
    meta = os.path.join(tmp, case['name'] + '.meta')
    # freezedetect first: it takes packed 4:2:2 as it is; blackdetect may
    # need a conversion (luma unchanged) after it.
    chain = ['freezedetect=n=%s:d=%s' % (f['n'], f['d']),
             'blackdetect=d=%s:pic_th=%s:pix_th=%s' % (b['d'], b['pic_th'],
                                                      b['pix_th']),
             'metadata=mode=print:file=%s' % meta]
    if case['vf_pre']:
        chain.insert(0, case['vf_pre'])
    args = (['ffmpeg', '-nostdin', '-hide_banner', '-v', 'debug']
            + input_args(case) + ['-vf', ','.join(chain), '-f', 'null', '-'])
    res = subprocess.run(args, capture_output=True, text=True)
    if res.returncode:
        raise RuntimeError('ffmpeg failed (%d):\n%s' % (res.returncode,
                                                       res.stderr[-3000:]))
    out = dict(ratio={}, th=None, intervals=[], meta={})
    for line in res.stderr.splitlines():
        m = re.search(r'\] frame:(\d+) picture_black_ratio:(\S+) pts:', line)
        if m:
            out['ratio'][int(m.group(1))] = m.group(2)
        m = re.search(r'pixel_black_th_i:(\d+)', line)
        if m:
            out['th'] = int(m.group(1))
        m = re.search(r'black_start:(\S+) black_end:(\S+) '
                      r'black_duration:(\S+)', line)
        if m:
            out['intervals'].append(m.groups())
    out['meta'] = parse_meta(meta)
    return out


def parse_meta(path):
    """metadata=print's file: {frame: {key: value}}."""
    meta, cur = {}, None
    if not os.path.exists(path):
        return meta
    with open(path) as fh:
        for line in fh:
            m = re.match(r'frame:(\d+)\s', line)
            if m:
                cur = meta.setdefault(int(m.group(1)), {})
            elif '=' in line and cur is not None:
                k, v = line.rstrip('\n').split('=', 1)
                cur[k] = v
    return meta


def run_tool(case, tmp, version, use_tb=True):
    fps = case['fps']
    b, f = case['black_opts'], case['freeze_opts']
    args = [TOOL, '--format', case['fmt'], '--width', str(case['w']),
            '--height', str(case['h']),
            '--fps', '%d/%d' % (fps.numerator, fps.denominator),
            '--color-range', case['range'] or 'unspecified',
            '--range-rule', '5.1' if version and version < (7, 0) else '7.1',
            '--pix-th', b['pix_th'], '--pic-th', b['pic_th'],
            '--black-d', b['d'], '--freeze-n', f['n'], '--freeze-d', f['d']]
    if not use_tb:
        args.append('--no-time-base')
    if case['pts']:
        p = os.path.join(tmp, case['name'] + '.pts')
        with open(p, 'w') as fh:
            fh.write('\n'.join(str(x) for x in case['pts']) + '\n')
        args += ['--pts-file', p]
    args.append(case['path'])
    res = subprocess.run(args, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in res.stdout.splitlines()]


def run_tool_y4m(case, version):
    """The tool on FFmpeg's yuv4mpegpipe of the case's raw file (the stream
    brings the size, rate and format)."""
    y4m = subprocess.run(['ffmpeg', '-nostdin', '-v', 'error']
                         + input_args(case) + ['-f', 'yuv4mpegpipe',
                                               '-strict', '-1', '-'],
                         capture_output=True, check=True).stdout
    res = subprocess.run([TOOL, '--range-rule',
                          '5.1' if version and version < (7, 0) else '7.1',
                          '-'], input=y4m, capture_output=True, check=True)
    return [json.loads(line) for line in res.stdout.decode().splitlines()]


def run_oracle(case, version):
    fmt, w, h = case['fmt'], case['w'], case['h']
    if fmt == 'v210':
        frames = orc.read_v210(case['path'], w, h)
        cfmt = 'yuv422p10le'
        lumas = [f[0] for f in frames]
    else:
        frames = orc.read_raw(case['path'], fmt, w, h)
        cfmt = fmt
        lumas = [orc.luma(fmt, f, w, h) for f in frames]
    depth = orc.depth_of(cfmt)
    n = len(frames)
    pts = case['pts'] or list(range(n))
    b, f = case['black_opts'], case['freeze_opts']
    full = orc.full_range(version, cfmt, case['range'])
    th = orc.pixel_black_th_i(float(b['pix_th']), depth, full)
    counts = [orc.black_count(y, th) for y in lumas]
    tb = case['tb']
    black = orc.blackdetect(counts, w * h, pts, float(b['pic_th']),
                            float(b['d']), tb)
    geo = orc.compared_geometry(cfmt, w, h)
    d_us = int(round(float(f['d']) * 1000000))
    freeze = orc.freezedetect(frames, geo, depth, pts, tb,
                              orc.noise_from_text(f['n']), d_us,
                              frame_rate=case['fps'])
    return dict(th=th, counts=counts, black=black, freeze=freeze,
                frames=frames, geo=geo, depth=depth, pts=pts,
                count=sum(gw * gh for _, gw, gh in geo))


class Checker:
    def __init__(self, name):
        self.name = name
        self.failures = 0
        self.checked = 0

    def eq(self, what, got, want):
        self.checked += 1
        if got != want:
            self.failures += 1
            if self.failures <= 12:
                print('FAIL %s: %s: got %r, want %r' % (self.name, what, got,
                                                       want))
        return got == want


def ticks_of_ns(ns, tb):
    """The tick nearest to @ns (the tool reports ns)."""
    q = Fraction(ns, 1000000000) / tb
    return math.floor(q + Fraction(1, 2))


def ns_of_ticks(t, tb):
    q = Fraction(t) * tb * 1000000000
    return math.floor(q + Fraction(1, 2))


def compare(case, ff, tool, ora, version, ck):
    tb = case['tb']
    ts = lambda t: orc.ts2timestr(t, tb, version)         # noqa: E731
    us = lambda t: orc.ts2timestr(t, Fraction(1, 1000000),  # noqa: E731
                                  version)
    settings = tool[0]
    frames = [r for r in tool if r['type'] == 'frame']
    n = len(ora['counts'])
    pixels = case['w'] * case['h']
    ck.eq('frame count (tool)', len(frames), n)
    ck.eq('frames with a ratio (ffmpeg)', len(ff['ratio']), n)

    # thresholds
    ck.eq('threshold (tool vs oracle)', settings['black_threshold'],
          ora['th'])
    if ff['th'] is not None:                 # FFmpeg 5.1 prints it
        ck.eq('threshold (ffmpeg pixel_black_th_i)', ff['th'], ora['th'])
    ck.eq('compared samples', settings['compared_samples'], ora['count'])

    # per frame
    for i, r in enumerate(frames[:n]):
        ck.eq('frame %d pts' % i, r['pts'], ns_of_ticks(ora['pts'][i], tb))
        ck.eq('frame %d black count' % i, r['black'], ora['counts'][i])
        ck.eq('frame %d ffmpeg ratio' % i, ff['ratio'].get(i),
              '%f' % (ora['counts'][i] / pixels))
        ck.eq('frame %d sad' % i, r['sad'], ora['freeze'].sad[i])
        ck.eq('frame %d mafd' % i, r['mafd'], ora['freeze'].mafd[i])
        ck.eq('frame %d frozen' % i, r['frozen'], ora['freeze'].frozen[i])
        ck.eq('frame %d is_black' % i, r['is_black'], ora['black'].black[i])

    # blackdetect metadata: run starts and ends
    ffs = [(i, m['lavfi.black_start']) for i, m in sorted(ff['meta'].items())
           if 'lavfi.black_start' in m]
    ffe = [(i, m['lavfi.black_end']) for i, m in sorted(ff['meta'].items())
           if 'lavfi.black_end' in m]
    ck.eq('black run starts (oracle)', [(i, ts(p)) for i, p in
                                        ora['black'].meta_start], ffs)
    ck.eq('black run ends (oracle)', [(i, ts(p)) for i, p in
                                      ora['black'].meta_end], ffe)
    ck.eq('black run starts (tool)',
          [(r['frame'], ts(ticks_of_ns(r['start'], tb))) for r in tool
           if r['type'] == 'black_run_start'], ffs)
    ck.eq('black run ends (tool)',
          [(r['frame'], ts(ticks_of_ns(r['end'], tb))) for r in tool
           if r['type'] == 'black_run_end'], ffe)
    # the logged intervals
    ck.eq('black intervals (oracle)',
          [(ts(s), ts(e), ts(e - s)) for s, e in ora['black'].intervals],
          ff['intervals'])
    ck.eq('black intervals (tool)',
          [(ts(ticks_of_ns(r['start'], tb)), ts(ticks_of_ns(r['end'], tb)),
            ts(ticks_of_ns(r['end'], tb) - ticks_of_ns(r['start'], tb)))
           for r in tool if r['type'] == 'black_interval'], ff['intervals'])
    for r in tool:
        if r['type'] == 'black_interval':
            ck.eq('interval duration ns', r['duration'], r['end'] - r['start'])

    # freezedetect metadata
    keys = ('freeze_start', 'freeze_duration', 'freeze_end')
    fff = [(i, {k: m['lavfi.freezedetect.' + k] for k in keys
                if 'lavfi.freezedetect.' + k in m})
           for i, m in sorted(ff['meta'].items())]
    fff = [x for x in fff if x[1]]
    ora_f = [(i, {k: (us(v) if k == 'freeze_duration' else ts(v))
                  for k, v in m.items()}) for i, m in ora['freeze'].meta]
    ck.eq('freeze metadata (oracle)', ora_f, fff)
    tool_f = {}
    for r in tool:
        if r['type'] == 'freeze_start':
            tool_f.setdefault(r['frame'], {})['freeze_start'] = ts(
                ticks_of_ns(r['start'], tb))
        elif r['type'] == 'freeze_end':
            d = tool_f.setdefault(r['frame'], {})
            d['freeze_duration'] = us(r['duration_us'])
            d['freeze_end'] = ts(ticks_of_ns(r['end'], tb))
            ck.eq('freeze duration ns', r['duration'], r['duration_us'] * 1000)
    ck.eq('freeze metadata (tool)', sorted(tool_f.items()), fff)

    # the clip does what it was built for (design, not measurement)
    e = case['expect']
    got = dict(black_intervals=len(ff['intervals']), black_runs=len(ffs),
               black_frames=sum(ora['black'].black),
               freeze_starts=sum('freeze_start' in m for _, m in fff),
               freeze_ends=sum('freeze_end' in m for _, m in fff))
    for k, v in e.items():
        ck.eq('clip design: %s' % k, got[k], v)
    return got


def mafd_probes(case, ora, tmp, ck):
    """freezedetect on frames 0 and k only, d=0, with n = the oracle's MAFD
    of k against 0 and with the double just below it: frame k must be
    frozen with the first and not with the second (metadata: freeze_start
    alone vs freeze_start + freeze_end), unless FFmpeg's MAFD differs."""
    frames, geo, depth = ora['frames'], ora['geo'], ora['depth']
    n = len(frames)
    mafds = [orc.mafd(orc.sad(frames[k], frames[0], geo), ora['count'], depth)
             for k in range(1, n)]
    cands = [k for k in range(1, n) if 0 < mafds[k - 1] <= 1]
    if not cands:
        return 0
    # frame 1, and the frame whose MAFD is nearest to the default n
    near = min(cands, key=lambda k: abs(math.log(mafds[k - 1] / 0.001)))
    probes = 0
    for k in sorted({cands[0], near}):
        m = mafds[k - 1]
        for noise, frozen in ((m, True), (math.nextafter(m, 0), False)):
            meta = os.path.join(tmp, '%s-probe-%d.meta' % (case['name'], k))
            chain = ["select='eq(n\\,0)+eq(n\\,%d)'" % k,
                     'freezedetect=n=%r:d=0' % noise,
                     'metadata=mode=print:file=%s' % meta]
            subprocess.run(['ffmpeg', '-nostdin', '-v', 'error']
                           + input_args(case) + ['-vf', ','.join(chain),
                                                 '-frames:v', '2',
                                                 '-f', 'null', '-'],
                           check=True)
            got = parse_meta(meta).get(1, {})
            ff_frozen = ('lavfi.freezedetect.freeze_start' in got and
                         'lavfi.freezedetect.freeze_end' not in got)
            ck.eq('MAFD probe frame %d n=%r frozen' % (k, noise), ff_frozen,
                  frozen)
            probes += 1
    return probes


def main():
    if not shutil.which('ffmpeg'):
        scaffold.skip('ffmpeg missing')
    if not os.access(TOOL, os.X_OK):
        print('FAIL: %s not built (ninja -C build '
              'tests/analysis/black-freeze-tool)' % TOOL)
        return 1
    version = machine_info.ffmpeg_release()
    print('ffmpeg %s: range rule %s, timestamps %s' % (
        '%d.%d' % version if version else '(git build)',
        'format only (yuvj)' if version and version < (7, 0) else
        'frame color_range or yuvj',
        '%.6g' if version and version < (7, 0) else 'microseconds'))
    failures = 0
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        builders = [case_fade_cut, case_dark_letterbox, case_freeze,
                    case_odd_size, lambda t: case_10bit(t, False),
                    lambda t: case_10bit(t, True),
                    lambda t: case_yuvj(t, 'yuvj420p'),
                    lambda t: case_yuvj(t, 'yuv420p'),
                    lambda t: case_formats(t, 'gray'),
                    lambda t: case_formats(t, 'gray', 'tv'),
                    lambda t: case_formats(t, 'uyvy422'),
                    lambda t: case_formats(t, 'yuv422p'),
                    lambda t: case_formats(t, 'nv12'),
                    case_v210, case_ntsc, case_gaps, case_options]
        for build in builders:
            case = fill(build(tmp), tmp)
            ck = Checker(case['name'])
            ff = run_ffmpeg(case, tmp)
            tool = run_tool(case, tmp, version)
            ora = run_oracle(case, version)
            got = compare(case, ff, tool, ora, version, ck)
            probes = mafd_probes(case, ora, tmp, ck)
            if case['name'] == '10bit-limited':
                # the same frames as a YUV4MPEG2 stream on stdin
                ck.eq('y4m input: frames and events',
                      run_tool_y4m(case, version)[1:], tool[1:])
            if case['name'] == 'ntsc-29.97':
                # without the time base the tool measures 59 frames as
                # 1.969 s < 2 s: the one case where ns and ticks differ
                plain = run_tool(case, tmp, version, use_tb=False)
                ck.eq('ntsc without time base: intervals',
                      sum(r['type'] == 'black_interval' for r in plain), 0)
            os.unlink(case['path'])
            failures += ck.failures
            print('%s %-26s %5d checks, %d MAFD probes; ffmpeg: %d black '
                  'intervals, %d black runs, %d freezes ended' % (
                      'ok  ' if not ck.failures else 'FAIL', case['name'],
                      ck.checked, probes, got['black_intervals'],
                      got['black_runs'], got['freeze_ends']))
    print('%s in %.1f s' % ('all cases agree' if not failures else
                            '%d checks failed' % failures, time.time() - t0))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
