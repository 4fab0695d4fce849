#!/usr/bin/python3
# Python replicas of what the element decides, for sweeping rules over the
# suite in seconds (docs/validation/detection.md): the frames' gray image, content
# signature (cut detection) and structure share, the blur rule of
# analysis/sharpness-blur-detector.c and the segment tracker of
# analysis/sharpness-blur-segments.c.  The numbers docs/validation/detection.md
# reports come from the element itself (evaluate.py); the replica is
# checked against it there, frame by frame.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import subprocess

import numpy as np

GRID = 8
SIGNATURE_MIN_SIZE = 16 * GRID
CUT_DISTANCE = 8.0
CUT_RATIO = 4.0
MOTION_FRAMES = 5
# SHARPNESS_COLLAPSE_RATIO (issue 30's verdict: blur told from flat by a
# collapse of structure and score within a shot).
COLLAPSE_RATIO = 0.5
# SHARPNESS_CPBD_THRESHOLD, the element's cpbd-threshold: a frame over the
# absolute threshold is blurry only when its CPBD is below it.
CPBD_THRESHOLD = 0.3
SEED = 3
RECOVERY = 3
STALE = 16


def decode_gray(path, width, height, ten_bit=False):
    """The 8-bit gray image of every frame (docs/metrics.md): the luma
    samples as decoded (no range conversion: ffmpeg's own `gray` output
    would stretch limited-range luma), 10-bit samples rounded to 8 bits.
    4:2:0 only."""
    fmt = 'yuv420p10le' if ten_bit else 'yuv420p'
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-f',
                          'rawvideo', '-pix_fmt', fmt, '-'],
                         check=True, capture_output=True).stdout
    luma = width * height
    frame = luma * 3 // 2
    if not ten_bit:
        v = np.frombuffer(raw, np.uint8).reshape(-1, frame)
        return v[:, :luma].reshape(-1, height, width)
    v = np.frombuffer(raw, '<u2').reshape(-1, frame)[:, :luma]
    v = v.reshape(-1, height, width).astype(np.int32)
    return np.minimum((v + 2) >> 2, 255).astype(np.uint8)


