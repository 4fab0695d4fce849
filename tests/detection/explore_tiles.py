#!/usr/bin/python3
# A tile-level focus judgment as a candidate gate of the absolute test
# (docs/validation/detection.md, "A tile-level focus gate: measured"): a
# frame over blur-effect's absolute level with CPBD under 0.3 stays blurry
# only when no textured part of it is sharp, i.e. when its focus value, the
# lowest blur-effect of its textured 64 x 64 tiles, is at least TAU.  The
# tiles are the element's (analysis/sharpness-focus.h; its oracle
# tests/analysis/focus_oracle.py): the complete 64 x 64 squares of
# blur-effect's interior from (2, 2); a tile is textured when the mean of
# its Sobel magnitudes (blur-effect's own "sharp" variation, 11 |S| a
# pixel summed over both axes) is at least FLOOR.
#
# Replayed in Python on the element's results (replica.py's verdict with the
# gate as its absolute test), never in the element:
#   explore_tiles.py DIR [--half tuning] [--sizes 360,720]
#                        [--floors 300,500] [--taus 0.40,0.45,...]
#     the clips of an evaluate_heldout.py work directory: recall,
#     precision, false segments and strong defocus for each gate;
#   explore_tiles.py --stream FILE.ts [FILE.ts ...] [--floors] [--taus]
#     sharp-stream files (heldout.write_long's, 1280 x 720): the false
#     segments with the element's verdict replayed (checked against the
#     element's own states first) and with each gate; the element's fields
#     and the replica's signatures are kept in FILE.ts.element.npz, the
#     tile sums in FILE.ts.focus-v2.npz.
# Per-clip features are kept in DIR/features (tile sums of the frames the
# absolute test flags only, NAME.focus-v2.npz: the gate judges no other
# frame).  The tile caches' names carry the definition's version
# (TILE_CACHE): the first version's tiles (FILE.tiles.npz: from (0, 0) of
# the whole frame's maps) are never read.
# --focus-tool BUILD/tests/analysis/focus-tool takes the tile sums from the
# element's code (analysis/sharpness-focus.h, equal to focus_oracle.py to
# the bit: test focus-oracle; and to tile_sums here: check_tile_maps),
# some twenty times faster than tile_sums on 1280 x 720 frames.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'oracle'))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'analysis'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage', 'gi', 'PIL')

import numpy as np  # noqa: E402

import classical_oracle as oracle  # noqa: E402
import element_runs  # noqa: E402
import evaluate_heldout as ev  # noqa: E402
import explore_verdict as xv  # noqa: E402
import focus_oracle  # noqa: E402
import replica  # noqa: E402
import rules  # noqa: E402

TILE = focus_oracle.TILE
ORIGIN = focus_oracle.ORIGIN
BOX = oracle.BLUR_EFFECT_H
# The tile definition's version in the caches' names: a change to the
# tiles gets a new name, so that no cache of another definition is read.
TILE_CACHE = 'focus-v2'
ABSOLUTE = 0.52
CPBD = 0.3
STREAM_SIZE = (1280, 720)
STATES = {'blurry': 'B', 'flat': 'f', 'black': 'k', 'frozen': 'z'}


def _sobel(a, axis):
    """Sobel's derivative along @axis ([1, 0, -1], then [1, 2, 1] across),
    borders reflected as classical_oracle's scipy filters reflect them."""
    p = np.pad(a, 1, mode='symmetric')
    if axis == 0:
        e = p[:-2] - p[2:]
        return e[:, :-2] + 2 * e[:, 1:-1] + e[:, 2:]
    e = p[:, :-2] - p[:, 2:]
    return e[:-2] + 2 * e[1:-1] + e[2:]