def signature(g):
    """sharpness_signature_compute: cell means of a sparse sample."""
    h, w = g.shape
    if w < SIGNATURE_MIN_SIZE or h < SIGNATURE_MIN_SIZE:
        return None
    step = max(1, min(w, h) // 128)
    ys = np.arange(step // 2, h, step)
    xs = np.arange(step // 2, w, step)
    s = g[np.ix_(ys, xs)].astype(np.float64)
    cy = ys * GRID // h
    cx = xs * GRID // w
    out = np.zeros((GRID, GRID))
    for i in range(GRID):
        for j in range(GRID):
            out[i, j] = s[np.ix_(cy == i, cx == j)].mean()
    return out.ravel().astype(np.float32)


def edge_histogram(g):
    """Pixels by max(|dx|, |dy|), forward differences to the right and
    lower neighbours (sharpness-structure.h): the share of edge pixels at
    any level L is hist[L:].sum() / hist.sum()."""
    f = g.astype(np.int16)
    dx = np.abs(f[:-1, 1:] - f[:-1, :-1])
    dy = np.abs(f[1:, :-1] - f[:-1, :-1])
    return np.bincount(np.maximum(dx, dy).ravel(), minlength=256)


def structure(hist, level):
    """Share of edge pixels at @level from edge_histogram rows."""
    hist = np.atleast_2d(hist)
    return hist[:, level:].sum(axis=1) / hist.sum(axis=1)


# The changes this branch made to the rule (docs/validation/detection.md, "The
# relative rule"): judging from SEED frames on rather than after a whole
# window ('seed'), restarting a reference a far sharper frame proves blurry
# ('prove'), restarting at the end of every blur ('end'), and cuts measured
# against the shot's own motion ('motion').
FIXES = frozenset(('seed', 'prove', 'end', 'motion'))


class BlurRule:
    """Replica of SharpnessBlurDetector (analysis/sharpness-blur-detector.c);
    @fixes: the subset of FIXES it applies (none: the rule as it was)."""

    def __init__(self, lower, window, threshold=0.0, relative=0.0,
                 fixes=FIXES, cpbd_threshold=0.0, focus_threshold=0.0):
        self.lower, self.window = lower, window
        self.threshold, self.relative = threshold, relative
        self.cpbd_threshold = cpbd_threshold
        self.focus_threshold = focus_threshold
        self.fixes = fixes
        self.reset()

    def reset(self):
        self.hist = []
        self.shist = []
        self.flat = False
        self.last_sig = None
        self.since_sharp = 0
        self.level = []
        self.motion = []
        self.quota = min(self.window, SEED) if 'seed' in self.fixes \
            else self.window

    def _reseed(self):
        self.hist = []
        self.shist = []
        self.since_sharp = 0
        self.level = []
        self.quota = min(self.window, SEED)

    def _worse(self, a, b):
        return a > b if self.lower else a < b

    def _median(self):
        return float(np.median(self.hist))

    def push(self, score, sig=None, structure=None, flat=0.0, absolute=None,
             cpbd=None, focus=None):
        """sharpness_blur_detector_judge, step by step: True when blurry;
        self.flat tells a flat verdict (@structure under @flat without a
        collapse of the shot's structure and score).  @cpbd: the frame's
        CPBD (None: not measured), which must be under cpbd_threshold for
        the absolute test to flag it (when cpbd_threshold > 0); @focus:
        its focus (analysis/sharpness-focus.h; None: not measured), which
        must be at least focus_threshold (when > 0).
        @absolute, when given, replaces the absolute test: called with the
        rule once the frame's cut has restarted the shot, it says whether
        the frame is blurry by its absolute level (the CPBD studies of
        explore_verdict.py)."""
        r = self.relative
        self.flat = False
        cut = False
        if sig is not None and self.last_sig is not None:
            dist = float(np.abs(sig.astype(np.float64) -
                                self.last_sig).mean())
            cut = dist > CUT_DISTANCE
            if cut and self.motion and 'motion' in self.fixes:
                cut = dist > CUT_RATIO * float(np.median(self.motion))
            self.motion = (self.motion + [dist])[-MOTION_FRAMES:]
        self.last_sig = None if sig is None else sig.astype(np.float64)
        smooth = flat > 0 and structure is not None and structure >= 0 \
            and structure < flat
        if not np.isfinite(score):
            self.flat = smooth
            return False
        if cut or self.since_sharp >= STALE * self.window:
            self._reseed()
        if smooth:
            # Blur only when the shot's sharp frames were textured, its
            # structure fell under COLLAPSE_RATIO of theirs and the
            # relative test flags the score; else flat, out of the history.
            s = [x for x in self.shist if x is not None and x >= 0]
            ref = float(np.median(s)) if s else None
            collapse = not cut and len(self.hist) >= self.quota and \
                ref is not None and ref >= flat and \
                structure < COLLAPSE_RATIO * ref
            rel = collapse and r > 0 and \
                ((score * r > self._median()) if self.lower
                 else (score < r * self._median()))
            if not rel:
                self.flat = True
                return False
            self.since_sharp += 1
            self.level = (self.level + [score])[-RECOVERY:]
            return True
        if absolute is not None:
            absolute = bool(absolute(self))
        else:
            absolute = self.threshold > 0 and \
                self._worse(score, self.threshold) and \
                (self.cpbd_threshold <= 0 or cpbd is None or cpbd < 0 or
                 cpbd < self.cpbd_threshold) and \
                (self.focus_threshold <= 0 or focus is None or focus < 0 or
                 focus >= self.focus_threshold)
        rel = False
        if r > 0 and not cut and len(self.hist) >= self.quota:
            m = self._median()
            rel = score * r > m if self.lower else score < r * m
        end = False
        if 'end' in self.fixes:
            may_end = not absolute
        else:
            may_end = rel
        if r > 0 and self.level and may_end:
            lv = sorted(self.level)[len(self.level) // 2]
            k = np.sqrt(r)
            end = (score < lv * k) if self.lower else (score * k > lv)
        if end:
            # The end of a blur: the content may have moved on.
            self._reseed()
            rel = False
        elif not rel and not absolute and r > 0 and self.hist and \
                'prove' in self.fixes:
            m = self._median()
            if (score < r * m) if self.lower else (score * r > m):
                # Far better than the reference: it was blurry.
                self._reseed()
        if rel or absolute:
            self.since_sharp += 1
            self.level = (self.level + [score])[-RECOVERY:]
            return True
        self.level = []
        self.hist = (self.hist + [score])[-self.window:]
        self.shist = (self.shist + [structure])[-self.window:]
        self.since_sharp = 0
        return False


def blur_flags(scores, sigs, lower, window, threshold, relative,
               skip=None, fixes=FIXES):
    """Per-frame blurry flags of the rule; frames where @skip is True (black,
    frozen, flat) are not pushed and never blurry."""
    rule = BlurRule(lower, window, threshold, relative, fixes)
    out = np.zeros(len(scores), dtype=bool)
    for i, s in enumerate(scores):
        if skip is not None and skip[i]:
            continue
        out[i] = rule.push(s, None if sigs is None else sigs[i])
    return out


def segments(flags, fps, min_duration, max_gap):
    """sharpness-blur-segments.c on frame flags: [(first, last)] of the runs
    (blurry frames joined across at most @max_gap others) lasting
    @min_duration seconds."""
    segs, run, gap = [], None, 0
    for i, b in enumerate(flags):
        if b:
            run = [i, i] if run is None else [run[0], i]
            gap = 0
        elif run is not None:
            gap += 1
            if gap > max_gap:
                segs.append(tuple(run))
                run = None
    if run is not None:
        segs.append(tuple(run))
    # Duration: first frame's start to last frame's end, in frames / fps;
    # compared in integer frames to stay clear of float rounding.
    need = min_duration * fps
    return [(a, b) for a, b in segs if b - a + 1 >= need - 1e-9]