def _box(a, axis):
    """The 11-tap sum along @axis, borders reflected."""
    r, n = BOX // 2, a.shape[axis]
    pad = [(0, 0), (0, 0)]
    pad[axis] = (r, r)
    c = np.cumsum(np.pad(a, pad, mode='symmetric'), axis=axis,
                  dtype=np.int32)
    c = np.insert(c, 0, 0, axis=axis)
    return c[BOX:BOX + n] - c[:n] if axis == 0 else \
        c[:, BOX:BOX + n] - c[:, :n]


def tile_sums(g):
    """The focus tiles of the uint8 frame @g as focus_oracle.tiles gives
    them (an int64 array tiles_y x tiles_x x 4: M1, M2 of axis 0, then of
    axis 1), the fast way: whole-frame maps by slicing and a cumulative
    sum (equal to the oracle's: check_tile_maps), summed over the
    complete tiles of the interior from (2, 2)."""
    h, w = g.shape
    tx, ty = focus_oracle.tile_counts(w, h)
    out = np.zeros((ty, tx, 4), dtype=np.int64)
    if tx == 0 or ty == 0:
        return out
    g = g.astype(np.int32)
    inside = (slice(ORIGIN, ORIGIN + ty * TILE),
              slice(ORIGIN, ORIGIN + tx * TILE))
    k = 0
    for axis in (0, 1):
        sharp = BOX * np.abs(_sobel(g, axis))
        lost = np.maximum(0, sharp - np.abs(_sobel(_box(g, axis), axis)))
        for a in (sharp, lost):
            out[..., k] = a[inside].reshape(ty, TILE, tx, TILE).sum(
                axis=(1, 3), dtype=np.int64)
            k += 1
    return out


def best_tile(t, floor):
    """The focus value of tile sums @t (tiles_y x tiles_x x 4) at @floor,
    focus_oracle.focus's, vectorised: the lowest blur-effect of the
    textured tiles, 1.0 when none is.  The sums are integers under 2^53,
    exact as doubles, so each (M1 - M2) / M1 is the correctly rounded
    double of the exact ratio, as the oracle's Fractions give it."""
    m1a, m2a, m1b, m2b = t.reshape(-1, 4).T.astype(np.float64)
    textured = (m1a + m1b) >= floor * TILE * TILE
    if not textured.any():
        return 1.0
    with np.errstate(divide='ignore', invalid='ignore'):
        ra = np.where(m1a > 0, (m1a - m2a) / m1a, -np.inf)
        rb = np.where(m1b > 0, (m1b - m2b) / m1b, -np.inf)
    r = np.maximum(ra, rb)
    # Neither axis varies: blur-effect's 1 (a textured tile always has
    # one that does).
    r[np.isinf(r)] = 1.0
    return float(r[textured].min())


def check_tile_maps(tool=None):
    """tile_sums and best_tile equal focus_oracle's on random frames of a
    few sizes (whole and cut tiles, none), whose tiles' amplitudes run
    from under the floors to over them; and focus-tool's sums, when
    @tool is given."""
    rng = np.random.default_rng(30)
    for h, w in ((67, 67), (131, 200), (70, 333), (197, 260), (66, 130)):
        noise = rng.integers(0, 256, (h, w))
        # Column and row bands of amplitudes 4 .. 64 and 256.
        amp = rng.choice([4, 8, 16, 32, 64, 256], (h // 16 + 1, w // 16 + 1))
        amp = np.kron(amp, np.ones((16, 16), dtype=int))[:h, :w]
        g = (noise * amp // 256).astype(np.uint8)
        want = focus_oracle.tiles(g)
        mine = tile_sums(g)
        assert mine.shape == want.shape and np.array_equal(mine, want), \
            (h, w)
        if tool and want.size:
            theirs = TileSums(tool, w, h)
            theirs.add(0, g)
            assert np.array_equal(theirs.done()[0], want), (tool, h, w)
        for floor in (300, 500, 700):
            assert best_tile(mine, floor) == \
                focus_oracle.focus(want, floor), (h, w, floor)


class TileSums:
    """The tile sums of a stream of frames of one size, {index: sums}:
    tile_sums' or, given @tool, focus-tool's (fed in batches: the tool
    answers a frame's line only once its output buffer fills or its
    input ends)."""

    BATCH = 32

    def __init__(self, tool, width, height):
        self.tool, self.width, self.height = tool, width, height
        self.pending, self.sums = [], {}

    def add(self, i, g):
        if not self.tool:
            self.sums[i] = tile_sums(g)
            return
        self.pending.append((i, g))
        if len(self.pending) == self.BATCH:
            self._flush()

    def _flush(self):
        if not self.pending:
            return
        out = subprocess.run(
            [self.tool, str(self.width), str(self.height)], check=True,
            input=b''.join(g.tobytes() for _, g in self.pending),
            stdout=subprocess.PIPE).stdout.decode().splitlines()
        if len(out) != len(self.pending):
            raise RuntimeError('%s: %d lines for %d frames' %
                               (self.tool, len(out), len(self.pending)))
        for (i, _), line in zip(self.pending, out):
            f = line.split()
            tx, ty = int(f[1]), int(f[2])
            self.sums[i] = np.array(f[3:], dtype=np.int64).reshape(
                ty, tx, 4)
        self.pending = []

    def done(self):
        self._flush()
        return self.sums


def flagged(score, cpbd):
    """Whether today's absolute test flags a frame (the frames the gate
    judges)."""
    return np.isfinite(score) and score > ABSOLUTE and \
        (cpbd is None or cpbd < 0 or cpbd < CPBD)


def gate(score, cpbd, best, tau):
    """The absolute test with the gate, for replica.BlurRule.push."""
    return lambda rule: flagged(score, cpbd) and best >= tau


def gray_frames(path, width, height):
    """replica.decode_gray's frames one at a time (a 2-minute file of
    720p frames is 2.8 GB of gray)."""
    proc = subprocess.Popen(['ffmpeg', '-v', 'error', '-i', path, '-f',
                             'rawvideo', '-pix_fmt', 'yuv420p', '-'],
                            stdout=subprocess.PIPE)
    luma = width * height
    try:
        while True:
            buf = proc.stdout.read(luma * 3 // 2)
            if len(buf) < luma * 3 // 2:
                break
            yield np.frombuffer(buf, np.uint8, luma).reshape(height, width)
    finally:
        proc.stdout.close()
        proc.wait()


def clip_tiles(workdir, name, e, scores, cpbd, tool=None):
    """{frame: tile sums} of the frames of one clip the absolute test
    flags, kept in DIR/features (focus-tool's with @tool)."""
    f = os.path.join(workdir, 'features', '%s.%s.npz' % (name, TILE_CACHE))
    if not os.path.exists(f):
        idx = [i for i in range(len(scores)) if flagged(scores[i], cpbd[i])]
        tx, ty = focus_oracle.tile_counts(int(e['width']), int(e['height']))
        sums = np.zeros((len(idx), ty, tx, 4), dtype=np.int64)
        want = dict((i, k) for k, i in enumerate(idx))
        ts = TileSums(tool, int(e['width']), int(e['height']))
        for i, g in enumerate(gray_frames(os.path.join(workdir, e['file']),
                                          int(e['width']), int(e['height']))
                              if idx else ()):
            if i in want:
                ts.add(i, g)
        for i, t in ts.done().items():
            sums[want[i]] = t
        np.savez_compressed(f + '.part.npz', idx=np.array(idx, dtype=int),
                            sums=sums)
        os.rename(f + '.part.npz', f)
    z = np.load(f)
    return dict(zip(z['idx'].tolist(), z['sums']))


def gates(args):
    return [(None, None)] + [(fl, t) for fl in args.floors for t in args.taus]


def label(g):
    fl, t = g
    return 'today (no gate)' if fl is None else \
        'focus (floor %d) >= %.2f' % (fl, t)


def replay(sc, st, sg, states, cpbd, tiles, g, width):
    """The states of one clip or file (@width columns) with gate @g."""
    rule = xv.Variant(dict(xv.BASE, abs=ABSOLUTE), width)
    out = []
    for i in range(len(sc)):
        if states[i] in 'kz':
            out.append(states[i])
            continue
        # No gate, or a frame the absolute test does not flag (no tiles
        # kept): today's test.
        gated = g[0] is not None and i in tiles
        ab = gate(sc[i], cpbd[i],
                  best_tile(tiles[i], g[0]) if gated else 1.0,
                  g[1] if gated else 0.0)
        out.append(rule.judge(sc[i], sg[i], st[i], ab))
    return out


def sweep_clips(args):
    with open(os.path.join(args.workdir, 'truth.json')) as f:
        truth = json.load(f)
    clips = {}
    for n, e in sorted(truth.items()):
        if e['half'] != args.half or str(e['size']) not in args.sizes or \
                not os.path.exists(os.path.join(args.workdir, e['file'])):
            continue
        ft = xv.features(args.workdir, n, e)
        if ft is None:
            continue
        ce, cs = xv.cpbd_counts(args.workdir, n, e, args.cpbd_tool)
        cpbd = [cs[i] / ce[i] if ce[i] else 0.0 for i in range(len(ce))]
        clips[n] = (e, ft, cpbd, clip_tiles(args.workdir, n, e, ft[0],
                                             cpbd, args.focus_tool))
    print('%d clips of the %s half' % (len(clips), args.half))
    print('| absolute test | recall | precision | false | strong defocus |')
    print('|---|---|---|---:|---|')
    for g in gates(args):
        tot = dict.fromkeys(('truth', 'found', 'detected', 'false', 'strong',
                             'strong_found'), 0)
        for n, (e, (sc, st, sg, states), cpbd, tiles) in clips.items():
            out = replay(sc, st, sg, states, cpbd, tiles, g,
                         int(e['width']))
            for k, x in xv.score_clip(e, out).items():
                tot[k] += x
        print('| %s | %.3f (%d/%d) | %.3f | %d | %d/%d |' % (
            label(g), tot['found'] / max(1, tot['truth']), tot['found'],
            tot['truth'], (tot['detected'] - tot['false']) /
            max(1, tot['detected']), tot['false'], tot['strong_found'],
            tot['strong']), flush=True)


def element_frames(path):
    """The element's per-frame fields (the defaults of rules.py) on @path,
    at full precision."""
    name = rules.element_name(ev.RULE)
    return element_runs.run(path, [(name, rules.element_properties(
        ev.RULE))])[name]['frames']


def stream_element(path):
    """(scores, structure, signatures, states, cpbd) of one sharp stream
    file: the element's scores, structure, CPBD and states and the
    replica's signatures, kept beside it in PATH.element.npz (the tile
    definition has no part in them)."""
    f = path + '.element.npz'
    if not os.path.exists(f):
        fr = element_frames(path)
        num = lambda x: -1.0 if x is None else x  # noqa: E731
        sigs = [replica.signature(g)
                for g in gray_frames(path, *STREAM_SIZE)]
        if len(sigs) != len(fr):
            raise RuntimeError('%s: %d frames decoded, %d scored' %
                               (path, len(sigs), len(fr)))
        np.savez_compressed(
            f + '.part.npz',
            scores=np.array([np.nan if x['score'] is None else x['score']
                             for x in fr]),
            cpbd=np.array([num(x.get('cpbd')) for x in fr]),
            structure=np.array([num(x.get('structure')) for x in fr]),
            sigs=np.array(sigs),
            states=np.array([STATES.get(x['content-state'], '.')
                             for x in fr]))
        os.rename(f + '.part.npz', f)
    z = np.load(f)
    return (z['scores'], z['structure'], z['sigs'], ''.join(z['states']),
            z['cpbd'])


def stream_tiles(path, sc, cp, tool=None):
    """{frame: tile sums} of the frames of one sharp stream file the
    absolute test flags (element scores @sc, CPBD @cp), kept beside it in
    PATH.focus-v2.npz (focus-tool's with @tool)."""
    f = '%s.%s.npz' % (path, TILE_CACHE)
    if not os.path.exists(f):
        ts = TileSums(tool, *STREAM_SIZE)
        n = 0
        for i, g in enumerate(gray_frames(path, *STREAM_SIZE)):
            n += 1
            if i < len(sc) and flagged(sc[i], cp[i]):
                ts.add(i, g)
        got = ts.done()
        idx = sorted(got)
        sums = [got[i] for i in idx]
        if n != len(sc):
            raise RuntimeError('%s: %d frames decoded, %d scored' %
                               (path, n, len(sc)))
        tx, ty = focus_oracle.tile_counts(*STREAM_SIZE)
        np.savez_compressed(f + '.part.npz', idx=np.array(idx, dtype=int),
                            sums=np.array(sums, dtype=np.int64).reshape(
                                len(idx), ty, tx, 4))
        os.rename(f + '.part.npz', f)
    z = np.load(f)
    return dict(zip(z['idx'].tolist(), z['sums']))


def stream_features(path, tool=None):
    """(scores, structure, signatures, states, cpbd, tiles) of one sharp
    stream file (stream_element's, then stream_tiles')."""
    ft = stream_element(path)
    return ft + (stream_tiles(path, ft[0], ft[4], tool),)


def sweep_stream(args):
    files = [(p, stream_features(p, args.focus_tool))
             for p in args.stream]
    seconds = sum(len(ft[0]) for _, ft in files) / xv.FPS
    agree = sum(sum(a == b for a, b in zip(
        replay(*ft, (None, None), STREAM_SIZE[0]), ft[3]))
        for _, ft in files)
    frames = sum(len(ft[0]) for _, ft in files)
    print('%d files, %.0f s; the replica equals the element on %d of %d '
          'frames' % (len(files), seconds, agree, frames))
    print('| absolute test | false segments | per channel-hour | '
          'blurry frames |')
    print('|---|---:|---:|---:|')
    for g in gates(args):
        segs = blurry = 0
        for _, (sc, st, sg, states, cpbd, tiles) in files:
            out = replay(sc, st, sg, states, cpbd, tiles, g,
                         STREAM_SIZE[0])
            flags = np.array([c == 'B' for c in out])
            segs += len(replica.segments(flags, xv.FPS, rules.MIN_DURATION,
                                         rules.MAX_GAP))
            blurry += int(flags.sum())
        print('| %s | %d | %.0f | %d |' % (label(g), segs,
                                           segs / (seconds / 3600), blurry),
              flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('workdir', nargs='?')
    ap.add_argument('--half', default='tuning')
    ap.add_argument('--sizes', default='360,720')
    ap.add_argument('--stream', nargs='+')
    ap.add_argument('--floors', default='300,500')
    ap.add_argument('--taus', default='0.40,0.45,0.50,0.55')
    ap.add_argument('--cpbd-tool', default=os.path.join(
        'build', 'tests', 'analysis', 'cpbd-tool'))
    ap.add_argument('--focus-tool', help='focus-tool for the tile sums '
                    '(default: tile_sums, in numpy)')
    args = ap.parse_args()
    args.sizes = args.sizes.split(',')
    args.floors = [int(x) for x in args.floors.split(',')]
    args.taus = [float(x) for x in args.taus.split(',')]
    check_tile_maps(args.focus_tool)
    if args.stream:
        sweep_stream(args)
    elif args.workdir:
        sweep_clips(args)
    else:
        ap.error('a work directory or --stream files')


if __name__ == '__main__':
    main()
